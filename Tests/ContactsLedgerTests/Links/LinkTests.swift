import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Linked contacts")
struct LinkTests {
    /// Three contacts, the first two of one person.
    struct Sample {
        let store: ContactStore
        let ada: MutableContact
        let lovelace: MutableContact
        let other: MutableContact

        init(store: ContactStore = .inMemory()) throws {
            self.store = store
            ada = makeContact(
                given: "Ada", family: "Lovelace", phones: [(Label.home, "+1 415 555 0100")],
                emails: [(Label.home, "ada@example.com")])
            lovelace = makeContact(
                given: "Augusta", family: "Lovelace", organization: "Analytical Engines",
                phones: [(Label.work, "415-555-0100"), (Label.work, "415-555-0199")],
                emails: [(Label.work, "augusta@engines.example")])
            other = makeContact(given: "Charles", family: "Babbage")
            try add([ada, lovelace, other], to: store)
        }

        var keys: [any KeyDescriptor] { [ContactKeySet.all] }
    }

    @Test("Link and unlink operations round-trip through the codec, with the bytes of the schema")
    func codec() throws {
        let link = LedgerEvent(operations: [.linkContacts(contactIdentifiers: ["A", "B"])])
        #expect(EventCodec.encode(link) == [0x0A, 0x09, 0x92, 0x01, 0x06, 0x0A, 0x01, 0x41, 0x0A, 0x01, 0x42])
        let unlink = LedgerEvent(operations: [
            .unlinkContact(contactIdentifier: "A", linkedIdentifiers: ["B", "C"]),
            .unlinkContact(contactIdentifier: "D", linkedIdentifiers: []),
        ])
        for event in [link, unlink] {
            #expect(
                try EventCodec.decode(EventCodec.encode(event), schemaVersion: EventCodec.currentSchemaVersion) == event
            )
        }
    }

    @Test("A fetch unifies linked contacts unless asked not to; each contact stays fetchable as itself")
    func unify() throws {
        let sample = try Sample()
        let store = sample.store
        try store.link([sample.ada.identifier, sample.lovelace.identifier])
        #expect(
            try store.linkedContactIdentifiers(of: sample.lovelace.identifier)
                == [sample.ada.identifier, sample.lovelace.identifier])
        let unified = try store.unifiedContacts(matching: .matchingName("lovelace"), keysToFetch: sample.keys)
        #expect(unified.map(\.identifier) == [sample.ada.identifier])
        let contact = try #require(unified.first)
        #expect(contact.givenName == "Ada")
        #expect(contact.organizationName == "Analytical Engines")
        #expect(contact.phoneNumbers.map(\.value.stringValue) == ["+1 415 555 0100", "415-555-0199"])
        #expect(contact.emailAddresses.map(\.value) == ["ada@example.com", "augusta@engines.example"])
        // The other member matches on its own and still gives the unified contact.
        #expect(
            try store.unifiedContacts(matching: .matchingName("augusta"), keysToFetch: sample.keys).map(\.identifier)
                == [sample.ada.identifier])
        var all: [String] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: sample.keys)) {
            all.append($0.identifier); _ = $1
        }
        #expect(all == [sample.ada.identifier, sample.other.identifier])
        var separate: [String] = []
        var request = ContactFetchRequest(keysToFetch: sample.keys)
        request.unifyResults = false
        try store.enumerateContacts(with: request) {
            separate.append($0.identifier); _ = $1
        }
        #expect(separate == [sample.ada.identifier, sample.lovelace.identifier, sample.other.identifier])
        let underlying = try store.unifiedContact(withIdentifier: sample.lovelace.identifier, keysToFetch: sample.keys)
        #expect(underlying.givenName == "Augusta")
        #expect(underlying.phoneNumbers.count == 2)

        try store.unlink(sample.lovelace.identifier)
        #expect(try store.linkedContactIdentifiers(of: sample.ada.identifier).isEmpty)
        #expect(
            try store.unifiedContacts(matching: .matchingName("lovelace"), keysToFetch: sample.keys).map(\.identifier)
                == [sample.ada.identifier, sample.lovelace.identifier])
    }

    @Test("Linking a missing contact, a contact with itself or one contact is refused, writing nothing")
    func refusals() throws {
        let sample = try Sample()
        let head = sample.store.headDigest
        expectStoreError(.recordDoesNotExist, mentioning: "contact NOPE does not exist") {
            try sample.store.link([sample.ada.identifier, "NOPE"])
        }
        expectStoreError(.recordIdentifierInvalid, mentioning: "cannot be linked with itself") {
            try sample.store.link([sample.ada.identifier, sample.ada.identifier])
        }
        expectStoreError(.recordIdentifierInvalid, mentioning: "at least two contacts") {
            try sample.store.link([sample.ada.identifier])
        }
        expectStoreError(.recordDoesNotExist, mentioning: "contact NOPE does not exist") {
            try sample.store.unlink("NOPE")
        }
        #expect(sample.store.headDigest == head)
        // Linking what is linked already, or unlinking what is not, records nothing.
        try sample.store.unlink(sample.ada.identifier)
        try sample.store.link([sample.ada.identifier, sample.lovelace.identifier])
        let linked = sample.store.headDigest
        #expect(try sample.store.link([sample.lovelace.identifier, sample.ada.identifier]).affectedIdentifiers.isEmpty)
        #expect(sample.store.headDigest == linked)
    }

    @Test("Sets join, a deleted contact leaves its set, and the set ends when one member is left")
    func setsAndDeletes() throws {
        let sample = try Sample()
        let store = sample.store
        let (a, l, o) = (sample.ada.identifier, sample.lovelace.identifier, sample.other.identifier)
        try store.link([a, l])
        try store.link([o, l])
        #expect(try store.linkedContactIdentifiers(of: o) == [o, a, l])
        var request = SaveRequest()
        request.delete(try store.unifiedContact(withIdentifier: l, keysToFetch: []).mutableCopy())
        try store.execute(request)
        #expect(try store.linkedContactIdentifiers(of: a) == [o, a])
        try store.unlink(o)
        #expect(try store.linkedContactIdentifiers(of: a).isEmpty)
        #expect(try store.unifiedContacts(matching: .withIdentifiers([a, o]), keysToFetch: []).count == 2)
    }

    @Test("The audit log shows links and unlinks, in text form and JSON, and verify accepts them")
    func audit() throws {
        let directory = StoreDirectory()
        let sample = try Sample(store: ContactStore(ledgerAt: directory.ledger, client: .fullAccess("test")))
        try sample.store.link([sample.ada.identifier, sample.lovelace.identifier], transactionAuthor: "linker")
        try sample.store.unlink(sample.lovelace.identifier, transactionAuthor: "linker")
        sample.store.close()
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        let entries = try auditor.entries(matching: AuditFilter(author: "linker"))
        #expect(
            entries.map(\.changes) == [
                [.linkContacts(contactIdentifiers: [sample.ada.identifier, sample.lovelace.identifier])],
                [
                    .unlinkContact(
                        contactIdentifier: sample.lovelace.identifier, linkedIdentifiers: [sample.ada.identifier])
                ],
            ])
        #expect(entries[0].affectedIdentifiers == [sample.ada.identifier, sample.lovelace.identifier])
        #expect(
            AuditJSON.value(for: entries[1].changes[0])
                == [
                    "type": "unlinkContact", "contact": .string(sample.lovelace.identifier),
                    "linked": [.string(sample.ada.identifier)],
                ])
        _ = try auditor.verify()
    }

    @Test("Links survive a snapshot and a reopen")
    func snapshot() throws {
        let directory = StoreDirectory()
        let sample = try Sample(store: ContactStore(ledgerAt: directory.ledger, client: .fullAccess("test")))
        try sample.store.link([sample.ada.identifier, sample.lovelace.identifier])
        try sample.store.writeSnapshot()
        sample.store.close()
        let reopened = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("test"))
        defer { reopened.close() }
        #expect(
            try reopened.linkedContactIdentifiers(of: sample.lovelace.identifier)
                == [sample.ada.identifier, sample.lovelace.identifier])
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("test"))
        #expect(try reader.unifiedContacts(matching: .matchingName("lovelace"), keysToFetch: []).count == 1)
    }

    @Test("A limited client's unified contact holds only the members it was granted")
    func limitedAccess() async throws {
        let store = ContactStore.inMemory(client: ClientContext(identifier: "picker", authorization: .limited))
        var own = makeContact(given: "Ada", family: "Lovelace", phones: [(Label.home, "+1 415 555 0100")])
        own.note = ""
        try add([own], to: store)
        let hidden = makeContact(given: "Augusta", family: "King", phones: [(Label.work, "+1 415 555 0199")])
        var request = SaveRequest()
        request.add(hidden, toContainerWithIdentifier: nil)
        try store.execute(request, onBehalfOf: "other-app")
        expectStoreError(.recordDoesNotExist) { try store.link([own.identifier, hidden.identifier]) }
        try store.commitOperations(
            [.linkContacts(contactIdentifiers: [hidden.identifier, own.identifier])], author: "other-app",
            requestID: UUID())
        let keys: [any KeyDescriptor] = [ContactKey.givenName, ContactKey.phoneNumbers]
        let limited = try store.unifiedContacts(matching: .matchingName("ada"), keysToFetch: keys)
        #expect(limited.map(\.identifier) == [own.identifier])
        #expect(limited.first?.phoneNumbers.map(\.value.stringValue) == ["+1 415 555 0100"])
        #expect(try store.linkedContactIdentifiers(of: own.identifier) == [own.identifier])
        // Only the owner grants; the in-memory store records the owner's grant as it would be.
        try store.commitOperations(
            [.grantAccess(clientIdentifier: "picker", contactIdentifiers: [hidden.identifier])], author: "owner",
            requestID: UUID())
        let granted = try store.unifiedContacts(matching: .matchingName("ada"), keysToFetch: keys)
        #expect(granted.map(\.identifier) == [hidden.identifier])
        #expect(granted.first?.givenName == "Augusta")
        #expect(granted.first?.phoneNumbers.count == 2)
    }

    @Test("Change history tells links and unlinks as the framework does, only between contacts the client sees")
    func changeHistory() throws {
        let sample = try Sample()
        let store = sample.store
        let token = store.currentHistoryToken
        try store.link([sample.ada.identifier, sample.lovelace.identifier, sample.other.identifier])
        try store.unlink(sample.other.identifier)
        let events = try store.changeHistory(ChangeHistoryFetchRequest(startingToken: token)).events
        #expect(
            events == [
                .linkContacts(
                    fromContactIdentifier: sample.ada.identifier, toContactIdentifier: sample.lovelace.identifier),
                .linkContacts(
                    fromContactIdentifier: sample.ada.identifier, toContactIdentifier: sample.other.identifier),
                .unlinkContact(identifier: sample.other.identifier),
            ])

        // A limited client that sees only one side of a link is told nothing of it.
        let limited = ContactStore.inMemory(client: ClientContext(identifier: "picker", authorization: .limited))
        let own = makeContact(given: "Own", family: "Card")
        try add([own], to: limited)
        let hidden = makeContact(given: "Hidden", family: "Card")
        var request = SaveRequest()
        request.add(hidden, toContainerWithIdentifier: nil)
        try limited.execute(request, onBehalfOf: "other-app")
        let before = limited.currentHistoryToken
        try limited.commitOperations(
            [.linkContacts(contactIdentifiers: [hidden.identifier, own.identifier])], author: "other-app",
            requestID: UUID())
        #expect(try limited.changeHistory(ChangeHistoryFetchRequest(startingToken: before)).events.isEmpty)
    }
}
