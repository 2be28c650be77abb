import ContactsLedger
import LedgerAudit

/// `restore`: a new ledger whose journal is the source's prefix.
struct RestoreCommand: ToolCommand {
    static let name = "restore"
    static let summary = "Restores the ledger as of a point into a new directory (or shows what would differ)."
    static let usage = "restore --to DIR (--sequence N | --time T) [--dry-run] [--json]"
    static let help = """
        Creates a new ledger at DIR whose journal is this ledger's journal up to and including the point
        (sequence N, or the last record committed at or before the RFC 3339 time T), so its head digest
        equals this ledger's digest at that sequence. Then prints the restored head and how the restored
        state differs from the source's current state: the contacts it adds back, changes back (per
        property) and does not have. With --dry-run, writes nothing and prints only that. The source is
        never modified; an existing, non-empty DIR is refused (exit 73).

        Options:
          --to DIR             The new ledger's directory.
          --sequence N         Restores through this sequence.
          --time T             Restores through the last record at or before this time: RFC 3339, a
                               local time (2026-12-05T14:30) or a date (2026-12-05, its end).
          --dry-run            Writes nothing; prints what would differ from the current state.
          --json               Prints {"sequence", "head", "dryRun", "to", "difference"}, the difference as
                               `diff --json` prints it.
        """
    static let valued: Set<String> = ["to", "sequence", "time"]
    static let flags: Set<String> = ["dry-run", "json"]

    var destination: String
    var point: LedgerPoint
    var dryRun: Bool
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        guard let to = try arguments.single("to") else { throw CommandFailure(.usage, "restore needs --to DIR") }
        destination = to
        switch (try arguments.single("sequence"), try arguments.single("time")) {
        case (let sequence?, nil): point = .sequence(try parseSequence(sequence, "sequence"))
        case (nil, let time?): point = .time(try parseTime(time, "time"))
        default: throw CommandFailure(.usage, "restore needs exactly one of --sequence and --time")
        }
        dryRun = arguments.has("dry-run")
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        let auditor = try LedgerAuditor(ledgerAt: context.ledger)
        let restore = try ProgressBar.whileRunning(dryRun ? "comparing" : "restoring") {
            try creating(destination) { try auditor.restore(to: destination, at: point, dryRun: dryRun) }
        }
        if json {
            Terminal.json([
                "sequence": .integer(restore.sequence), "head": AuditJSON.value(for: restore.digest),
                "dryRun": .bool(restore.dryRun), "to": .string(destination),
                "difference": AuditJSON.value(for: restore.differenceFromCurrent),
            ])
            return
        }
        let diff = restore.differenceFromCurrent
        var lines = [
            dryRun
                ? "would restore through sequence \(restore.sequence) into \(destination)"
                : "restored through sequence \(restore.sequence) into \(destination)",
            "head \(restore.digest.sequence) \(restore.digest.hash.hex)",
        ]
        if diff.isEmpty {
            lines.append("the same contacts as the current state (sequence \(diff.fromSequence))")
        } else {
            lines.append("compared with the current state (sequence \(diff.fromSequence)), the restored ledger:")
            lines += AuditText.lines(diff, verbs: ("brings back", "changes", "lacks"))
        }
        Terminal.lines(lines)
    }
}
