import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Email search")
struct EmailSearchTests {
    private static let indexes = SearchFixtures.indexes([
        SearchFixtures.contact(given: "John", emails: ["john@example.com", "J.Appleseed@Work.Example"]),
        SearchFixtures.contact(given: "Team", emails: ["team@example.com"]),
        SearchFixtures.contact(given: "Also team", emails: ["Team@Example.com", "team@example.com"]),
        SearchFixtures.contact(given: "José", emails: ["josé@exämple.com"]),
    ])

    @Test(
        "The whole address is compared, ignoring case and surrounding whitespace",
        arguments: [
            ("john@example.com", [0]), ("JOHN@EXAMPLE.COM", [0]), ("  john@example.com\n", [0]),
            ("j.appleseed@work.example", [0]), ("J.APPLESEED@WORK.EXAMPLE", [0]),
            ("team@example.com", [1, 2]), ("TEAM@example.COM", [1, 2]),
            ("JOSÉ@EXÄMPLE.COM", [3]), ("jose\u{301}@exa\u{308}mple.com", [3]),
        ] as [(String, [ContactSlot])])
    func matching(query: String, expected: [ContactSlot]) {
        #expect(Self.indexes.slots(matchingEmailAddress: query) == expected)
    }

    @Test(
        "The candidate named before an address is confirmed is its one contact, and none for a shared or unknown one",
        arguments: [
            ("john@example.com", [0]), ("J.APPLESEED@WORK.EXAMPLE", [0]), ("team@example.com", []),
            ("josé@exämple.com", [3]), ("nobody@example.com", []), ("", []),
        ] as [(String, [ContactSlot])])
    func candidate(query: String, expected: [ContactSlot]) {
        var candidates: [ContactSlot] = []
        let found = Self.indexes.slots(matchingEmailAddress: query) { candidates.append($0) }
        #expect(candidates == expected)
        #expect(found == Self.indexes.slots(matchingEmailAddress: query))
    }

    @Test(
        "Parts, prefixes, other diacritics and empty queries match nothing",
        arguments: [
            "john", "john@", "john@example", "ohn@example.com", "john@example.co", "example.com",
            "john@example.com.", "mailto:john@example.com", "jose@example.com", "", "   ", "j*",
        ])
    func notMatching(query: String) {
        #expect(Self.indexes.slots(matchingEmailAddress: query).isEmpty)
    }

    @Test("An ASCII address folds eight bytes at a time exactly as byte by byte, every byte value and length")
    func asciiFoldMatchesByteByByte() {
        // Every byte value in every position of a word: each ASCII byte, surrounded by others.
        for byte in UInt8(0)..<0x80 {
            for position in 0..<8 {
                var word = [UInt8](repeating: UInt8(ascii: "q"), count: 8)
                word[position] = byte
                let packed = word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                let lowered = withUnsafeBytes(of: SearchFolding.lowercasedASCII(packed)) { Array($0) }
                #expect(lowered == word.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, "byte \(byte) at \(position)")
            }
        }
        // Whole addresses of every length to 40, with a non-ASCII byte in some.
        var random = SeededRandom(seed: 0xE4A1)
        let alphabet = Array("AbCdEfGhIjKlMnOpQrStUvWxYz0123456789.@_-+Z[`@".utf8)
        for length in 1...40 {
            for trial in 0..<40 {
                var bytes = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
                if trial % 4 == 0 { bytes[Int.random(in: 0..<length, using: &random)] = 0xC3 }
                var folded: [UInt8] = []
                let foldedAny = bytes.withUnsafeBufferPointer { SearchFolding.foldEmail(utf8: $0, into: &folded) }
                #expect(foldedAny)
                if trial % 4 == 0 {
                    // Not ASCII: folded by Foundation, so only checked to be lower case here.
                    #expect(!folded.contains { $0 &- 0x41 < 26 })
                } else {
                    #expect(folded == bytes.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, "\(bytes)")
                }
            }
        }
    }

    @Test("Removing and updating addresses keep the answers right")
    func removeAndUpdate() {
        let before = SearchFixtures.contact(given: "A", emails: ["a@example.com", "shared@example.com"])
        let other = SearchFixtures.contact(given: "B", emails: ["shared@example.com"])
        var indexes = SearchFixtures.indexes([before, other])
        #expect(indexes.slots(matchingEmailAddress: "shared@example.com") == [0, 1])

        var after = before
        after.emailAddresses = [
            LabeledValue(label: nil, value: "A@Example.com"), LabeledValue(label: nil, value: "new@example.com"),
        ]
        indexes.update(0, from: before, to: after)
        #expect(indexes.slots(matchingEmailAddress: "a@example.com") == [0])
        #expect(indexes.slots(matchingEmailAddress: "new@example.com") == [0])
        #expect(indexes.slots(matchingEmailAddress: "shared@example.com") == [1])

        indexes.remove(1, values: other)
        #expect(indexes.slots(matchingEmailAddress: "shared@example.com").isEmpty)
        indexes.checkInvariants()
    }

    @Test("A label change alone leaves the index as it is")
    func labelOnly() {
        let before = SearchFixtures.contact(emails: ["a@example.com"])
        var after = before
        after.emailAddresses = before.emailAddresses.map { $0.settingLabel(Label.work) }
        var indexes = SearchFixtures.indexes([before])
        indexes.update(0, from: before, to: after)
        #expect(indexes.slots(matchingEmailAddress: "a@example.com") == [0])
    }
}
