import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The per-slot signatures of word starts that let a query of several words filter the rarest
/// word's slots before intersecting: they may only ever have too many bits, so these tests
/// check the answers of several-word queries through every kind of change, and the invariant
/// (``SearchIndexes/checkInvariants()`` fails on a signature that lacks a bit of its words).
@Suite("Name search with several words")
struct NameSignatureTests {
    private static let givenNames = [
        "John", "Johnny", "Joan", "Jo", "José", "Josephine", "Mary", "María", "Marie-Claire", "Anne", "Annika",
        "Zoë", "Łukasz", "Søren", "太郎", "민준", "Дмитрий", "Σοφία", "Ａｎｎ",
    ]
    private static let familyNames = [
        "Smith", "Smyth", "Smithson", "Johnson", "Müller", "Mueller", "García", "O'Brien", "van der Berg", "田中",
        "Иванов", "Nguyễn",
    ]

    private static func contact(_ random: inout SearchTestGenerator) -> ContactValues {
        SearchFixtures.contact(
            given: givenNames.randomElement(using: &random)!, family: familyNames.randomElement(using: &random)!,
            middle: Int.random(in: 0..<5, using: &random) == 0 ? givenNames.randomElement(using: &random)! : "",
            organization: Int.random(in: 0..<4, using: &random) == 0 ? "Smith & Sons" : "")
    }

    /// For every given and family name, a two-word query of a start of each (1 to 4 and 1 to 5
    /// characters, varying with the pair), in both orders; and some of three words.
    private static let queries: [String] = {
        var queries: [String] = []
        for (givenIndex, given) in givenNames.enumerated() {
            for (familyIndex, family) in familyNames.enumerated() {
                let first = given.prefix(1 + (givenIndex + familyIndex) % 4)
                let second = family.prefix(1 + (givenIndex * 3 + familyIndex) % 5)
                queries.append("\(first) \(second)")
                queries.append("\(second) \(first)")
            }
        }
        return queries + ["jo sm so", "smith jo sons", "mar mar", "jo john johnny", "mü mue", "an ann ａｎ"]
    }()

    @Test("A signature has the bits of every start of two or more bytes of its word")
    func signatureCoversStarts() {
        for word in Self.givenNames + Self.familyNames + ["ab", "abc", "a", "straße", "田中太郎"] {
            let words = SearchFolding.queryWords(word)
            for index in 0..<words.count {
                let bytes = Array(words.word(index))
                let whole = bytes.withUnsafeBufferPointer { NameIndex.signature(ofStart: $0) }
                #expect(whole != 0 || bytes.count < 2, "\(word)")
                for length in 1...bytes.count {
                    let start = bytes[..<length].withUnsafeBufferPointer { NameIndex.signature(ofStart: $0) }
                    #expect(start & whole == start, "\(word), the first \(length) bytes")
                    #expect((start == 0) == (length < 2), "\(word), the first \(length) bytes")
                }
            }
        }
    }

