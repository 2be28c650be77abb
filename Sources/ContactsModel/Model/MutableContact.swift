import Foundation
import LedgerStorage

/// A contact whose properties can be changed and then saved, like `CNMutableContact`.
///
/// `MutableContact()` makes a new contact: a new identifier and every key available. A
/// mutable copy of a fetched contact (``Contact/mutableCopy()``) keeps its identifier and its
/// available keys, and reading or setting a property whose key is not available stops the
/// program with a message naming the key: "You may modify only those properties whose values
/// you fetched". To clear a value, set a string or an array to empty and anything else to
/// nil, as in the framework.
///
/// The contact remembers the values it was copied from, so that a store can save only the
/// keys that changed and never overwrite the keys it was not given. Two mutable contacts are
/// equal when their identifier, available keys, values, starting values and revision are
/// equal.
public struct MutableContact: Sendable, Hashable {
    /// The identifier, made when the contact was created and kept by every copy.
    public let identifier: String

    /// The keys whose values this contact holds and may change; always includes
    /// ``ContactKey/identifier``.
    public let availableKeys: ContactKeySet

    /// The current values; those of unavailable keys are the defaults.
    package var values: ContactValues

    /// The values this contact was copied from, or nil for a new contact.
    package let base: ContactValues?

    /// The store's revision of the contact this one was copied from, or 0 for a new contact.
    package var revision: UInt64

    /// Creates a new, empty contact with a new identifier and every key available.
    public init() {
        self.init(
            identifier: NewIdentifier.make(), values: ContactValues(), availableKeys: .all,
            base: nil, revision: 0)
    }

    /// Creates a mutable contact from stored values; a store or a decoder does this.
    ///
    /// The identifier key is always added to the available keys, and the values of
    /// unavailable keys are cleared, in both the current and the starting values.
    package init(
        identifier: String, values: ContactValues, availableKeys: ContactKeySet,
        base: ContactValues?, revision: UInt64 = 0
    ) {
        let keys = availableKeys.union(ContactKeySet(.identifier))
        self.identifier = identifier
        self.availableKeys = keys
        self.values = keys == .all ? values : values.keeping(keys)
        self.base = keys == .all ? base : base?.keeping(keys)
        self.revision = revision
    }

    /// Returns an immutable copy with the same identifier, available keys and revision.
    public func copy() -> Contact {
        Contact(
            identifier: identifier, values: values, availableKeys: availableKeys,
            revision: revision)
    }

    /// Stops the program unless the key is available.
    private func require(_ key: ContactKey) {
        if !availableKeys.contains(key) {
            contactPropertyNotFetched(key, in: "MutableContact")
        }
    }

    /// Whether the contact is a person or an organization.
    public var contactType: ContactType {
        get {
            require(.contactType)
            return values.contactType
        }
        set {
            require(.contactType)
            values.contactType = newValue
        }
    }

    /// The name prefix, such as "Dr.".
    public var namePrefix: String {
        get {
            require(.namePrefix)
            return values.namePrefix
        }
        set {
            require(.namePrefix)
            values.namePrefix = newValue
        }
    }

    /// The given name, often known as the first name.
    public var givenName: String {
        get {
            require(.givenName)
            return values.givenName
        }
        set {
            require(.givenName)
            values.givenName = newValue
        }
    }

    /// The middle name.
    public var middleName: String {
        get {
            require(.middleName)
            return values.middleName
        }
        set {
            require(.middleName)
            values.middleName = newValue
        }
    }

    /// The family name, often known as the last name.
    public var familyName: String {
        get {
            require(.familyName)
            return values.familyName
        }
        set {
            require(.familyName)
            values.familyName = newValue
        }
    }

    /// The previous family name, such as a maiden name.
    public var previousFamilyName: String {
        get {
            require(.previousFamilyName)
            return values.previousFamilyName
        }
        set {
            require(.previousFamilyName)
            values.previousFamilyName = newValue
        }
    }

    /// The name suffix, such as "Jr.".
    public var nameSuffix: String {
        get {
            require(.nameSuffix)
            return values.nameSuffix
        }
        set {
            require(.nameSuffix)
            values.nameSuffix = newValue
        }
    }

    /// The nickname.
    public var nickname: String {
        get {
            require(.nickname)
            return values.nickname
        }
        set {
            require(.nickname)
            values.nickname = newValue
        }
    }

    /// The phonetic spelling of the given name.
    public var phoneticGivenName: String {
        get {
            require(.phoneticGivenName)
            return values.phoneticGivenName
        }
        set {
            require(.phoneticGivenName)
            values.phoneticGivenName = newValue
        }
    }

