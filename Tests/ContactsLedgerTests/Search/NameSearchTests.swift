import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

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

    @Test(
        "Folding by the table gives what Foundation's folding gives",
        arguments: [
            "Adrián Agnès Ángel Anaïs Antônio Ayşe Benoît Björn Cécile Cristóbal Dagný Dóra Élodie",
            "Guðrún Håkon Héctor Inês Iván Jiří João Jørgen Jürgen Łucja Łukasz Maëlle Magnús Małgorzata",
            "Mikołaj Ondřej Paweł Søren Thérèse Zoë Zoltán Ågren Bárány Błaszczyk Böhm Černý Czerwińska",
            "Dąbrowski Doležal Dvořák Guðmundsdóttir Kovačević Kozłowski Krämer Nguyễn Özdemir Phạm Šimek",
            "Trần Wiśniewski Yılmaz Žák Ангелина Дмитрий Наталья Сергей Ελένη Νίκος Иванов Смирнова Попов",
            "Παπαδόπουλος Société Générale d’Études Müller & Söhne Nordisk Fjärrvärme Łódź Textiles",
            "Straße ẞ Æsir Œuvre Þór Ðuro İstanbul ı ſ ﬁ ǅ ǈ Ǳ ＪＯＨＮ ｊｏｈｎ ０１２ Ⅻ ½ ² ª º µ",
            "José Jose\u{301} ü u\u{308} Ω ΐ ς Σ ё Ё й ї « » — – ‘ ’ “ ” • … ¿ ¡ § ¶ © ® ™ ° ±",
            "Nguyễn Văn Đức Trịnh Thị Hương Lê Đặng Bùi Đỗ Hồ Ngô Dương Lý",
            "田中太郎 佐藤 鈴木 高橋 渡辺 山本 王 李 张 刘 김민준 이 박 지민 서연 翔太 美咲 伟 芳 秀英",
            "株式会社山田商事 田中Taro Taro田中 ジョン・スミス カタカナ がぎ Ｔａｒｏ 김-민준 李.小龙",
        ])
    func tableFolding(text: String) {
        var byTable = FoldedWords()
        SearchFolding.appendWords(of: text, to: &byTable)
        var byFoundation = FoldedWords()
        SearchFolding.appendWordsByFoundation(of: text, to: &byFoundation)
        #expect(byTable.bytes == byFoundation.bytes && byTable.ends == byFoundation.ends)
    }

    @Test("Folding by the table agrees with Foundation's on every character it covers, alone and in words")
    func tableFoldingEveryCharacter() {
        var covered: [Unicode.Scalar] = []
        for range in [0x80..<0x530, 0x1E00..<0x2070, 0xFF00..<0xFFF0] as [Range<UInt32>] {
            for value in range {
                if let scalar = Unicode.Scalar(value), ScalarFolds.shared.entry(for: value) != nil {
                    covered.append(scalar)
                }
            }
        }
        #expect(covered.count > 1500)
        var generator = SearchTestGenerator(seed: 99)
        var texts = covered.map { "a\($0)b \($0)" }
        for _ in 0..<2000 {
            texts.append(
                String(
                    String.UnicodeScalarView(
                        (0..<6).map { _ in
                            Bool.random(using: &generator)
                                ? covered.randomElement(using: &generator)!
                                : "xyz -田中太郎김민준タナカがぎ".unicodeScalars.randomElement(using: &generator)!
                        })))
        }
        var disagreements: [String] = []
        for text in texts {
            var byTable = FoldedWords()
            SearchFolding.appendWords(of: text, to: &byTable)
            var byFoundation = FoldedWords()
            SearchFolding.appendWordsByFoundation(of: text, to: &byFoundation)
            if byTable.bytes != byFoundation.bytes || byTable.ends != byFoundation.ends {
                disagreements.append(text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test("Folding leaves every character of the CJK blocks that the table passes through as it is")
    func unfoldedCJK() {
        var changed: [UInt32] = []
        for value in UInt32(0x3000)...0xD7FF where ScalarFolds.isUnfoldedCJK(value) {
            let text = String(Unicode.Scalar(value)!)
            let folded = text.folding(options: SearchFolding.nameFoldingOptions, locale: nil)
                .precomposedStringWithCanonicalMapping
            if folded != text || !SearchFolding.isCJK(Unicode.Scalar(value)!) { changed.append(value) }
        }
        #expect(changed.isEmpty, "\(changed.prefix(20).map { String($0, radix: 16) })")
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
            Array(Set((0..<count).map { _ in ContactSlot.random(in: 0..<ContactSlot(slotBound), using: &generator) }))
                .sorted()
        }
        let total = sets.reduce(0) { $0 + $1.count }
        let union = SlotSetAlgebra.union(totalCount: total, slotBound: slotBound) { body in
            for set in sets { set.withUnsafeBufferPointer(body) }
        }
        #expect(union == Set(sets.joined()).sorted())
    }

    @Test(
        "Intersections step by cache lines, gallop or merge and agree with a set",
        arguments: [(10, 5000), (100, 7000), (2, 5000), (5000, 10), (1000, 1200), (0, 10), (10, 0)])
    func intersection(candidateCount: Int, setCount: Int) {
        var generator = SearchTestGenerator(seed: UInt64(candidateCount * 7 + setCount))
        let candidates = Array(
            Set((0..<candidateCount).map { _ in ContactSlot.random(in: 0..<8000, using: &generator) })
        ).sorted()
        let set = Array(Set((0..<setCount).map { _ in ContactSlot.random(in: 0..<8000, using: &generator) })).sorted()
        let result = set.withUnsafeBufferPointer { SlotSetAlgebra.intersection(candidates, $0) }
        #expect(result == candidates.filter(Set(set).contains))
    }

    @Test(
        "The integer key table agrees with a dictionary through random inserts and removes, with room reserved midway or not",
        arguments: [false, true])
    func integerKeyTable(reserving: Bool) {
        let seed = SearchFixtures.seed("integerKeyTable")
        var generator = SearchTestGenerator(seed: seed)
        var table = IntegerKeyIndex()
        var reference: [UInt64: Set<ContactSlot>] = [:]
        // Few distinct keys and slots, so that keys come and go and probe runs collide.
        let keys = (0..<300).map { _ in UInt64.random(in: 1...UInt64.max, using: &generator) }
        for step in 0..<20000 {
            if reserving && step == 1000 {
                // The keys already in are rehashed into the reserved buckets.
                table.reserveCapacity(keys: 5000)
                table.checkInvariants()
                for key in keys { #expect(table.slots(of: key) == (reference[key] ?? []).sorted(), "seed \(seed)") }
            }
            let key = keys.randomElement(using: &generator)!
            let slot = ContactSlot.random(in: 0..<8, using: &generator)
            if Bool.random(using: &generator) {
                table.insert(slot, key: key)
                reference[key, default: []].insert(slot)
            } else {
                table.remove(slot, key: key)
                reference[key]?.remove(slot)
            }
        }
        table.checkInvariants()
        for key in keys {
            #expect(table.slots(of: key) == (reference[key] ?? []).sorted(), "seed \(seed)")
        }
    }

    @Test(
        "Filtering candidates by any of several sets agrees with a set, by marks or by bitmap",
        arguments: [(50, 20, 3), (5000, 3000, 6), (3000, 40000, 1), (200, 90000, 4), (0, 10, 2), (10, 0, 2)])
    func candidatesInAnyOf(candidateCount: Int, setCount: Int, sets: Int) {
        var generator = SearchTestGenerator(seed: UInt64(candidateCount * 131 + setCount * 7 + sets))
        let bound: ContactSlot = 200_000
        let candidates = Set((0..<candidateCount).map { _ in ContactSlot.random(in: 0..<bound, using: &generator) })
            .sorted()
        let lists = (0..<sets).map { _ in
            Set((0..<setCount).map { _ in ContactSlot.random(in: 0..<bound, using: &generator) }).sorted()
        }
        let total = lists.reduce(0) { $0 + $1.count }
        let result = SlotSetAlgebra.candidates(candidates, inAnyOf: total) { body in
            for list in lists { list.withUnsafeBufferPointer(body) }
        }
        let members = Set(lists.joined())
        #expect(result == candidates.filter(members.contains))
    }

    @Test(
        "Large slot sets split into blocks and stay sorted through random inserts and removes",
        arguments: [false, true])
    func slotLists(appending: Bool) {
        let seed = SearchFixtures.seed("slotLists")
        var generator = SearchTestGenerator(seed: seed)
        var sets = SlotSets()
        var head = SlotSets.emptyHead
        var reference = Set<ContactSlot>()
        let bound = ContactSlot(SlotList.blockMax * 5)
        for step in 0..<Int(bound) * 2 {
            // First grow (in order when appending, as a replay does), then churn.
            let slot =
                appending && step < Int(bound)
                ? ContactSlot(step) : ContactSlot.random(in: 0..<bound, using: &generator)
            if step < Int(bound) || Bool.random(using: &generator) {
                #expect(sets.insert(slot, head: &head) == reference.insert(slot).inserted)
            } else {
                #expect(sets.remove(slot, head: &head) == (reference.remove(slot) != nil))
            }
        }
        #expect(sets.slots(of: head) == reference.sorted(), "seed \(seed)")
        #expect(sets.count(head) == reference.count)
        var blocks = 0
        sets.forEachBlock(of: head) { _ in blocks += 1 }
        #expect(blocks > 1)
        sets.checkInvariants(heads: [head])
        for slot in reference.sorted() where Bool.random(using: &generator) || slot % 7 == 0 {
            #expect(sets.contains(slot, head: head))
            sets.remove(slot, head: &head)
            reference.remove(slot)
        }
        for slot in reference { sets.remove(slot, head: &head) }
        #expect(head == SlotSets.emptyHead)
        sets.checkInvariants(heads: [head])
    }

    @Test(
        "The byte string table finds every string it was given, with room reserved midway or not",
        arguments: [false, true])
    func byteStringTable(reserving: Bool) {
        var table = ByteStringTable()
        let strings = (0..<5000).map { Array("key-\($0 * 7)".utf8) } + [[], [0], [0, 0]]
        var reservedBytes = 0
        for (index, string) in strings.enumerated() {
            if reserving && index == 1000 {
                // Room for the rest: the strings already in are rehashed into the new buckets,
                // and nothing grows again.
                let rest = strings[index...]
                table.reserveCapacity(strings: rest.count, bytes: rest.reduce(0) { $0 + $1.count })
                reservedBytes = table.estimatedBytes
            }
            let (id, inserted) = string.withUnsafeBufferPointer { table.findOrInsert($0) }
            #expect(inserted && id == UInt32(index))
        }
        if reserving { #expect(table.estimatedBytes == reservedBytes) }
        for (index, string) in strings.enumerated() {
            #expect(string.withUnsafeBufferPointer { table.find($0) } == UInt32(index))
        }
        #expect(Array("key-1".utf8).withUnsafeBufferPointer { table.find($0) } == nil)
        table.checkInvariants()
    }
}
