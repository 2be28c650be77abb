import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Phone search")
struct PhoneSearchTests {
    /// One row of the matching table: with `country` as the store's default, does a contact
    /// with `stored` match the query `query`?
    struct Row: Sendable, CustomTestStringConvertible {
        var country: String
        var stored: String
        var query: String
        var matches: Bool

        init(_ country: String, _ stored: String, _ query: String, _ matches: Bool) {
            self.country = country
            self.stored = stored
            self.query = query
            self.matches = matches
        }

        var testDescription: String {
            "\(country): \(stored) \(matches ? "~" : "≁") \(query)"
        }
    }

    static let table: [Row] = [
        // United States: NANP, trunk 1, international prefix 011.
        Row("us", "+1 (415) 555-0100", "415-555-0100", true),
        Row("us", "+1 (415) 555-0100", "1-415-555-0100", true),
        Row("us", "+1 (415) 555-0100", "+14155550100", true),
        Row("us", "415.555.0100", "1 (415) 555 0100", true),
        Row("us", "415-555-0100", "011 1 415 555 0100", true),
        Row("us", "+1 415 555 0100", "+1 415 555 0101", false),
        Row("us", "+1 415 555 0100", "+44 415 555 0100", false),
        Row("us", "415-555-0100", "555-0100", false),
        Row("us", "+44 20 7946 0958", "011 44 20 7946 0958", true),
        Row("us", "+44 20 7946 0958", "0044 20 7946 0958", true),
        Row("us", "+44 20 7946 0958", "020 7946 0958", false),
        Row("us", "+33 1 23 45 67 89", "01 23 45 67 89", false),
        // United Kingdom: trunk 0, international prefix 00.
        Row("gb", "+44 20 7946 0958", "020 7946 0958", true),
        Row("gb", "+44 20 7946 0958", "0044 20 7946 0958", true),
        Row("gb", "020 7946 0958", "0044 (20) 7946-0958", true),
        Row("gb", "+44 (0)20 7946 0958", "020 7946 0958", true),
        Row("gb", "07700 900123", "+44 7700 900123", true),
        Row("gb", "0113 496 0000", "+44 113 496 0000", true),
        Row("gb", "020 7946 0958", "020 7946 0959", false),
        Row("gb", "+44 20 7946 0958", "+1 20 7946 0958", false),
        Row("gb", "+1 415 555 0100", "001 415 555 0100", true),
        Row("gb", "+1 415 555 0100", "415 555 0100", false),
        // Germany and France: trunk 0.
        Row("de", "+49 30 123456", "030 123456", true),
        Row("de", "0049 30 123456", "030/123456", true),
        Row("de", "+49 (0)30 123456", "+4930123456", true),
        Row("de", "030 123456", "030 123457", false),
        Row("de", "+49 30 123456", "+43 30 123456", false),
        Row("fr", "+33 1 23 45 67 89", "01 23 45 67 89", true),
        Row("fr", "0033 1 23 45 67 89", "01.23.45.67.89", true),
        Row("fr", "06 12 34 56 78", "+33 6 12 34 56 78", true),
        Row("fr", "06 12 34 56 78", "+33 6 12 34 56 79", false),
        // Italy keeps its leading 0; Russia dials 8 and 810; Japan 010; Hungary 06.
        Row("it", "+39 06 1234 5678", "06 1234 5678", true),
        Row("it", "+39 06 1234 5678", "6 1234 5678", false),
        Row("ru", "+7 495 123-45-67", "8 (495) 123-45-67", true),
        Row("ru", "8 10 44 20 7946 0958", "+44 20 7946 0958", true),
        Row("jp", "+81 3-1234-5678", "03-1234-5678", true),
        Row("jp", "010 44 20 7946 0958", "+44 20 7946 0958", true),
        Row("au", "0011 44 20 7946 0958", "+44 20 7946 0958", true),
        Row("au", "(02) 9876 5432", "+61 2 9876 5432", true),
        Row("hu", "06 1 234 5678", "+36 1 234 5678", true),
        // A region without data: a leading 0 is a trunk prefix, and an unknown calling code
        // matches any.
        Row("zz", "+44 20 7946 0958", "020 7946 0958", true),
        Row("zz", "020 7946 0958", "+33 20 7946 0958", true),
        Row("zz", "+44 20 7946 0958", "+33 20 7946 0958", false),
        Row("", "+44 20 7946 0958", "0044 20 7946 0958", true),
        // Digits of other scripts.
        Row("us", "+1 415 555 0100", "+١ ٤١٥ ٥٥٥ ٠١٠٠", true),
        Row("us", "+1 415 555 0100", "４１５－５５５－０１００", true),
        Row("us", "४१५ ५५५ ०१००", "415 555 0100", true),
        Row("us", "+1 415 555 0100", "۴۱۵ ۵۵۵ ۰۱۰۰", true),
        // Too short to match anything.
        Row("us", "911", "911", true),
        Row("us", "12", "12", false),
        Row("us", "+1 12", "+1 12", false),
        Row("gb", "0 12", "012", false),
    ]

