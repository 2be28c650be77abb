import ContactsLedger
import Foundation

/// The styles of a contact's formatted name, like the framework's `CNContactFormatterStyle`.
public enum CNContactFormatterStyle: Int, Sendable, Hashable {
    /// The full name.
    case fullName = 0
    /// The phonetic full name.
    case phoneticFullName = 1

    /// The native style.
    var native: ContactFormatter.Style { ContactFormatter.Style(rawValue: rawValue) ?? .fullName }
}

/// The order of a displayed name, like the framework's `CNContactDisplayNameOrder`.
public enum CNContactDisplayNameOrder: Int, Sendable, Hashable {
    /// The user's preferred order.
    case userDefault = 0
    /// Given name first.
    case givenNameFirst = 1
    /// Family name first.
    case familyNameFirst = 2
}

/// Formats contacts' names, like the framework's `CNContactFormatter`. Formatting a contact
/// fetched without ``descriptorForRequiredKeys(for:)`` stops the program, as the framework
/// raises `CNPropertyNotFetchedException`.
public final class CNContactFormatter: Formatter, @unchecked Sendable {
    /// The style names are formatted in.
    public var style: CNContactFormatterStyle = .fullName

    /// A formatter of full names.
    public override init() { super.init() }

    /// Not decoded: formatters are made in code.
    public required init?(coder: NSCoder) { nil }

    /// The name in this formatter's style, or nil when there is nothing to format.
    public func string(from contact: CNContact) -> String? {
        ContactFormatter(style: style.native).string(from: contact.native)
    }

    /// The name of `obj` when it is a contact, otherwise nil.
    public override func string(for obj: Any?) -> String? {
        (obj as? CNContact).flatMap(string(from:))
    }

    /// The name in a style, or nil when there is nothing to format.
    public class func string(from contact: CNContact, style: CNContactFormatterStyle) -> String? {
        ContactFormatter.string(from: contact.native, style: style.native)
    }

    /// The keys a contact must be fetched with to be formatted in `style`.
    public class func descriptorForRequiredKeys(for style: CNContactFormatterStyle) -> any CNKeyDescriptor {
        ContactFormatter.descriptorForRequiredKeys(for: style.native)
    }

    /// The order the contact's name is shown in; never `.userDefault`.
    public class func nameOrder(for contact: CNContact) -> CNContactDisplayNameOrder {
        CNContactDisplayNameOrder(rawValue: ContactFormatter.nameOrder(for: contact.native).rawValue) ?? .givenNameFirst
    }

    /// The text between the parts of the contact's name.
    public class func delimiter(for contact: CNContact) -> String { ContactFormatter.delimiter(for: contact.native) }

    /// The keys ``nameOrder(for:)`` needs.
    public class var descriptorForRequiredKeysForNameOrder: any CNKeyDescriptor {
        ContactFormatter.descriptorForRequiredKeysForNameOrder
    }

    /// The keys ``delimiter(for:)`` needs.
    public class var descriptorForRequiredKeysForDelimiter: any CNKeyDescriptor {
        ContactFormatter.descriptorForRequiredKeysForDelimiter
    }
}

/// The styles of a formatted address, like the framework's `CNPostalAddressFormatterStyle`.
public enum CNPostalAddressFormatterStyle: Int, Sendable, Hashable {
    /// A multi-line mailing address.
    case mailingAddress = 0
}

/// Formats postal addresses, laid out by their country, like the framework's
/// `CNPostalAddressFormatter`.
public final class CNPostalAddressFormatter: Formatter, @unchecked Sendable {
    /// The style addresses are formatted in.
    public var style: CNPostalAddressFormatterStyle = .mailingAddress

    /// A formatter of mailing addresses.
    public override init() { super.init() }

    /// Not decoded: formatters are made in code.
    public required init?(coder: NSCoder) { nil }

    /// The address as lines.
    public func string(from postalAddress: CNPostalAddress) -> String {
        PostalAddressFormatter().string(from: postalAddress.native)
    }

    /// The address of `obj` when it is a postal address, otherwise nil.
    public override func string(for obj: Any?) -> String? {
        (obj as? CNPostalAddress).map(string(from:))
    }

    /// The address as lines, in a style.
    public class func string(from postalAddress: CNPostalAddress, style: CNPostalAddressFormatterStyle) -> String {
        PostalAddressFormatter.string(from: postalAddress.native, style: .mailingAddress)
    }
}

/// vCard export and import, like the framework's `CNContactVCardSerialization`: vCard 3.0 is
/// written, and 2.1, 3.0 and 4.0 are read. Parsed contacts are new and unsaved.
public final class CNContactVCardSerialization: NSObject, @unchecked Sendable {
    /// The keys contacts must be fetched with to be serialized.
    public class func descriptorForRequiredKeys() -> any CNKeyDescriptor {
        VCardSerialization.descriptorForRequiredKeys()
    }

    /// The contacts as one vCard file, one card each, in order.
    public class func data(with contacts: [CNContact]) throws -> Data {
        try CNError.mapping { try VCardSerialization.data(with: contacts.map(\.native)) }
    }

    /// New contacts parsed from vCard data; throws ``CNError/Code/vCardMalformed`` naming the
    /// first card that cannot be read.
    public class func contacts(with data: Data) throws -> [CNContact] {
        do {
            return try VCardSerialization.contacts(with: data).map { CNMutableContact(native: $0) }
        } catch let error as ContactStoreError {
            throw CNError(error)
        } catch {
            throw CNError(.vCardMalformed, "\(error)")
        }
    }
}
