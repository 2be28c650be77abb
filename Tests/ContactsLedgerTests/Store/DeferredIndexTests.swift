import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel

/// A read-only open replays without building the search indexes; the first search scans the
/// contacts and the second builds them (decision 0037). What every read returns must not depend
/// on when that happens.
@Suite("Read-only stores: search indexes built by the second search")
struct DeferredIndexTests {
    /// What a fetch returned, as comparable values: each contact's identifier, revision, the keys
    /// it has and the values of the list's keys.
    private func fetched(_ contacts: [Contact]) -> [[String]] {
        contacts.map {
            [
                $0.identifier, String($0.revision), String($0.availableKeys.rawValue), $0.givenName, $0.familyName,
                $0.organizationName,
            ]
        }
    }

    /// A search's contacts through `unifiedContacts` and through an enumeration, checked to agree.
    private func searched(_ store: ContactStore, _ predicate: ContactPredicate) throws -> [[String]] {
        let unified = try store.unifiedContacts(matching: predicate, keysToFetch: listKeys)
        var enumerated: [Contact] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: listKeys, predicate: predicate)) {
            contact, _ in enumerated.append(contact)
        }
        #expect(fetched(enumerated) == fetched(unified))
        return fetched(unified)
    }

    private func names(_ store: ContactStore, _ query: String) throws -> Set<String> {
        Set(try store.unifiedContacts(matching: .matchingName(query), keysToFetch: listKeys).map(\.givenName))
    }

    @Test(
        "Reads by identifier, enumeration, identifier prefixes and one search leave them unbuilt; a second search builds them"
    )
    func builtByTheSecondSearch() throws {
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let sample = try seedSampleContacts(writer)
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        #expect(hasDeferredIndexes(reader))
        #expect(
            try reader.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: listKeys).givenName == "Ada")
        #expect(try reader.resolveIdentifier(String(sample.grace.identifier.prefix(8))) == sample.grace.identifier)
        var all: [String] = []
        try reader.enumerateContacts(with: ContactFetchRequest(keysToFetch: listKeys)) { contact, _ in
            all.append(contact.givenName)
        }
        #expect(all.count == 4)
        #expect(hasDeferredIndexes(reader))
        #expect(try names(reader, "ada") == ["Ada"])
        #expect(hasDeferredIndexes(reader))
        #expect(try names(reader, "ada") == ["Ada"])
        #expect(!hasDeferredIndexes(reader))
        let byEmail = try reader.unifiedContacts(
            matching: .matchingEmailAddress("grace@navy.example"), keysToFetch: listKeys)
        #expect(identifiers(byEmail) == [sample.grace.identifier])
        let byPhone = try reader.unifiedContacts(
            matching: .matching(PhoneNumber(stringValue: "+1 415 555 0199")), keysToFetch: listKeys)
        #expect(identifiers(byPhone) == [sample.grace.identifier])
    }

    @Test("Single and many matches come back the same, keys and all, whether the indexes were deferred or built")
    func sameMatchesEitherWay() throws {
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let sample = try seedSampleContacts(writer)
        let many = (0..<60).map { makeContact(given: "Adam\($0)", family: "Family\($0 % 7)", organization: "Org") }
        try add(many, to: writer)
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        #expect(hasDeferredIndexes(reader) && !hasDeferredIndexes(writer))
        // The reader's first search scans (its unified and enumerated fetches are one search
        // each: the second builds the indexes); the writer's use its built indexes.
        let single = ContactPredicate.matchingEmailAddress("grace@navy.example")
        let fromReader = try searched(reader, single)
        #expect(!hasDeferredIndexes(reader))
        let fromWriter = try searched(writer, single)
        #expect(fromReader == fromWriter && fromReader.map(\.first) == [sample.grace.identifier])
        let expectedKeys = ContactKeySet(descriptors: listKeys).union(ContactKeySet(.identifier)).rawValue
        #expect(fromReader.first?[2] == String(expectedKeys) && fromReader.first?[3] == "Grace")
        let phone = ContactPredicate.matching(PhoneNumber(stringValue: "(415) 555-0100"))
        let phoneFromReader = try searched(reader, phone)
        let phoneFromWriter = try searched(writer, phone)
        #expect(phoneFromReader == phoneFromWriter && phoneFromReader.map(\.first) == [sample.jose.identifier])
        let manyFromReader = try searched(reader, .matchingName("adam"))
        let manyFromWriter = try searched(writer, .matchingName("adam"))
        #expect(manyFromReader.count == 60 && manyFromReader == manyFromWriter)
        #expect(Set(manyFromReader.map { $0[3] }) == Set(many.map(\.givenName)))
    }

    @Test("Records read by refresh before and after the build are found by a search", arguments: [false, true])
    func refreshAroundTheBuild(searchFirst: Bool) throws {
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let sample = try seedSampleContacts(writer)
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        if searchFirst {
            // Two searches: the first scans, the second builds the indexes.
            #expect(try names(reader, "ada") == ["Ada"])
            #expect(try names(reader, "ada") == ["Ada"])
            #expect(!hasDeferredIndexes(reader))
        }
        try add([makeContact(given: "Adaline", family: "Ng")], to: writer)
        var renamed = try writer.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: [ContactKeySet.all])
            .mutableCopy()
        renamed.givenName = "Augusta"
        var update = SaveRequest()
        update.update(renamed)
        try writer.execute(update)
        #expect(try reader.refresh() == 2)
        // Without a search before, the first search scans and the indexes are still to be
        // built; after two, they were built and the refresh brought them up to date.
        #expect(hasDeferredIndexes(reader) == !searchFirst)
        #expect(try names(reader, "ada") == ["Adaline"])
        #expect(hasDeferredIndexes(reader) == !searchFirst)
        #expect(try names(reader, "augusta") == ["Augusta"])
        #expect(!hasDeferredIndexes(reader))
    }
}
