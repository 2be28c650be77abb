import ContactsLedger
import LedgerAudit

/// `verify`: checks the whole journal and that replaying it reproduces the recorded effects.
struct VerifyCommand: ToolCommand {
    static let name = "verify"
    static let summary = "Checks checksums, sequence, chain, a saved digest, and that replay reproduces the records."
    static let usage = "verify [--digest SEQUENCE:HASH] [--json]"
    static let help = """
        Reads the whole journal and checks every record's checksum, its sequence number and its chain
        link; with --digest, that the record at that sequence has that hash; and that replaying the
        journal reproduces every recorded effect (an update's old values are the replayed contact's, a
        delete's last state is the replayed contact, and so on). Exits 0 when the ledger is sound and 65
        with the first problem's segment and offset when not. A torn final record above the head that
        HEAD and the snapshots record as durable, which opening the ledger for writing truncates, is
        reported but is not damage; a damaged record at or below that head, or a journal that ends
        below it, is. A redacted record (`redact`, `erase`) is reported as `[redacted] record N: REASON`,
        not as damage: its chain hash is the one it was committed with. One whose recorded redactions
        all vouch for other bytes than it holds is damage (65); one that no recorded redaction names (a
        copy restored to a point before the redaction was recorded) is reported with that note.

        Options:
          --digest SEQUENCE:HASH
                               A head digest written down earlier (by `digest`).
          --json               Prints {"ok", "records", "contacts", "head": {"sequence", "hash"}, "tail"},
                               and "redacted": [{"sequence", "reason"}] when records are redacted.
        """
    static let valued: Set<String> = ["digest"]
    static let flags: Set<String> = ["json"]

    var expected: HeadDigest?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        if let text = try arguments.single("digest") {
            guard let parsed = HeadDigest(parsing: text) else {
                throw CommandFailure(.usage, "--digest must be SEQUENCE:HASH, got \(text)")
            }
            expected = parsed
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        let auditor = try LedgerAuditor(ledgerAt: context.ledger)
        let verified = try ProgressBar.counting("verifying") { try auditor.verify(against: expected, progress: $0) }
        let torn = AuditJSON.tailText(verified.tail)
        if json {
            Terminal.json(AuditJSON.value(for: verified))
            return
        }
        Terminal.line(
            "\(Terminal.good("ok")): \(verified.records) records, \(verified.contacts) contacts, head "
                + "\(verified.head.sequence) \(verified.head.hash.hex)")
        if let torn { Terminal.line("note: \(torn)") }
        for (sequence, reason) in verified.redacted.sorted(by: { $0.key < $1.key }) {
            Terminal.line("[redacted] record \(sequence): \(reason)")
        }
    }
}
