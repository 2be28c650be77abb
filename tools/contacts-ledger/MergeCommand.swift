import ContactsLedger
import Foundation

/// `merge ID ID...`: merges contacts into one, as one save request.
struct MergeCommand: ToolCommand {
    static let name = "merge"
    static let summary = "Merges contacts into one, keeping every value; one save request that `revert` undoes."
    static let usage = "merge ID ID... [--keep ID] [--author NAME] [--request-id UUID] [--json]"
    static let help = """
        Merges the contacts with these identifiers into one, in one save request: keeps one (--keep, else
        the one with the most values, the first given among equals), deletes the others, adds their phone
        numbers, email addresses and other labeled values that the kept contact lacks (a phone number
        that is the same number in another form, or an address that differs only in case, counts once),
        fills the kept contact's empty properties from theirs, writes their conflicting values into its
        note under a line `Merged from NAME (ID):`, and makes it a member of their groups. The record keeps
        every deleted contact's last state, so reverting it brings every contact back as it was.

        It prints `kept ID`, `deleted ID` for each other contact, `took-over-group GROUP` for each group
        joined, then `head N`, once the record is on disk.

        Options:
          --keep ID            The contact to keep; one of those given.
        \(HelpText.writeOptions)
          With --json, the object also holds "kept", "deleted" and "groups" (the groups taken over).
        """
    static let valued = WriteOptions.valued.union(["keep"])
    static let flags = WriteOptions.flags

    var identifiers: [String]
    var keep: String?
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifiers = arguments.positionals
        guard identifiers.count >= 2 else {
            throw CommandFailure(.usage, "merge needs at least two contact identifiers, got \(identifiers.count)")
        }
        keep = try arguments.single("keep")
        write = try WriteOptions(arguments)
    }

    var requestIdentifier: UUID? { write.requestID }

    func run(_ context: CommandContext) throws {
        let store = try context.openForWriting()
        defer { store.close() }
        if let earlier = try store.result(ofRequest: write.requestID) {
            write.report(earlier, head: store.headDigest.sequence, verb: "merged", identifiers: nil)
            return
        }
        let plan = try store.planMerge(
            try store.identifiers(identifiers), keeping: try keep.map { try store.identifier($0) },
            transactionAuthor: write.author, requestIdentifier: write.requestID)
        let result = try ProgressBar.whileRunning("saving") { try store.execute(plan.request) }
        let head = store.headDigest.sequence
        let lines =
            ["kept \(plan.keptIdentifier)"] + plan.deletedIdentifiers.map { "deleted \($0)" }
            + plan.groupsTakenOver.map { "took-over-group \($0)" }
        write.report(
            result, head: head, verb: "merged", identifiers: result.affectedIdentifiers, textLines: lines,
            extra: [
                "kept": .string(plan.keptIdentifier), "deleted": .array(plan.deletedIdentifiers.map { .string($0) }),
                "groups": .array(plan.groupsTakenOver.map { .string($0) }),
            ])
    }
}
