import ContactsLedger
import Foundation

/// An `addressbook-query` filter (RFC 6352 §10.5): property filters on FN, N, EMAIL, TEL, UID,
/// NICKNAME, ORG, TITLE, NOTE, ADR and URL, each with text matches, combined with `anyof`
/// (the default) or `allof`.
struct CardDAVFilter {
    /// One `prop-filter`.
    struct PropertyFilter {
        var name: String
        var allOf: Bool
        var isNotDefined: Bool
        var matches: [TextMatch]
    }

    /// One `text-match`.
    struct TextMatch {
        var text: String
        var type: String
        var negated: Bool
        var caseSensitive: Bool

        func matches(_ value: String) -> Bool {
            let (value, text) = caseSensitive ? (value, text) : (CardDAVFilter.fold(value), CardDAVFilter.fold(text))
            let found: Bool
            switch type {
            case "equals": found = value == text
            case "starts-with": found = value.hasPrefix(text)
            case "ends-with": found = value.hasSuffix(text)
            default: found = value.contains(text)
            }
            return found != negated
        }
    }

    var filters: [PropertyFilter] = []
    var allOf = false

    /// The filter of a query; no filter matches every card.
    init(_ element: DAVElement?) throws(HTTPError) {
        guard let element else { return }
        allOf = element.attributes["test"] == "allof"
        for child in element.children("prop-filter", in: DAVElement.cardDAV) {
            guard let name = child.attributes["name"]?.uppercased(), !name.isEmpty else {
                throw HTTPError(400, "malformedXML", "a prop-filter needs a name attribute")
            }
            let matches = child.children("text-match", in: DAVElement.cardDAV).map { match in
                TextMatch(
                    text: match.text, type: match.attributes["match-type"] ?? "contains",
                    negated: match.attributes["negate-condition"] == "yes",
                    caseSensitive: match.attributes["collation"] == "i;octet")
            }
            filters.append(
                PropertyFilter(
                    name: name, allOf: child.attributes["test"] == "allof",
                    isNotDefined: child.child("is-not-defined", in: DAVElement.cardDAV) != nil, matches: matches))
        }
    }

    /// Text folded for `i;unicode-casemap` and `i;ascii-casemap`: case and width ignored.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether a contact passes the filter.
    func matches(_ contact: Contact) -> Bool {
        guard !filters.isEmpty else { return true }
        let results = filters.map { matches($0, values: Self.values(of: $0.name, in: contact)) }
        return allOf ? results.allSatisfy { $0 } : results.contains(true)
    }

    private func matches(_ filter: PropertyFilter, values: [String]) -> Bool {
        if filter.isNotDefined { return values.isEmpty }
        if values.isEmpty { return false }
        if filter.matches.isEmpty { return true }
        let results = filter.matches.map { match in values.contains { match.matches($0) } }
        return filter.allOf ? results.allSatisfy { $0 } : results.contains(true)
    }

    /// The values a card's property holds, as the card's text shows them.
    static func values(of property: String, in contact: Contact) -> [String] {
        let values = contact.values
        let texts: [String]
        switch property {
        case "FN": texts = [ContactFormatter.string(from: contact, style: .fullName) ?? ""]
        case "N":
            texts = [
                [values.familyName, values.givenName, values.middleName, values.namePrefix, values.nameSuffix]
                    .joined(separator: ";")
            ]
        case "EMAIL": texts = values.emailAddresses.map(\.value)
        case "TEL": texts = values.phoneNumbers.map(\.value.stringValue)
        case "UID": texts = [CardDAVCards.clientUID(of: contact) ?? contact.identifier]
        case "NICKNAME": texts = [values.nickname]
        case "ORG": texts = [values.organizationName, values.departmentName].filter { !$0.isEmpty }
        case "TITLE": texts = [values.jobTitle]
        case "NOTE": texts = contact.isKeyAvailable(.note) ? [values.note] : []
        case "URL": texts = values.urlAddresses.map(\.value)
        case "ADR":
            texts = values.postalAddresses.map { address in
                [
                    address.value.street, address.value.city, address.value.state, address.value.postalCode,
                    address.value.country,
                ].joined(separator: " ")
            }
        default: texts = []
        }
        return texts.filter { !$0.isEmpty && $0 != ";;;;" }
    }
}
