import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// One row of a name formatting table.
struct NameCase: Sendable, CustomTestStringConvertible {
    let name: String
    let contact: Contact
    let expected: String?

    var testDescription: String { name }
}

@Suite("Contact formatter")
struct ContactFormatterTests {
    static let fullNameCases: [NameCase] = [
        NameCase(
            name: "Western given name first",
            contact: ModelFixtures.person(given: "John", family: "Appleseed"),
            expected: "John Appleseed"),
        NameCase(
            name: "Western with every part",
            contact: ModelFixtures.person(
                given: "John", middle: "Paul", family: "Appleseed", prefix: "Dr.", suffix: "Jr."),
            expected: "Dr. John Paul Appleseed Jr."),
        NameCase(
            name: "given name only",
            contact: ModelFixtures.person(given: "Cher"),
            expected: "Cher"),
        NameCase(
            name: "white space is trimmed and empty parts leave no gaps",
            contact: ModelFixtures.person(given: "  John ", middle: " ", family: "Appleseed\n"),
            expected: "John Appleseed"),
        NameCase(
            name: "Chinese: family name first, no delimiter",
            contact: ModelFixtures.person(given: "小明", family: "王"),
            expected: "王小明"),
        NameCase(
            name: "Japanese kanji",
            contact: ModelFixtures.person(given: "太郎", family: "山田"),
            expected: "山田太郎"),
        NameCase(
            name: "Japanese katakana",
            contact: ModelFixtures.person(given: "タロウ", family: "ヤマダ"),
            expected: "ヤマダタロウ"),
        NameCase(
            name: "Korean: family name first with a space",
            contact: ModelFixtures.person(given: "민준", family: "김"),
            expected: "김 민준"),
        NameCase(
            name: "organization by its name",
            contact: ModelFixtures.person(
                given: "John", family: "Appleseed", organization: "Apple Inc.",
                type: .organization),
            expected: "Apple Inc."),
        NameCase(
            name: "organization without a name falls back to the person's name",
            contact: ModelFixtures.person(given: "John", type: .organization),
            expected: "John"),
        NameCase(
            name: "person without a name falls back to the organization",
            contact: ModelFixtures.person(organization: "Apple Inc."),
            expected: "Apple Inc."),
        NameCase(
            name: "a prefix alone is not a name",
            contact: ModelFixtures.person(prefix: "Dr.", organization: "Clinic"),
            expected: "Clinic"),
        NameCase(
            name: "nothing to format",
            contact: ModelFixtures.person(),
            expected: nil),
        NameCase(
            name: "only a prefix and a suffix",
            contact: ModelFixtures.person(prefix: "Dr.", suffix: "Jr."),
            expected: nil),
    ]

    @Test("Full names", arguments: fullNameCases)
    func fullName(row: NameCase) {
        #expect(ContactFormatter.string(from: row.contact, style: .fullName) == row.expected)
        #expect(ContactFormatter().string(from: row.contact.mutableCopy()) == row.expected)
    }

    @Test("The family-name-first preference applies to Western names only")
    func familyNameFirstPreference() {
        let formatter = ContactFormatter(
            userDefaults: ContactsUserDefaults(displayNameOrder: .familyNameFirst))
        let western = ModelFixtures.person(
            given: "John", middle: "Paul", family: "Appleseed", prefix: "Dr.")
        #expect(formatter.string(from: western) == "Dr. Appleseed John Paul")
        let chinese = ModelFixtures.person(given: "小明", family: "王")
        #expect(formatter.string(from: chinese) == "王小明")
    }

    @Test("Phonetic full names use the phonetic fields, in the order of the name")
    func phoneticFullName() {
        var western = MutableContact()
        western.givenName = "John"
        western.familyName = "Appleseed"
        western.phoneticGivenName = "Jon"
        western.phoneticFamilyName = "Apple-seed"
        #expect(Self.phonetic(western) == "Jon Apple-seed")

        var japanese = MutableContact()
        japanese.givenName = "太郎"
        japanese.familyName = "山田"
        japanese.phoneticGivenName = "たろう"
        japanese.phoneticFamilyName = "やまだ"
        #expect(Self.phonetic(japanese) == "やまだ たろう")

        var chinese = MutableContact()
        chinese.givenName = "小明"
        chinese.familyName = "王"
        chinese.phoneticGivenName = "Xiaoming"
        chinese.phoneticFamilyName = "Wang"
        #expect(Self.phonetic(chinese) == "Wang Xiaoming")

        var organization = MutableContact()
        organization.contactType = .organization
        organization.organizationName = "株式会社"
        organization.phoneticOrganizationName = "かぶしきがいしゃ"
        #expect(
            ContactFormatter(style: .phoneticFullName).string(from: organization)
                == "かぶしきがいしゃ")

        var noReading = MutableContact()
        noReading.givenName = "John"
        #expect(Self.phonetic(noReading) == nil)
    }

    static func phonetic(_ contact: MutableContact) -> String? {
        ContactFormatter.string(from: contact, style: .phoneticFullName)
    }

    @Test("Name order and delimiter follow the script of the name")
    func orderAndDelimiter() {
        let western = ModelFixtures.person(given: "John", family: "Appleseed")
        #expect(ContactFormatter.nameOrder(for: western) == .givenNameFirst)
        #expect(ContactFormatter.delimiter(for: western) == " ")
        let chinese = ModelFixtures.person(given: "小明", family: "王")
        #expect(ContactFormatter.nameOrder(for: chinese) == .familyNameFirst)
        #expect(ContactFormatter.delimiter(for: chinese) == "")
        let korean = ModelFixtures.person(given: "민준", family: "김")
        #expect(ContactFormatter.nameOrder(for: korean) == .familyNameFirst)
        #expect(ContactFormatter.delimiter(for: korean.mutableCopy()) == " ")
        let nameless = ModelFixtures.person(organization: "Apple Inc.")
        #expect(ContactFormatter.delimiter(for: nameless) == "")
    }

    @Test(
        "A contact fetched with the descriptor's keys alone can be formatted",
        arguments: ContactFormatter.Style.allCases)
    func requiredKeysSuffice(style: ContactFormatter.Style) {
        let contact = ModelFixtures.fetched(ContactFormatter.descriptorForRequiredKeys(for: style))
        let expected = style == .fullName ? "Dr. John Paul Appleseed Jr." : "Jon Pol Appelseed"
        #expect(ContactFormatter.string(from: contact, style: style) == expected)
    }

    @Test("Formatting a contact without the descriptor's keys stops the program naming a key")
    func missingKeysTrap() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let contact = ModelFixtures.fetched([.givenName, .familyName])
            _ = ContactFormatter.string(from: contact, style: .fullName)
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(#"Contact property "contactType" was not fetched"#))
    }
}
