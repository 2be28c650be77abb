import Foundation
import LedgerStorage

extension PostalAddressFormatter {
    /// The order of the fields of a mailing address in one group of countries; see
    /// ``PostalAddressFormatter`` for the list.
    enum Layout: Sendable, Hashable {
        case cityStatePostalCode
        case postalCodeCity
        case postalCodeCityProvince
        case unitedKingdom
        case japan

        private static let postalCodeCityCountries: Set<String> = [
            "AT", "BE", "CH", "CZ", "DE", "DK", "ES", "FI", "FR", "IS", "LI", "LU", "NL", "NO",
            "PL", "PT", "SE", "SK",
        ]

        /// The layout for a country code in any letter case; the default for any other.
        init(isoCountryCode: String) {
            let code = isoCountryCode.trimmingCharacters(in: .whitespaces).uppercased()
            switch code {
            case "GB": self = .unitedKingdom
            case "IT": self = .postalCodeCityProvince
            case "JP": self = .japan
            case _ where Self.postalCodeCityCountries.contains(code): self = .postalCodeCity
            default: self = .cityStatePostalCode
            }
        }

        /// The non-empty lines of the address in this layout.
        func lines(of address: PostalAddress) -> [String] {
            let street = address.street
                .split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
                .map { trimmed(String($0)) }
            let district = trimmed(address.subLocality)
            let city = trimmed(address.city)
            let state = trimmed(address.state)
            let postalCode = trimmed(address.postalCode)
            let country = trimmed(address.country)
            let lines: [String]
            switch self {
            case .cityStatePostalCode:
                lines = street + [district, words(city, state, postalCode), country]
            case .postalCodeCity:
                lines = street + [district, words(postalCode, city), country]
            case .postalCodeCityProvince:
                lines = street + [district, words(postalCode, city, state), country]
            case .unitedKingdom:
                lines = street + [district, city, postalCode, country]
            case .japan:
                let mark = postalCode.isEmpty ? "" : "〒" + postalCode
                lines = [mark, words(state, city, district)] + street + [country]
            }
            return lines.filter { !$0.isEmpty }
        }

        private func words(_ parts: String...) -> String {
            parts.filter { !$0.isEmpty }.joined(separator: " ")
        }

        private func trimmed(_ text: String) -> String {
            text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