    @Test("National and international forms match as the table says", arguments: table)
    func matching(row: Row) {
        let indexes = SearchFixtures.indexes(
            [SearchFixtures.contact(phones: [row.stored]), SearchFixtures.contact(phones: ["+1 999 999 9999"])],
            country: row.country)
        #expect(indexes.slots(matchingPhoneNumber: row.query) == (row.matches ? [0] : []))
        // Matching is symmetric.
        let swapped = SearchFixtures.indexes([SearchFixtures.contact(phones: [row.query])], country: row.country)
        #expect(swapped.slots(matchingPhoneNumber: row.stored) == (row.matches ? [0] : []))
    }

    @Test(
        "Queries with fewer than three national digits match nothing",
        arguments: ["", "+", "1", "12", "+1", "+44", "0044", "(", "abc"])
    func shortQueries(query: String) {
        let indexes = SearchFixtures.indexes([
            SearchFixtures.contact(phones: ["+1 415 555 0100", "12", "1", "+44 20 7946 0958"])
        ])
        #expect(indexes.slots(matchingPhoneNumber: query).isEmpty)
    }

    @Test(
        "The ASCII fast path reads digits as PhoneNumber.digits does",
        arguments: [
            "+1 (408) 555-0100", "408.555.0100 ext 7", "  +44 20 7946 0000", "1-800-FLOWERS", "5+5", "+",
            "++44 20", "0044 20 7946 0958", "+ 44 (0) 20", "٠١٢٣", "０９０-１２３４", "x²", "",
        ])
    func digits(text: String) {
        let dialing = PhoneNumbering.dialing(for: "gb")
        let digits = PhoneNumber(stringValue: text).digits
        let plain = Array(digits.utf8.drop { $0 == 0x2B })
        let fromDigits = plain.withUnsafeBufferPointer { buffer in
            PhoneNumbering.reduce(buffer, international: digits.hasPrefix("+"), dialing: dialing).map {
                PhoneKey(callingCode: $0.callingCode, nationalNumber: Array(buffer[$0.national]))
            }
        }
        #expect(PhoneNumbering.key(for: text, dialing: dialing) == fromDigits)
    }

    @Test(
        "Calling codes are one, two or three digits as the ITU assigns them",
        arguments: [
            ("14155550100", 1), ("74951234567", 1), ("442079460958", 2), ("4930123", 2), ("33123", 2),
            ("35312345", 3), ("42012345", 3), ("97212345", 3), ("8613800", 2), ("85212345", 3),
            ("88612345", 3), ("2112345", 3), ("2012345", 2), ("9", 1),
        ])
    func callingCodes(digits: String, expected: Int) {
        let length = Array(digits.utf8).withUnsafeBufferPointer { PhoneNumbering.callingCodeLength(of: $0, from: 0) }
        #expect(length == expected)
    }

    @Test("Region codes are looked up in any case, and shared calling codes are shared")
    func regions() {
        #expect(PhoneNumbering.region(for: "GB")?.callingCode == 44)
        #expect(PhoneNumbering.region(for: "ca")?.callingCode == 1)
        #expect(PhoneNumbering.region(for: "kz")?.callingCode == 7)
        #expect(PhoneNumbering.region(for: "xx") == nil)
        #expect(SearchIndexes(defaultCountryCode: "GB").defaultCountryCode == "gb")
    }

    @Test("Every region's dialling values hold its prefixes as its strings give them")
    func dialingValues() throws {
        let national = Array("2079460958".utf8)
        for (code, region) in PhoneNumbering.regions {
            let dialing = region.dialing
            #expect(dialing.isKnown && dialing.callingCode == region.callingCode, "\(code)")
            let trunk = Array(region.trunkPrefix.utf8)
            #expect(dialing.trunkPrefix.count == trunk.count, "\(code)")
            (trunk + national).withUnsafeBufferPointer { digits in
                #expect(dialing.trunkPrefix.isPrefix(of: digits, at: 0), "\(code)")
                #expect(dialing.trunkPrefix.firstDigit == (trunk.first ?? 0), "\(code)")
            }
            for prefix in region.internationalPrefixes {
                // The first of the region's prefixes (longest first) that the digits start with.
                let digits = Array(prefix.utf8) + national
                let expected = region.internationalPrefixes.first { digits.starts(with: $0.utf8) }?.utf8.count
                let length = digits.withUnsafeBufferPointer { dialing.internationalPrefixLength(of: $0) }
                #expect(length == expected && length != nil, "\(code) \(prefix)")
            }
            national.withUnsafeBufferPointer { digits in
                #expect(dialing.internationalPrefixLength(of: digits) == nil, "\(code)")
                // A prefix never matches beyond the digits.
                #expect(dialing.internationalPrefixLength(of: UnsafeBufferPointer(rebasing: digits[..<0])) == nil)
            }
        }
        let unknown = PhoneDialing.unknown
        #expect(!unknown.isKnown && unknown.callingCode == 0 && unknown.trunkPrefix.count == 0)
        let fromAbroad = Array("00442079460958".utf8)
        #expect(fromAbroad.withUnsafeBufferPointer { unknown.internationalPrefixLength(of: $0) } == 2)
    }

