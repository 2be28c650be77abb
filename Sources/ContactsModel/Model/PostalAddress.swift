import LedgerStorage

/// A postal address, like the framework's `CNPostalAddress`.
///
/// Every field is a string and an empty string means absent, as in the framework. A street of
/// several lines separates them with "\n".
public struct PostalAddress: Sendable, Hashable {
    /// The street lines, separated by "\n".
    public let street: String
    /// The district or neighborhood within the city.
    public let subLocality: String
    /// The city.
    public let city: String
    /// The county or other area between city and state.
    public let subAdministrativeArea: String
    /// The state, province or prefecture.
    public let state: String
    /// The postal code.
    public let postalCode: String
    /// The country name as text.
    public let country: String
    /// The ISO 3166-1 alpha-2 country code, such as "us" or "DE", which formatting uses.
    public let isoCountryCode: String

    /// Creates an address; fields left out are empty.
    public init(
        street: String = "", subLocality: String = "", city: String = "",
        subAdministrativeArea: String = "", state: String = "", postalCode: String = "",
        country: String = "", isoCountryCode: String = ""
    ) {
        self.street = street
        self.subLocality = subLocality
        self.city = city
        self.subAdministrativeArea = subAdministrativeArea
        self.state = state
        self.postalCode = postalCode
        self.country = country
        self.isoCountryCode = isoCountryCode
    }

    /// Returns a mutable copy of the address.
    public func mutableCopy() -> MutablePostalAddress {
        var address = MutablePostalAddress()
        address.street = street
        address.subLocality = subLocality
        address.city = city
        address.subAdministrativeArea = subAdministrativeArea
        address.state = state
        address.postalCode = postalCode
        address.country = country
        address.isoCountryCode = isoCountryCode
        return address
    }

    /// Whether every field is empty.
    public var isEmpty: Bool {
        Key.allCases.allSatisfy { self[$0].isEmpty }
    }

    /// The value of one field, named by its key.
    public subscript(key: Key) -> String {
        switch key {
        case .street: street
        case .subLocality: subLocality
        case .city: city
        case .subAdministrativeArea: subAdministrativeArea
        case .state: state
        case .postalCode: postalCode
        case .country: country
        case .isoCountryCode: isoCountryCode
        }
    }

    /// Returns the English display name of a field, such as "postal code".
    public static func localizedString(forKey key: Key) -> String {
        switch key {
        case .street: "street"
        case .subLocality: "district"
        case .city: "city"
        case .subAdministrativeArea: "county"
        case .state: "state"
        case .postalCode: "postal code"
        case .country: "country"
        case .isoCountryCode: "country code"
        }
    }
}

extension PostalAddress {
    /// A field of a postal address, with the framework's key strings as raw values.
    ///
    /// The strings are those of `CNPostalAddress…Key`; the one for the ISO country code,
    /// `"ISOCountryCode"`, follows the Objective-C property name and is inferred.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The street lines.
        case street
        /// The district or neighborhood.
        case subLocality
        /// The city.
        case city
        /// The county or other area between city and state.
        case subAdministrativeArea
        /// The state, province or prefecture.
        case state
        /// The postal code.
        case postalCode
        /// The country name.
        case country
        /// The ISO 3166-1 alpha-2 country code.
        case isoCountryCode = "ISOCountryCode"
    }
}
