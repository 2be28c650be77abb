import LedgerStorage

/// Whether a contact is a person or an organization, with the framework's raw values.
public enum ContactType: Int, Sendable, Hashable, CaseIterable {
    /// A person; the default for new contacts.
    case person = 0
    /// An organization, which formatters name by its organization name.
    case organization = 1
}
