import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// One row of a date validation table.
struct DateCase: Sendable, CustomTestStringConvertible {
    let name: String
    let date: DateComponents
    /// The expected messages; empty for a valid date.
    let problems: [String]

    var testDescription: String { name }

    init(_ name: String, _ date: DateComponents, _ problems: [String] = []) {
        self.name = name
        self.date = date
        self.problems = problems
    }
}

@Suite("Contact validation")
struct ContactValidationTests {
    static let gregorian = Calendar(identifier: .gregorian)

    /// The date marked as in a leap month, which the memberwise initializer cannot do here.
    static func leapMonth(_ date: DateComponents) -> DateComponents {
        var date = date
        date.isLeapMonth = true
        return date
    }

    static let gregorianCases: [DateCase] = [
        DateCase("month and day", DateComponents(month: 4, day: 1)),
        DateCase("with a year", DateComponents(year: 1990, month: 12, day: 31)),
        DateCase("Gregorian calendar", DateComponents(calendar: gregorian, month: 1, day: 31)),
        DateCase("Feb 29 without a year", DateComponents(month: 2, day: 29)),
        DateCase("Feb 29 in a leap year", DateComponents(year: 2024, month: 2, day: 29)),
        DateCase("Feb 29 in 2000", DateComponents(year: 2000, month: 2, day: 29)),
        DateCase(
            "from Calendar.dateComponents",
            gregorian.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: 0))),
        DateCase("no day", DateComponents(month: 4), ["a day is required"]),
        DateCase("no month", DateComponents(day: 4), ["a month is required"]),
        DateCase("nothing", DateComponents(), ["a month is required", "a day is required"]),
        DateCase("month 13", DateComponents(month: 13, day: 1), ["month 13 is not in 1...12"]),
        DateCase("month 0", DateComponents(month: 0, day: 1), ["month 0 is not in 1...12"]),
        DateCase("day 0", DateComponents(month: 1, day: 0), ["day 0 is not a day of a month"]),
        DateCase(
            "April 31", DateComponents(month: 4, day: 31), ["day 31 is not a day of month 4"]),
        DateCase(
            "Feb 30", DateComponents(month: 2, day: 30), ["day 30 is not a day of month 2"]),
        DateCase(
            "Feb 29 in 2023", DateComponents(year: 2023, month: 2, day: 29),
            ["day 29 is not a day of month 2 in 2023"]),
        DateCase(
            "Feb 29 in 1900", DateComponents(year: 1900, month: 2, day: 29),
            ["day 29 is not a day of month 2 in 1900"]),
        DateCase(
            "year 0", DateComponents(year: 0, month: 1, day: 1), ["year 0 is not in 1...9999"]),
        DateCase(
            "an hour", DateComponents(month: 1, day: 1, hour: 9),
            ["the hour component is not allowed"]),
        DateCase(
            "an era", DateComponents(era: 1, month: 1, day: 1),
            ["the era component is not allowed"]),
        DateCase(
            "a weekday and a minute", DateComponents(month: 1, day: 1, minute: 5, weekday: 2),
            ["the minute component is not allowed", "the weekday component is not allowed"]),
        DateCase(
            "a time zone", DateComponents(timeZone: TimeZone(identifier: "UTC"), month: 1, day: 1),
            ["the timeZone component is not allowed"]),
        DateCase(
            "a leap month", leapMonth(DateComponents(month: 1, day: 1)),
            ["the isLeapMonth component is not allowed"]),
        DateCase(
            "the Chinese calendar",
            DateComponents(calendar: Calendar(identifier: .chinese), month: 1, day: 1),
            ["the calendar must be Gregorian or nil, not chinese"]),
    ]

    static let nonGregorianCases: [DateCase] = [
        DateCase(
            "Chinese leap month",
            leapMonth(
                DateComponents(
                    calendar: Calendar(identifier: .chinese), year: 41, month: 4, day: 30))),
        DateCase(
            "Hebrew month 13",
            DateComponents(calendar: Calendar(identifier: .hebrew), year: 5785, month: 13, day: 1)),
        DateCase(
            "Islamic Umm al-Qura",
            DateComponents(calendar: Calendar(identifier: .islamicUmmAlQura), month: 9, day: 1)),
        DateCase(
            "Islamic civil",
            DateComponents(calendar: Calendar(identifier: .islamicCivil), month: 12, day: 29)),
        DateCase(
            "no calendar", DateComponents(month: 1, day: 1),
            ["a Chinese, Hebrew or Islamic calendar is required"]),
        DateCase(
            "Gregorian calendar", DateComponents(calendar: gregorian, month: 1, day: 1),
            ["the calendar must be Chinese, Hebrew or Islamic, not gregorian"]),
        DateCase(
            "Hebrew leap month",
            leapMonth(
                DateComponents(calendar: Calendar(identifier: .hebrew), month: 6, day: 1)),
            ["the isLeapMonth component is not allowed"]),
        DateCase(
            "Chinese year 61",
            DateComponents(calendar: Calendar(identifier: .chinese), year: 61, month: 1, day: 1),
            ["year 61 is not in 1...60 in the chinese calendar"]),
        DateCase(
            "Islamic month 13",
            DateComponents(calendar: Calendar(identifier: .islamic), month: 13, day: 1),
            ["month 13 is not in 1...12"]),
        DateCase(
            "day 31", DateComponents(calendar: Calendar(identifier: .hebrew), month: 1, day: 31),
            ["day 31 is not a day of month 1"]),
        DateCase(
            "no day", DateComponents(calendar: Calendar(identifier: .chinese), month: 1),
            ["a day is required"]),
        DateCase(
            "an era",
            DateComponents(calendar: Calendar(identifier: .chinese), era: 78, month: 1, day: 1),
            ["the era component is not allowed"]),
    ]

    @Test("Birthday rules", arguments: gregorianCases)
    func birthday(row: DateCase) {
        var contact = MutableContact()
        contact.birthday = row.date
        let issues = contact.validate()
        #expect(issues.map(\.message) == row.problems)
        #expect(issues.allSatisfy { $0.keyPath == "birthday" && $0.key == .birthday })
    }

    @Test("Each element of dates follows the birthday rules", arguments: gregorianCases)
    func dates(row: DateCase) {
        var contact = MutableContact()
        contact.dates = [
            LabeledValue(label: Label.dateAnniversary, value: DateComponents(month: 6, day: 9)),
            LabeledValue(label: Label.other, value: DateComponents(year: 2020, month: 1, day: 1)),
            LabeledValue(label: "Graduation", value: row.date),
        ]
        let issues = contact.validate()
        #expect(issues.map(\.message) == row.problems)
        #expect(issues.allSatisfy { $0.keyPath == "dates[2].value" && $0.key == .dates })
    }

    @Test("Non-Gregorian birthday rules", arguments: nonGregorianCases)
    func nonGregorianBirthday(row: DateCase) {
        var contact = MutableContact()
        contact.nonGregorianBirthday = row.date
        let issues = contact.validate()
        #expect(issues.map(\.message) == row.problems)
        #expect(issues.allSatisfy { $0.keyPath == "nonGregorianBirthday" })
    }

    @Test("Phone numbers, email and URL addresses must not be empty or blank")
    func blankValues() {
        var contact = MutableContact()
        contact.phoneNumbers = [
            LabeledValue(label: nil, value: PhoneNumber(stringValue: "555 0100")),
            LabeledValue(label: nil, value: PhoneNumber(stringValue: "")),
        ]
        contact.emailAddresses = [LabeledValue(label: Label.home, value: " \t")]
        contact.urlAddresses = [
            LabeledValue(label: nil, value: "not a url, but text is allowed"),
            LabeledValue(label: nil, value: "ok"),
            LabeledValue(label: nil, value: ""),
        ]
        let issues = contact.validate()
        #expect(
            issues.map(\.description) == [
                "phoneNumbers[1].value: a phone number must not be empty",
                "emailAddresses[0].value: an email address must not be empty",
                "urlAddresses[2].value: a URL address must not be empty",
            ])
    }

    @Test("A valid contact with every key set has no issues")
    func fullContactIsValid() {
        let contact = Contact(
            identifier: "C-1", values: ModelFixtures.fullValues(), availableKeys: .all)
        #expect(contact.validate().isEmpty)
        #expect(contact.mutableCopy().validate().isEmpty)
    }

    @Test("Only the requested and available keys are checked")
    func restrictedKeys() {
        var values = ContactValues()
        values.birthday = DateComponents(month: 2, day: 30)
        values.emailAddresses = [LabeledValue(label: nil, value: "")]
        let contact = MutableContact(
            identifier: "C-1", values: values, availableKeys: .all, base: values)
        #expect(contact.validate().count == 2)
        #expect(contact.validate(keys: contact.changedKeys).isEmpty)
        #expect(contact.validate(keys: ContactKeySet(.birthday)).map(\.keyPath) == ["birthday"])

        let partial = MutableContact(
            identifier: "C-1", values: values, availableKeys: [ContactKeySet(.givenName)],
            base: values)
        #expect(partial.validate().isEmpty)
    }
}
