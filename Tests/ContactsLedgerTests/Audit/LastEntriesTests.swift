import Foundation
import LedgerStorage
import Synchronization
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The newest records of a log are read a segment at a time from the newest, and must be the
/// last of those a full read gives, whatever the filter and whatever the reader may see.
@Suite("Ledger auditor: the newest records")
struct LastEntriesTests {
    /// A ledger of many small segments: 300 records by two authors a second apart, one in ten
    /// adding a contact that the client "app" created.
    private static func segmentedLedger() throws -> (StoreDirectory, [String]) {
        let directory = StoreDirectory()
        try LedgerDirectory.create(at: directory.ledger)
        let container = try LedgerDirectory.identity(at: directory.ledger).ledgerID.uuidString
        let limits = JournalLimits(
            segmentBytesMax: 4096, recordBytesMax: 2048, groupRecordsMax: 16, groupBytesMax: 4096)
        let clock = Mutex<Int64>(0)
        let journal = try Journal.open(
            at: directory.ledger,
            options: JournalOptions(
                limits: limits,
                clock: {
                    clock.withLock {
                        $0 += 1_000_000
                        return $0
                    }
                }))
        defer { journal.close() }
        var identifiers: [String] = []
        for index in 0..<300 {
            let contact = makeContact(given: "Person \(index)", family: "Segment")
            identifiers.append(contact.identifier)
            let event = LedgerEvent(operations: [
                .addContact(
                    identifier: contact.identifier, containerIdentifier: container,
                    createdBy: index % 10 == 0 ? "app" : "owner", values: contact.values)
            ])
            _ = try journal.appendAndWait(
                JournalEntry(
                    author: index % 3 == 0 ? "a" : "b", schemaVersion: EventCodec.currentSchemaVersion,
                    payload: EventCodec.encode(event)))
        }
        return (directory, identifiers)
    }

    /// The last `limit` entries of a full read with the filter.
    private static func expected(_ auditor: LedgerAuditor, _ filter: AuditFilter, _ limit: Int) throws -> [UInt64] {
        var all: [UInt64] = []
        try auditor.forEachEntry(matching: filter) {
            all.append($0.sequence)
            return true
        }
        return Array(all.suffix(limit))
    }

    @Test("The newest records equal the end of a full read, for every filter, limit and reader")
    func newestEqualEndOfFullRead() throws {
        let (directory, identifiers) = try Self.segmentedLedger()
        let owner = try LedgerAuditor(ledgerAt: directory.ledger)
        #expect(try owner.reader.segmentStarts().count > 5)
        let app = try LedgerAuditor(
            ledgerAt: directory.ledger, client: ClientContext(identifier: "app", authorization: .limited))
        let filters = [
            AuditFilter(), AuditFilter(author: "a"), AuditFilter(fromSequence: 50), AuditFilter(toSequence: 150),
            AuditFilter(fromSequence: 40, toSequence: 60), AuditFilter(identifier: identifiers[120]),
            AuditFilter(since: Date(timeIntervalSince1970: 250)), AuditFilter(until: Date(timeIntervalSince1970: 90)),
            AuditFilter(author: "nobody"),
        ]
        for auditor in [owner, app] {
            for filter in filters {
                for limit in [1, 7, 30, 100, 250, 400] {
                    let newest = try auditor.lastEntries(matching: filter, limit: limit).map(\.sequence)
                    #expect(newest == (try Self.expected(auditor, filter, limit)), "\(filter) limit \(limit)")
                }
            }
        }
        // The limited reader sees one record in ten, fewer than those kept: read again by windows.
        let seen = try app.lastEntries(limit: 20).map(\.sequence)
        #expect(seen.count == 20)
        #expect(seen.allSatisfy { ($0 - 1) % 10 == 0 })
    }
}
