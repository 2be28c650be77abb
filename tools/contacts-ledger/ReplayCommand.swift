import ContactsLedger
import LedgerAudit

/// `replay --check`: re-executes the recorded requests against a scratch store.
struct ReplayCommand: ToolCommand {
    static let name = "replay"
    static let summary = "Re-executes every recorded save request against a scratch store and compares."
    static let usage = "replay --check [--to DIR] [--json]"
    static let help = """
        Re-executes every recorded save request, in order, against a scratch store (in memory, or a new
        ledger at DIR), compares each outcome with the recorded one, and reports the first divergence
        (exit 65). Destructive operations reach only the scratch store; this ledger is only read. An
        existing, non-empty DIR is refused (exit 73). A redacted record, a recorded redaction and a later
        record of a contact with a redacted operation cannot be rebuilt into their requests: they are
        committed to the scratch store as recorded and listed as `[redacted] record N: REASON` (or
        `carried record N` for one not itself redacted).

        Options:
          --check              Required: compares outcomes (the only mode).
          --to DIR             Keeps the scratch ledger at DIR instead of in memory.
          --json               Prints {"ok", "recordsMatched", "divergence": {"sequence", "reason"} or null},
                               and "carried": [{"sequence", "reason"}] when records were carried ("reason"
                               "" for one not itself redacted).
        """
    static let valued: Set<String> = ["to"]
    static let flags: Set<String> = ["check", "json"]

    var scratch: String?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        guard arguments.has("check") else { throw CommandFailure(.usage, "replay needs --check") }
        scratch = try arguments.single("to")
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        let auditor = try LedgerAuditor(ledgerAt: context.ledger)
        let check = try ProgressBar.counting("replaying") {
            try auditor.replayCheck(scratchDirectory: scratch, progress: $0)
        }
        if json {
            var pairs: [(String, JSONValue)] = [
                ("ok", .bool(check.firstDivergence == nil)), ("recordsMatched", .integer(check.recordsMatched)),
                (
                    "divergence",
                    check.firstDivergence.map { ["sequence": .integer($0.sequence), "reason": .string($0.reason)] }
                        ?? .null
                ),
            ]
            if !check.carried.isEmpty { pairs.append(("carried", AuditJSON.value(forRedactions: check.carried))) }
            Terminal.json(.object(JSONObject(pairs)))
        }
        if let divergence = check.firstDivergence {
            throw CommandFailure(
                .dataError, "replay diverges at \(divergence) (after \(check.recordsMatched) records matched)")
        }
        if !json {
            for (sequence, reason) in check.carried.sorted(by: { $0.key < $1.key }) {
                Terminal.line(
                    reason.isEmpty ? "carried record \(sequence)" : "[redacted] record \(sequence): \(reason)")
            }
            Terminal.line(
                "\(Terminal.good("ok")): \(check.recordsMatched) records re-executed against a scratch store; "
                    + "every outcome matched the record")
        }
    }
}
