import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The bulk build of the name index (``NameIndex/Builder``) and the counting sort behind it
/// (``SlotPostings/init(keyCount:pairs:)``) must give what inserting one contact at a time
/// gives: the same slot sets, the same signed lists, the same answers.
@Suite("Bulk name index build")
struct BulkNameBuildTests {
    @Test("Postings made from pairs hold what inserting the pairs one by one gives")
    func postingsFromPairs() {
        let seed = SearchFixtures.seed("BulkNameBuildTests.postingsFromPairs")
        var generator = SearchTestGenerator(seed: seed)
        let keyCount = 40
        var pairs: [UInt64] = []
        var inserted = SlotPostings()
        for _ in 0..<keyCount { inserted.appendKey() }
        // Slots ascend; each slot goes to a few keys, sometimes to the same key twice in a row.
        // Key 0 takes every slot, so that its set spans several blocks; the last key takes none.
        for slot in ContactSlot(0)..<ContactSlot(3 * SlotList.blockMax) {
            var keys: [UInt32] = [0]
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                keys.append(UInt32.random(in: 1..<UInt32(keyCount - 1), using: &generator))
            }
            if Int.random(in: 0..<10, using: &generator) == 0 { keys.append(keys.last!) }
            for key in keys {
                pairs.append(UInt64(key) << 32 | UInt64(slot))
                inserted.insert(slot, into: key)
            }
        }
        // A key with exactly one slot keeps it inline.
        pairs.append(UInt64(keyCount - 2) << 32 | UInt64(3 * SlotList.blockMax))
        inserted.insert(ContactSlot(3 * SlotList.blockMax), into: UInt32(keyCount - 2))

