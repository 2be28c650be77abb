import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel

/// A fetch decodes only the keys asked for, straight from the projection's bytes (or from the
/// bytes an enumeration copied): it must give exactly what a full decode gives for those keys,
/// and nothing for the others.
@Suite("Partial decoding of fetched contacts")
struct PartialDecodingTests {
    /// Contacts with every field, none, many values, and generated ones in many scripts.
    static func sampleValues() -> [ContactValues] {
        var generator = EventFixtures.SeededGenerator(seed: EventFixtures.seed("partial decoding"))
        var many = EventFixtures.everyProperty()
        many.phoneNumbers = (0..<60).map {
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+1 555 01\($0)"))
        }
        many.emailAddresses = (0..<60).map { LabeledValue(label: Label.home, value: "person\($0)@example.org") }
        many.note = String(repeating: "Grüße 🌍 ", count: 2_000)
        return [EventFixtures.everyProperty(), ContactValues(), many]
            + (0..<40).map { _ in EventFixtures.randomValues(using: &generator) }
    }

    /// The key sets each contact is fetched with: each key alone, none, a list's, and all.
    static let keySets: [ContactKeySet] =
        ContactKey.allCases.map { ContactKeySet($0) } + [
            ContactKeySet(), ContactKeySet([.givenName, .familyName]), ContactKeySet([.thumbnailImageData, .note]),
            .all,
        ]

    /// A projection holding the sample contacts, some with UUID identifiers and some not, and
    /// the slots of the sample (with one freed slot among them, which fetches pass over).
    static func projection() -> (projection: Projection, slots: [ContactSlot]) {
        var projection = Projection(ledgerID: UUID())
        let container = projection.defaultContainer.identifier
        for (index, values) in sampleValues().enumerated() {
            let identifier = index.isMultiple(of: 2) ? UUID().uuidString : "contact-\(index)-é"
            projection.putContact(
                identifier,
                ContactState(
                    values: values, containerIdentifier: container, createdBy: "tests", revision: UInt64(index + 1)))
        }
        projection.putContact(
            "removed",
            ContactState(values: ContactValues(), containerIdentifier: container, createdBy: "tests", revision: 99))
        let removed = projection.slot(of: "removed")!
        projection.putContact("removed", nil)
        var slots = projection.occupiedSlots
        slots.insert(removed, at: slots.count / 2)
        return (projection, slots.reversed())
    }

    @Test("decoding the keys asked for gives a full decode's values for them and defaults for the rest")
    func partialEqualsFull() {
        let (projection, slots) = Self.projection()
        let occupied = slots.filter { projection.identifier(at: $0) != nil }
        for keys in Self.keySets {
            let expected = occupied.map { slot in
                let full = projection.state(at: slot)!
                return (projection.identifier(at: slot)!, full.values.keeping(keys), full.revision)
            }
            var fetched: [FetchedContact] = []
            projection.forEachContact(at: slots[...], keys: keys) {
                fetched.append($0)
                return true
            }
            let copied = projection.encodedContacts(at: slots[...])
            #expect(fetched.count == expected.count && copied.count == expected.count, "\(keys)")
            for (index, (identifier, values, revision)) in expected.enumerated() where index < fetched.count {
                let fromCopy = copied.contact(index, keys: keys)
                #expect(fetched[index].identifier == identifier && fromCopy.identifier == identifier)
                #expect(fetched[index].revision == revision && fromCopy.revision == revision)
                #expect(fetched[index].values == values, "keys \(keys.keys) of contact \(index)")
                #expect(fromCopy.values == values, "keys \(keys.keys) of copied contact \(index)")
            }
        }
    }

    @Test("a visit stops when told, after the contact it was given")
    func visitStops() {
        let (projection, slots) = Self.projection()
        var visited = 0
        projection.forEachContact(at: slots[...], keys: ContactKeySet(.givenName)) { _ in
            visited += 1
            return visited < 3
        }
        #expect(visited == 3)
    }

    @Test("a contact fetched with some keys holds exactly those keys, with a full fetch's values")
    func publicContactsKnowTheirKeys() throws {
        let store = ContactStore.inMemory(client: .fullAccess(region: "us"))
        defer { store.close() }
        var rich = makeContact(
            given: "Zoë", family: "Ærøskøbing-Łukasz", organization: "株式会社",
            phones: [(Label.phoneNumberMobile, "+1 415 555 0100"), (Label.home, "(415) 555-0199")],
            emails: [(Label.home, "zoe@example.org"), (Label.work, "zoe@work.example")],
            birthday: DateComponents(year: 1990, month: 2, day: 28))
        rich.note = "first line\nsecond 🦄"
        rich.imageData = Data(repeating: 0xAB, count: 300)
        rich.urlAddresses = [LabeledValue(label: "blog", value: "https://example.com/zoë")]
        let empty = makeContact(given: "Zoë", family: "")
        try add([rich, empty], to: store)
        let predicate = ContactPredicate.matchingName("zoë")
        let full = try store.unifiedContacts(matching: predicate, keysToFetch: ContactKey.allCases)
        #expect(full.count == 2)
        for key in ContactKey.allCases {
            let partial = try store.unifiedContacts(matching: predicate, keysToFetch: [key])
            var enumerated: [Contact] = []
            try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: [key], predicate: predicate)) {
                contact, _ in enumerated.append(contact)
            }
            #expect(partial == enumerated, "\(key)")
            #expect(identifiers(partial) == identifiers(full), "\(key)")
            for (contact, whole) in zip(partial, full) {
                for other in ContactKey.allCases {
                    #expect(contact.isKeyAvailable(other) == (other == key || other == .identifier), "\(key): \(other)")
                }
                #expect(contact.values == whole.values.keeping(ContactKeySet([key, .identifier])), "\(key)")
                #expect(contact.values.hasSameValue(as: whole.values, for: key), "\(key)")
            }
        }
    }
}

