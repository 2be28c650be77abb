import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Search indexes against a linear scan")
struct SearchIndexRandomizedTests {
    private static let givenNames = [
        "John", "Johnny", "Jon", "Joan", "Jo", "José", "Joseph", "Josephine", "Mary", "Maria", "María",
        "Marie-Claire", "Müller", "Ångström", "Łukasz", "Zoë", "Chloé", "Anne", "Annika", "Ann", "Ｊｏｈｎ",
        "Ólafur", "Søren", "Straße", "O'Neil", "太郎", "花子", "민준", "Дмитрий", "Σοφία", "",
    ]
    private static let familyNames = [
        "Smith", "Smyth", "Smithson", "Johnson", "Jones", "Brown", "Browning", "Müller", "Mueller",
        "García", "Garcia", "O'Brien", "van der Berg", "田中", "田中太郎", "김", "Иванов", "Nguyễn", "",
    ]
    private static let organizations = ["", "", "", "Apple Inc.", "Acme Corp", "Smith & Sons", "株式会社タナカ"]
    private static let emails = [
        "john@example.com", "John@Example.com", "mary@example.org", "team@example.com",
        "josé@example.com", "JOSÉ@EXAMPLE.COM", " info@acme.example ", "a@b.c",
    ]
    private static let phones = [
        "+1 415 555 0100", "(415) 555-0100", "1-415-555-0100", "415 555 0101", "+44 20 7946 0958",
        "011 44 20 7946 0958", "0044 20 7946 0958", "020 7946 0958", "+49 30 123456", "+33 1 23 45 67 89",
        "911", "12", "+1 ٤١٥ ٥٥٥ ٠١٠٠",
    ]

