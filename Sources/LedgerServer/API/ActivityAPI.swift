import ContactsLedger
import Foundation
import LedgerAudit

/// `GET /api/v1/activity?days=N`: requests per day (UTC) over the last N days, per author, with
/// the contacts each day's requests deleted, for the audit's chart.
enum ActivityAPI {
    /// The most records one answer reads, newest first: the chart shows recent activity, and a
    /// ledger of millions of records is not read whole for it.
    static let recordsMax = 100_000

    static func activity(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let days = try request.integer("days", in: 1...366) ?? 30
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let today = calendar.startOfDay(for: Date())
        let start = calendar.date(byAdding: .day, value: 1 - days, to: today)!
        var filter = try AuditAPI.filter(request, ledger)
        filter.since = max(filter.since ?? start, start)
        let entries = try ledger.auditor().lastEntries(matching: filter, limit: recordsMax)
        var counts: [Int: [String: (requests: Int, deletes: Int)]] = [:]
        for entry in entries {
            let day = calendar.dateComponents([.day], from: start, to: entry.commitDate).day ?? 0
            let deletes = entry.changes.filter { if case .deleteContact = $0 { true } else { false } }.count
            let previous = counts[day, default: [:]][entry.author, default: (0, 0)]
            counts[day, default: [:]][entry.author] = (previous.requests + 1, previous.deletes + deletes)
        }
        let dayValues: [JSONValue] = (0..<days).map { offset in
            let date = calendar.date(byAdding: .day, value: offset, to: start)!
            let authors = (counts[offset] ?? [:]).sorted { $0.key < $1.key }.map { author, count -> JSONValue in
                [
                    "author": .string(author), "requests": .integer(count.requests),
                    "deletedContacts": .integer(count.deletes),
                ]
            }
            return ["date": .string(String(RFC3339.string(from: date).prefix(10))), "authors": .array(authors)]
        }
        return .json([
            "days": .array(dayValues), "truncated": .bool(entries.count >= recordsMax),
            "head": .integer(ledger.store.headDigest.sequence),
        ])
    }
}
