import ContactsLedger
import LedgerAudit

/// `diff`: what changed between two points.
struct DiffCommand: ToolCommand {
    static let name = "diff"
    static let summary = "Prints the contacts added, changed (per property) and deleted between two points."
    static let usage = "diff --from POINT [--to POINT] [--json]"
    static let help = """
        Compares the contacts at two points of the ledger's history, each a sequence number or an RFC
        3339 time (inclusive), and prints those added (`added ID (name)`), changed (`changed ID` and each
        property as `key: OLD → NEW`) and deleted (`deleted ID (name)`) from the first to the second.
        With --json, prints one object {"from", "to", "added", "changed": [{"identifier", "changes"}],
        "deleted"}.

        Options:
          --from POINT         The first point.
          --to POINT           The second point (default: the head).
        \(HelpText.json)
        """
    static let valued: Set<String> = ["from", "to"]
    static let flags: Set<String> = ["json"]

    var from: LedgerPoint
    var to: LedgerPoint?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        guard let from = try arguments.single("from") else { throw CommandFailure(.usage, "diff needs --from POINT") }
        self.from = try parseLedgerPoint(from, option: "from")
        to = try arguments.single("to").map { (text) throws(CommandFailure) in try parseLedgerPoint(text, option: "to")
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        let auditor = try LedgerAuditor(ledgerAt: context.ledger)
        let end = try to ?? .sequence(auditor.reader.head().sequence)
        let diff = try auditor.diff(from: from, to: end)
        if json {
            Terminal.json(AuditJSON.value(for: diff))
        } else {
            let redacted = try auditor.redactedContacts(through: max(diff.fromSequence, diff.toSequence))
            Terminal.lines(AuditText.lines(diff, redacted: redacted))
        }
    }
}
