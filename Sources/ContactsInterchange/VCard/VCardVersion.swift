import ContactsModel

/// The vCard version that ``VCardSerialization/data(with:version:)`` writes.
///
/// The reader needs no version: it reads 2.1, 3.0 and 4.0, whatever a card's `VERSION` says.
public enum VCardVersion: String, Sendable, Hashable, CaseIterable {
    /// vCard 3.0 (RFC 2426) the way Apple's Contacts writes it: the default, and what Apple
    /// devices and most address books read best.
    case v3_0 = "3.0"
    /// vCard 4.0 (RFC 6350), with Apple's extensions where RFC 6350 has no equivalent.
    case v4_0 = "4.0"
}
