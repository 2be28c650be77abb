import Foundation
import LedgerStorage

/// The user's contact preferences, like the framework's `CNContactsUserDefaults`.
///
/// Linux has no system-wide contact preferences, so ``shared`` holds fixed en_US-style
/// values (sort by family name, show given name first) with the country of the process's
/// locale, as the framework takes it from the user's region: ``localeRegion(in:)``, or none
/// (an empty code) when the locale names no country. A program that wants other preferences
/// makes its own value and passes it to ``ContactFormatter``.
public struct ContactsUserDefaults: Sendable, Hashable {
    /// The order in which to sort contacts; never ``ContactSortOrder/userDefault``.
    public var sortOrder: ContactSortOrder
    /// The order of the name parts in a displayed name, for names that are not in a
    /// family-name-first script; never ``ContactFormatter/DisplayNameOrder/userDefault``.
    public var displayNameOrder: ContactFormatter.DisplayNameOrder
    /// The default country of phone numbers, as a lowercase ISO 3166-1 alpha-2 code, or empty
    /// for none (a national number is then matched by its digits alone).
    public var countryCode: String

    /// Creates preferences; the defaults are those of ``shared``.
    ///
    /// A `.userDefault` sort or display order would refer to itself, so it is replaced by
    /// the en_US value.
    public init(
        sortOrder: ContactSortOrder = .familyName,
        displayNameOrder: ContactFormatter.DisplayNameOrder = .givenNameFirst,
        countryCode: String = "us"
    ) {
        self.sortOrder = sortOrder == .userDefault ? .familyName : sortOrder
        self.displayNameOrder =
            displayNameOrder == .userDefault ? .givenNameFirst : displayNameOrder
        self.countryCode = countryCode.lowercased()
    }

    /// The en_US-style preferences that the framework-style class methods use, with the
    /// country of the process's locale (``localeRegion(in:)``), else none.
    public static let shared = ContactsUserDefaults(
        countryCode: localeRegion(in: ProcessInfo.processInfo.environment) ?? "")

    /// The country of the POSIX locale that `environment` sets for telephone numbers: the first
    /// of `LC_ALL`, `LC_TELEPHONE` and `LANG` that is set and not empty, as C's `setlocale`
    /// picks it, read as `language_TERRITORY.codeset@modifier` (`de_DE.UTF-8` gives "de"); nil
    /// when that locale names no two-letter territory (`C`, `POSIX`, `C.UTF-8`, `en`).
    public static func localeRegion(in environment: [String: String]) -> String? {
        guard
            let name = ["LC_ALL", "LC_TELEPHONE", "LANG"].lazy.compactMap({ environment[$0] }).first(where: {
                !$0.isEmpty
            })
        else { return nil }
        let locale = name.split(separator: "@", maxSplits: 1)[0].split(separator: ".", maxSplits: 1).first ?? ""
        let parts = locale.split(separator: "_")
        guard parts.count >= 2, let territory = parts.last, territory.count == 2,
            territory.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        return territory.lowercased()
    }
}
