import ContactsLedger
import Foundation
import LedgerAudit

/// Parses a point in the ledger's history, the one reading of every option that takes one: a
/// sequence number, an RFC 3339 time, a local time without a zone (`2026-12-05T14:30`), or a date
/// (`2026-12-05`, its end in local time unless `date` says otherwise).
func parseLedgerPoint(_ text: String, option: String, date end: DateEnd = .end) throws(CommandFailure) -> LedgerPoint {
    if let point = LedgerPoint(parsing: text, date: end) { return point }
    if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
        throw CommandFailure(.usage, "--\(option): sequence \(text) is too large")
    }
    throw CommandFailure(.usage, "--\(option) must be " + LocalTime.forms + ", got \(text)")
}

/// Reads `--since` and `--until` into a log filter: a sequence number bounds the sequences, any
/// other point the commit times.
func readTimeRange(_ arguments: Arguments, into filter: inout AuditFilter) throws(CommandFailure) {
    if let since = try arguments.single("since") {
        switch try parseLedgerPoint(since, option: "since", date: .start) {
        case .sequence(let sequence): filter.fromSequence = max(filter.fromSequence ?? 0, sequence)
        case .time(let date): filter.since = date
        }
    }
    if let until = try arguments.single("until") {
        switch try parseLedgerPoint(until, option: "until") {
        case .sequence(let sequence): filter.toSequence = min(filter.toSequence ?? .max, sequence)
        case .time(let date): filter.until = date
        }
    }
}
