import LedgerStorage

/// The order in which to sort contacts by name, with the framework's raw values.
public enum ContactSortOrder: Int, Sendable, Hashable, CaseIterable {
    /// No particular order.
    case none = 0
    /// The order in ``ContactsUserDefaults/sortOrder``.
    case userDefault = 1
    /// By given name, then family name.
    case givenName = 2
    /// By family name, then given name.
    case familyName = 3
}
