import Foundation

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Builds contacts for the round-trip, peer and fuzz tests: hand-made ones that cover every
/// property and every standard label, and seeded random ones.
///
/// Values the vCard mapping does not keep are never generated (see `Documentation/VCard.md`,
/// "What does not round-trip"): surrounding white space in phone numbers, email addresses,
/// URLs, relation names, instant message user names and parameter values; carriage returns;
/// the year 1604; empty labels; custom labels in Apple's `$!<...>!$` form; custom service names
/// that differ from a standard one only in case; social profile URLs starting with `x-apple:`.
enum VCardContactGenerator {
    /// Text in many scripts, with emoji (one of them a ZWJ sequence) and every character that
    /// vCard escapes.
    static let samples: [String] = [
        "Zoë", "José Ñúñez", "Łukasz Żółć", "Müller-Lüdenscheidt", "王小明", "山田太郎", "김민준", "Δημήτρης",
        "Владимир", "محمد", "דוד", "नमस्ते", "ไทย", "🙂", "👩‍👩‍👧‍👦", "🇨🇭", "a,b;c\\d:e\"f^g", "line one\nline two",
        "tab\there", "O'Brien", "100% & <ok>", "e\u{301}",
    ]

    /// A long text of multi-byte characters, so that folding has to avoid splitting them.
    static func longText(_ seed: Int) -> String {
        let pieces = ["é", "漢字", "🙂", "👩‍👩‍👧", "ß", "ŋ", "д", "ü", "€", "𝄞"]
        var text = "Long \(seed): "
        for index in 0..<(160 + seed % 7) {
            text += pieces[(index + seed) % pieces.count]
        }
        return text
    }

    private static func labeled<Value>(_ labels: [String?], _ make: (Int) -> Value) -> [LabeledValue<Value>] {
        labels.enumerated().map { LabeledValue(label: $0.element, value: make($0.offset)) }
    }

    /// Every standard label, some custom ones (in several scripts, with characters vCard
    /// escapes) and no label.
    static let everyLabel: [String?] =
        Label.allLabels.map { Optional($0) } + [
            "Boat", "Ferienhaus", "別荘", "a;b,c\\d", "GRAND_CENTRAL", "homeFax", nil,
        ]

    /// A person with every property set, and every label on every labeled property.
    static func everything() -> MutableContact {
        var contact = MutableContact()
        contact.contactType = .person
        contact.namePrefix = "Dr."
        contact.givenName = "José"
        contact.middleName = "Ünal; \"Jo\""
        contact.familyName = "Müller-Lüdenscheidt, Jr"
        contact.previousFamilyName = "Smith"
        contact.nameSuffix = "III"
        contact.nickname = "Pepe, 🙂"
        contact.phoneticGivenName = "Hoh-say"
        contact.phoneticMiddleName = "Oo-nal"
        contact.phoneticFamilyName = "Mool-er"
        contact.organizationName = "Acme; Inc."
        contact.phoneticOrganizationName = "Ak-mee"
        contact.departmentName = "R&D, Tools"
        contact.jobTitle = "Engineer \\ Lead"
        contact.note = "Note with\nnew lines, commas; semicolons \\ backslashes: colons and emoji 🙂👩‍👩‍👧‍👦.\n" + longText(1)
        contact.birthday = DateComponents(year: 1980, month: 6, day: 22)
        var lunar = DateComponents(calendar: Calendar(identifier: .chinese), year: 37, month: 4, day: 8)
        lunar.isLeapMonth = true
        contact.nonGregorianBirthday = lunar
        contact.dates = labeled(everyLabel) { index in
            index % 3 == 0
                ? DateComponents(month: index % 12 + 1, day: index % 28 + 1)
                : DateComponents(year: 1900 + index, month: index % 12 + 1, day: index % 28 + 1)
        }
        contact.phoneNumbers = labeled(everyLabel) { PhoneNumber(stringValue: "+1 (408) 555-\(1000 + $0)") }
        contact.emailAddresses = labeled(everyLabel) { "user\($0)@example.com" }
        contact.postalAddresses = labeled(everyLabel) { index in
            PostalAddress(
                street: "\(index) Infinite Loop\nBuilding \(index)", subLocality: index % 2 == 0 ? "Old Town" : "",
                city: samples[index % samples.count], subAdministrativeArea: index % 3 == 0 ? "Santa Clara" : "",
                state: "CA", postalCode: "950\(index % 100)", country: "USA", isoCountryCode: index % 4 == 0 ? "" : "us"
            )
        }
        contact.urlAddresses = labeled(everyLabel) { "https://example.com/\($0)?a=1,2;b=3" }
        contact.contactRelations = labeled(everyLabel) { ContactRelation(name: samples[$0 % samples.count] + " \($0)") }
        let imServices = InstantMessageAddress.Service.all + ["Steam", "微信", ""]
        contact.instantMessageAddresses = labeled(everyLabel) { index in
            InstantMessageAddress(username: "user\(index):x", service: imServices[index % imServices.count])
        }
        let socialServices = SocialProfile.Service.all + ["Mastodon", "Threads, by Meta", ""]
        contact.socialProfiles = labeled(everyLabel) { index in
            SocialProfile(
                urlString: index % 2 == 0 ? "https://social.example/\(index)" : "",
                username: index % 6 == 0 ? "" : "user \(index) \"q\"",
                userIdentifier: index % 5 == 0 ? "id^\(index)" : "",
                service: socialServices[index % socialServices.count])
        }
        contact.imageData = jpeg(size: 3000, seed: 1)
        return contact
    }