    private static func randomContact(using generator: inout SearchTestGenerator) -> ContactValues {
        var values = ContactValues()
        values.givenName = givenNames.randomElement(using: &generator)!
        values.familyName = familyNames.randomElement(using: &generator)!
        if Int.random(in: 0..<4, using: &generator) == 0 {
            values.middleName = givenNames.randomElement(using: &generator)!
        }
        if Int.random(in: 0..<6, using: &generator) == 0 {
            values.nickname = givenNames.randomElement(using: &generator)!
        }
        if Int.random(in: 0..<8, using: &generator) == 0 {
            // A name of its own, so that the index holds many rare words.
            values.previousFamilyName = "Rare\(Int.random(in: 0..<5000, using: &generator))"
        }
        values.organizationName = organizations.randomElement(using: &generator)!
        values.emailAddresses = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            LabeledValue(label: nil, value: emails.randomElement(using: &generator)!)
        }
        values.phoneNumbers = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            LabeledValue(label: nil, value: PhoneNumber(stringValue: phones.randomElement(using: &generator)!))
        }
        return values
    }

    /// A name query: one to three word starts of names in the pools, in any case.
    private static func randomNameQuery(using generator: inout SearchTestGenerator) -> String {
        let pool = givenNames + familyNames + organizations + ["Rare12", "Rare4", "Rare", "x", "Jo Sm", "-"]
        return (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            let name = pool.randomElement(using: &generator)!
            let length = Int.random(in: 0...max(0, name.count), using: &generator)
            let start = String(name.prefix(max(1, length)))
            return Bool.random(using: &generator) ? start.uppercased() : start
        }.joined(separator: " ")
    }

    @Test("Random inserts, updates and removes agree with a linear scan", arguments: ["us", "gb", "zz"])
    func agreesWithLinearScan(country: String) {
        let seed = SearchFixtures.seed("SearchIndexRandomizedTests(\(country))")
        var generator = SearchTestGenerator(seed: seed)
        var indexes = SearchIndexes(defaultCountryCode: country)
        var reference = SearchReference(country: country)
        var freeSlots: [ContactSlot] = []
        var nextSlot: ContactSlot = 0

        for step in 0..<4000 {
            let roll = Int.random(in: 0..<10, using: &generator)
            if roll < 5 || reference.contacts.isEmpty {
                let slot: ContactSlot
                if !freeSlots.isEmpty, Bool.random(using: &generator) {
                    slot = freeSlots.remove(at: Int.random(in: 0..<freeSlots.count, using: &generator))
                } else {
                    slot = nextSlot
                    nextSlot += 1
                }
                let values = Self.randomContact(using: &generator)
                indexes.insert(slot, values: values)
                reference.put(slot, values)
            } else if roll < 8 {
                let slot = reference.contacts.keys.randomElement(using: &generator)!
                let old = reference.contacts[slot]!
                var new = Self.randomContact(using: &generator)
                // Keep some fields, so that updates touch part of a contact.
                if Bool.random(using: &generator) { new.givenName = old.givenName }
                if Bool.random(using: &generator) { new.emailAddresses = old.emailAddresses }
                if Bool.random(using: &generator) { new.phoneNumbers = old.phoneNumbers }
                indexes.update(slot, from: old, to: new)
                reference.put(slot, new)
            } else {
                let slot = reference.contacts.keys.randomElement(using: &generator)!
                indexes.remove(slot, values: reference.remove(slot)!)
                freeSlots.append(slot)
            }
            if Int.random(in: 0..<50, using: &generator) == 0 { indexes.prepareForQueries() }
            if step % 200 == 199 {
                for _ in 0..<30 {
                    let query = Self.randomNameQuery(using: &generator)
                    #expect(
                        indexes.slots(matchingName: query) == reference.slots(matchingName: query),
                        "name query \(query) after step \(step), seed \(seed)")
                }
                for query in Self.emails + ["JOHN@example.COM", "nobody@example.com"] {
                    #expect(
                        indexes.slots(matchingEmailAddress: query) == reference.slots(matchingEmailAddress: query),
                        "email query \(query) after step \(step), seed \(seed)")
                }
                for query in Self.phones + ["4155550100", "+44 (0)20 7946 0958", "555 0100"] {
                    #expect(
                        indexes.slots(matchingPhoneNumber: query) == reference.slots(matchingPhoneNumber: query),
                        "phone query \(query) after step \(step), seed \(seed)")
                }
            }
        }
        indexes.checkInvariants()
    }

    @Test("Words shared by more contacts than a block holds agree with a linear scan")
    func largeSets() {
        let seed = SearchFixtures.seed("SearchIndexRandomizedTests.largeSets")
        var generator = SearchTestGenerator(seed: seed)
        var indexes = SearchIndexes(defaultCountryCode: "us")
        var reference = SearchReference(country: "us")
        let given = ["John", "Joan", "Jane", "Johnny", "Mary"]
        let family = ["Smith", "Smyth", "Smithson", "Jones", "Brown"]
        var slots = Array(0..<ContactSlot(SlotList.blockMax * 3))
        slots.shuffle(using: &generator)
        for slot in slots {
            var values = ContactValues()
            values.givenName = given.randomElement(using: &generator)!
            values.familyName = family.randomElement(using: &generator)!
            values.phoneNumbers = [LabeledValue(label: nil, value: PhoneNumber(stringValue: "+1 415 555 0100"))]
            indexes.insert(slot, values: values)
            reference.put(slot, values)
        }
        indexes.prepareForQueries()
        for slot in slots.prefix(slots.count / 3) {
            indexes.remove(slot, values: reference.remove(slot)!)
        }
        for query in ["jo", "j", "john", "jo sm", "john smith", "sm jo", "j s", "mary b", "smy", "x"] {
            #expect(
                indexes.slots(matchingName: query) == reference.slots(matchingName: query), "\(query), seed \(seed)")
        }
        #expect(indexes.slots(matchingPhoneNumber: "4155550100") == reference.slots(matchingPhoneNumber: "4155550100"))
        indexes.checkInvariants()
    }
}
