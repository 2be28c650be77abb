import Foundation
import Testing

@testable import ContactsLedger

@Suite("Name search")
struct NameSearchTests {
    /// John Smith at slot 0, and someone unrelated at slot 1.
    private static let johnSmith = SearchFixtures.indexes([
        SearchFixtures.contact(given: "John", family: "Smith", middle: "Quincy", nickname: "Jack"),
        SearchFixtures.contact(given: "Mary", family: "Brown"),
    ])

    @Test(
        "Case, diacritics and width are ignored on both sides",
        arguments: [
            ("José", "jose"), ("jose", "José"), ("Ångström", "angs"), ("Müller", "muller"),
            ("MÜLLER", "mül"), ("Straße", "strasse"), ("Strasse", "straß"), ("ＪＯＨＮ", "john"),
            ("john", "ＪＯ"), ("Łukasz", "lukasz"), ("Ørsted", "orsted"), ("Ærø", "aero"),
            ("François", "FRANC"), ("Zoë", "zoe"), ("Dvořák", "dvorak"), ("İlkay", "ilkay"),
            ("Nguyễn", "nguyen"), ("Ólafsdóttir", "olafsd"),
        ])
    func folding(name: String, query: String) {
        let indexes = SearchFixtures.indexes([
            SearchFixtures.contact(given: name), SearchFixtures.contact(given: "Zzyzx"),
        ])
        #expect(indexes.slots(matchingName: query) == [0])
    }

    @Test(
        "Every query word must start some name word, in any order",
        arguments: [
            ("john", [0]), ("JOHN", [0]), ("jo", [0]), ("j", [0]), ("smith jo", [0]),
            ("jo smith", [0]), ("john sm", [0]), ("j s q", [0]), ("jack", [0]), ("quin", [0]),
            ("jo jo", [0]), ("jo john", [0]), ("  john\tsmith  ", [0]), ("john, smith.", [0]),
            ("john zzz", []), ("johnny", []), ("ohn", []), ("smithy", []), ("mary smith", []),
            ("m", [1]), ("b mary", [1]),
        ] as [(String, [ContactSlot])])
    func words(query: String, expected: [ContactSlot]) {
        #expect(Self.johnSmith.slots(matchingName: query) == expected)
    }

    @Test("A query with no words matches nothing", arguments: ["", " ", "\t\n", "-", ".,'", "—", "!?"])
    func emptyQuery(query: String) {
        #expect(Self.johnSmith.slots(matchingName: query).isEmpty)
    }

    @Test(
        "Each name field is searched, the organization for people too",
        arguments: [
            "namePrefix", "givenName", "middleName", "familyName", "previousFamilyName", "nameSuffix",
            "nickname", "phoneticGivenName", "phoneticMiddleName", "phoneticFamilyName", "organizationName",
            "phoneticOrganizationName",
        ])
    func nameFields(field: String) {
        var values = ContactValues()
        values.contactType = .person
        SearchFixtures.set(field, to: "Wolfeschlegel", in: &values)
        let indexes = SearchFixtures.indexes([values])
        #expect(indexes.slots(matchingName: "wolfe") == [0])
        #expect(indexes.slots(matchingName: "WOLFESCHLEGEL") == [0])
    }

    @Test("Department, job title and note are not name fields", arguments: ["departmentName", "jobTitle", "note"])
    func otherFields(field: String) {
        var values = ContactValues()
        SearchFixtures.set(field, to: "Wolfeschlegel", in: &values)
        #expect(SearchFixtures.indexes([values]).slots(matchingName: "wolfe").isEmpty)
    }

    @Test(
        "Whitespace and punctuation separate words",
        arguments: [
            ("Jean-Luc", "luc"), ("Jean-Luc", "jean-luc"), ("O'Brien", "brien"), ("O’Brien", "o brien"),
            ("St. John", "john"), ("Smith,Jones", "jones"), ("AT&T", "t"), ("Anne_Marie", "marie"),
            ("3M Company", "3m"), ("R2-D2", "d2"),
        ])
    func separators(name: String, query: String) {
        let indexes = SearchFixtures.indexes([SearchFixtures.contact(organization: name)])
        #expect(indexes.slots(matchingName: query) == [0])
    }

    @Test("An apostrophe splits a name, so the joined spelling does not match")
    func apostrophe() {
        let indexes = SearchFixtures.indexes([SearchFixtures.contact(family: "O'Brien")])
        #expect(indexes.slots(matchingName: "obrien").isEmpty)
        #expect(indexes.slots(matchingName: "o'brien") == [0])
    }