    /// An organization with a birthday without a year (29 February) and a PNG photo.
    static func organization() -> MutableContact {
        var contact = MutableContact()
        contact.contactType = .organization
        contact.organizationName = "Ωmega Corp 🙂"
        contact.departmentName = "Sales"
        contact.birthday = DateComponents(month: 2, day: 29)
        contact.phoneNumbers = [
            LabeledValue(label: Label.phoneNumberMain, value: PhoneNumber(stringValue: "+41 44 123 45 67"))
        ]
        contact.note = "Founded on a leap day."
        contact.imageData = png(size: 200)
        return contact
    }

    /// A contact with nothing in it.
    static func empty() -> MutableContact {
        MutableContact()
    }

    /// A contact whose every text is long and multi-byte, to force folds across characters.
    static func long() -> MutableContact {
        var contact = MutableContact()
        contact.givenName = longText(2)
        contact.familyName = longText(3)
        contact.nickname = longText(4)
        contact.organizationName = longText(5)
        contact.departmentName = longText(6)
        contact.jobTitle = longText(7)
        contact.note = longText(8) + "\n" + longText(9)
        contact.phoneNumbers = [LabeledValue(label: longText(10), value: PhoneNumber(stringValue: longText(11)))]
        contact.emailAddresses = [LabeledValue(label: Label.home, value: longText(12))]
        contact.postalAddresses = [
            LabeledValue(
                label: longText(13),
                value: PostalAddress(
                    street: longText(14), subLocality: longText(15), city: longText(16),
                    subAdministrativeArea: longText(17), state: longText(18), postalCode: longText(19),
                    country: longText(20), isoCountryCode: "jp"))
        ]
        contact.instantMessageAddresses = [
            LabeledValue(label: nil, value: InstantMessageAddress(username: longText(21), service: longText(22)))
        ]
        contact.socialProfiles = [
            LabeledValue(
                label: nil,
                value: SocialProfile(
                    urlString: "https://example.com/" + longText(23), username: longText(24),
                    userIdentifier: longText(25), service: longText(26)))
        ]
        contact.birthday = DateComponents(year: 1, month: 1, day: 1)
        contact.dates = [LabeledValue(label: nil, value: DateComponents(year: 9999, month: 12, day: 31))]
        return contact
    }