    /// The phonetic spelling of the middle name.
    public var phoneticMiddleName: String {
        get {
            require(.phoneticMiddleName)
            return values.phoneticMiddleName
        }
        set {
            require(.phoneticMiddleName)
            values.phoneticMiddleName = newValue
        }
    }

    /// The phonetic spelling of the family name.
    public var phoneticFamilyName: String {
        get {
            require(.phoneticFamilyName)
            return values.phoneticFamilyName
        }
        set {
            require(.phoneticFamilyName)
            values.phoneticFamilyName = newValue
        }
    }

    /// The organization name.
    public var organizationName: String {
        get {
            require(.organizationName)
            return values.organizationName
        }
        set {
            require(.organizationName)
            values.organizationName = newValue
        }
    }

    /// The phonetic spelling of the organization name.
    public var phoneticOrganizationName: String {
        get {
            require(.phoneticOrganizationName)
            return values.phoneticOrganizationName
        }
        set {
            require(.phoneticOrganizationName)
            values.phoneticOrganizationName = newValue
        }
    }

    /// The department name within the organization.
    public var departmentName: String {
        get {
            require(.departmentName)
            return values.departmentName
        }
        set {
            require(.departmentName)
            values.departmentName = newValue
        }
    }

    /// The job title.
    public var jobTitle: String {
        get {
            require(.jobTitle)
            return values.jobTitle
        }
        set {
            require(.jobTitle)
            values.jobTitle = newValue
        }
    }

    /// The free-text note.
    public var note: String {
        get {
            require(.note)
            return values.note
        }
        set {
            require(.note)
            values.note = newValue
        }
    }

    /// The Gregorian birthday: month and day, and the year when known.
    public var birthday: DateComponents? {
        get {
            require(.birthday)
            return values.birthday
        }
        set {
            require(.birthday)
            values.birthday = newValue
        }
    }

    /// The birthday in a Chinese, Hebrew or Islamic calendar.
    public var nonGregorianBirthday: DateComponents? {
        get {
            require(.nonGregorianBirthday)
            return values.nonGregorianBirthday
        }
        set {
            require(.nonGregorianBirthday)
            values.nonGregorianBirthday = newValue
        }
    }

    /// The labeled Gregorian dates, such as anniversaries.
    public var dates: [LabeledValue<DateComponents>] {
        get {
            require(.dates)
            return values.dates
        }
        set {
            require(.dates)
            values.dates = newValue
        }
    }

    /// The labeled phone numbers.
    public var phoneNumbers: [LabeledValue<PhoneNumber>] {
        get {
            require(.phoneNumbers)
            return values.phoneNumbers
        }
        set {
            require(.phoneNumbers)
            values.phoneNumbers = newValue
        }
    }

    /// The labeled email addresses.
    public var emailAddresses: [LabeledValue<String>] {
        get {
            require(.emailAddresses)
            return values.emailAddresses
        }
        set {
            require(.emailAddresses)
            values.emailAddresses = newValue
        }
    }

    /// The labeled postal addresses.
    public var postalAddresses: [LabeledValue<PostalAddress>] {
        get {
            require(.postalAddresses)
            return values.postalAddresses
        }
        set {
            require(.postalAddresses)
            values.postalAddresses = newValue
        }
    }

    /// The labeled URL addresses.
    public var urlAddresses: [LabeledValue<String>] {
        get {
            require(.urlAddresses)
            return values.urlAddresses
        }
        set {
            require(.urlAddresses)
            values.urlAddresses = newValue
        }
    }

    /// The labeled names of related people.
    public var contactRelations: [LabeledValue<ContactRelation>] {
        get {
            require(.contactRelations)
            return values.contactRelations
        }
        set {
            require(.contactRelations)
            values.contactRelations = newValue
        }
    }

    /// The labeled social network profiles.
    public var socialProfiles: [LabeledValue<SocialProfile>] {
        get {
            require(.socialProfiles)
            return values.socialProfiles
        }
        set {
            require(.socialProfiles)
            values.socialProfiles = newValue
        }
    }

    /// The labeled instant message addresses.
    public var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] {
        get {
            require(.instantMessageAddresses)
            return values.instantMessageAddresses
        }
        set {
            require(.instantMessageAddresses)
            values.instantMessageAddresses = newValue
        }
    }

    /// The full-size image data.
    public var imageData: Data? {
        get {
            require(.imageData)
            return values.imageData
        }
        set {
            require(.imageData)
            values.imageData = newValue
        }
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
