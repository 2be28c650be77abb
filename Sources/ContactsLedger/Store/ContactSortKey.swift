import ContactsModel
import Foundation

/// Where a contact falls in a sort order: given or family name first, then the other, then
/// organization, ignoring case and diacritics; contacts without any name by organization among
/// the others' names. Ties are broken by identifier. Fetches order by it, and so does a listing
/// kept outside the store (the web server's), so that both show one order.
package struct ContactSortKey: Sendable, Hashable, Comparable {
    /// The folded fields, compared in order.
    package var fields: [String]
    /// The contact's identifier, the tie breaker.
    package var identifier: String

    /// The keys a sort key is made from.
    package static let keys = ContactKeySet([.givenName, .familyName, .organizationName])

    /// The orders that sort (`.givenName`, `.familyName`), `.userDefault` resolved to the user's,
    /// or nil for `.none`.
    package static func resolved(_ order: ContactSortOrder) -> ContactSortOrder? {
        let resolved = order == .userDefault ? ContactsUserDefaults.shared.sortOrder : order
        return resolved == .givenName || resolved == .familyName ? resolved : nil
    }

    /// The key of a contact with these values under a resolved order.
    package init(
        identifier: String, values: ContactValues, order: ContactSortOrder, folding folds: inout SortFolding
    ) {
        let first = values[string: order == .givenName ? .givenName : .familyName]
        let second = values[string: order == .givenName ? .familyName : .givenName]
        var key = [folds.fold(first), folds.fold(second), folds.fold(values[string: .organizationName])]
        if key[0].isEmpty && key[1].isEmpty { key = [key[2], "", ""] }
        self.fields = key
        self.identifier = identifier
    }

    package static func < (left: ContactSortKey, right: ContactSortKey) -> Bool {
        if left.fields != right.fields { return left.fields.lexicographicallyPrecedes(right.fields) }
        return left.identifier < right.identifier
    }
}

/// Folds sort keys as Foundation's case-, diacritic- and width-insensitive folding does:
/// ASCII text by lowering its letters, which is all that folding does to it, and other text
/// once per distinct string, since names repeat across an address book.
package struct SortFolding {
    private var folded: [String: String] = [:]

    /// A folder with nothing remembered.
    package init() {}

    /// `text` folded.
    package mutating func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        if let known = folded[text] { return known }
        let result = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        folded[text] = result
        return result
    }
}