    /// JPEG-looking bytes (the JPEG signature, then seeded noise).
    static func jpeg(size: Int, seed: UInt64) -> Data {
        var random = VCardTestRandom(seed: seed)
        return Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// PNG-looking bytes (the PNG signature, then a pattern).
    static func png(size: Int) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<size).map { UInt8($0 % 251) })
    }

    /// A random contact; every value is one the mapping keeps.
    static func random(using random: inout VCardTestRandom) -> MutableContact {
        func text(allowEmpty: Bool = true) -> String {
            if allowEmpty, Int.random(in: 0..<4, using: &random) == 0 {
                return ""
            }
            var result = ""
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                result += samples.randomElement(using: &random)!
            }
            if Int.random(in: 0..<10, using: &random) == 0 {
                result += longText(Int.random(in: 0..<100, using: &random))
            }
            return result
        }
        /// Text without surrounding white space and never empty, for values that are trimmed.
        func trimmedText() -> String {
            let value = text(allowEmpty: false).trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? "x" : "v" + value + "v"
        }
        func label() -> String? {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: nil
            case 1: "L " + trimmedText()
            default: Label.allLabels.randomElement(using: &random)
            }
        }
        func date(yearless: Bool) -> DateComponents {
            let month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random)
            if yearless {
                return DateComponents(month: month, day: day)
            }
            var year = Int.random(in: 1...9999, using: &random)
            if year == VCardDates.omittedYear {
                year += 1
            }
            return DateComponents(year: year, month: month, day: day)
        }
        func count() -> Int { Int.random(in: 0...3, using: &random) }

        var contact = MutableContact()
        contact.contactType = Bool.random(using: &random) ? .person : .organization
        contact.namePrefix = text()
        contact.givenName = text()
        contact.middleName = text()
        contact.familyName = text()
        contact.nameSuffix = text()
        contact.nickname = text()
        contact.previousFamilyName = text()
        contact.phoneticGivenName = text()
        contact.phoneticFamilyName = text()
        contact.organizationName = text()
        contact.departmentName = text()
        contact.jobTitle = text()
        contact.note = text()
        if Bool.random(using: &random) {
            contact.birthday = date(yearless: Bool.random(using: &random))
        }
        contact.dates = (0..<count()).map { _ in
            LabeledValue(label: label(), value: date(yearless: Bool.random(using: &random)))
        }
        contact.phoneNumbers = (0..<count()).map { _ in
            LabeledValue(label: label(), value: PhoneNumber(stringValue: trimmedText()))
        }
        contact.emailAddresses = (0..<count()).map { _ in LabeledValue(label: label(), value: trimmedText()) }
        contact.urlAddresses = (0..<count()).map { _ in LabeledValue(label: label(), value: trimmedText()) }
        contact.contactRelations = (0..<count()).map { _ in
            LabeledValue(label: label(), value: ContactRelation(name: trimmedText()))
        }
        contact.postalAddresses = (0..<count()).map { _ in
            LabeledValue(
                label: label(),
                value: PostalAddress(
                    street: trimmedText(), subLocality: text(), city: text(), subAdministrativeArea: text(),
                    state: text(), postalCode: text(), country: text(),
                    isoCountryCode: Bool.random(using: &random) ? "fr" : ""))
        }
        contact.instantMessageAddresses = (0..<count()).map { index in
            LabeledValue(
                label: label(),
                value: InstantMessageAddress(
                    username: trimmedText() + "\(index)",
                    service: Bool.random(using: &random)
                        ? InstantMessageAddress.Service.all.randomElement(using: &random)! : "S " + trimmedText()))
        }
        contact.socialProfiles = (0..<count()).map { _ in
            LabeledValue(
                label: label(),
                value: SocialProfile(
                    urlString: "https://" + trimmedText(), username: trimmedText(), userIdentifier: trimmedText(),
                    service: Bool.random(using: &random)
                        ? SocialProfile.Service.all.randomElement(using: &random)! : "S " + trimmedText()))
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            contact.imageData = jpeg(size: Int.random(in: 1...4000, using: &random), seed: random.next())
        }
        return contact
    }
}
