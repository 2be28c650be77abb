import LedgerStorage

/// The user's contact preferences, like the framework's `CNContactsUserDefaults`.
///
/// Linux has no system-wide contact preferences, so ``shared`` holds fixed en_US-style
/// values: sort by family name, show given name first, country "us". A program that wants
/// other preferences makes its own value and passes it to ``ContactFormatter``.
public struct ContactsUserDefaults: Sendable, Hashable {
    /// The order in which to sort contacts; never ``ContactSortOrder/userDefault``.
    public var sortOrder: ContactSortOrder
    /// The order of the name parts in a displayed name, for names that are not in a
    /// family-name-first script; never ``ContactFormatter/DisplayNameOrder/userDefault``.
    public var displayNameOrder: ContactFormatter.DisplayNameOrder
    /// The default country of phone numbers, as a lowercase ISO 3166-1 alpha-2 code.
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

    /// The en_US-style preferences that the framework-style class methods use.
    public static let shared = ContactsUserDefaults()
}
