import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// One row of an address formatting table.
struct AddressCase: Sendable, CustomTestStringConvertible {
    let name: String
    let address: PostalAddress
    let expected: String

    var testDescription: String { name }
}

@Suite("Postal address formatter")
struct PostalAddressFormatterTests {
    static let cases: [AddressCase] = [
        AddressCase(
            name: "United States",
            address: PostalAddress(
                street: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "95014",
                country: "United States", isoCountryCode: "us"),
            expected: "1 Infinite Loop\nCupertino CA 95014\nUnited States"),
        AddressCase(
            name: "no country code uses the default layout",
            address: PostalAddress(
                street: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "95014"),
            expected: "1 Infinite Loop\nCupertino CA 95014"),
        AddressCase(
            name: "Germany",
            address: PostalAddress(
                street: "Unter den Linden 1", city: "Berlin", state: "Berlin",
                postalCode: "10117", country: "Deutschland", isoCountryCode: "DE"),
            expected: "Unter den Linden 1\n10117 Berlin\nDeutschland"),
        AddressCase(
            name: "France, lowercase code",
            address: PostalAddress(
                street: "55 Rue du Faubourg Saint-Honoré", city: "Paris", postalCode: "75008",
                country: "France", isoCountryCode: "fr"),
            expected: "55 Rue du Faubourg Saint-Honoré\n75008 Paris\nFrance"),
        AddressCase(
            name: "Netherlands with a district",
            address: PostalAddress(
                street: "Dam 1", subLocality: "Centrum", city: "Amsterdam",
                postalCode: "1012 JS", isoCountryCode: "NL"),
            expected: "Dam 1\nCentrum\n1012 JS Amsterdam"),
        AddressCase(
            name: "Italy puts the province after the city",
            address: PostalAddress(
                street: "Via del Corso 1", city: "Roma", state: "RM", postalCode: "00186",
                country: "Italia", isoCountryCode: "IT"),
            expected: "Via del Corso 1\n00186 Roma RM\nItalia"),
        AddressCase(
            name: "United Kingdom",
            address: PostalAddress(
                street: "10 Downing Street", city: "London", postalCode: "SW1A 2AA",
                country: "United Kingdom", isoCountryCode: "GB"),
            expected: "10 Downing Street\nLondon\nSW1A 2AA\nUnited Kingdom"),
        AddressCase(
            name: "Japan",
            address: PostalAddress(
                street: "丸の内1-1", city: "千代田区", state: "東京都", postalCode: "100-0005",
                country: "日本", isoCountryCode: "JP"),
            expected: "〒100-0005\n東京都 千代田区\n丸の内1-1\n日本"),
        AddressCase(
            name: "Japan without a postal code has no postal mark",
            address: PostalAddress(street: "丸の内1-1", city: "千代田区", isoCountryCode: "JP"),
            expected: "千代田区\n丸の内1-1"),
        AddressCase(
            name: "multi-line street with blank lines and stray spaces",
            address: PostalAddress(
                street: "  Apt 4 \n\n  200 Main St\r\n", city: "Springfield ", state: "",
                postalCode: " 62701", isoCountryCode: "US"),
            expected: "Apt 4\n200 Main St\nSpringfield 62701"),
        AddressCase(
            name: "the county is never printed",
            address: PostalAddress(
                city: "Springfield", subAdministrativeArea: "Sangamon", state: "IL"),
            expected: "Springfield IL"),
        AddressCase(
            name: "country only",
            address: PostalAddress(country: "Norway", isoCountryCode: "NO"),
            expected: "Norway"),
        AddressCase(
            name: "empty address",
            address: PostalAddress(),
            expected: ""),
    ]

    @Test("Mailing addresses", arguments: cases)
    func mailingAddress(row: AddressCase) {
        let text = PostalAddressFormatter.string(from: row.address, style: .mailingAddress)
        #expect(text == row.expected)
        #expect(PostalAddressFormatter().string(from: row.address.mutableCopy()) == row.expected)
        #expect(!row.expected.contains("\n\n"))
        #expect(!row.expected.contains("  "))
    }
}
