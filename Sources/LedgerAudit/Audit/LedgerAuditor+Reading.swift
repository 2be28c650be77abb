import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// Reading the audit log without holding it all, from the newest end, and one contact's history
/// without decoding the records that cannot concern it.
extension LedgerAuditor {
    /// Calls `body` with each record matching a filter, oldest first, as it is read, until `body`
    /// returns false; returns the sequence of the last record read (0 when there was none), so
    /// that a caller can go on from there when more records are committed.
    @discardableResult
    public func forEachEntry(
        matching filter: AuditFilter = AuditFilter(), _ body: (AuditEntry) throws -> Bool
    ) throws -> UInt64 {
        try forEachRecord(matching: filter) { record in
            guard let entry = try record.entry() else { return true }
            return try body(entry)
        }
    }

    /// Calls `body` with each record the filter's sequence, time, author and payload tests keep,
    /// oldest first, its entry left to decode (``AuditRecord/entry()``), until `body` returns
    /// false; returns the sequence of the last record read. For writing a long log with the
    /// records decoded on every processor at once.
    @discardableResult
    public func forEachRecord(
        matching filter: AuditFilter = AuditFilter(), _ body: (AuditRecord) throws -> Bool
    ) throws -> UInt64 {
        let since = filter.since.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded(.up)) }
        let until = filter.until.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded(.down)) }
        let needles = filter.identifier.map(PayloadSearch.needles)
        var last: UInt64 = 0
        var cursor = try reader.records(from: filter.fromSequence ?? 1)
        while let record = try cursor.next() {
            if let to = filter.toSequence, record.sequence > to { break }
            if let until, record.commitMicroseconds > until { break }
            last = record.sequence
            if let since, record.commitMicroseconds < since { continue }
            if let author = filter.author, record.author != author { continue }
            if let needles, !PayloadSearch.mentions(record.payload, needles) { continue }
            if try !body(AuditRecord(record: record, lens: lens, identifier: filter.identifier)) { break }
        }
        return last
    }

    /// The audit entry of a record whose event, as the reader may see it, is `event`.
    static func entry(_ record: JournalRecord, _ event: LedgerEvent) -> AuditEntry {
        AuditEntry(
            sequence: record.sequence, commitDate: record.commitDate, author: record.author,
            requestIdentifier: record.requestID, hash: record.hash, changes: event.operations.map(Self.change),
            affectedIdentifiers: event.affectedIdentifiers, redactionReason: record.redaction?.reason)
    }

    /// The newest `limit` records matching a filter, oldest first, read from the newest end.
    ///
    /// Reading from a sequence checks the chain from the start of the segment that holds it, so
    /// the newest segments are read once each, newest first, keeping the last matching records
    /// undecoded, and only those are decoded, from the newest back. Records the reader may not
    /// see decode to nothing; when so many did that those kept fall short, the records are read
    /// again in windows back from the head (``lastEntriesByWindows(matching:limit:)``).
    public func lastEntries(matching filter: AuditFilter = AuditFilter(), limit: Int) throws -> [AuditEntry] {
        guard limit > 0 else { return [] }
        if let entries = try lastEntriesBySegments(matching: filter, limit: limit) { return entries }
        return try lastEntriesByWindows(matching: filter, limit: limit)
    }

    /// ``lastEntries(matching:limit:)`` read a segment at a time, keeping the last `limit` and
    /// a margin of matching records; nil when those kept decode to fewer than `limit` entries
    /// while older records remain.
    private func lastEntriesBySegments(matching filter: AuditFilter, limit: Int) throws -> [AuditEntry]? {
        let wanted = limit + 64
        let lowest = max(filter.fromSequence ?? 1, 1)
        var upper = filter.toSequence ?? .max
        var kept: [AuditRecord] = []
        var olderRemain = false
        for start in try reader.segmentStarts().reversed() where start <= upper {
            var part = filter
            part.fromSequence = max(start, lowest)
            part.toSequence = upper
            let room = wanted - kept.count
            var segment: [AuditRecord] = []
            try forEachRecord(matching: part) { record in
                segment.append(record)
                // Trimmed in steps, so that keeping the last few costs little per record.
                if segment.count >= 2 * room { segment.removeFirst(segment.count - room) }
                return true
            }
            olderRemain = segment.count > room
            kept = segment.suffix(room) + kept
            if try kept.count >= wanted || start <= lowest || reachedSince(filter, start) { break }
            upper = start - 1
        }
        var entries: [AuditEntry] = []
        for record in kept.reversed() where entries.count < limit {
            if let entry = try record.entry() { entries.append(entry) }
        }
        if entries.count < limit && (olderRemain || kept.count >= wanted) { return nil }
        return entries.reversed()
    }

    /// ``lastEntries(matching:limit:)`` read in windows of records back from the head, each four
    /// times the last, until it has enough, reaches the filter's first sequence or time, or the
    /// first record.
    private func lastEntriesByWindows(matching filter: AuditFilter, limit: Int) throws -> [AuditEntry] {
        var upper = min(try reader.head().sequence, filter.toSequence ?? .max)
        let lowest = max(filter.fromSequence ?? 1, 1)
        var window = UInt64(max(limit, 16))
        var found: [AuditEntry] = []
        while upper >= lowest {
            let start = upper - min(window, upper - lowest + 1) + 1
            var part = filter
            part.fromSequence = start
            part.toSequence = upper
            var entries: [AuditEntry] = []
            try forEachEntry(matching: part) {
                entries.append($0)
                return true
            }
            found = entries + found
            if try found.count >= limit || start == lowest || reachedSince(filter, start) { break }
            upper = start - 1
            window = window.multipliedReportingOverflow(by: 4).overflow ? .max : window * 4
        }
        return Array(found.suffix(limit))
    }

    /// Whether the record at `sequence` was committed before the filter's `since`: commit times
    /// never decrease along the journal, so no earlier record can match.
    private func reachedSince(_ filter: AuditFilter, _ sequence: UInt64) throws -> Bool {
        guard let since = filter.since else { return false }
        var cursor = try reader.records(from: sequence)
        guard let record = try cursor.next() else { return false }
        return record.commitDate < since
    }

    /// The record that last deleted a contact, at or before `sequence` (the head when nil), as
    /// a revision (who, when, and the values it had), or nil when no record deleted it. It reads
    /// the newest segments first and decodes only the records whose payload holds the identifier.
    public func lastDeletion(ofContact identifier: String, through sequence: UInt64? = nil) throws -> ContactRevision? {
        if let lens, !lens.sees(identifier) { return nil }
        let needles = PayloadSearch.needles(identifier)
        var upper = min(try reader.head().sequence, sequence ?? .max)
        for start in try reader.segmentStarts().reversed() where start <= upper {
            var found: ContactRevision?
            try forEachRevision(of: identifier, needles: needles, from: start, through: upper) { revision in
                if revision.kind == .deleted { found = revision }
            }
            if let found { return found }
            if start <= 1 { break }
            upper = start - 1
        }
        return nil
    }

    /// The record that last deleted each of these contacts after `sequence`, found in one pass
    /// over the records since (a sync names every card removed since its token at once);
    /// a contact no record since deleted is not in the answer.
    public func deletions(
        ofContacts identifiers: Set<String>, after sequence: UInt64
    ) throws -> [String: ContactRevision] {
        var found: [String: ContactRevision] = [:]
        guard !identifiers.isEmpty, sequence < (try reader.head().sequence) else { return found }
        var cursor = try reader.records(from: sequence + 1)
        while let record = try cursor.next() {
            let event = try Self.event(of: record)
            for operation in lens?.visible(event.operations) ?? event.operations {
                guard case .deleteContact(let identifier, _, _, _, _) = operation, identifiers.contains(identifier),
                    let revision = Self.revision(operation, of: identifier, record: record, undoes: event.undoReference)
                else { continue }
                found[identifier] = revision
            }
        }
        return found
    }

    /// Calls `body` with each revision of a contact in the records from `start` through `end`,
    /// decoding only the records whose payload holds one of `needles`.
    func forEachRevision(
        of identifier: String, needles: [[UInt8]], from start: UInt64 = 1, through end: UInt64 = .max,
        _ body: (ContactRevision) throws -> Void
    ) throws {
        var cursor = try reader.records(from: start)
        while let record = try cursor.next(), record.sequence <= end {
            guard PayloadSearch.mentions(record.payload, needles) else { continue }
            let event = try Self.event(of: record)
            for operation in lens?.visible(event.operations) ?? event.operations {
                if let revision = Self.revision(operation, of: identifier, record: record, undoes: event.undoReference)
                {
                    try body(revision)
                }
            }
        }
    }
}

