import ContactsLedger
import Foundation
import LedgerAudit

/// The audit under `/api/v1/`: the log with filters, one record, a contact's history, diff,
/// digest, verify, activity per day, and the undos (revert, undelete, restore).
enum AuditAPI {
    static func register(_ router: inout Router, _ ledger: LedgerContext) {
        router.add("GET", "/api/v1/log") { try log($0, ledger) }
        router.add("GET", "/api/v1/log/:sequence") { try entry($0, ledger) }
        router.add("POST", "/api/v1/log/:sequence/revert") { try UndoAPI.revert($0, ledger) }
        router.add("GET", "/api/v1/contacts/:id/history") { try history($0, ledger) }
        router.add("POST", "/api/v1/contacts/:id/undelete") { try UndoAPI.undelete($0, ledger) }
        router.add("POST", "/api/v1/contacts/:id/restore") { try UndoAPI.restore($0, ledger) }
        router.add("GET", "/api/v1/diff") { try diff($0, ledger) }
        router.add("GET", "/api/v1/digest") { _ in .json(AuditJSON.value(for: ledger.store.headDigest)) }
        router.add("GET", "/api/v1/verify") { _ in try verify(ledger) }
        router.add("GET", "/api/v1/verify/stream") { _ in VerifyStream.response(ledger) }
        router.add("GET", "/api/v1/activity") { try ActivityAPI.activity($0, ledger) }
    }

    /// The filter of `author`, `contact`, `since` and `until` (points, as `log` takes them).
    static func filter(_ request: RouteRequest, _ ledger: LedgerContext) throws -> AuditFilter {
        var filter = AuditFilter(author: request.query("author"))
        if let contact = request.query("contact") {
            filter.identifier = (try? ledger.contactIdentifier(contact)) ?? contact
        }
        switch try LedgerContext.point(request.query("since"), name: "since", date: .start) {
        case .sequence(let sequence)?: filter.fromSequence = sequence
        case .time(let date)?: filter.since = date
        case nil: break
        }
        switch try LedgerContext.point(request.query("until"), name: "until") {
        case .sequence(let sequence)?: filter.toSequence = sequence
        case .time(let date)?: filter.until = date
        case nil: break
        }
        return filter
    }

    /// The newest `limit` records that match, newest first; `before` pages back from a sequence.
    static func log(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        var filter = try filter(request, ledger)
        let limit = try request.integer("limit", in: 1...1000) ?? 50
        if let before = try request.integer("before", in: 1...Int.max) {
            filter.toSequence = min(filter.toSequence ?? .max, UInt64(before) - 1)
        }
        let entries = try ledger.auditor().lastEntries(matching: filter, limit: limit).reversed()
        return .json([
            "head": .integer(ledger.store.headDigest.sequence),
            "entries": .array(entries.map(AuditJSON.value(for:))),
        ])
    }

    /// One record, with its operations: what it changed.
    static func entry(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let sequence = try Self.sequence(request.parameters[0])
        var found: AuditEntry?
        try ledger.auditor().forEachEntry(matching: AuditFilter(fromSequence: sequence, toSequence: sequence)) {
            found = $0
            return false
        }
        guard let found else { throw HTTPError(404, "notFound", "no record \(sequence) in the ledger") }
        return .json(AuditJSON.value(for: found))
    }

    /// A sequence from the path.
    static func sequence(_ text: String) throws(HTTPError) -> UInt64 {
        guard let sequence = UInt64(text), sequence > 0 else {
            throw HTTPError(400, "badParameter", "a record's sequence is a whole number from 1, got \(text)")
        }
        return sequence
    }

    /// A contact's revisions, oldest first.
    static func history(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let identifier = (try? ledger.contactIdentifier(request.parameters[0])) ?? request.parameters[0]
        let revisions = try ledger.auditor().revisions(ofContact: identifier)
        if revisions.isEmpty {
            throw HTTPError(404, "recordDoesNotExist", "no record names a contact \(identifier)")
        }
        return .json([
            "identifier": .string(identifier), "revisions": .array(revisions.map(AuditJSON.value(for:))),
        ])
    }

    /// `from` to `to` (default the head).
    static func diff(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        guard let from = try LedgerContext.point(request.query("from"), name: "from") else {
            throw HTTPError(400, "badParameter", "diff needs from, a point: " + LocalTime.forms)
        }
        let to = try LedgerContext.point(request.query("to"), name: "to") ?? .sequence(ledger.store.headDigest.sequence)
        return .json(AuditJSON.value(for: try ledger.auditor().diff(from: from, to: to)))
    }

    /// Verifies the whole ledger at once.
    static func verify(_ ledger: LedgerContext) throws -> HTTPResponse {
        .json(VerifyStream.value(try ledger.auditor().verify()))
    }
}
