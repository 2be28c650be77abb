import Foundation
import LedgerStorage

extension ContactValues {
    /// Returns every rule the values of the given keys break, in key order.
    ///
    /// The rules (the framework's, where it documents them):
    ///
    /// - `birthday` and each element of `dates` are Gregorian dates: the calendar is nil or
    ///   Gregorian; month and day are required and the year is optional; month is 1...12 and
    ///   the day exists in that month (February 29 only without a year or in a leap year);
    ///   a year is 1...9999; no other component may be set (era, hour, minute, second,
    ///   nanosecond, weekday, weekday ordinal, quarter, week of month or year, year for week
    ///   of year, day of year, time zone, or a leap month). `isLeapMonth == false` counts as
    ///   unset, because `Calendar.dateComponents(_:from:)` fills it in.
    /// - `nonGregorianBirthday` needs a calendar, and it must be Chinese, Hebrew or one of
    ///   the Islamic calendars (the lunar calendars the Contacts app offers; the others that
    ///   Foundation knows share the Gregorian months and days); month and day are required
    ///   and the year is optional; month is 1...12 (1...13 in the Hebrew calendar, which
    ///   Foundation numbers that way), day is 1...30, a year is 1...60 in the Chinese
    ///   calendar (the year of the sixty-year cycle, as Foundation numbers it) and 1...9999
    ///   in the others; `isLeapMonth` may be true only in the Chinese calendar; no other
    ///   component may be set. The day is not checked against the length of the particular
    ///   lunar month, which would need the year and the calendar's tables.
    /// - Phone numbers, email addresses and URL addresses must not be empty or only white
    ///   space. Beyond that the values are free text, as in the framework, which accepts
    ///   most text: an address book holds what people typed, and a stricter check would
    ///   refuse real imported data.
    ///
    /// - No text holds a NUL character (U+0000): not a value, a label, a labeled value's
    ///   identifier, nor a field of an address, a profile or a related name. vCard, JSON readers in
    ///   C and terminals end text at NUL, so such a value would be cut short on its way out.
    ///
    /// Other keys have no rules. Which keys have which rule is in ``ContactKeyTable``: the dates by
    /// their kind, the labeled values that must not be blank by their row's noun.
    package func validationIssues(for keys: ContactKeySet) -> [ContactValidationIssue] {
        var issues = nulIssues(for: keys)
        for key in ContactKeyTable.validatedKeys where keys.contains(key) {
            let kind = ContactKeyTable.kind(of: key)
            switch kind {
            case .date, .nonGregorianDate:
                guard let date = self[date: key] else { continue }
                let problems = kind == .date ? Self.gregorianDateProblems(date) : Self.nonGregorianDateProblems(date)
                issues += problems.map { .init(key: key, keyPath: key.rawValue, message: $0) }
            case .labeledDates:
                for (index, date) in self[labeledDates: key].enumerated() {
                    for message in Self.gregorianDateProblems(date.value) {
                        issues.append(.init(key: key, keyPath: "\(key.rawValue)[\(index)].value", message: message))
                    }
                }
            case .labeledPhoneNumbers:
                issues += Self.blankValueIssues(self[phoneNumbers: key].map(\.value.stringValue), key)
            case .labeledStrings:
                issues += Self.blankValueIssues(self[labeledStrings: key].map(\.value), key)
            default:
                continue
            }
        }
        return issues
    }

    /// Whether a text holds a NUL character, read through its UTF-8 span: the generic
    /// `utf8.contains` walks the view index by index, and every save checks every text.
    package static func holdsNUL(_ text: String) -> Bool {
        let bytes = text.utf8Span.span
        for index in bytes.indices where bytes[index] == 0 { return true }
        return false
    }

    /// The message of a text that holds a NUL character.
    package static let nulMessage = "a NUL character (U+0000) is not allowed"