        let built = SlotPostings(keyCount: keyCount, pairs: pairs)
        built.checkInvariants()
        #expect(built.keyCount == keyCount)
        for key in 0..<UInt32(keyCount) {
            #expect(built.slots(of: key) == inserted.slots(of: key), "key \(key), seed \(seed)")
        }
        #expect(built.count(of: 0) == 3 * SlotList.blockMax)
        #expect(built.isEmpty(UInt32(keyCount - 1)))
    }

    @Test("A set made from more sorted slots than a block holds is in full blocks")
    func slotListFromSorted() {
        let slots = (0..<(2 * SlotList.blockMax + 5)).map { ContactSlot($0 * 2) }
        var list = SlotList(slots)
        list.checkInvariants()
        #expect(list.slots == slots)
        var blockSizes: [Int] = []
        list.forEachBlock { blockSizes.append($0.count) }
        #expect(blockSizes == [SlotList.blockMax, SlotList.blockMax, 5])
        let added = list.insert(3)
        #expect(added)
        #expect(list.contains(3))
        list.checkInvariants()
    }

    @Test(
        "A name index built in bulk equals one built by inserting each contact, its word starts' postings made apart or not",
        arguments: [false, true])
    func builderMatchesInserts(startsMadeApart: Bool) {
        let seed = SearchFixtures.seed("BulkNameBuildTests.builderMatchesInserts")
        var generator = SearchTestGenerator(seed: seed)
        // Few names, so that common words pass the signed-list threshold; some contacts have no
        // words at all, so slots are skipped.
        let given = ["John", "Johnny", "Jo", "José", "Mary", "María", "Zoë", "Łukasz", "太郎", "Дмитрий", "Ａｎｎ"]
        let family = ["Smith", "Smithson", "Müller", "O'Brien", "van der Berg", "田中", "Nguyễn", "Jean-Luc"]
        var inserted = NameIndex()
        var builder = NameIndex.Builder()
        var slot: ContactSlot = 0
        for _ in 0..<3000 {
            slot += ContactSlot.random(in: 1...3, using: &generator)
            var values = ContactValues()
            if Int.random(in: 0..<20, using: &generator) != 0 {
                values.givenName = given.randomElement(using: &generator)!
                values.familyName = family.randomElement(using: &generator)!
                if Bool.random(using: &generator) { values.middleName = given.randomElement(using: &generator)! }
                if Int.random(in: 0..<30, using: &generator) == 0 { values.nickname = "Unique\(slot)" }
            }
            let words = SearchFolding.nameWords(of: values)
            inserted.insert(slot, words: words)
            builder.add(slot, words: words)
        }
        var built: NameIndex
        if startsMadeApart {
            // As the bulk index build does: the pairs taken out, the rest finished and prepared,
            // the word starts' postings made from the pairs (on another thread there) and adopted.
            let starts = builder.takeStartPairs()
            built = builder.finish()
            built.prepareForQueries()
            built.adoptStartPostings(starts.postings())
        } else {
            built = builder.finish()
        }
        inserted.prepareForQueries()
        built.prepareForQueries()
        inserted.checkInvariants()
        built.checkInvariants()
        var queries = ["j", "jo", "john", "jo sm", "smith jo", "mü", "田", "太郎 田中", "ann", "unique", "van berg", "zz"]
        for first in given + family {
            queries.append(String(first.prefix(2)))
            for second in family { queries.append("\(first.prefix(3)) \(second.prefix(2))") }
        }
        for query in queries {
            let words = SearchFolding.queryWords(query)
            #expect(built.slots(matching: words) == inserted.slots(matching: words), "\(query), seed \(seed)")
        }
        #expect(built.estimatedBytes > 0)
    }

    @Test(
        "A name build that folds a shared name field once equals one that inserts each contact, whatever its memo keeps",
        arguments: [(4096, 1 << 20), (4, 96)] as [(Int, Int)])
    func memoizedBuildMatchesInserts(places: Int, keptBytesMax: Int) throws {
        let seed = SearchFixtures.seed("BulkNameBuildTests.memoizedBuildMatchesInserts")
        var generator = SearchTestGenerator(seed: seed)
        // Shared fields (ASCII, accented, CJK, full-width, several words, one that folds to no
        // word), and distinct ones, so that a small memo meets fields whose place another took
        // and empties itself when full.
        let shared = [
            "John", "Jo", "José", "Zoë", "Łukasz", "太郎", "Ａｎｎ", "van der Berg", "Jean-Luc", "O'Brien", "--", "Nguyễn",
        ]
        var inserted = NameIndex()
        var build = SearchIndexes.NameBuild(
            memo: NameFieldMemo(places: places, keptBytesMax: keptBytesMax))
        var slot: ContactSlot = 0
        for index in 0..<2000 {
            slot += ContactSlot.random(in: 1...2, using: &generator)
            var values = ContactValues()
            if index % 25 != 0 {
                values.givenName = shared.randomElement(using: &generator)!
                values.familyName =
                    Bool.random(using: &generator) ? shared.randomElement(using: &generator)! : "Family\(index % 300)"
                if index % 3 == 0 { values.organizationName = "Organization \(index % 50) Ltd" }
                if index % 7 == 0 { values.nickname = shared.randomElement(using: &generator)! }
            }
            inserted.insert(slot, words: SearchFolding.nameWords(of: values))
            try ContactCodec.encode(values, keys: .all).withUnsafeBufferPointer { encoded in
                try ContactCodec.forEachIndexedField(in: encoded) { field, utf8 in
                    if field == .name { build.addNameField(utf8) }
                }
            }
            build.endContact(slot)
        }
        var built = build.finish()
        inserted.prepareForQueries()
        built.prepareForQueries()
        built.checkInvariants()
        var queries = [
            "j", "jo", "john", "jo van", "berg jean", "太郎", "ann", "nguyen", "family1", "organization 4 ltd",
        ]
        for first in shared {
            queries.append(String(first.prefix(2)))
            for second in shared { queries.append("\(first.prefix(3)) \(second.prefix(2))") }
        }
        queries += (0..<300).map { "family\($0)" }
        var matched = 0
        for query in queries {
            let words = SearchFolding.queryWords(query)
            let expected = inserted.slots(matching: words)
            #expect(built.slots(matching: words) == expected, "\(query), seed \(seed)")
            if !expected.isEmpty { matched += 1 }
        }
        #expect(matched > queries.count / 2)
    }
}
