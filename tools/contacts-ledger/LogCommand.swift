import ContactsLedger
import Foundation
import LedgerAudit

/// `log`: the audit log.
struct LogCommand: ToolCommand {
    static let name = "log"
    static let summary = "Prints the audit log: every record, who made it, when, and what it did."
    static let usage = """
        log [--contact ID] [--author NAME] [--since POINT] [--until POINT] [--from SEQ] [--to SEQ] [--json]
        """
    static let help = """
        Prints the committed records, oldest first, like `git log`: the sequence and chain hash, the
        transaction author, the commit time, the request id, and each operation, with the old and new
        value of every changed property. Every condition given must hold. With --json, prints one JSON
        object per line and per record: {"sequence", "time" (RFC 3339, UTC), "author", "requestId",
        "hash", "affectedIdentifiers", "operations"}, each operation an object with a "type"
        (addContact, updateContact, deleteContact, addGroup, renameGroup, deleteGroup, addMember,
        removeMember, addSubgroup, removeSubgroup, addContainer, setAuthorization, requestAccess,
        grantAccess, revokeAccess); an update's "changes" are [{"key", "old", "new"}].

        Options:
          --contact ID         Only records that touch this contact (or group).
          --author NAME        Only records by this transaction author.
          --since POINT        Only records from this point on: a sequence number, an RFC 3339 time, a
                               local time (2026-12-05T14:30) or a date (from its start).
          --until POINT        Only records up to this point (a date up to its end).
          --from SEQ           Only records from this sequence on.
          --to SEQ             Only records up to this sequence.
        \(HelpText.json)
        """
    static let valued: Set<String> = ["contact", "author", "since", "until", "from", "to"]
    static let flags: Set<String> = ["json"]

    var filter: AuditFilter
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        filter = AuditFilter(identifier: try arguments.single("contact"), author: try arguments.single("author"))
        filter.fromSequence = try arguments.single("from").map { (text) throws(CommandFailure) in
            try parseSequence(text, "from")
        }
        filter.toSequence = try arguments.single("to").map { (text) throws(CommandFailure) in
            try parseSequence(text, "to")
        }
        try readTimeRange(arguments, into: &filter)
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        var filter = filter
        filter.identifier = try filter.identifier.map { try context.resolvedIdentifier($0, [.contacts, .groups]) }
        let entries = try LedgerAuditor(ledgerAt: context.ledger).entries(matching: filter)
        if json {
            Terminal.lines(entries.map { AuditJSON.value(for: $0).serialized() })
        } else {
            Terminal.lines(
                entries.enumerated().flatMap { index, entry in (index > 0 ? [""] : []) + AuditText.lines(entry) })
        }
    }
}

/// Parses a time option: RFC 3339, a local time, or a date (its end), as ``LocalTime`` reads them.
func parseTime(_ text: String, _ option: String) throws(CommandFailure) -> Date {
    guard let date = LocalTime.date(from: text, end: .end) else {
        throw CommandFailure(
            .usage,
            "--\(option) must be an RFC 3339 time (2026-12-05T14:30:00Z), a local time (2026-12-05T14:30) or a "
                + "date (2026-12-05), got \(text)")
    }
    return date
}

/// Parses a sequence number option.
func parseSequence(_ text: String, _ option: String) throws(CommandFailure) -> UInt64 {
    guard let sequence = UInt64(text) else {
        throw CommandFailure(.usage, "--\(option) must be a sequence number, got \(text)")
    }
    return sequence
}
