import Foundation
import LedgerStorage

/// Formats a contact's name for display, like the framework's `CNContactFormatter`.
///
/// The framework does not document its rules; these are this package's, chosen to match what
/// the Contacts app shows:
///
/// - An organization (``ContactType/organization``) is named by its organization name. If
///   that is empty, it is named like a person.
/// - A person is named by prefix, given, middle and family name and suffix. In a name whose
///   given, middle or family name contains Han, Hiragana or Katakana characters, the family
///   name comes first and the parts are joined with no delimiter ("王小明"); one with Hangul
///   characters puts the family name first and joins with a space ("김 민준"). Any other name
///   follows ``ContactsUserDefaults/displayNameOrder``: given name first (prefix, given,
///   middle, family, suffix) or family name first (prefix, family, given, middle, suffix),
///   joined with spaces.
/// - A person with no given, middle or family name is named by the organization name (a
///   prefix or suffix alone is not a name).
/// - With nothing to show, the result is nil, as in the framework. The nickname is never used.
/// - Parts are trimmed of surrounding white space, and empty parts are skipped, so there are
///   never doubled or stray spaces.
///
/// The ``Style/phoneticFullName`` style applies the same rules to the phonetic fields
/// (organizations by the phonetic organization name), always joining the parts with a
/// space, because readings are written as separate words; the order follows the name
/// fields, or the phonetic fields themselves when the name fields are empty.
///
/// The contact must have been fetched with ``descriptorForRequiredKeys(for:)``; otherwise
/// formatting stops the program naming the first missing key, whether or not that key
/// would have been read for this contact, so the mistake shows on the first contact.
public struct ContactFormatter: Sendable, Hashable {
    /// The kind of name a formatter produces, with the framework's raw values.
    public enum Style: Int, Sendable, Hashable, CaseIterable {
        /// The full name: prefix, given, middle and family name, and suffix.
        case fullName = 0
        /// The phonetic full name: the phonetic given, middle and family names.
        case phoneticFullName = 1
    }

    /// The order of the given and family names, with the framework's raw values.
    public enum DisplayNameOrder: Int, Sendable, Hashable, CaseIterable {
        /// The order in the user defaults (``ContactsUserDefaults/displayNameOrder``).
        case userDefault = 0
        /// The given name first, as in English.
        case givenNameFirst = 1
        /// The family name first, as in Chinese, Japanese, Korean or Hungarian.
        case familyNameFirst = 2
    }

    /// The kind of name this formatter produces.
    public var style: Style

    /// The preferences that resolve ``DisplayNameOrder/userDefault``.
    public var userDefaults: ContactsUserDefaults

    /// Creates a formatter; the default is the full name with the shared preferences.
    public init(style: Style = .fullName, userDefaults: ContactsUserDefaults = .shared) {
        self.style = style
        self.userDefaults = userDefaults
    }

    /// Returns the contact's name in this formatter's style, or nil when there is nothing
    /// to show.
    public func string(from contact: Contact) -> String? {
        Self.requireKeys(Self.descriptorForRequiredKeys(for: style), of: contact)
        switch style {
        case .fullName: return fullName(of: contact)
        case .phoneticFullName: return phoneticFullName(of: contact)
        }
    }

    /// Returns the mutable contact's name in this formatter's style, or nil when there is
    /// nothing to show.
    public func string(from contact: MutableContact) -> String? {
        string(from: contact.copy())
    }

    /// Returns the contact's name in the given style with the shared preferences, or nil
    /// when there is nothing to show.
    public static func string(from contact: Contact, style: Style) -> String? {
        ContactFormatter(style: style).string(from: contact)
    }

    /// Returns the mutable contact's name in the given style with the shared preferences,
    /// or nil when there is nothing to show.
    public static func string(from contact: MutableContact, style: Style) -> String? {
        ContactFormatter(style: style).string(from: contact)
    }

    /// The keys a contact must have been fetched with to be formatted in the given style.
    public static func descriptorForRequiredKeys(for style: Style) -> ContactKeySet {
        switch style {
        case .fullName:
            ContactKeySet([
                .contactType, .namePrefix, .givenName, .middleName, .familyName, .nameSuffix,
                .organizationName,
            ])
        case .phoneticFullName:
            ContactKeySet([
                .contactType, .givenName, .middleName, .familyName, .phoneticGivenName,
                .phoneticMiddleName, .phoneticFamilyName, .phoneticOrganizationName,
            ])
        }
    }

    /// The keys a contact must have been fetched with for ``nameOrder(for:)``.
    public static let descriptorForRequiredKeysForNameOrder = ContactKeySet([
        .givenName, .middleName, .familyName,
    ])

    /// The keys a contact must have been fetched with for ``delimiter(for:)``.
    public static let descriptorForRequiredKeysForDelimiter = ContactKeySet([
        .givenName, .middleName, .familyName,
    ])

    /// Returns the order in which the contact's name is shown with the shared preferences;
    /// never ``DisplayNameOrder/userDefault``.
    ///
    /// Names in Chinese, Japanese or Korean script are family name first; others follow
    /// ``ContactsUserDefaults/displayNameOrder``, which is given name first in
    /// ``ContactsUserDefaults/shared``.
    public static func nameOrder(for contact: Contact) -> DisplayNameOrder {
        requireKeys(descriptorForRequiredKeysForNameOrder, of: contact)
        return ContactFormatter().nameOrder(for: Self.nameParts(of: contact))
    }

