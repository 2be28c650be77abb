import ContactsModel
import LedgerStorage

/// The search indexes' rules for telling two values apart, offered to code outside the engine
/// that compares contacts with each other (finding duplicates, merging labeled values), so that
/// "the same name", "the same email address" and "the same phone number" mean there exactly what
/// they mean to the store's predicates (``SearchIndexes`` documents the rules).
package struct MatchKeys: Sendable {
    /// The dialling conventions national numbers are read with.
    private let dialing: PhoneDialing
    /// The region, as given (lowercase ISO 3166-1 alpha-2).
    package let region: String

    /// Keys for a region: national phone numbers are taken to be dialled in it. A region without
    /// numbering data reads a leading 0 as a trunk prefix and leaves the calling code unknown.
    package init(region: String) {
        self.region = region.lowercased()
        dialing = PhoneNumbering.dialing(for: self.region)
    }

    /// Whether the phone rules know a region's numbering plan.
    package static func isKnownRegion(_ region: String) -> Bool {
        PhoneNumbering.region(for: region) != nil
    }

    /// A phone number reduced to its calling code (0 when unknown) and national significant
    /// number, or nil when it has too few digits to be matched.
    package func phone(_ text: String) -> (callingCode: UInt16, national: String)? {
        PhoneNumbering.key(for: text, dialing: dialing).map {
            ($0.callingCode, String(decoding: $0.nationalNumber, as: UTF8.self))
        }
    }

    /// Whether two phone numbers are the same number: equal national significant numbers, and
    /// equal calling codes or one of them unknown.
    package func samePhone(_ first: String, _ second: String) -> Bool {
        guard let left = PhoneNumbering.key(for: first, dialing: dialing),
            let right = PhoneNumbering.key(for: second, dialing: dialing)
        else { return false }
        return left.matches(right)
    }

    /// An email address as the email index compares it (trimmed, case-folded, canonically
    /// composed), or nil when nothing is left.
    package static func email(_ address: String) -> String? {
        SearchFolding.foldedEmail(address).flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
    }

    /// The words of a text folded as the name index folds them (case, diacritics and width
    /// ignored; punctuation and spaces separate words), in order.
    package static func nameWords(_ text: String) -> [String] {
        var words = FoldedWords()
        SearchFolding.appendWords(of: text, to: &words)
        return (0..<words.count).map { String(decoding: words.word($0), as: UTF8.self) }
    }

    /// A text folded as a name, its words run together, so that spacing and punctuation do not
    /// count: "Jean-Luc" and "jean luc" both give "jeanluc".
    package static func foldedName(_ text: String) -> String {
        nameWords(text).joined()
    }
}
