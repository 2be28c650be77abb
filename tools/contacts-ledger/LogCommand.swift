import ContactsLedger
import Foundation
import LedgerAudit

/// `log`: the audit log.
struct LogCommand: ToolCommand {
    static let name = "log"
    static let summary = "Prints the audit log: every record, who made it, when, and what it did."
    static let usage =
        "log [-n N] [--reverse] [--follow] [--contact ID] [--author NAME] [--since POINT] [--until POINT] "
        + "[--from SEQ] [--to SEQ] [--no-pager] [--json]"
    static let help = """
        Prints the committed records like `git log`: on a terminal newest first and through a pager,
        piped or redirected oldest first. Each record shows its sequence and chain hash, the transaction
        author, the commit time, the request id, and each operation, with one line per property item
        that came (`+`) or went (`-`): `- Given name: Ada`, `+ Given name: Augusta`, and under a list's
        name only the items that changed, labels by their names (`+ mobile: +1 202 555 0100`). An added
        contact shows every property it was created with, a deleted one every property it lost. Every
        condition given must hold. With --json, prints one JSON object per line and per record:
        {"sequence", "time" (RFC 3339, UTC), "author", "requestId", "hash", "affectedIdentifiers",
        "operations"}, each operation an object with a "type" (addContact, updateContact, deleteContact,
        addGroup, renameGroup, deleteGroup, addMember, removeMember, addSubgroup, removeSubgroup,
        addContainer, setAuthorization, requestAccess, grantAccess, revokeAccess, linkContacts,
        unlinkContact, undo); an update's "changes" are [{"key", "old", "new"}], each side the property's
        JSON value.

        Options:
          -n N, --limit N      Only the newest N matching records (still oldest first when piped).
          --reverse            The other order: oldest first on a terminal, newest first when piped.
          --follow             After the matching records, keeps printing new ones, oldest first, as
                               other processes commit them, until interrupted (Ctrl-C). Not with
                               --reverse, --until or --to.
          --contact ID         Only records that touch this contact (or group).
          --author NAME        Only records by this transaction author.
          --since POINT        Only records from this point on: a sequence number, an RFC 3339 time, a
                               local time (2026-12-05T14:30) or a date (from its start).
          --until POINT        Only records up to this point (a date up to its end).
          --from SEQ           Only records from this sequence on.
          --to SEQ             Only records up to this sequence.
        \(HelpText.pager)
        \(HelpText.json)
        """
    static let valued: Set<String> = ["contact", "author", "since", "until", "from", "to", "limit"]
    static let flags: Set<String> = ["json", "reverse", "follow", "no-pager"]
    static let shortOptions: [String: String] = ["n": "limit"]

    var filter: AuditFilter
    var limit: Int?
    var newestFirst: Bool
    var follow: Bool
    var paged: Bool
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
        limit = try arguments.single("limit").map { (text) throws(CommandFailure) in try parseLimit(text) }
        follow = arguments.has("follow")
        if follow, let clash = ["reverse", "until", "to"].first(where: { arguments.hasAny([$0]) }) {
            throw CommandFailure(
                .usage, "--follow prints new records as they come, so it cannot be used with --\(clash)")
        }
        newestFirst = !follow && Terminal.stdoutIsTerminal != arguments.has("reverse")
        paged = !follow && !arguments.has("no-pager")
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        var filter = filter
        filter.identifier = try filter.identifier.map { try context.resolvedIdentifier($0, [.contacts, .groups]) }
        let auditor = try LedgerAuditor(ledgerAt: context.ledger)
        let output = AuditOutput(json: json, paged: paged)
        defer { output.finish() }
        guard follow else { return try write(auditor, filter, to: output) }
        // What is there now is printed as asked; the follower goes on after it.
        var existing = filter
        let head = try auditor.reader.head().sequence
        existing.toSequence = head
        try write(auditor, existing, to: output)
        try LogFollower(auditor: auditor, filter: filter, after: head).run(output)
    }

    /// Writes the records matching a filter, in the order asked for.
    private func write(_ auditor: LedgerAuditor, _ filter: AuditFilter, to output: AuditOutput) throws {
        if let limit {
            let entries = try auditor.lastEntries(matching: filter, limit: limit)
            (newestFirst ? entries.reversed() : entries).forEach(output.write)
        } else if newestFirst {
            try auditor.entries(matching: filter).reversed().forEach(output.write)
        } else if json {
            try writeJSON(auditor, filter, to: output)
        } else {
            try auditor.forEachEntry(matching: filter) { entry in
                output.write(entry)
                return !output.isClosed
            }
        }
    }
}

extension LogCommand {
    /// Writes the records matching a filter as JSON lines, oldest first, decoding them on every
    /// processor; the lines of the records before one that cannot be read are written before the
    /// error is thrown.
    private func writeJSON(_ auditor: LedgerAuditor, _ filter: AuditFilter, to output: AuditOutput) throws {
        do {
            try auditor.forEachRecord(matching: filter) { record in
                try output.writeJSON(record)
                return !output.isClosed
            }
        } catch {
            try output.flushRecords()
            throw error
        }
        try output.flushRecords()
    }
}

/// Parses `-n`/`--limit`: a count of records, 0 or more.
func parseLimit(_ text: String) throws(CommandFailure) -> Int {
    guard let count = Int(text), count >= 0 else {
        throw CommandFailure(.usage, "--limit must be a number of records (0 or more), got \(text)")
    }
    return count
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