    /// Returns the text between the parts of the contact's name: empty for a name in
    /// Chinese or Japanese script or a contact with no given, middle or family name, and a
    /// space otherwise.
    public static func delimiter(for contact: Contact) -> String {
        requireKeys(descriptorForRequiredKeysForDelimiter, of: contact)
        let parts = nameParts(of: contact)
        if parts.allSatisfy(\.isEmpty) {
            return ""
        }
        return NameScript(of: parts) == .chineseJapanese ? "" : " "
    }

    /// Returns the order in which the mutable contact's name is shown with the shared
    /// preferences; never ``DisplayNameOrder/userDefault``.
    public static func nameOrder(for contact: MutableContact) -> DisplayNameOrder {
        nameOrder(for: contact.copy())
    }

    /// Returns the text between the parts of the mutable contact's name.
    public static func delimiter(for contact: MutableContact) -> String {
        delimiter(for: contact.copy())
    }

    // MARK: Rules

    private func fullName(of contact: Contact) -> String? {
        fullName(of: contact.values)
    }

    /// The full name of a contact's values, or nil when there is nothing to show; the values
    /// of keys a contact was not fetched with are empty, and count as such. A writer of many
    /// contacts (a vCard export) calls this without checking each contact's keys, and each
    /// value is read once, in place.
    package func fullName(of values: ContactValues) -> String? {
        let organization = Self.trimmed(values[string: .organizationName])
        if values[contactType: .contactType] == .organization, !organization.isEmpty {
            return organization
        }
        let given = Self.trimmed(values[string: .givenName])
        let middle = Self.trimmed(values[string: .middleName])
        let family = Self.trimmed(values[string: .familyName])
        let script = NameScript(given, middle, family)
        let order = nameOrder(for: script)
        let delimiter = script == .chineseJapanese ? "" : " "
        let name = Self.join(
            prefix: Self.trimmed(values[string: .namePrefix]), given: given, middle: middle,
            family: family, suffix: Self.trimmed(values[string: .nameSuffix]), order: order,
            delimiter: delimiter)
        return name ?? (organization.isEmpty ? nil : organization)
    }

    private func phoneticFullName(of contact: Contact) -> String? {
        let organization = Self.trimmed(contact.phoneticOrganizationName)
        if contact.contactType == .organization, !organization.isEmpty {
            return organization
        }
        let given = Self.trimmed(contact.phoneticGivenName)
        let middle = Self.trimmed(contact.phoneticMiddleName)
        let family = Self.trimmed(contact.phoneticFamilyName)
        var orderParts = Self.nameParts(of: contact)
        if orderParts.allSatisfy(\.isEmpty) {
            orderParts = [given, middle, family]
        }
        let name = Self.join(
            prefix: "", given: given, middle: middle, family: family, suffix: "",
            order: nameOrder(for: orderParts), delimiter: " ")
        return name ?? (organization.isEmpty ? nil : organization)
    }

    /// The resolved order for a name made of the given parts.
    private func nameOrder(for parts: [String]) -> DisplayNameOrder {
        nameOrder(for: NameScript(of: parts))
    }

    /// The resolved order for a name whose parts are in `script`.
    private func nameOrder(for script: NameScript) -> DisplayNameOrder {
        if script.isFamilyNameFirst {
            return .familyNameFirst
        }
        return userDefaults.displayNameOrder == .familyNameFirst
            ? .familyNameFirst
            : .givenNameFirst
    }

    /// Joins the non-empty parts in the given order, or returns nil when the name proper
    /// (given, middle, family) is empty: a prefix or suffix alone is not a name.
    private static func join(
        prefix: String, given: String, middle: String, family: String, suffix: String,
        order: DisplayNameOrder, delimiter: String
    ) -> String? {
        guard !(given.isEmpty && middle.isEmpty && family.isEmpty) else { return nil }
        // Appended one by one rather than joined from an array: a short name then stays in the
        // string itself, and a formatter of many names allocates nothing for most of them.
        var name = ""
        func add(_ part: String) {
            guard !part.isEmpty else { return }
            if !name.isEmpty { name += delimiter }
            name += part
        }
        add(prefix)
        if order == .familyNameFirst {
            add(family)
            add(given)
            add(middle)
        } else {
            add(given)
            add(middle)
            add(family)
        }
        add(suffix)
        return name
    }

    private static func nameParts(of contact: Contact) -> [String] {
        [trimmed(contact.givenName), trimmed(contact.middleName), trimmed(contact.familyName)]
    }

    private static func trimmed(_ text: String) -> String {
        // Most names start and end with a letter or a digit: nothing to trim, and Foundation's
        // trimming (a bridge to NSString) costs more than formatting the rest of the name. Any
        // other end goes to Foundation, whose set also holds characters such as U+200B.
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        if Self.isLetterOrDigit(first) && Self.isLetterOrDigit(last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII letters and digits are the only ASCII scalars the properties accept; most names
        // start and end with one, and reading the properties costs a table lookup.
        if scalar.isASCII {
            let value = scalar.value | 0x20
            return (0x61...0x7A).contains(value) || (0x30...0x39).contains(scalar.value)
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Stops the program naming the first key of the set that the contact lacks.
    private static func requireKeys(_ keys: ContactKeySet, of contact: Contact) {
        let missing = keys.subtracting(contact.availableKeys)
        if !missing.isEmpty, let key = missing.keys.first {
            contactPropertyNotFetched(key, in: "Contact")
        }
    }
}
