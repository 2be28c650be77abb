import ContactsLedger
import LedgerAudit

/// `history ID`: one contact's revisions.
struct HistoryCommand: ToolCommand {
    static let name = "history"
    static let summary = "Prints one contact's revisions: who, when, and each property's old and new value."
    static let usage = "history ID [--json]"
    static let help = """
        Prints every revision of the contact with identifier ID, oldest first, deleted contacts
        included: the record's sequence, whether it created, updated or deleted the contact, when and by
        which author, and each changed property as `key: OLD → NEW` (values as JSON). With --json, prints
        one JSON object per line and per revision: {"sequence", "time", "author", "requestId", "kind"
        (created, updated or deleted), "changes": [{"key", "old", "new"}]}. A contact that never existed
        exits 1.

        Options:
        \(HelpText.json)
        """
    static let flags: Set<String> = ["json"]

    var identifier: String
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifier = try arguments.positionals("ID")[0]
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        let identifier = try context.resolvedIdentifier(identifier)
        let revisions = try LedgerAuditor(ledgerAt: context.ledger).revisions(ofContact: identifier)
        guard !revisions.isEmpty else {
            throw CommandFailure(.notFound, "contact \(identifier) has no history in this ledger")
        }
        if json {
            Terminal.lines(revisions.map { AuditJSON.value(for: $0).serialized() })
        } else {
            Terminal.lines(revisions.flatMap(AuditText.lines))
        }
    }
}
