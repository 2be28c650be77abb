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

    @Test("Records read by refresh before and after the build are found by a search", arguments: [false, true])
    func refreshAroundTheBuild(searchFirst: Bool) throws {
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let sample = try seedSampleContacts(writer)
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        if searchFirst { #expect(try names(reader, "ada") == ["Ada"]) }
        try add([makeContact(given: "Adaline", family: "Ng")], to: writer)
        var renamed = try writer.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: [ContactKeySet.all])
            .mutableCopy()
        renamed.givenName = "Augusta"
        var update = SaveRequest()
        update.update(renamed)
        try writer.execute(update)
        #expect(try reader.refresh() == 2)
        // A first search scans: the indexes are still to be built.
        #expect(hasDeferredIndexes(reader))
        #expect(try names(reader, "ada") == ["Adaline"])
        #expect(hasDeferredIndexes(reader) == !searchFirst)
        #expect(try names(reader, "augusta") == ["Augusta"])
        #expect(!hasDeferredIndexes(reader))
    }
}
