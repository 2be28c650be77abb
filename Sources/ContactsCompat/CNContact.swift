import ContactsLedger
import Foundation

/// Whether a contact is a person or an organization, like the framework's `CNContactType`.
public enum CNContactType: Int, Sendable, Hashable {
    /// A person.
    case person = 0
    /// An organization.
    case organization = 1
}

/// An immutable contact, like the framework's `CNContact`, possibly partial.
///
/// A fetched contact holds only the keys that were asked for. Reading a property whose key was
/// not fetched stops the program with `CNPropertyNotFetchedException` and the key in the message,
/// as the framework raises that exception: the bug that would crash the app fails the test.
/// Use ``isKeyAvailable(_:)`` or ``areKeysAvailable(_:)`` to check first.
public class CNContact: NSObject, NSCopying, NSMutableCopying, Identifiable, @unchecked Sendable {
    /// The native contact, with the values it was copied from; changed only through
    /// ``CNMutableContact``, which, like the framework's, is not thread-safe.
    var native: MutableContact

    /// A new, empty contact with every key available.
    public override init() { native = MutableContact() }

    /// Wraps a native contact.
    init(native: MutableContact) { self.native = native }

    /// The identifier, unique among the contacts of the address book; always available.
    public var identifier: String { native.identifier }

    /// The identifier as a UUID, for `Identifiable`: the identifier itself when it is one, and
    /// otherwise a UUID derived from it, the same for the same identifier.
    public var id: UUID { CompatIdentifiers.uuid(for: native.identifier) }

    /// Whether `object` is a contact with the same identifier, fetched keys and values.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNContact else { return false }
        return native.copy() == other.native.copy()
    }

    /// A hash of the identifier.
    public override var hash: Int { identifier.hashValue }

    /// The identifier, for logs.
    public override var description: String { "<CNContact \(identifier)>" }

    /// Stops the program unless the key was fetched, as the framework raises
    /// `CNPropertyNotFetchedException`.
    final func require(_ key: ContactKey) {
        if !native.isKeyAvailable(key) {
            fatalError(
                "\(CNContactPropertyNotFetchedExceptionName): A property was not requested when contact was "
                    + "fetched: \"\(key.rawValue)\"; add it to keysToFetch")
        }
    }

    /// Whether the contact is a person or an organization.
    public var contactType: CNContactType {
        require(.contactType)
        return CNContactType(rawValue: native.contactType.rawValue) ?? .person
    }

    /// The name prefix, such as "Dr.".
    public var namePrefix: String {
        require(.namePrefix)
        return native.namePrefix
    }

    /// The given name, often known as the first name.
    public var givenName: String {
        require(.givenName)
        return native.givenName
    }

    /// The middle name.
    public var middleName: String {
        require(.middleName)
        return native.middleName
    }

    /// The family name, often known as the last name.
    public var familyName: String {
        require(.familyName)
        return native.familyName
    }

    /// The previous family name, such as a maiden name.
    public var previousFamilyName: String {
        require(.previousFamilyName)
        return native.previousFamilyName
    }

    /// The name suffix, such as "Jr.".
    public var nameSuffix: String {
        require(.nameSuffix)
        return native.nameSuffix
    }

    /// The nickname.
    public var nickname: String {
        require(.nickname)
        return native.nickname
    }

    /// The phonetic spelling of the given name.
    public var phoneticGivenName: String {
        require(.phoneticGivenName)
        return native.phoneticGivenName
    }

    /// The phonetic spelling of the middle name.
    public var phoneticMiddleName: String {
        require(.phoneticMiddleName)
        return native.phoneticMiddleName
    }

    /// The phonetic spelling of the family name.
    public var phoneticFamilyName: String {
        require(.phoneticFamilyName)
        return native.phoneticFamilyName
    }

    /// The organization name.
    public var organizationName: String {
        require(.organizationName)
        return native.organizationName
    }

    /// The phonetic spelling of the organization name.
    public var phoneticOrganizationName: String {
        require(.phoneticOrganizationName)
        return native.phoneticOrganizationName
    }

    /// The department name.
    public var departmentName: String {
        require(.departmentName)
        return native.departmentName
    }

    /// The job title.
    public var jobTitle: String {
        require(.jobTitle)
        return native.jobTitle
    }

    /// The note (reading or writing it needs the notes entitlement).
    public var note: String {
        require(.note)
        return native.note
    }

    /// The Gregorian birthday: month and day, and the year when known.
    public var birthday: DateComponents? {
        require(.birthday)
        return native.birthday
    }

    /// The birthday in a Chinese, Hebrew or Islamic calendar.
    public var nonGregorianBirthday: DateComponents? {
        require(.nonGregorianBirthday)
        return native.nonGregorianBirthday
    }

    /// The labeled Gregorian dates, such as anniversaries.
    public var dates: [CNLabeledValue<NSDateComponents>] {
        require(.dates)
        return native.dates.map { CNLabeledValue($0) { $0 as NSDateComponents } }
    }

    /// The labeled phone numbers.
    public var phoneNumbers: [CNLabeledValue<CNPhoneNumber>] {
        require(.phoneNumbers)
        return native.phoneNumbers.map { CNLabeledValue($0, CNPhoneNumber.init) }
    }

    /// The labeled email addresses.
    public var emailAddresses: [CNLabeledValue<NSString>] {
        require(.emailAddresses)
        return native.emailAddresses.map { CNLabeledValue($0) { $0 as NSString } }
    }

    /// The labeled postal addresses.
    public var postalAddresses: [CNLabeledValue<CNPostalAddress>] {
        require(.postalAddresses)
        return native.postalAddresses.map { CNLabeledValue($0, CNPostalAddress.init) }
    }

    /// The labeled URL addresses.
    public var urlAddresses: [CNLabeledValue<NSString>] {
        require(.urlAddresses)
        return native.urlAddresses.map { CNLabeledValue($0) { $0 as NSString } }
    }

    /// The labeled names of related people.
    public var contactRelations: [CNLabeledValue<CNContactRelation>] {
        require(.contactRelations)
        return native.contactRelations.map { CNLabeledValue($0, CNContactRelation.init) }
    }

    /// The labeled social network profiles.
    public var socialProfiles: [CNLabeledValue<CNSocialProfile>] {
        require(.socialProfiles)
        return native.socialProfiles.map { CNLabeledValue($0, CNSocialProfile.init) }
    }

    /// The labeled instant message addresses.
    public var instantMessageAddresses: [CNLabeledValue<CNInstantMessageAddress>] {
        require(.instantMessageAddresses)
        return native.instantMessageAddresses.map { CNLabeledValue($0, CNInstantMessageAddress.init) }
    }

    /// The full-size image data.
    public var imageData: Data? {
        require(.imageData)
        return native.imageData
    }

    /// The thumbnail image data, derived from the image data.
    public var thumbnailImageData: Data? {
        require(.thumbnailImageData)
        return native.thumbnailImageData
    }

    /// Whether the contact has image data.
    public var imageDataAvailable: Bool {
        require(.imageDataAvailable)
        return native.imageDataAvailable
    }
}