extension ContactStore {
    /// The audit entries of the records this store holds, oldest first, from `sequence` on, as
    /// the owner sees them: the audit log of a store that has no directory to open a
    /// ``LedgerAuditor`` on (an in-memory store, or a copy of a recording), so that a test can
    /// read what the code it ran saved.
    public func auditEntries(from sequence: UInt64 = 1) throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try forEachRecord(from: sequence) { record in
            entries.append(LedgerAuditor.entry(record, try LedgerAuditor.event(of: record)))
            return true
        }
        return entries
    }
}

/// A record of the audit log whose entry is decoded when asked for, on any thread.
public struct AuditRecord: Sendable {
    /// The record as the journal holds it.
    public let record: JournalRecord
    fileprivate let lens: AuditLens?
    fileprivate let identifier: String?

    /// The bytes of the record's payload: a measure of the work its entry takes.
    public var payloadCount: Int { record.payload.count }

    /// The record's audit entry as the auditor's client sees it, or nil when the client sees
    /// none of it or it does not touch the filter's contact.
    public func entry() throws -> AuditEntry? {
        let event = try LedgerAuditor.event(of: record)
        let seen = lens.map { LedgerEvent(operations: $0.visible(event.operations)) } ?? event
        if seen.operations.isEmpty { return nil }
        let entry = LedgerAuditor.entry(record, seen)
        if let identifier, !entry.affectedIdentifiers.contains(identifier) { return nil }
        return entry
    }
}
