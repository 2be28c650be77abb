import ContactsLedger
import LedgerAudit

/// `clients`: the apps the ledger knows, their authorization and their grants.
struct ClientsCommand: ToolCommand {
    static let name = "clients"
    static let summary = "Lists the apps the ledger knows, their access and their grants."
    static let usage = "clients [--json]"
    static let help = """
        Prints each app the ledger records a request, decision or grant for, as `CLIENT  STATUS` (with
        `notes` when it holds the notes entitlement, and `requested` for a request that waits for the
        owner's answer: see `authorize`), followed by the identifiers of the contacts granted to it,
        indented. With --json, prints a JSON array of {client, status, notesEntitlement, granted}; the
        status is null for an app that holds grants but no decision.

        Options:
        \(HelpText.json)
        """
    static let flags: Set<String> = ["json"]

    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let records = try context.openForReading().clientAccessRecords()
        if json {
            Terminal.json(.array(records.map(AuditJSON.value(for:))))
            return
        }
        var lines: [String] = []
        for record in records {
            var line = record.clientIdentifier + "  " + (record.status.map(AuditJSON.statusName) ?? "(no decision)")
            if record.status == .notDetermined { line += "  requested" }
            if record.notesEntitlement { line += "  notes" }
            lines.append(line)
            lines += record.grantedIdentifiers.map { "  " + $0 }
        }
        Terminal.lines(lines)
    }
}
