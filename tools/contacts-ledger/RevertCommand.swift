import ContactsLedger
import Foundation
import LedgerAudit

/// `revert SEQUENCE`: saves the inverse of one record.
struct RevertCommand: ToolCommand {
    static let name = "revert"
    static let summary = "Saves the inverse of one record, against today's state."
    static let usage = "revert SEQUENCE [--only-unchanged] [--dry-run] [--author NAME] [--request-id UUID] [--json]"
    static let help = """
        Saves, as one new save request, the inverse of the record with this sequence, computed against the
        current state: an added contact is deleted, a deleted contact is brought back (undelete), an update
        gets the old values of exactly the properties it changed back, and group, membership and subgroup
        changes are undone. The record names the record it reverts, which `log` and `history` show, and can
        itself be reverted.

        Where something changed again since the record (a property set since to another value, an added
        contact changed since, a deleted contact that exists again), the revert is refused and each
        conflict named: the property, the value the record set and the value now (exit 1, nothing
        written). --only-unchanged reverts the rest and lists what it left. A record that is not a save
        request of contacts or groups, or a sequence past the head, is refused; an update of a contact
        deleted since is refused with a hint to undelete it first.

        Options:
          --only-unchanged     Leaves out what changed since the record, and reverts the rest.
        \(UndoCommandOptions.help)
        """
    static let valued = UndoCommandOptions.valued
    static let flags = UndoCommandOptions.flags.union(["only-unchanged"])

    var sequence: UInt64
    var onlyUnchanged: Bool
    var undo: UndoCommandOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        sequence = try parseSequence(try arguments.positionals("SEQUENCE")[0], "SEQUENCE")
        onlyUnchanged = arguments.has("only-unchanged")
        undo = try UndoCommandOptions(arguments)
    }

    var requestIdentifier: UUID? { undo.dryRun ? nil : undo.write.requestID }

    func run(_ context: CommandContext) throws {
        try undo.run(context, verb: "revert") { ledger in
            try ledger.revert(record: sequence, options: undo.options(onlyUnchanged: onlyUnchanged))
        }
    }
}
