import ContactsLedger
import Foundation

/// Which end of its day a bare date stands for: the end for a point the ledger is read at
/// (`--as-of 2026-12-05` includes that day), the start for the first moment of a range (`--since`).
public enum DateEnd {
    case start, end
}

/// Times as people type them: RFC 3339, or a date or a time of day without a zone, read in the
/// local time zone (`TZ`).
public enum LocalTime {
    /// The forms, for an error message.
    public static let forms =
        "a sequence number, an RFC 3339 time (2026-12-05T14:30:00Z), a local time (2026-12-05T14:30) "
        + "or a date (2026-12-05)"

    /// The time `text` names, or nil when it is none of the forms.
    public static func date(from text: String, end: DateEnd) -> Date? {
        if let date = RFC3339.date(from: text) { return date }
        let parts = text.split(separator: text.contains("T") ? "T" : " ", omittingEmptySubsequences: false)
        guard parts.count <= 2, var components = day(parts[0]) else { return nil }
        if parts.count == 2 {
            guard let time = timeOfDay(parts[1]) else { return nil }
            (components.hour, components.minute, components.second) = (time.hour, time.minute, time.second)
            return moment(components, nanosecond: time.nanosecond)
        }
        (components.hour, components.minute, components.second) = (0, 0, 0)
        guard let start = moment(components, nanosecond: 0) else { return nil }
        guard end == .end, let next = calendar.date(byAdding: .day, value: 1, to: start) else { return start }
        // The last microsecond of the day, the ledger's resolution, whatever length the day has.
        return next.addingTimeInterval(-0.000_001)
    }

    /// The Gregorian calendar in the local time zone (`TZ`).
    private static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }

    /// The local moment of `components`, nil for a day or time that does not exist (February 30).
    private static func moment(_ components: DateComponents, nanosecond: Int) -> Date? {
        var full = components
        full.nanosecond = nanosecond
        guard let date = calendar.date(from: full) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        guard back.year == components.year, back.month == components.month, back.day == components.day,
            back.hour == components.hour, back.minute == components.minute
        else { return nil }
        return date
    }

    /// `YYYY-MM-DD`.
    private static func day(_ text: Substring) -> DateComponents? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
            let year = number(fields[0]), let month = number(fields[1]), let day = number(fields[2])
        else { return nil }
        return DateComponents(year: year, month: month, day: day)
    }

    /// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fraction`.
    private static func timeOfDay(_ text: Substring) -> (hour: Int, minute: Int, second: Int, nanosecond: Int)? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3, fields.allSatisfy({ !$0.isEmpty }),
            let hour = number(fields[0]), let minute = number(fields[1]), hour < 24, minute < 60
        else { return nil }
        guard fields.count == 3 else { return (hour, minute, 0, 0) }
        let seconds = fields[2].split(separator: ".", omittingEmptySubsequences: false)
        guard seconds.count <= 2, seconds[0].count == 2, let second = number(seconds[0]), second < 60 else {
            return nil
        }
        guard seconds.count == 2 else { return (hour, minute, second, 0) }
        let digits = seconds[1]
        guard let fraction = number(digits) else { return nil }
        return (hour, minute, second, fraction * Int(pow(10, Double(9 - digits.count))))
    }

    /// The value of a run of ASCII digits.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

extension LedgerPoint {
    /// The point `text` names, the one reading of every place that takes one: a sequence number,
    /// an RFC 3339 time, a local time without a zone (`2026-12-05T14:30`) or a date
    /// (`2026-12-05`, its end in local time unless `end` says otherwise); nil when it is none of
    /// these or a sequence too large.
    public init?(parsing text: String, date end: DateEnd = .end) {
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            guard let sequence = UInt64(text) else { return nil }
            self = .sequence(sequence)
            return
        }
        guard let date = LocalTime.date(from: text, end: end) else { return nil }
        self = .time(date)
    }
}
