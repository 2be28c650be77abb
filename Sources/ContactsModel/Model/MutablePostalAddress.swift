import LedgerStorage

/// A postal address whose fields can be changed, like `CNMutablePostalAddress`.
///
/// To remove a field, set it to the empty string, as the framework asks.
public struct MutablePostalAddress: Sendable, Hashable {
    /// The street lines, separated by "\n".
    public var street = ""
    /// The district or neighborhood within the city.
    public var subLocality = ""
    /// The city.
    public var city = ""
    /// The county or other area between city and state.
    public var subAdministrativeArea = ""
    /// The state, province or prefecture.
    public var state = ""
    /// The postal code.
    public var postalCode = ""
    /// The country name as text.
    public var country = ""
    /// The ISO 3166-1 alpha-2 country code, such as "us" or "DE", which formatting uses.
    public var isoCountryCode = ""

    /// Creates an empty address.
    public init() {}

    /// Returns an immutable copy of the address.
    public func copy() -> PostalAddress {
        PostalAddress(
            street: street, subLocality: subLocality, city: city,
            subAdministrativeArea: subAdministrativeArea, state: state, postalCode: postalCode,
            country: country, isoCountryCode: isoCountryCode)
    }
}
