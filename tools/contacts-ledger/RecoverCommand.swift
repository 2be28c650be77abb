import ContactsLedger
import LedgerAudit

/// `recover`: what opening after a crash does, made visible; or a salvage into a new ledger.
struct RecoverCommand: ToolCommand {
    static let name = "recover"
    static let summary = "Repairs a torn tail and rebuilds the projections; --salvage copies what is sound."
    static let usage = "recover [--json] | recover --salvage --to DIR [--json]"
    static let help = """
        Does what opening the ledger after a crash does, and reports it: takes the writer lock (waiting
        up to --wait), truncates a torn final record, removes a half-written segment, rebuilds the
        projections from the journal and writes a snapshot of them (a disk too full for it does not fail
        the recovery). Only a record that cannot have been acknowledged is truncated: one above the head
        that HEAD and the snapshots record as durable. Damage to a durable record, a journal that ends
        below that head, and damage anywhere else are refused (exit 65) with the segment and offset,
        and nothing is changed; --salvage then copies what is sound.

        With --salvage --to DIR, copies every verifiable record before the first damage into a new
        ledger at DIR, whose head digest equals the source's at that sequence, and writes
        DIR/SALVAGE-REPORT.txt saying where it stopped and why. The damaged ledger is only read. An
        existing, non-empty DIR is refused (exit 73).

        Options:
          --salvage            Salvages into a new ledger instead of repairing in place.
          --to DIR             The new ledger's directory (with --salvage).
          --json               Prints {"head", "recordsReplayed", "contacts", "truncatedBytes",
                               "removedSegment", "repaired", "snapshotSequence", "snapshotFailure"}, or for
                               a salvage {"recordsCopied", "head", "damage", "report"}.
        """
    static let valued: Set<String> = ["to"]
    static let flags: Set<String> = ["salvage", "json"]

    var salvageTo: String?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        let to = try arguments.single("to")
        if arguments.has("salvage") {
            guard let to else { throw CommandFailure(.usage, "--salvage needs --to DIR") }
            salvageTo = to
        } else if to != nil {
            throw CommandFailure(.usage, "--to is for --salvage")
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        if let salvageTo {
            let salvage = try ProgressBar.whileRunning("salvaging") {
                try creating(salvageTo) { try LedgerAuditor.salvage(ledgerAt: context.ledger, to: salvageTo) }
            }
            if json {
                Terminal.json([
                    "recordsCopied": .integer(salvage.recordsCopied), "head": AuditJSON.value(for: salvage.head),
                    "damage": .string(orNull: salvage.damage), "report": .string(salvage.reportPath),
                ])
            } else {
                Terminal.lines([
                    "salvaged \(salvage.recordsCopied) records into \(salvageTo)",
                    "head \(salvage.head.sequence) \(salvage.head.hash.hex)",
                    "stopped at: \(salvage.damage ?? "the end of the journal (no damage found)")",
                    "report: \(salvage.reportPath)",
                ])
            }
            return
        }
        let recovery = try ProgressBar.counting("recovering") {
            try LedgerAuditor.recover(ledgerAt: context.ledger, lockWaitSeconds: context.waitSeconds, progress: $0)
        }
        let report = recovery.storage
        if json {
            Terminal.json([
                "head": AuditJSON.value(for: report.head), "recordsReplayed": .integer(report.recordsReplayed),
                "contacts": .integer(recovery.contacts), "truncatedBytes": .integer(report.truncatedBytes),
                "removedSegment": .string(orNull: report.removedSegment), "repaired": .bool(report.repaired),
                "snapshotSequence": recovery.snapshotSequence.map { .integer($0) } ?? .null,
                "snapshotFailure": .string(orNull: recovery.snapshotFailure),
            ])
            return
        }
        var lines = [
            "recovered: \(report.recordsReplayed) records replayed, \(recovery.contacts) contacts, head "
                + "\(report.head.sequence) \(report.head.hash.hex)"
        ]
        if report.truncatedBytes > 0 {
            if case .tornRecord(let location, _, let reason) = report.tail {
                lines.append("truncated a torn final record at \(location): \(report.truncatedBytes) bytes (\(reason))")
            } else {
                lines.append("truncated a torn final record: \(report.truncatedBytes) bytes")
            }
        }
        if let removed = report.removedSegment { lines.append("removed a half-written segment: \(removed)") }
        if let snapshot = recovery.snapshotSequence { lines.append("wrote a snapshot at sequence \(snapshot)") }
        if let failure = recovery.snapshotFailure {
            lines.append("wrote no snapshot (\(failure)); the next open replays the journal")
        }
        if !report.repaired { lines.append("nothing to repair") }
        Terminal.lines(lines)
    }
}