    @Test(
        "In Han, Kana and Hangul every character starts a word",
        arguments: [
            ("田中太郎", "田中", true), ("田中太郎", "太郎", true), ("田中太郎", "郎", true),
            ("田中太郎", "中太", true), ("田中太郎", "田中 太郎", true), ("田中太郎", "郎田", false),
            ("田中太郎", "田中花子", false), ("김민준", "민준", true), ("김민준", "김", true),
            ("김민준", "준김", false), ("タナカ", "ナカ", true), ("ﾀﾅｶ", "タナ", true),
            ("田中Taro", "taro", true), ("田中Taro", "中", true), ("王小明", "小明", true),
        ])
    func cjk(name: String, query: String, matches: Bool) {
        let indexes = SearchFixtures.indexes([SearchFixtures.contact(given: name)])
        #expect(indexes.slots(matchingName: query) == (matches ? [0] : []))
    }

    @Test("Other scripts fold case and split like Latin")
    func otherScripts() {
        let indexes = SearchFixtures.indexes([
            SearchFixtures.contact(given: "Дмитрий", family: "Иванов"),
            SearchFixtures.contact(given: "Σωκράτης"),
            SearchFixtures.contact(given: "नमस्ते"),
        ])
        #expect(indexes.slots(matchingName: "дми ив") == [0])
        #expect(indexes.slots(matchingName: "ИВАНОВ") == [0])
        #expect(indexes.slots(matchingName: "д") == [0])
        #expect(indexes.slots(matchingName: "σωκ") == [1])
        #expect(indexes.slots(matchingName: "ΣΩΚΡΆΤΗΣ") == [1])
        #expect(indexes.slots(matchingName: "नम") == [2])
    }

    @Test("Results are sorted and list a contact once however many of its words match")
    func sortedAndUnique() {
        var contacts: [ContactValues] = []
        for index in 0..<300 {
            contacts.append(
                index % 3 == 0
                    ? SearchFixtures.contact(given: "John", family: "Johnson", nickname: "Johnny")
                    : SearchFixtures.contact(given: "Mary", family: "Jones \(index)"))
        }
        let indexes = SearchFixtures.indexes(contacts)
        let all = indexes.slots(matchingName: "jo")
        #expect(all == (0..<300).map { ContactSlot($0) })
        #expect(indexes.slots(matchingName: "john") == stride(from: 0, to: 300, by: 3).map { ContactSlot($0) })
        #expect(indexes.slots(matchingName: "jones 12") == [121, 122, 124, 125, 127, 128])
    }

    @Test("Removing and updating keep the answers right")
    func removeAndUpdate() {
        let john = SearchFixtures.contact(given: "John", family: "Smith", organization: "Acme")
        let mary = SearchFixtures.contact(given: "Mary", family: "Smith")
        var indexes = SearchFixtures.indexes([john, mary])
        #expect(indexes.slots(matchingName: "smith") == [0, 1])

        var renamed = john
        renamed.familyName = "Smythe"
        indexes.update(0, from: john, to: renamed)
        #expect(indexes.slots(matchingName: "smith") == [1])
        #expect(indexes.slots(matchingName: "smy") == [0])
        #expect(indexes.slots(matchingName: "acme john") == [0])
        #expect(indexes.slots(matchingName: "s") == [0, 1])

        indexes.remove(1, values: mary)
        #expect(indexes.slots(matchingName: "smith").isEmpty)
        #expect(indexes.slots(matchingName: "mary").isEmpty)
        #expect(indexes.slots(matchingName: "s") == [0])

        indexes.insert(1, values: john)
        #expect(indexes.slots(matchingName: "smith") == [1])
        #expect(indexes.slots(matchingName: "john") == [0, 1])
        indexes.checkInvariants()
    }

    @Test("An update that keeps a word start keeps the contact under it")
    func updateSharedWordStart() {
        let before = SearchFixtures.contact(given: "John", family: "Johnson")
        var after = before
        after.familyName = "Smith"
        var indexes = SearchFixtures.indexes([before])
        indexes.update(0, from: before, to: after)
        #expect(indexes.slots(matchingName: "jo") == [0])
        #expect(indexes.slots(matchingName: "johns").isEmpty)
        #expect(indexes.slots(matchingName: "sm") == [0])
        indexes.checkInvariants()
    }

    @Test("Queries are right before prepareForQueries, and after it")
    func preparation() {
        var indexes = SearchIndexes(defaultCountryCode: "us")
        indexes.insert(0, values: SearchFixtures.contact(given: "Alice"))
        indexes.prepareForQueries()
        indexes.insert(1, values: SearchFixtures.contact(given: "Alicia"))
        #expect(indexes.needsPreparation)
        #expect(indexes.slots(matchingName: "alic") == [0, 1])
        #expect(indexes.slots(matchingName: "alici") == [1])
        indexes.prepareForQueries()
        #expect(!indexes.needsPreparation)
        #expect(indexes.slots(matchingName: "alic") == [0, 1])
        indexes.checkInvariants()
    }