    @Test("Numbers too long for an integer key are kept exactly too")
    func longNumbers() {
        let long = "+44 20 7946 0958 1234 5678"
        var indexes = SearchFixtures.indexes([
            SearchFixtures.contact(phones: [long]), SearchFixtures.contact(phones: ["+44 20 7946 0958 1234 5679"]),
        ])
        #expect(PhoneNumbering.key(for: long, dialing: .unknown)?.integerKey == nil)
        #expect(indexes.slots(matchingPhoneNumber: "0044 2079460958 12345678") == [0])
        #expect(indexes.slots(matchingPhoneNumber: "+44 20 7946 0958").isEmpty)
        indexes.remove(0, values: SearchFixtures.contact(phones: [long]))
        #expect(indexes.slots(matchingPhoneNumber: long).isEmpty)
        #expect(indexes.slots(matchingPhoneNumber: "+44 20 7946 0958 1234 5679") == [1])
        indexes.checkInvariants()
    }

    @Test("Integer keys are distinct for distinct numbers of any length up to the limit")
    func integerKeys() {
        let keys = [
            PhoneKey(callingCode: 1, nationalNumber: Array("4155550100".utf8)),
            PhoneKey(callingCode: 1, nationalNumber: Array("04155550100".utf8)),
            PhoneKey(callingCode: 14, nationalNumber: Array("155550100".utf8)),
            PhoneKey(callingCode: 0, nationalNumber: Array("4155550100".utf8)),
            PhoneKey(callingCode: 999, nationalNumber: Array("999999999999999".utf8)),
            PhoneKey(callingCode: 1, nationalNumber: Array("000".utf8)),
        ]
        let integers = keys.compactMap(\.integerKey)
        #expect(integers.count == keys.count)
        #expect(Set(integers).count == keys.count)
        #expect(!integers.contains(0))
        #expect(PhoneKey(callingCode: 1, nationalNumber: Array("1234567890123456".utf8)).integerKey == nil)
    }

    @Test("Removing and updating numbers keep the answers right, and a label change does nothing")
    func removeAndUpdate() {
        let before = SearchFixtures.contact(phones: ["+1 415 555 0100", "415 555 0199"])
        let other = SearchFixtures.contact(phones: ["(415) 555-0199"])
        var indexes = SearchFixtures.indexes([before, other])
        #expect(indexes.slots(matchingPhoneNumber: "+1 415 555 0199") == [0, 1])

        var relabeled = before
        relabeled.phoneNumbers = before.phoneNumbers.map { $0.settingLabel(Label.home) }
        indexes.update(0, from: before, to: relabeled)
        #expect(indexes.slots(matchingPhoneNumber: "4155550100") == [0])

        var after = relabeled
        after.phoneNumbers = [LabeledValue(label: nil, value: PhoneNumber(stringValue: "1 415 555 0100"))]
        indexes.update(0, from: relabeled, to: after)
        #expect(indexes.slots(matchingPhoneNumber: "4155550100") == [0])
        #expect(indexes.slots(matchingPhoneNumber: "4155550199") == [1])

        indexes.remove(0, values: after)
        #expect(indexes.slots(matchingPhoneNumber: "4155550100").isEmpty)
        indexes.checkInvariants()
    }

    @Test("With an unknown region, calling codes are tracked through removals")
    func unknownRegionRemovals() {
        let first = SearchFixtures.contact(phones: ["+44 20 7946 0958"])
        let second = SearchFixtures.contact(phones: ["+33 20 7946 0958", "020 7946 0958"])
        var indexes = SearchFixtures.indexes([first, second], country: "zz")
        #expect(indexes.slots(matchingPhoneNumber: "020 7946 0958") == [0, 1])
        #expect(indexes.slots(matchingPhoneNumber: "+44 20 7946 0958") == [0, 1])
        indexes.remove(0, values: first)
        #expect(indexes.slots(matchingPhoneNumber: "020 7946 0958") == [1])
        #expect(indexes.slots(matchingPhoneNumber: "+44 20 7946 0958") == [1])
        indexes.remove(1, values: second)
        #expect(indexes.slots(matchingPhoneNumber: "020 7946 0958").isEmpty)
    }
}
