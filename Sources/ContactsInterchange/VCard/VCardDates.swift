import ContactsModel
import Foundation

/// Reading and writing the date values of `BDAY`, `ANNIVERSARY`, `X-ABDATE` and `X-ALTBDAY`.
enum VCardDates {
    /// The year Apple writes for a date without a year (with `X-APPLE-OMIT-YEAR=1604`); a date
    /// in this year is read as having no year, with or without the parameter.
    static let omittedYear = 1604

    /// Parses a date, ignoring any time of day; nil when the text is not a date.
    ///
    /// Accepted: `1980-03-22`, `19800322`, `1980-3-22`, `--0322`, `--03-22`, `1980-03` and
    /// `--03` (a month without a day, which the model then refuses), `---22`, and any of these
    /// followed by `T` and a time, or a space and a time. A year equal to `omitYear` or to
    /// `yearlessYear` (1604 unless told otherwise) means no year.
    static func parse(_ text: String, omitYear: Int? = nil, yearlessYear: Int? = omittedYear) -> DateComponents? {
        var date = Substring(text.vcardTrimmed())
        if let timeStart = date.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }) {
            date = date[..<timeStart]
        }
        guard !date.isEmpty else { return nil }
        var components = DateComponents()
        if date.hasPrefix("---") {
            guard let day = number(date.dropFirst(3), digits: 1...2) else { return nil }
            components.day = day
            return components
        }
        if date.hasPrefix("--") {
            let rest = date.dropFirst(2)
            let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
            if parts.count == 2 {
                guard let month = number(parts[0], digits: 1...2), let day = number(parts[1], digits: 1...2) else {
                    return nil
                }
                components.month = month
                components.day = day
            } else if rest.count == 4, let month = number(rest.prefix(2), digits: 2...2),
                let day = number(rest.suffix(2), digits: 2...2)
            {
                components.month = month
                components.day = day
            } else if let month = number(rest, digits: 1...2) {
                components.month = month
            } else {
                return nil
            }
            return components
        }
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1 where date.count == 8:
            guard let year = number(date.prefix(4), digits: 4...4),
                let month = number(date.dropFirst(4).prefix(2), digits: 2...2),
                let day = number(date.suffix(2), digits: 2...2)
            else { return nil }
            components.year = year
            components.month = month
            components.day = day
        case 1:
            guard let year = number(date, digits: 4...4) else { return nil }
            components.year = year
        case 2:
            guard let year = number(parts[0], digits: 4...4), let month = number(parts[1], digits: 1...2) else {
                return nil
            }
            components.year = year
            components.month = month
        case 3:
            guard let year = number(parts[0], digits: 1...4), let month = number(parts[1], digits: 1...2),
                let day = number(parts[2], digits: 1...2)
            else { return nil }
            components.year = year
            components.month = month
            components.day = day
        default:
            return nil
        }
        if let year = components.year, year == yearlessYear || year == omitYear {
            components.year = nil
        }
        return components
    }

    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The vCard 3.0 form, as Apple writes it: `1980-03-22`, or `1604-03-22` together with the
    /// parameter `X-APPLE-OMIT-YEAR=1604` for a date without a year.
    static func format30(_ date: DateComponents) -> (value: String, omitsYear: Bool) {
        let monthDay = padded(date.month ?? 1, 2) + "-" + padded(date.day ?? 1, 2)
        guard let year = date.year else {
            return (padded(omittedYear, 4) + "-" + monthDay, true)
        }
        return (padded(year, 4) + "-" + monthDay, false)
    }

    /// The vCard 4.0 form (RFC 6350 basic format): `19800322`, or `--0322` without a year.
    static func format40(_ date: DateComponents) -> String {
        let monthDay = padded(date.month ?? 1, 2) + padded(date.day ?? 1, 2)
        guard let year = date.year else {
            return "--" + monthDay
        }
        return padded(year, 4) + monthDay
    }

    // MARK: Non-Gregorian birthdays (X-ALTBDAY)

    /// The `CALSCALE` names of the calendars a non-Gregorian birthday may use (CLDR names).
    static let calendarNames: [(name: String, identifier: Calendar.Identifier)] = [
        ("chinese", .chinese), ("hebrew", .hebrew), ("islamic", .islamic),
        ("islamic-civil", .islamicCivil), ("islamic-tbla", .islamicTabular),
        ("islamic-umalqura", .islamicUmmAlQura),
    ]

    /// The calendar for a `CALSCALE` name (any case), or nil.
    static func calendarIdentifier(named name: String) -> Calendar.Identifier? {
        let lowered = name.lowercased()
        return calendarNames.first { $0.name == lowered }?.identifier
    }

    /// The `CALSCALE` name of a calendar, or nil for one a non-Gregorian birthday cannot use.
    static func calendarName(of identifier: Calendar.Identifier) -> String? {
        calendarNames.first { $0.identifier == identifier }?.name
    }

    /// Parses an `X-ALTBDAY` value: this package's forms (`00230815`, `--0815`) and Apple's
    /// twelve-digit Chinese form (cycle, year in cycle, month, day: `007800021101`), whose
    /// cycle is dropped because the model keeps only the year in the cycle.
    static func parseAlternate(_ text: String, calendar: Calendar.Identifier, isLeapMonth: Bool) -> DateComponents? {
        var value = text.vcardTrimmed()
        if value.count == 12, value.allSatisfy({ $0.isASCII && $0.isNumber }) {
            value = String(value.dropFirst(4))
        } else if value.count == 9, value.hasPrefix("-"), value.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
            value = String(value.dropFirst())
        }
        // 1604 means "no year" only in the Gregorian calendar.
        guard var components = parse(value, yearlessYear: nil) else { return nil }
        components.calendar = Calendar(identifier: calendar)
        if isLeapMonth {
            components.isLeapMonth = true
        }
        return components
    }

    /// The `X-ALTBDAY` value this package writes: `YYYYMMDD`, or `--MMDD` without a year.
    static func formatAlternate(_ date: DateComponents) -> String {
        format40(date)
    }
}
