import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel

/// A read-only store answers its first search by a scan of the contacts and builds its indexes
/// at the second (decision 0037); what a search returns must not depend on which it was.
@Suite("Read-only stores: the first search scans, the second builds the indexes")
struct FirstSearchScanTests {
    private func search(_ store: ContactStore, _ predicate: ContactPredicate) throws -> [String] {
        identifiers(try store.unifiedContacts(matching: predicate, keysToFetch: listKeys))
    }

    /// The identifiers a request enumerates, in its order.
    private func fetch(_ store: ContactStore, _ request: ContactFetchRequest) throws -> [String] {
        var found: [String] = []
        try store.enumerateContacts(with: request) { contact, _ in found.append(contact.identifier) }
        return found
    }

    /// A ledger of generated contacts, some deleted and updated, in several scripts and regions.
    private func generatedLedger(seed: UInt64) throws -> StoreDirectory {
        var generator = SearchTestGenerator(seed: seed)
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let added = try add((0..<300).map { _ in SearchScanTests.randomContact(using: &generator) }, to: writer)
        var request = SaveRequest()
        for contact in added.prefix(30) { request.delete(contact) }
        for contact in added.dropFirst(30).prefix(30) {
            var contact = try writer.unifiedContact(
                withIdentifier: contact.identifier, keysToFetch: [ContactKeySet.all]
            )
            .mutableCopy()
            SearchScanTests.randomize(&contact, using: &generator)
            request.update(contact)
        }
        try writer.execute(request)
        return directory
    }

    @Test("The first search scans and the second builds the indexes")
    func secondSearchBuilds() throws {
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let sample = try seedSampleContacts(writer)
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        #expect(hasDeferredIndexes(reader))
        #expect(try search(reader, .matchingName("grace")) == [sample.grace.identifier])
        #expect(hasDeferredIndexes(reader))
        #expect(try search(reader, .matchingEmailAddress("GRACE@navy.example")) == [sample.grace.identifier])
        #expect(!hasDeferredIndexes(reader))
        #expect(try search(reader, .matchingName("grace")) == [sample.grace.identifier])
    }