/// `enumerateContacts` decodes the first contacts under the read locks and copies the rest's
/// bytes, decoding each as the block asks for it: stopped early, it gives exactly the first
/// contacts of the full order; run to the end, exactly what `unifiedContacts` and a linear scan
/// over every contact give; and all of them as of one state, whatever the block saves meanwhile.
@Suite("Enumeration stopping early")
struct EnumerationStoppingEarlyTests {
    /// A store of `count` contacts whose family names share prefixes ("Alder", "Alden", ...), so
    /// that a name search selects many more than the enumeration decodes first.
    static func store(count: Int) throws -> ContactStore {
        let store = ContactStore.inMemory(client: .fullAccess(region: "us"))
        let families = ["Alder", "Alden", "Aldous", "Baker", "Ålders"]
        let contacts = (0..<count).map { index in
            makeContact(
                given: "Given\(index % 7)", family: families[index % families.count] + "\(index % 11)",
                emails: [(Label.home, "person\(index)@example.org")])
        }
        try add(contacts, to: store)
        return store
    }

    /// The contacts of a name query by a linear scan: every contact fetched in slot order, kept
    /// when every query word starts a word of its name, as the search tests' reference does.
    static func scanned(_ store: ContactStore, name query: String) throws -> [String] {
        var all: [Contact] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: ContactKey.allCases)) { contact, _ in
            all.append(contact)
        }
        var reference = SearchReference(country: "us")
        for (index, contact) in all.enumerated() { reference.put(ContactSlot(index), contact.values) }
        return reference.slots(matchingName: query).map { all[Int($0)].identifier }
    }

    /// The first `limit` contacts of an enumeration, stopping it there.
    static func enumerate(
        _ store: ContactStore, _ request: ContactFetchRequest, stoppingAfter limit: Int
    ) throws
        -> [Contact]
    {
        var given: [Contact] = []
        try store.enumerateContacts(with: request) { contact, stop in
            given.append(contact)
            if given.count >= limit { stop = true }
        }
        return given
    }

    @Test(
        "stopped after N, it gives the first N of the full order, in slot order and sorted",
        arguments: [
            ContactSortOrder.none, .givenName,
        ])
    func firstOfTheFullOrder(order: ContactSortOrder) throws {
        let store = try Self.store(count: 150)
        defer { store.close() }
        let request = ContactFetchRequest(
            keysToFetch: [ContactKey.givenName, ContactKey.familyName], predicate: .matchingName("ald"),
            sortOrder: order)
        let full = try Self.enumerate(store, request, stoppingAfter: .max)
        #expect(full.count > ContactStore.enumerationDecodedFirst * 2)
        let unified = try store.unifiedContacts(matching: request.predicate!, keysToFetch: request.keysToFetch)
        if order == .none {
            #expect(full == unified)
            #expect(identifiers(full) == (try Self.scanned(store, name: "ald")))
        } else {
            #expect(Set(identifiers(full)) == Set(identifiers(unified)))
            #expect(full.map(\.givenName) == full.map(\.givenName).sorted())
        }
        for limit in [1, 2, 31, 32, 33, 64, full.count - 1, full.count] {
            #expect(try Self.enumerate(store, request, stoppingAfter: limit) == Array(full.prefix(limit)), "\(limit)")
        }
    }

    @Test("the whole enumeration agrees with a linear scan for many queries")
    func agreesWithScan() throws {
        let store = try Self.store(count: 120)
        defer { store.close() }
        for query in ["a", "al", "ald", "alde", "alder1", "given3 ald", "aaa", "al given", "ålders", "b"] {
            let request = ContactFetchRequest(keysToFetch: [ContactKey.familyName], predicate: .matchingName(query))
            let enumerated = try Self.enumerate(store, request, stoppingAfter: .max)
            #expect(identifiers(enumerated) == (try Self.scanned(store, name: query)), "\(query)")
            #expect(
                enumerated
                    == (try store.unifiedContacts(matching: request.predicate!, keysToFetch: request.keysToFetch)))
        }
    }

    @Test("contacts past the first decoded ones are those of the state the enumeration read, whatever the block saves")
    func oneStateWhileTheBlockSaves() throws {
        let store = try Self.store(count: 100)
        defer { store.close() }
        let request = ContactFetchRequest(
            keysToFetch: [ContactKey.givenName, ContactKey.familyName], predicate: .matchingName("ald"))
        let before = try Self.enumerate(store, request, stoppingAfter: .max)
        var during: [Contact] = []
        try store.enumerateContacts(with: request) { contact, _ in
            if during.isEmpty {
                // Change every contact the enumeration has yet to hand out, and delete the last.
                var save = SaveRequest()
                for later in before.dropFirst().dropLast() {
                    var changed = try store.unifiedContact(
                        withIdentifier: later.identifier, keysToFetch: [ContactKey.familyName]
                    ).mutableCopy()
                    changed.familyName = "Changed"
                    save.update(changed)
                }
                let last = try store.unifiedContact(withIdentifier: before.last!.identifier, keysToFetch: [])
                save.delete(last.mutableCopy())
                try store.execute(save)
            }
            during.append(contact)
        }
        #expect(during == before)
        let after = try Self.enumerate(store, request, stoppingAfter: .max)
        #expect(identifiers(after) == [before[0].identifier])
    }
}
