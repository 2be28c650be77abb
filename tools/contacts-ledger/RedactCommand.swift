import ContactsLedger
import Foundation
import LedgerAudit

/// `redact SEQ [--contact ID] --reason TEXT`: replaces one record's personal content by its digest.
struct RedactCommand: ToolCommand {
    static let name = "redact"
    static let summary = "Replaces a record's contact values by their digest, in place; the chain still verifies."
    static let usage = "redact SEQUENCE [--contact ID] --reason TEXT [--author NAME] [--json]"
    static let help = """
        Replaces the contact operations of record SEQUENCE (only those of contact ID, with --contact) by
        their digest, in place: the record keeps its envelope, author and the payload digest the chain
        covers, so every head digest saved before still verifies, and `verify` reports the record as
        redacted. Only deleted contacts and superseded revisions can be redacted: a revision whose values
        are still a live contact's is refused (exit 1) until an update changes them. The redaction is
        itself recorded (who, which record, why, never the values) before the record is rewritten, and
        the snapshots, which may hold the values, are removed. Only the owner may redact.

        It prints `redacted record N`, the record that recorded it, and the head.

        Options:
          --contact ID         Redacts only this contact's operations in the record.
          --reason TEXT        Why (required); `log`, `history` and `verify` show it with `[redacted]`.
          --author NAME        The transaction author of the record that records the redaction.
          --json               Prints {"action", "redacted", "deletedAt", "recordedAt", "head"}.
        """
    static let valued: Set<String> = ["contact", "reason", "author"]
    static let flags: Set<String> = ["json"]

    var sequence: UInt64
    var contact: String?
    var options: RedactionCommandOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        let text = try arguments.positionals("SEQUENCE")[0]
        guard let sequence = UInt64(text), sequence > 0 else {
            throw CommandFailure(.usage, "SEQUENCE must be a record's sequence number, got \(text)")
        }
        self.sequence = sequence
        contact = try arguments.single("contact")
        options = try RedactionCommandOptions(arguments)
    }

    func run(_ context: CommandContext) throws {
        let contact = try contact.map { try context.resolvedIdentifier($0) }
        let outcome = try options.run(context) { redactionOptions in
            try LedgerRedaction.redact(
                ledgerAt: context.ledger, sequence: sequence, contactIdentifier: contact, reason: options.reason,
                client: context.client, options: redactionOptions)
        }
        options.report(outcome, action: "redact")
    }
}

/// The options `redact` and `erase` share, and how they run and report.
struct RedactionCommandOptions {
    var reason: String
    var author: String?
    var json: Bool

    /// Reads `--reason` (required, not blank), `--author` and `--json`.
    init(_ arguments: Arguments) throws(CommandFailure) {
        guard let reason = try arguments.single("reason"),
            !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else { throw CommandFailure(.usage, "missing --reason TEXT: a redaction needs a reason") }
        self.reason = reason
        author = try arguments.single("author")
        json = arguments.has("json")
    }

    /// Runs the library call with the ledger's lock wait and the test hook's file layer.
    func run(
        _ context: CommandContext, _ body: (RedactionOptions) throws -> RedactionOutcome
    ) throws -> RedactionOutcome {
        try context.requireLedger()
        let options = RedactionOptions(
            author: author, lockWaitSeconds: context.waitSeconds, fileSystem: try TestFaults.fileSystem())
        return try ProgressBar.whileRunning("redacting") { try body(options) }
    }

    /// Prints what was done: `deleted at record N`, `redacted record N` for each, `recorded at
    /// record N`, then `head N`; or one JSON object.
    func report(_ outcome: RedactionOutcome, action: String) {
        if json {
            Terminal.json([
                "action": .string(action), "redacted": .array(outcome.redactedSequences.map { .integer($0) }),
                "deletedAt": outcome.deletedAt.map { .integer($0) } ?? .null,
                "recordedAt": outcome.recordedAt.map { .integer($0) } ?? .null,
                "head": AuditJSON.value(for: outcome.head),
            ])
            return
        }
        if let deleted = outcome.deletedAt { Terminal.line("deleted at record \(deleted)") }
        for sequence in outcome.redactedSequences { Terminal.line("redacted record \(sequence)") }
        if let recorded = outcome.recordedAt { Terminal.line("recorded at record \(recorded)") }
        if outcome.redactedSequences.isEmpty { Terminal.line("nothing left to redact") }
        Terminal.line("head \(outcome.head.sequence)")
    }
}