    @Test("Every kind of first search, sorted or not, answers what the built indexes answer")
    func firstSearchAgreesWithIndexes() throws {
        let seed = SearchFixtures.seed("FirstSearchScanTests")
        let directory = try generatedLedger(seed: seed)
        var generator = SearchTestGenerator(seed: seed)
        let built = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("built"))
        _ = try search(built, .matchingName("warm"))
        _ = try search(built, .matchingName("up"))
        try #require(!hasDeferredIndexes(built))
        let names = SearchScanTests.nameQueries(using: &generator).shuffled(using: &generator).prefix(12)
        let predicates: [ContactPredicate] =
            names.map { .matchingName($0) }
            + SearchScanTests.emailQueries.prefix(6).map { .matchingEmailAddress($0) }
            + ["(415) 555-0100", "5550100", "+44 20 7946 0958", "79460958"].map {
                .matching(PhoneNumber(stringValue: $0))
            }
        for predicate in predicates {
            for sortOrder in [ContactSortOrder.none, .givenName] {
                var request = ContactFetchRequest(keysToFetch: listKeys, predicate: predicate, sortOrder: sortOrder)
                request.unifyResults = false
                let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
                let scanned = try fetch(reader, request)
                #expect(hasDeferredIndexes(reader))
                #expect(scanned == (try fetch(built, request)))
            }
        }
    }

    @Test("A save read after a read-only open and before the first search is seen by the scan")
    func scanSeesRefreshedRecords() throws {
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let sample = try seedSampleContacts(writer)
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        let added = try add(
            [makeContact(given: "Gracie", family: "Hopper", phones: [("mobile", "+1 212 555 0147")])], to: writer)
        var request = SaveRequest()
        request.delete(
            try writer.unifiedContact(withIdentifier: sample.grace.identifier, keysToFetch: [ContactKeySet.all])
                .mutableCopy())
        try writer.execute(request)
        #expect(try reader.refresh() == 2)
        #expect(hasDeferredIndexes(reader))
        #expect(try search(reader, .matchingName("grac")) == [added[0].identifier])
        #expect(hasDeferredIndexes(reader))
        #expect(try search(reader, .matching(PhoneNumber(stringValue: "+1 (212) 555-0147"))) == [added[0].identifier])
        #expect(!hasDeferredIndexes(reader))
    }

    /// A ledger of the sample contacts (``seedSampleContacts(_:)``), and the contacts.
    private func sampleLedger() throws -> (
        StoreDirectory, (ada: MutableContact, jose: MutableContact, grace: MutableContact, kenji: MutableContact)
    ) {
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        defer { writer.close() }
        return (directory, try seedSampleContacts(writer))
    }

    @Test("A search that matches nothing by construction neither scans nor builds")
    func emptyQueryKeepsTheScan() throws {
        let (directory, sample) = try sampleLedger()
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        let nothing: [ContactPredicate] = [
            .matchingName(""), .matchingName(" - "), .matchingEmailAddress("  "),
            .matching(PhoneNumber(stringValue: "12")),
        ]
        for predicate in nothing {
            #expect(try search(reader, predicate).isEmpty)
            #expect(hasDeferredIndexes(reader))
        }
        #expect(try search(reader, .matchingName("grace")) == [sample.grace.identifier])
        #expect(hasDeferredIndexes(reader))
        // After the scan, a query that matches nothing still builds nothing; the next real one does.
        #expect(try search(reader, .matchingName("")).isEmpty)
        #expect(hasDeferredIndexes(reader))
        #expect(try search(reader, .matchingEmailAddress("grace@navy.example")) == [sample.grace.identifier])
        #expect(!hasDeferredIndexes(reader))
    }

    @Test("A first search that throws leaves the scan to the next search")
    func throwingSearchKeepsTheScan() async throws {
        let directory = StoreDirectory()
        let owner = try ContactStore(ledgerAt: directory.ledger, client: .owner("owner"))
        let sample = try seedSampleContacts(owner)
        let reader = try ContactStore(
            readingLedgerAt: directory.ledger, client: ClientContext(identifier: "app", authorization: .notDetermined))
        #expect(throws: ContactStoreError.self) { try search(reader, .matchingName("grace")) }
        #expect(hasDeferredIndexes(reader))
        try await owner.setAuthorization(.authorized, forClient: "app")
        #expect(try reader.refresh() == 1)
        #expect(try search(reader, .matchingName("grace")) == [sample.grace.identifier])
        #expect(hasDeferredIndexes(reader))
        #expect(try search(reader, .matchingName("ada")) == [sample.ada.identifier])
        #expect(!hasDeferredIndexes(reader))
    }

    @Test("Two first searches at once both answer, one by a scan and one by the build")
    func concurrentFirstSearches() throws {
        let (directory, sample) = try sampleLedger()
        let predicates: [(ContactPredicate, String)] = [
            (.matchingName("grace"), sample.grace.identifier),
            (.matchingEmailAddress("ADA@example.org"), sample.ada.identifier),
        ]
        for _ in 0..<20 {
            let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
            try #require(hasDeferredIndexes(reader))
            let found = FoundBox(count: predicates.count)
            DispatchQueue.concurrentPerform(iterations: predicates.count) { index in
                found.set(index, try? search(reader, predicates[index].0))
            }
            #expect(found.values == predicates.map { [$0.1] })
            // One of the two took the scan, so the other (or a later one) built the indexes.
            #expect(!hasDeferredIndexes(reader))
        }
    }
}

/// What each of several threads found.
private final class FoundBox: @unchecked Sendable {
    // Thread-safety: every access holds `lock`.
    private let lock = NSLock()
    private var found: [[String]?]

    init(count: Int) { found = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: [String]?) { lock.withLock { found[index] = value } }

    var values: [[String]?] { lock.withLock { found } }
}