    @Test("Several-word queries agree with a linear scan through inserts, updates, removals and reused slots")
    func agreesWithLinearScan() {
        let seed = SearchFixtures.seed("NameSignatureTests.agreesWithLinearScan")
        var random = SearchTestGenerator(seed: seed)
        var indexes = SearchIndexes(defaultCountryCode: "us")
        var reference = SearchReference(country: "us")
        var free: [ContactSlot] = []
        for slot in 0..<ContactSlot(1_500) {
            let values = Self.contact(&random)
            indexes.insert(slot, values: values)
            reference.put(slot, values)
        }
        indexes.prepareForQueries()
        for round in 0..<3 {
            for _ in 0..<300 {
                let slot = reference.contacts.keys.randomElement(using: &random)!
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    indexes.remove(slot, values: reference.remove(slot)!)
                    free.append(slot)
                case 1:
                    let old = reference.contacts[slot]!
                    var new = Self.contact(&random)
                    if Bool.random(using: &random) { new.familyName = old.familyName }
                    indexes.update(slot, from: old, to: new)
                    reference.put(slot, new)
                default:
                    // A reused slot, whose previous contact's words must not linger.
                    guard let reused = free.popLast() else { continue }
                    let values = Self.contact(&random)
                    indexes.insert(reused, values: values)
                    reference.put(reused, values)
                }
            }
            if round != 1 { indexes.prepareForQueries() }
            for query in Self.queries {
                #expect(
                    indexes.slots(matchingName: query) == reference.slots(matchingName: query),
                    "\(query) in round \(round), seed \(seed)")
            }
            indexes.checkInvariants()
        }
    }

    @Test("Query words that start another query word, or repeat one, are asked once")
    func redundantQueryWords() {
        let query = SearchFolding.queryWords("jo John johnny smi SMITH jo Smith")
        let kept = NameIndex.essentialWords(of: query).map { String(decoding: query.word($0), as: UTF8.self) }
        #expect(kept.sorted() == ["johnny", "smith"])
        #expect(NameIndex.essentialWords(of: SearchFolding.queryWords("ab ac")).count == 2)
        #expect(NameIndex.essentialWords(of: SearchFolding.queryWords("john jo")) == [0])
        #expect(NameIndex.essentialWords(of: SearchFolding.queryWords("jo john")) == [1])
        #expect(NameIndex.essentialWords(of: SearchFolding.queryWords("jo jo")).count == 1)
        #expect(NameIndex.essentialWords(of: SearchFolding.queryWords("jo")) == [0])

        let indexes = SearchFixtures.indexes([
            SearchFixtures.contact(given: "Johnny", family: "Smith"),
            SearchFixtures.contact(given: "John", family: "Smithson"),
            SearchFixtures.contact(given: "Jo", family: "界"),
            SearchFixtures.contact(given: "界界", family: "Smith"),
        ])
        #expect(indexes.slots(matchingName: "jo john") == [0, 1])
        #expect(indexes.slots(matchingName: "jo john johnny smith") == [0])
        #expect(indexes.slots(matchingName: String(repeating: "界 ", count: 3000)) == [2, 3])
        // In a run of Han every character starts a word, so "界界" asks for "界界" and "界".
        #expect(indexes.slots(matchingName: "界界") == [3])
        #expect(indexes.slots(matchingName: String(repeating: "界 jo ", count: 500)) == [2])
    }

    @Test("A query of thousands of distinct words, some repeated, asks each once and answers exactly")
    func manyDistinctQueryWords() {
        let words = (0..<4_000).map { "w\($0)x" }
        let indexes = SearchFixtures.indexes([
            SearchFixtures.contact(given: words.joined(separator: " "), family: "Smith"),
            SearchFixtures.contact(given: words.prefix(3_999).joined(separator: " "), family: "Smith"),
        ])
        let query = (words.reversed() + words.prefix(500) + ["smi"]).joined(separator: " ")
        #expect(SearchFolding.queryWords(query).count == 4_001)
        #expect(indexes.slots(matchingName: query) == [0])
        #expect(indexes.slots(matchingName: query + " nobody") == [])
    }

    @Test("An update or a removal takes a contact out of the answers of its old names")
    func updateAndRemoval() {
        var indexes = SearchFixtures.indexes([
            SearchFixtures.contact(given: "John", family: "Smith"),
            SearchFixtures.contact(given: "Joan", family: "Smith"),
            SearchFixtures.contact(given: "Mary", family: "Smyth"),
        ])
        #expect(indexes.slots(matchingName: "jo smi") == [0, 1])
        #expect(indexes.slots(matchingName: "joh smi") == [0])

        indexes.update(
            0, from: SearchFixtures.contact(given: "John", family: "Smith"),
            to: SearchFixtures.contact(given: "Zoë", family: "Smith"))
        #expect(indexes.slots(matchingName: "joh smi") == [])
        #expect(indexes.slots(matchingName: "jo smi") == [1])
        #expect(indexes.slots(matchingName: "zo smi") == [0])

        indexes.remove(1, values: SearchFixtures.contact(given: "Joan", family: "Smith"))
        #expect(indexes.slots(matchingName: "jo smi") == [])
        // The slot is reused by someone else; nothing of Joan Smith's is left on it.
        indexes.insert(1, values: SearchFixtures.contact(given: "Mark", family: "Jones"))
        #expect(indexes.slots(matchingName: "jo smi") == [])
        #expect(indexes.slots(matchingName: "ma jo") == [1])
        #expect(indexes.slots(matchingName: "ma sm") == [2])
        indexes.checkInvariants()
    }

    @Test("A contact of thousands of name words updated to other thousands keeps exactly its new words")
    func updateOfManyWords() {
        let old = SearchFixtures.contact(given: (0..<4_000).map { "w\($0)x" }.joined(separator: " "), family: "Smith")
        let new = SearchFixtures.contact(
            given: (2_000..<6_000).map { "w\($0)x" }.joined(separator: " "), family: "Smith")
        var indexes = SearchFixtures.indexes([old, SearchFixtures.contact(given: "w1x", family: "Jones")])
        indexes.update(0, from: old, to: new)
        #expect(indexes.slots(matchingName: "w1x") == [1])
        #expect(indexes.slots(matchingName: "w1999x") == [])
        #expect(indexes.slots(matchingName: "w2000x smith") == [0])
        #expect(indexes.slots(matchingName: "w5999x") == [0])
        indexes.checkInvariants()
    }

    @Test("A word's signed list appears at its size, goes below half of it, comes back, and stays right")
    func signedListsComeAndGo() {
        let limit = ContactSlot(NameIndex.signedListSlotsMin)
        var indexes = SearchIndexes(defaultCountryCode: "us")
        var reference = SearchReference(country: "us")
        func check(_ when: String) {
            indexes.checkInvariants()
            for query in ["jo smi", "smi jo", "ma smi", "joan sm", "mar smith", "j smi", "sm", "smi smi"] {
                #expect(indexes.slots(matchingName: query) == reference.slots(matchingName: query), "\(query), \(when)")
            }
        }
        func put(_ slot: ContactSlot, _ given: String) {
            let values = SearchFixtures.contact(given: given, family: "Smith")
            indexes.insert(slot, values: values)
            reference.put(slot, values)
        }
        for slot in 0..<2 * limit { put(slot, slot % 2 == 0 ? "John" : "Mary") }
        check("after the inserts")
        // Fewer than half the limit left: the list goes.
        for slot in limit / 2 - 1..<2 * limit { indexes.remove(slot, values: reference.remove(slot)!) }
        check("after the removals")
        for slot in 0..<limit / 2 - 1 where slot % 4 == 1 {
            let old = reference.contacts[slot]!
            let new = SearchFixtures.contact(given: "Joan", family: "Smith")
            indexes.update(slot, from: old, to: new)
            reference.put(slot, new)
        }
        check("after the updates without lists")
        // Back over the limit, in reused slots and new ones, out of order.
        for slot in (limit / 2 - 1..<3 * limit).reversed() { put(slot, slot % 3 == 0 ? "Joan" : "Mary") }
        check("after the list came back")
        for slot in stride(from: 0, to: 3 * limit, by: 5) {
            let old = reference.contacts[slot]!
            let new = SearchFixtures.contact(given: old.givenName == "Mary" ? "John" : "Mary", family: "Smith")
            indexes.update(slot, from: old, to: new)
            reference.put(slot, new)
        }
        check("after updates that keep the family name")
    }

    @Test("Signed lists longer than a block split, merge and stay right through inserts in any order")
    func signedListsInBlocks() throws {
        let seed = SearchFixtures.seed("NameSignatureTests.signedListsInBlocks")
        var random = SearchTestGenerator(seed: seed)
        var indexes = SearchIndexes(defaultCountryCode: "us")
        var reference = SearchReference(country: "us")
        var slots = Array(0..<ContactSlot(SignedSlotList.blockMax * 3))
        slots.shuffle(using: &random)
        for slot in slots {
            let values = SearchFixtures.contact(
                given: ["John", "Mary", "Joan"].randomElement(using: &random)!, family: "Smith")
            indexes.insert(slot, values: values)
            reference.put(slot, values)
        }
        indexes.checkInvariants()
        for slot in slots.prefix(slots.count * 2 / 3) {
            if Bool.random(using: &random) {
                indexes.remove(slot, values: reference.remove(slot)!)
            } else {
                let new = SearchFixtures.contact(given: "Zoë", family: "Smith")
                indexes.update(slot, from: reference.contacts[slot]!, to: new)
                reference.put(slot, new)
            }
        }
        indexes.prepareForQueries()
        indexes.checkInvariants()
        for query in ["jo smi", "smi zo", "ma sm", "joan smith", "zo jo"] {
            #expect(
                indexes.slots(matchingName: query) == reference.slots(matchingName: query), "\(query), seed \(seed)")
        }
        // And through a snapshot.
        var writer = SnapshotWriter(capacity: 0)
        indexes.encode(into: &writer)
        let restored = try writer.bytes.withUnsafeBufferPointer { buffer in
            var reader = SnapshotReader(buffer)
            return try SearchIndexes(from: &reader)
        }
        restored.checkInvariants()
        #expect(restored.slots(matchingName: "jo smi") == reference.slots(matchingName: "jo smi"))
    }

    @Test("Indexes written to a snapshot and read back answer the same and write the same bytes")
    func snapshotRoundTrip() throws {
        var random = SearchTestGenerator(seed: 5)
        var indexes = SearchIndexes(defaultCountryCode: "us")
        var reference = SearchReference(country: "us")
        for slot in 0..<ContactSlot(2_000) {
            let values = Self.contact(&random)
            indexes.insert(slot, values: values)
            reference.put(slot, values)
        }
        for slot in stride(from: ContactSlot(0), to: 2_000, by: 7) {
            indexes.remove(slot, values: reference.remove(slot)!)
        }
        for slot in stride(from: ContactSlot(3), to: 2_000, by: 7) {
            let new = Self.contact(&random)
            indexes.update(slot, from: reference.contacts[slot]!, to: new)
            reference.put(slot, new)
        }
        indexes.prepareForQueries()

        var writer = SnapshotWriter(capacity: 0)
        indexes.encode(into: &writer)
        let bytes = writer.bytes
        let restored = try bytes.withUnsafeBufferPointer { buffer in
            var reader = SnapshotReader(buffer)
            let restored = try SearchIndexes(from: &reader)
            let atEnd = reader.isAtEnd
            #expect(atEnd)
            return restored
        }
        restored.checkInvariants()
        var again = SnapshotWriter(capacity: 0)
        restored.encode(into: &again)
        #expect(again.bytes == bytes)
        for query in Self.queries {
            #expect(restored.slots(matchingName: query) == reference.slots(matchingName: query), "\(query)")
        }
    }
}
