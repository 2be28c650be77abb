import ContactsModel
import Foundation
import LedgerStorageTesting
import Testing

@testable import ContactsEngine
@testable import ContactsLedger

/// Ordering by ranked fields must give exactly the order of comparing the sort keys' text.
@Suite("Contact store: sort order")
struct SortOrderTests {
    /// Names that fold together (case, diacritics, width), names that differ by one letter, text
    /// from several scripts, and empty names, so that ties on every field are common.
    static let names = [
        "", "ada", "Ada", "ADA", "Ádá", "Adam", "adam", "Ådam", "Zoë", "zoe", "Zoe", "Ölaf", "Olaf", "Émile", "Emile",
        "Ａｄａ", "Наталья", "наталья", "Ελένη", "田中", "佐藤", "지민", "O'Brien", "o'brien", "Ab", "Ab ", " Ab",
    ]

    @Test("Ranked ordering equals ordering by the keys' text, in both name orders", arguments: [1, 2, 3])
    func rankedOrderingEqualsTextOrdering(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for order in [ContactSortOrder.givenName, .familyName] {
            var folds = SortFolding()
            let keys = (0..<3_000).map { index in
                var values = ContactValues()
                values[string: .givenName] = Self.names.randomElement(using: &random)!
                values[string: .familyName] = Self.names.randomElement(using: &random)!
                values[string: .organizationName] = Self.names.randomElement(using: &random)!
                // Identifiers repeat their order only by chance: a tie on every field is broken by them.
                let identifier = String(format: "%08X-%04d", random.next() & 0xFFFF_FFFF, index)
                return ContactSortKey(identifier: identifier, values: values, order: order, folding: &folds)
            }
            let ranked = ContactSortKey.sorted(keys) { $0 }
            #expect(ranked == keys.sorted())
            #expect(Set(ranked.map(\.identifier)).count == keys.count)
        }
    }

    @Test("A store's sorted fetch lists contacts by their keys' text")
    func storeFetchIsSortedByKeys() throws {
        let store = ContactStore.inMemory(client: .fullAccess("test"))
        var random = SplitMix64(seed: 7)
        var request = SaveRequest()
        for _ in 0..<500 {
            var contact = MutableContact()
            contact.givenName = Self.names.randomElement(using: &random)!
            contact.familyName = Self.names.randomElement(using: &random)!
            contact.organizationName = Self.names.randomElement(using: &random)!
            request.add(contact, toContainerWithIdentifier: nil)
        }
        try store.execute(request)
        let fetch = ContactFetchRequest(keysToFetch: [ContactSortKey.keys], sortOrder: .familyName)
        var fetched: [Contact] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: [ContactSortKey.keys])) { contact, _ in
            fetched.append(contact)
        }
        var folds = SortFolding()
        let expected = fetched.map {
            ContactSortKey(identifier: $0.identifier, values: $0.values, order: .familyName, folding: &folds)
        }.sorted().map(\.identifier)
        var listed: [String] = []
        try store.enumerateContacts(with: fetch) { contact, _ in listed.append(contact.identifier) }
        #expect(listed == expected)
        #expect(listed.count == 500)
    }

    @Test("Sorting a projection's slots gives the keys' order, whatever the identifiers' form", arguments: [4, 5])
    func projectionSortEqualsKeyOrder(seed: UInt64) {
        expectSortEqualsKeyOrder(count: 2_000, seed: seed, uuidsOnly: false)
    }

    /// Enough contacts to be read and sorted in two halves at once (``ParallelHalves``): with
    /// identifiers that are all UUIDs, ties are broken by one sort of ranks and UUID bytes; with
    /// mixed forms, by the identifiers' text after the halves' names are ranked together.
    @Test("Sorting many slots on both processors gives the keys' order", arguments: [true, false])
    func parallelSortEqualsKeyOrder(uuidsOnly: Bool) {
        expectSortEqualsKeyOrder(count: ParallelHalves.minimumCount + 1_001, seed: 6, uuidsOnly: uuidsOnly)
    }

    /// Sorts `count` contacts with names from ``names`` in both orders and compares the order
    /// with the sort keys' own.
    private func expectSortEqualsKeyOrder(count: Int, seed: UInt64, uuidsOnly: Bool) {
        var random = SplitMix64(seed: seed)
        var projection = Projection(ledgerID: UUID())
        var expected: [ContactSortOrder: [ContactSortKey]] = [:]
        var folds = SortFolding()
        for index in 0..<count {
            var values = ContactValues()
            values[string: .givenName] = Self.names.randomElement(using: &random)!
            values[string: .familyName] = Self.names.randomElement(using: &random)!
            values[string: .organizationName] = Self.names.randomElement(using: &random)!
            // Kept as a UUID's bytes, as text in lower case, or as other text; ties mix them.
            let uuid = UUID()
            let forms = [uuid.uuidString, uuid.uuidString.lowercased(), "contact-\(index)"]
            let identifier = uuidsOnly ? uuid.uuidString : forms[index % 3]
            projection.putContact(
                identifier,
                ContactState(
                    values: values, containerIdentifier: projection.defaultContainer.identifier, createdBy: "test",
                    revision: 1))
            for order in [ContactSortOrder.givenName, .familyName] {
                expected[order, default: []].append(
                    ContactSortKey(identifier: identifier, values: values, order: order, folding: &folds))
            }
        }
        let store = ContactStore.inMemory(client: .fullAccess("test"))
        var slots = (0..<count).compactMap { projection.slot(of: expected[.givenName]![$0].identifier) }
        slots.shuffle(using: &random)
        for order in [ContactSortOrder.givenName, .familyName] {
            let sorted = store.sort(slots, in: projection, by: order).map { projection.identifier(at: $0) }
            #expect(sorted == expected[order]!.sorted().map(\.identifier))
        }
    }

    @Test("Work in halves covers every element once, in order, on two threads only when there are many")
    func halvesCoverTheElementsInOrder() {
        let minimum = ParallelHalves.minimumCount
        for count in [0, 1, minimum - 1, minimum, 3 * minimum + 1] {
            let elements = Array(0..<count)
            let halves = ParallelHalves.map(elements) { Array($0) }
            #expect(halves.count == (count < minimum ? 1 : 2))
            #expect(halves.flatMap { $0 } == elements)
        }
    }
}