    /// The issues of the texts of the given keys that hold a NUL character, each named by its key path
    /// (`note`, `phoneNumbers[0].label`, `postalAddresses[1].value.street`).
    private func nulIssues(for keys: ContactKeySet) -> [ContactValidationIssue] {
        var issues: [ContactValidationIssue] = []
        // The key path is made only for a text that holds NUL: every save checks every text.
        func checkText(_ text: String, _ key: ContactKey, _ path: @autoclosure () -> String) {
            if Self.holdsNUL(text) { issues.append(.init(key: key, keyPath: path(), message: Self.nulMessage)) }
        }
        func checkLabeled<Value>(
            _ values: [LabeledValue<Value>], _ key: ContactKey, _ texts: (Value, (String, String) -> Void) -> Void
        ) {
            for index in values.indices {
                let element = values[index]
                checkText(element.identifier, key, "\(key.rawValue)[\(index)].identifier")
                if let label = element.label { checkText(label, key, "\(key.rawValue)[\(index)].label") }
                texts(element.value) { field, text in
                    checkText(text, key, "\(key.rawValue)[\(index)].value" + field)
                }
            }
        }
        for key in ContactKeyTable.textKeys where keys.contains(key) {
            switch ContactKeyTable.kind(of: key) {
            case .string: checkText(self[string: key], key, key.rawValue)
            case .labeledDates: checkLabeled(self[labeledDates: key], key) { _, _ in }
            case .labeledPhoneNumbers: checkLabeled(self[phoneNumbers: key], key) { $1("", $0.stringValue) }
            case .labeledStrings: checkLabeled(self[labeledStrings: key], key) { $1("", $0) }
            case .labeledPostalAddresses:
                checkLabeled(self[postalAddresses: key], key) { address, check in
                    check(".street", address.street)
                    check(".subLocality", address.subLocality)
                    check(".city", address.city)
                    check(".subAdministrativeArea", address.subAdministrativeArea)
                    check(".state", address.state)
                    check(".postalCode", address.postalCode)
                    check(".country", address.country)
                    check(".isoCountryCode", address.isoCountryCode)
                }
            case .labeledRelations: checkLabeled(self[contactRelations: key], key) { $1(".name", $0.name) }
            case .labeledSocialProfiles:
                checkLabeled(self[socialProfiles: key], key) { profile, check in
                    check(".urlString", profile.urlString)
                    check(".username", profile.username)
                    check(".userIdentifier", profile.userIdentifier)
                    check(".service", profile.service)
                }
            case .labeledInstantMessageAddresses:
                checkLabeled(self[instantMessageAddresses: key], key) {
                    $1(".username", $0.username)
                    $1(".service", $0.service)
                }
            default: continue
            }
        }
        return issues
    }

    /// The largest year a date may have, so that every date fits vCard's four digits.
    static let yearMax = 9999

    /// The issues of a key's labeled values that must not be blank, when its row says so.
    private static func blankValueIssues(_ texts: [String], _ key: ContactKey) -> [ContactValidationIssue] {
        texts.enumerated().compactMap { index, text in
            // A character holding a printable ASCII scalar is not whitespace (the scalar starts it,
            // or a prepended one that is not whitespace does), so most values are settled without
            // breaking them into characters.
            guard !text.utf8.contains(where: { (0x21...0x7E).contains($0) }), text.allSatisfy(\.isWhitespace) else {
                return nil
            }
            guard let noun = ContactKeyTable[key].blankValueNoun else { return nil }
            return ContactValidationIssue(
                key: key, keyPath: "\(key.rawValue)[\(index)].value",
                message: "\(noun) must not be empty")
        }
    }

