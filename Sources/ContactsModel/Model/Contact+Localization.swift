import LedgerStorage

extension Contact {
    /// Returns the English display name of a contact key, such as "given name".
    ///
    /// This package carries no localization tables, so the names are English only; they are the
    /// keys' rows in ``ContactKeyTable``.
    public static func localizedString(forKey key: ContactKey) -> String {
        ContactKeyTable[key].displayName
    }
}