    @Test("Slots can be inserted in any order and reused")
    func slotOrder() {
        var indexes = SearchIndexes(defaultCountryCode: "us")
        for slot in [5, 1, 9, 3, 0] as [ContactSlot] {
            indexes.insert(slot, values: SearchFixtures.contact(given: "Anna"))
        }
        #expect(indexes.slots(matchingName: "ann") == [0, 1, 3, 5, 9])
        indexes.remove(3, values: SearchFixtures.contact(given: "Anna"))
        indexes.insert(3, values: SearchFixtures.contact(given: "Bob"))
        #expect(indexes.slots(matchingName: "an") == [0, 1, 5, 9])
        #expect(indexes.slots(matchingName: "b") == [3])
        indexes.checkInvariants()
    }

    @Test("Copies are independent values and can be queried from many tasks at once")
    func concurrentQueries() async {
        var contacts: [ContactValues] = []
        for index in 0..<2000 {
            contacts.append(SearchFixtures.contact(given: index % 2 == 0 ? "John" : "Jane", family: "F\(index % 10)"))
        }
        var indexes = SearchFixtures.indexes(contacts)
        let snapshot = indexes
        indexes.remove(0, values: contacts[0])
        #expect(snapshot.slots(matchingName: "john f0").first == 0)
        #expect(indexes.slots(matchingName: "john f0").first == 10)
        let expected = snapshot.slots(matchingName: "ja f3")
        #expect(expected.count == 200)
        let allAgree = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    (0..<50).allSatisfy { _ in snapshot.slots(matchingName: "ja f3") == expected }
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(allAgree)
    }

    @Test("Words no contact has any more are dropped, and the index stays right")
    func compaction() {
        var indexes = SearchIndexes(defaultCountryCode: "us")
        var contacts: [ContactValues] = []
        for index in 0..<12000 {
            let values = SearchFixtures.contact(
                given: index % 2 == 0 ? "Ann" : "Bo", family: "Fam\(String(index, radix: 36))x",
                emails: ["u\(index)@example.com"])
            contacts.append(values)
            indexes.insert(ContactSlot(index), values: values)
        }
        indexes.prepareForQueries()
        for index in 0..<11000 { indexes.remove(ContactSlot(index), values: contacts[index]) }
        indexes.checkInvariants()
        #expect(indexes.slots(matchingName: "fam") == (11000..<12000).map { ContactSlot($0) })
        #expect(indexes.slots(matchingName: "ann fam") == stride(from: 11000, to: 12000, by: 2).map { ContactSlot($0) })
        #expect(indexes.slots(matchingName: "fam\(String(11500, radix: 36))") == [11500])
        #expect(indexes.slots(matchingName: "fam\(String(5, radix: 36))x").isEmpty)
        #expect(indexes.slots(matchingEmailAddress: "u11999@example.com") == [11999])
        #expect(indexes.slots(matchingEmailAddress: "u1@example.com").isEmpty)
    }
}

@Suite("Search slot sets")
struct SearchSlotSetTests {
    @Test(
        "Unions through sorting and through a bitmap agree with a set",
        arguments: [(40, 1_000_000), (40, 100), (3000, 5000), (1, 10)])
    func union(count: Int, slotBound: Int) {
        var generator = SearchTestGenerator(seed: UInt64(count * 31 + slotBound))
        let sets: [[ContactSlot]] = (0..<7).map { _ in
            Array(Set((0..<count).map { _ in ContactSlot.random(in: 0..<ContactSlot(slotBound), using: &generator) })).sorted()
        }
        let total = sets.reduce(0) { $0 + $1.count }
        let union = SlotSetAlgebra.union(totalCount: total, slotBound: slotBound) { body in
            for set in sets { set.withUnsafeBufferPointer(body) }
        }
        #expect(union == Set(sets.joined()).sorted())
    }

    @Test(
        "Intersections gallop or merge and agree with a set",
        arguments: [(10, 5000), (5000, 10), (1000, 1200), (0, 10), (10, 0)])
    func intersection(candidateCount: Int, setCount: Int) {
        var generator = SearchTestGenerator(seed: UInt64(candidateCount * 7 + setCount))
        let candidates = Array(Set((0..<candidateCount).map { _ in ContactSlot.random(in: 0..<8000, using: &generator) })).sorted()
        let set = Array(Set((0..<setCount).map { _ in ContactSlot.random(in: 0..<8000, using: &generator) })).sorted()
        let result = set.withUnsafeBufferPointer { SlotSetAlgebra.intersection(candidates, $0) }
        #expect(result == candidates.filter(Set(set).contains))
    }
}
