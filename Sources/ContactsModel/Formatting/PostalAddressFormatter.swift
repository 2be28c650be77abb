import Foundation
import LedgerStorage

/// Formats a postal address as a multi-line mailing address, like `CNPostalAddressFormatter`.
///
/// The layout is chosen by the address's ``PostalAddress/isoCountryCode`` (in any letter
/// case); the country name text is not interpreted, and an address without a code gets the
/// default layout. The layouts, one line each, with the country always last:
///
/// - Default (United States and any country not listed): the street lines; the district;
///   "city state postalCode".
/// - Postal code before city (AT, BE, CH, CZ, DE, DK, ES, FI, FR, IS, LI, LU, NL, NO, PL,
///   PT, SE, SK): the street lines; the district; "postalCode city".
/// - Italy (IT): the street lines; the district; "postalCode city state" (the province).
/// - United Kingdom (GB): the street lines; the district; the city (post town); the postal
///   code.
/// - Japan (JP): "〒postalCode"; "state city district"; the street lines.
///
/// No layout prints the sub-administrative area (a county), which none of these countries
/// needs on a mailing address. Every field is trimmed of surrounding white space, the
/// street is split into its lines, and empty fields and lines are dropped, so there are no
/// blank lines and no stray spaces. An address with nothing to print formats as "".
public struct PostalAddressFormatter: Sendable, Hashable {
    /// The kind of text a formatter produces, with the framework's raw values.
    public enum Style: Int, Sendable, Hashable, CaseIterable {
        /// A multi-line mailing address.
        case mailingAddress = 0
    }

    /// The kind of text this formatter produces.
    public var style: Style

    /// Creates a formatter; the default is the mailing address.
    public init(style: Style = .mailingAddress) {
        self.style = style
    }

    /// Returns the address formatted in this formatter's style.
    public func string(from address: PostalAddress) -> String {
        switch style {
        case .mailingAddress:
            let layout = Layout(isoCountryCode: address.isoCountryCode)
            return layout.lines(of: address).joined(separator: "\n")
        }
    }

    /// Returns the mutable address formatted in this formatter's style.
    public func string(from address: MutablePostalAddress) -> String {
        string(from: address.copy())
    }

    /// Returns the address formatted in the given style.
    public static func string(from address: PostalAddress, style: Style) -> String {
        PostalAddressFormatter(style: style).string(from: address)
    }

    /// Returns the mutable address formatted in the given style.
    public static func string(from address: MutablePostalAddress, style: Style) -> String {
        PostalAddressFormatter(style: style).string(from: address)
    }
}
