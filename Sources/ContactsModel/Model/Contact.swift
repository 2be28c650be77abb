import Foundation
import LedgerStorage

/// An immutable contact, like the framework's `CNContact`, possibly partial.
///
/// A contact handed out by a store holds only the keys that were asked for
/// (``availableKeys``). Reading a property whose key is not available stops the program with
/// a message naming the key, as the framework raises `CNPropertyNotFetchedException`: a
/// missing value is a programming error, never a silent empty string. The identifier is
/// always available. Use ``isKeyAvailable(_:)`` or ``areKeysAvailable(_:)`` to check first.
///
/// String properties are never optional: an empty string means absent, as in the framework.
/// Two contacts are equal when their identifier, available keys, values and store revision
/// are equal.
public struct Contact: Sendable, Hashable {
    /// The identifier, unique among the contacts of the address book and always available.
    public let identifier: String

    /// The keys whose values this contact holds; always includes ``ContactKey/identifier``.
    public let availableKeys: ContactKeySet

    /// The values; those of unavailable keys are the defaults.
    package let values: ContactValues

    /// The store's revision of this contact when it was handed out, or 0 for a contact that
    /// no store has saved.
    package var revision: UInt64

    /// The largest image, in bytes, that serves as its own thumbnail.
    ///
    /// This package has no image codec, so it cannot scale images down. The rule is: the
    /// thumbnail is the image data itself when that is at most this many bytes (64 KiB, the
    /// size of a typical JPEG thumbnail), and nil for a larger image, so that code which
    /// shows thumbnails in a list never loads a full-size photo by accident.
    public static let thumbnailImageDataBytesMax = 64 * 1024

    /// Creates a contact from stored values; a store or a decoder does this.
    ///
    /// The identifier key is always added to the available keys, and the values of
    /// unavailable keys are cleared, so a partial contact carries nothing it was not fetched
    /// with.
    package init(
        identifier: String, values: ContactValues, availableKeys: ContactKeySet,
        revision: UInt64 = 0
    ) {
        let keys = availableKeys.union(ContactKeySet(.identifier))
        self.identifier = identifier
        self.availableKeys = keys
        self.values = keys == .all ? values : values.keeping(keys)
        self.revision = revision
    }

    /// Returns a mutable copy with the same identifier, available keys and revision, which
    /// remembers these values as the ones it started from.
    public func mutableCopy() -> MutableContact {
        MutableContact(
            identifier: identifier, values: values, availableKeys: availableKeys, base: values,
            revision: revision)
    }

    /// Stops the program unless the key is available.
    private func require(_ key: ContactKey) {
        if !availableKeys.contains(key) {
            contactPropertyNotFetched(key, in: "Contact")
        }
    }

    /// Whether the contact is a person or an organization.
    public var contactType: ContactType {
        require(.contactType)
        return values.contactType
    }

    /// The name prefix, such as "Dr.".
    public var namePrefix: String {
        require(.namePrefix)
        return values.namePrefix
    }

    /// The given name, often known as the first name.
    public var givenName: String {
        require(.givenName)
        return values.givenName
    }

    /// The middle name.
    public var middleName: String {
        require(.middleName)
        return values.middleName
    }

    /// The family name, often known as the last name.
    public var familyName: String {
        require(.familyName)
        return values.familyName
    }

    /// The previous family name, such as a maiden name.
    public var previousFamilyName: String {
        require(.previousFamilyName)
        return values.previousFamilyName
    }

    /// The name suffix, such as "Jr.".
    public var nameSuffix: String {
        require(.nameSuffix)
        return values.nameSuffix
    }

    /// The nickname.
    public var nickname: String {
        require(.nickname)
        return values.nickname
    }

    /// The phonetic spelling of the given name.
    public var phoneticGivenName: String {
        require(.phoneticGivenName)
        return values.phoneticGivenName
    }

    /// The phonetic spelling of the middle name.
    public var phoneticMiddleName: String {
        require(.phoneticMiddleName)
        return values.phoneticMiddleName
    }

    /// The phonetic spelling of the family name.
    public var phoneticFamilyName: String {
        require(.phoneticFamilyName)
        return values.phoneticFamilyName
    }

    /// The organization name.
    public var organizationName: String {
        require(.organizationName)
        return values.organizationName
    }

    /// The phonetic spelling of the organization name.
    public var phoneticOrganizationName: String {
        require(.phoneticOrganizationName)
        return values.phoneticOrganizationName
    }

    /// The department name within the organization.
    public var departmentName: String {
        require(.departmentName)
        return values.departmentName
    }

    /// The job title.
    public var jobTitle: String {
        require(.jobTitle)
        return values.jobTitle
    }

    /// The free-text note.
    public var note: String {
        require(.note)
        return values.note
    }

    /// The Gregorian birthday: month and day, and the year when known.
    public var birthday: DateComponents? {
        require(.birthday)
        return values.birthday
    }

    /// The birthday in a Chinese, Hebrew or Islamic calendar.
    public var nonGregorianBirthday: DateComponents? {
        require(.nonGregorianBirthday)
        return values.nonGregorianBirthday
    }

    /// The labeled Gregorian dates, such as anniversaries.
    public var dates: [LabeledValue<DateComponents>] {
        require(.dates)
        return values.dates
    }

    /// The labeled phone numbers.
    public var phoneNumbers: [LabeledValue<PhoneNumber>] {
        require(.phoneNumbers)
        return values.phoneNumbers
    }

    /// The labeled email addresses.
    public var emailAddresses: [LabeledValue<String>] {
        require(.emailAddresses)
        return values.emailAddresses
    }

    /// The labeled postal addresses.
    public var postalAddresses: [LabeledValue<PostalAddress>] {
        require(.postalAddresses)
        return values.postalAddresses
    }

    /// The labeled URL addresses.
    public var urlAddresses: [LabeledValue<String>] {
        require(.urlAddresses)
        return values.urlAddresses
    }

    /// The labeled names of related people.
    public var contactRelations: [LabeledValue<ContactRelation>] {
        require(.contactRelations)
        return values.contactRelations
    }

    /// The labeled social network profiles.
    public var socialProfiles: [LabeledValue<SocialProfile>] {
        require(.socialProfiles)
        return values.socialProfiles
    }

    /// The labeled instant message addresses.
    public var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] {
        require(.instantMessageAddresses)
        return values.instantMessageAddresses
    }

    /// The full-size image data.
    public var imageData: Data? {
        require(.imageData)
        return values.imageData
    }

    /// The thumbnail image data: the image data when it is at most
    /// ``Contact/thumbnailImageDataBytesMax`` bytes, otherwise nil.
    public var thumbnailImageData: Data? {
        require(.thumbnailImageData)
        return values.thumbnailImageData
    }

    /// Whether the contact has image data.
    public var imageDataAvailable: Bool {
        require(.imageDataAvailable)
        return values.imageDataAvailable
    }
}
