import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Builders, a seeded generator and a brute-force reference for the search index tests.
enum SearchFixtures {
    /// A contact with the given name fields, email addresses and phone numbers.
    static func contact(
        given: String = "", family: String = "", middle: String = "", nickname: String = "",
        organization: String = "", emails: [String] = [], phones: [String] = []
    ) -> ContactValues {
        var values = ContactValues()
        values.givenName = given
        values.familyName = family
        values.middleName = middle
        values.nickname = nickname
        values.organizationName = organization
        values.emailAddresses = emails.map { LabeledValue(label: Label.home, value: $0) }
        values.phoneNumbers = phones.map {
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: $0))
        }
        return values
    }

    /// Indexes holding the contacts at slots 0, 1, 2, ..., prepared for queries.
    static func indexes(_ contacts: [ContactValues], country: String = "us") -> SearchIndexes {
        var indexes = SearchIndexes(defaultCountryCode: country)
        for (slot, values) in contacts.enumerated() {
            indexes.insert(ContactSlot(slot), values: values)
        }
        indexes.prepareForQueries()
        return indexes
    }

    /// Sets one of the name fields the index reads, by its ContactKey name.
    static func set(_ field: String, to text: String, in values: inout ContactValues) {
        switch field {
        case "namePrefix": values.namePrefix = text
        case "givenName": values.givenName = text
        case "middleName": values.middleName = text
        case "familyName": values.familyName = text
        case "previousFamilyName": values.previousFamilyName = text
        case "nameSuffix": values.nameSuffix = text
        case "nickname": values.nickname = text
        case "phoneticGivenName": values.phoneticGivenName = text
        case "phoneticMiddleName": values.phoneticMiddleName = text
        case "phoneticFamilyName": values.phoneticFamilyName = text
        case "organizationName": values.organizationName = text
        case "phoneticOrganizationName": values.phoneticOrganizationName = text
        case "departmentName": values.departmentName = text
        case "jobTitle": values.jobTitle = text
        case "note": values.note = text
        default: Issue.record("unknown field \(field)")
        }
    }

    /// A seed for a randomized test, from LEDGER_TEST_SEED if set, printed so a failure
    /// reproduces.
    static func seed(_ name: String) -> UInt64 {
        let seed =
            ProcessInfo.processInfo.environment["LEDGER_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max)
        print("\(name): seed \(seed) (set LEDGER_TEST_SEED=\(seed) to reproduce)")
        return seed
    }
}

/// SplitMix64: a small, fast generator whose whole state is its seed.
struct SearchTestGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The documented matching rules applied by scanning every contact: what the indexes must
/// answer. It shares the folding and phone reduction with the index (those are tested on
/// their own against examples) and nothing else. Each contact's words, addresses and numbers
/// are folded once, when it is stored, so that scanning thousands of contacts stays quick.
struct SearchReference {
    private struct Entry {
        var words: [[UInt8]]
        var emails: [[UInt8]]
        var phones: [PhoneKey]
    }

    private(set) var contacts: [ContactSlot: ContactValues] = [:]
    private var entries: [ContactSlot: Entry] = [:]
    let dialing: PhoneDialing

    init(country: String) {
        dialing = PhoneNumbering.dialing(for: country)
    }

    /// Stores or replaces a contact.
    mutating func put(_ slot: ContactSlot, _ values: ContactValues) {
        contacts[slot] = values
        entries[slot] = Entry(
            words: Self.arrays(SearchFolding.nameWords(of: values)),
            emails: values.emailAddresses.compactMap { SearchFolding.foldedEmail($0.value) },
            phones: values.phoneNumbers.compactMap {
                PhoneNumbering.key(for: $0.value.stringValue, dialing: dialing)
            })
    }

    /// Removes a contact and returns its values.
    mutating func remove(_ slot: ContactSlot) -> ContactValues? {
        entries[slot] = nil
        return contacts.removeValue(forKey: slot)
    }

    func slots(matchingName query: String) -> [ContactSlot] {
        let queryWords = Self.arrays(SearchFolding.queryWords(query))
        guard !queryWords.isEmpty else { return [] }
        return entries.compactMap { slot, entry in
            let matches = queryWords.allSatisfy { queryWord in
                entry.words.contains { Self.word($0, startsWith: queryWord) }
            }
            return matches ? slot : nil
        }.sorted()
    }

    private static func arrays(_ words: FoldedWords) -> [[UInt8]] {
        (0..<words.count).map { Array(words.word($0)) }
    }

    /// A plain loop: the generic `starts(with:)` is slow in debug builds.
    private static func word(_ word: [UInt8], startsWith start: [UInt8]) -> Bool {
        guard start.count <= word.count else { return false }
        for index in 0..<start.count where word[index] != start[index] { return false }
        return true
    }

    func slots(matchingEmailAddress query: String) -> [ContactSlot] {
        guard let key = SearchFolding.foldedEmail(query) else { return [] }
        return entries.compactMap { slot, entry in entry.emails.contains(key) ? slot : nil }.sorted()
    }

    func slots(matchingPhoneNumber query: String) -> [ContactSlot] {
        guard let key = PhoneNumbering.key(for: query, dialing: dialing) else { return [] }
        return entries.compactMap { slot, entry in
            entry.phones.contains { $0.matches(key) } ? slot : nil
        }.sorted()
    }
}
