import ContactsLedger
import LedgerAudit

/// `history ID`: one contact's revisions.
struct HistoryCommand: ToolCommand {
    static let name = "history"
    static let summary = "Prints one contact's revisions: who, when, and each property's old and new value."
    static let usage = "history ID [--no-pager] [--json]"
    static let help = """
        Prints every revision of the contact with identifier ID, oldest first, deleted contacts
        included, through a pager on a terminal: the record's sequence, whether it created, updated or
        deleted the contact, when and by which author, and one line per property item that came (`+`) or
        went (`-`), as `log` prints them: `- Given name: Ada`, `+ Given name: Augusta`, and under a
        list's name only the items that changed (`+ mobile: +1 202 555 0100`). With --json, prints one
        JSON object per line and per revision: {"sequence", "time", "author", "requestId", "kind"
        (created, updated or deleted), "changes": [{"key", "old", "new"}]}, each side the property's
        JSON value. A contact that never existed exits 1.

        Options:
        \(HelpText.pager)
        \(HelpText.json)
        """
    static let flags: Set<String> = ["json", "no-pager"]

    var identifier: String
    var json: Bool
    var paged: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifier = try arguments.positionals("ID")[0]
        json = arguments.has("json")
        paged = !arguments.has("no-pager")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        let identifier = try context.resolvedIdentifier(identifier)
        let revisions = try LedgerAuditor(ledgerAt: context.ledger).revisions(ofContact: identifier)
        guard !revisions.isEmpty else {
            throw CommandFailure(.notFound, "contact \(identifier) has no history in this ledger")
        }
        let output = AuditOutput(json: json, paged: paged)
        revisions.forEach(output.write)
        output.finish()
    }
}