    /// The problems of a Gregorian birthday or date, as messages.
    package static func gregorianDateProblems(_ date: DateComponents) -> [String] {
        var problems: [String] = []
        if let calendar = date.calendar, calendar.identifier != .gregorian {
            problems.append("the calendar must be Gregorian or nil, not \(calendar.identifier)")
        }
        problems += extraComponentProblems(date, leapMonthAllowed: false)
        problems += monthAndDayProblems(date, monthsMax: 12) { month in
            gregorianDaysMax(month: month, year: date.year)
        }
        if let year = date.year, !(1...yearMax).contains(year) {
            problems.append("year \(year) is not in 1...\(yearMax)")
        }
        return problems
    }

    /// The problems of a non-Gregorian birthday, as messages.
    package static func nonGregorianDateProblems(_ date: DateComponents) -> [String] {
        var problems: [String] = []
        guard let identifier = date.calendar?.identifier else {
            problems.append("a Chinese, Hebrew or Islamic calendar is required")
            problems += extraComponentProblems(date, leapMonthAllowed: false)
            problems += monthAndDayProblems(date, monthsMax: nil) { _ in nil }
            return problems
        }
        let isChinese = identifier == .chinese
        let isHebrew = identifier == .hebrew
        let isIslamic = [.islamic, .islamicCivil, .islamicTabular, .islamicUmmAlQura]
            .contains(identifier)
        let isLunar = isChinese || isHebrew || isIslamic
        if !isLunar {
            problems.append("the calendar must be Chinese, Hebrew or Islamic, not \(identifier)")
        }
        problems += extraComponentProblems(date, leapMonthAllowed: isChinese)
        problems += monthAndDayProblems(date, monthsMax: isLunar ? (isHebrew ? 13 : 12) : nil) {
            _ in isLunar ? 30 : nil
        }
        let yearsMax = isChinese ? 60 : yearMax
        if let year = date.year, !(1...yearsMax).contains(year) {
            problems.append("year \(year) is not in 1...\(yearsMax) in the \(identifier) calendar")
        }
        return problems
    }

    /// Checks that month and day are present and in range; a nil maximum skips that range.
    private static func monthAndDayProblems(
        _ date: DateComponents, monthsMax: Int?, daysMax: (Int) -> Int?
    ) -> [String] {
        var problems: [String] = []
        if date.month == nil {
            problems.append("a month is required")
        }
        if date.day == nil {
            problems.append("a day is required")
        }
        if let month = date.month, let monthsMax, !(1...monthsMax).contains(month) {
            problems.append("month \(month) is not in 1...\(monthsMax)")
            return problems
        }
        if let day = date.day {
            if day < 1 {
                problems.append("day \(day) is not a day of a month")
            } else if let month = date.month, let daysMax = daysMax(month), day > daysMax {
                let year = date.year.map { " in \($0)" } ?? ""
                problems.append("day \(day) is not a day of month \(month)\(year)")
            }
        }
        return problems
    }

    /// The number of days of a Gregorian month; February has 29 when the year is unknown.
    private static func gregorianDaysMax(month: Int, year: Int?) -> Int {
        switch month {
        case 2:
            guard let year else { return 29 }
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return isLeap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Names every component that a contact date must not have.
    private static func extraComponentProblems(
        _ date: DateComponents, leapMonthAllowed: Bool
    ) -> [String] {
        let components: [(String, Bool)] = [
            ("era", date.era != nil),
            ("hour", date.hour != nil),
            ("minute", date.minute != nil),
            ("second", date.second != nil),
            ("nanosecond", date.nanosecond != nil),
            ("weekday", date.weekday != nil),
            ("weekdayOrdinal", date.weekdayOrdinal != nil),
            ("quarter", date.quarter != nil),
            ("weekOfMonth", date.weekOfMonth != nil),
            ("weekOfYear", date.weekOfYear != nil),
            ("yearForWeekOfYear", date.yearForWeekOfYear != nil),
            ("dayOfYear", date.dayOfYear != nil),
            ("timeZone", date.timeZone != nil),
            ("isLeapMonth", !leapMonthAllowed && date.isLeapMonth == true),
        ]
        return components.filter(\.1).map { "the \($0.0) component is not allowed" }
    }
}
