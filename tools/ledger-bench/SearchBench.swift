import ContactsEngine
import ContactsLedger
import Foundation

/// Name, email and phone queries against the projection's search indexes, and the same queries
/// answered by a linear scan of the projection (decode each contact, fold its fields, compare),
/// which is what the store would have to do without the indexes.
///
/// Queries are drawn from the ledger's own contacts, so they match something: a one-word name
/// query is the first three to five characters of a family name; a two-word query adds the first
/// two to four characters of a given name; an email query is an address in upper case; a phone
/// query is a number written in another format.
struct SearchBench {
    let projection: Projection
    let quick: Bool
    /// Whether the linear scans are left out (for profiling and comparing the indexed queries).
    var indexOnly = false

    enum Kind: String, CaseIterable {
        case nameOneWord = "name_prefix_one_word"
        case nameTwoWords = "name_prefix_two_words"
        case email
        case phone
    }

    func run() -> [String: Any] {
        var random = SplitMix64(seed: 4_242)
        let slots = projection.occupiedSlots
        guard !slots.isEmpty else { return [:] }
        let indexQueries = quick ? 200 : 2_000
        let scanQueries = indexOnly ? 0 : quick ? 3 : 5
        var result: [String: Any] = [:]
        for kind in Kind.allCases {
            var queries: [String] = []
            while queries.count < indexQueries {
                let slot = slots.randomElement(using: &random)!
                guard let values = projection.state(at: slot)?.values, let query = Self.query(kind, values, &random)
                else { continue }
                queries.append(query)
            }
            var indexTimes: [Double] = []
            var matches = 0
            for query in queries {
                let start = nanoseconds()
                let found = Self.indexed(kind, query, projection)
                indexTimes.append(Double(nanoseconds() - start) / 1000)
                matches += found.count
            }
            var scanTimes: [Double] = []
            var agree = true
            for query in queries.prefix(scanQueries) {
                let start = nanoseconds()
                let scanned = Self.scan(kind, query, projection)
                scanTimes.append(Double(nanoseconds() - start) / 1000)
                if scanned != Self.indexed(kind, query, projection) { agree = false }
            }
            let indexMedian = percentile(indexTimes, 0.5)
            var figures: [String: Any] = [
                "p50_us": indexMedian, "p99_us": percentile(indexTimes, 0.99),
                "mean_matches": Double(matches) / Double(queries.count), "queries": queries.count,
                "scan_queries": scanTimes.count,
            ]
            if !scanTimes.isEmpty {
                let scanMedian = percentile(scanTimes, 0.5)
                figures["linear_scan_p50_us"] = scanMedian
                figures["linear_scan_vs_index"] = scanMedian / indexMedian
                figures["scan_agrees_with_index"] = agree
            }
            result[kind.rawValue] = figures
        }
        return result
    }

    static func query(_ kind: Kind, _ values: ContactValues, _ random: inout SplitMix64) -> String? {
        switch kind {
        case .nameOneWord:
            guard !values.familyName.isEmpty else { return nil }
            return String(values.familyName.prefix(Int.random(in: 3...5, using: &random)))
        case .nameTwoWords:
            guard !values.familyName.isEmpty, !values.givenName.isEmpty else { return nil }
            return String(values.givenName.prefix(Int.random(in: 2...4, using: &random))) + " "
                + String(values.familyName.prefix(Int.random(in: 3...5, using: &random)))
        case .email:
            return values.emailAddresses.randomElement(using: &random)?.value.uppercased()
        case .phone:
            guard let number = values.phoneNumbers.randomElement(using: &random)?.value.stringValue else { return nil }
            let digits = number.filter(\.isNumber)
            // A national (NANP) number written in its international form, or any number as bare digits.
            if !number.hasPrefix("+") && digits.count == 10 { return "+1 " + digits }
            return number.hasPrefix("+") ? "+" + digits : digits
        }
    }

    static func indexed(_ kind: Kind, _ query: String, _ projection: Projection) -> [ContactSlot] {
        switch kind {
        case .nameOneWord, .nameTwoWords: return projection.indexes.slots(matchingName: query)
        case .email: return projection.indexes.slots(matchingEmailAddress: query)
        case .phone: return projection.indexes.slots(matchingPhoneNumber: query)
        }
    }

    // MARK: The linear scan

    static func scan(_ kind: Kind, _ query: String, _ projection: Projection) -> [ContactSlot] {
        switch kind {
        case .nameOneWord, .nameTwoWords:
            let wanted = words(query)
            guard !wanted.isEmpty else { return [] }
            return projection.occupiedSlots.filter { slot in
                guard let values = projection.state(at: slot)?.values else { return false }
                let have = nameWords(values)
                return wanted.allSatisfy { word in have.contains { $0.hasPrefix(word) } }
            }
        case .email:
            let wanted = query.trimmingCharacters(in: .whitespaces).lowercased()
            return projection.occupiedSlots.filter { slot in
                guard let values = projection.state(at: slot)?.values else { return false }
                return values.emailAddresses.contains {
                    $0.value.trimmingCharacters(in: .whitespaces).lowercased() == wanted
                }
            }
        case .phone:
            let wanted = phoneDigits(query)
            return projection.occupiedSlots.filter { slot in
                guard let values = projection.state(at: slot)?.values else { return false }
                return values.phoneNumbers.contains { phoneDigits($0.value.stringValue) == wanted }
            }
        }
    }

    /// Digits with a NANP country code or trunk prefix "1" removed: the generator's numbers are
    /// NANP numbers written with or without it, and international numbers written with "+".
    static func phoneDigits(_ text: String) -> String {
        let digits = String(text.unicodeScalars.filter { $0.properties.numericType != nil }.map(Character.init))
        if digits.count == 11 && digits.hasPrefix("1") { return String(digits.dropFirst()) }
        return digits
    }

    static func nameWords(_ values: ContactValues) -> [String] {
        ContactKeyTable.searchedNameKeys.map { values[string: $0] }.flatMap(words)
    }

    /// Folds case, diacritics and width with Foundation, folds the stroked letters Foundation
    /// leaves alone, and splits into words; a Han, Kana or Hangul character is a word of its own.
    static func words(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result: [String] = []
        var current = ""
        for scalar in folded.unicodeScalars {
            if isIdeographic(scalar) {
                if !current.isEmpty { result.append(current) }
                current = ""
                result.append(String(scalar))
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar.properties.generalCategory == .nonspacingMark
            {
                current += strokeFolded(scalar)
            } else {
                if !current.isEmpty { result.append(current) }
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x2FFFF:
            return true
        default:
            return false
        }
    }

    static func strokeFolded(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "ø": return "o"
        case "ł": return "l"
        case "đ", "ð": return "d"
        case "ħ": return "h"
        case "ı": return "i"
        case "ŧ": return "t"
        case "æ": return "ae"
        case "œ": return "oe"
        case "þ": return "th"
        case "ß": return "ss"
        default: return String(scalar)
        }
    }
}
