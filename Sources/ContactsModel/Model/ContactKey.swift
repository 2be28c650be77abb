import LedgerStorage

/// A property of a contact, named by the Contacts framework's key string.
///
/// Each raw value equals the string of the framework's `CNContact…Key` constant, so keys
/// written by Apple programs (and by earlier versions of this package) read back unchanged.
/// The framework does not export a string for `CNContactIdentifierKey`; `"identifier"` is
/// inferred.
public enum ContactKey: String, CaseIterable, Sendable, Hashable {
    /// The contact's identifier, which is always available.
    case identifier
    /// The contact's type, person or organization.
    case contactType
    /// The name prefix, such as "Dr.".
    case namePrefix
    /// The given name, often known as the first name.
    case givenName
    /// The middle name.
    case middleName
    /// The family name, often known as the last name.
    case familyName
    /// The previous family name, such as a maiden name.
    case previousFamilyName
    /// The name suffix, such as "Jr.".
    case nameSuffix
    /// The nickname.
    case nickname
    /// The phonetic spelling of the given name.
    case phoneticGivenName
    /// The phonetic spelling of the middle name.
    case phoneticMiddleName
    /// The phonetic spelling of the family name.
    case phoneticFamilyName
    /// The organization name.
    case organizationName
    /// The phonetic spelling of the organization name.
    case phoneticOrganizationName
    /// The department name within the organization.
    case departmentName
    /// The job title.
    case jobTitle
    /// The free-text note, which the notes entitlement guards.
    case note
    /// The Gregorian birthday.
    case birthday
    /// The birthday in a non-Gregorian calendar (Chinese, Hebrew or Islamic).
    case nonGregorianBirthday
    /// The labeled dates, such as anniversaries.
    case dates
    /// The labeled phone numbers.
    case phoneNumbers
    /// The labeled email addresses.
    case emailAddresses
    /// The labeled postal addresses.
    case postalAddresses
    /// The labeled URL addresses.
    case urlAddresses
    /// The labeled relations to other people.
    case contactRelations
    /// The labeled social network profiles.
    case socialProfiles
    /// The labeled instant message addresses.
    case instantMessageAddresses
    /// The full-size image data.
    case imageData
    /// The thumbnail image data, derived from the image data.
    case thumbnailImageData
    /// Whether the contact has image data, derived from the image data.
    case imageDataAvailable
}

extension ContactKey {
    /// The position of this key's bit in a ``ContactKeySet``.
    ///
    /// The positions are fixed here rather than derived from the declaration order, so that
    /// reordering the cases can never change the meaning of a stored bit set. Never reuse or
    /// renumber a position; a new key takes the next free one, ``bitIndexEnd``, and moves it on.
    @inlinable package var bitIndex: Int {
        switch self {
        case .identifier: 0
        case .contactType: 1
        case .namePrefix: 2
        case .givenName: 3
        case .middleName: 4
        case .familyName: 5
        case .previousFamilyName: 6
        case .nameSuffix: 7
        case .nickname: 8
        case .phoneticGivenName: 9
        case .phoneticMiddleName: 10
        case .phoneticFamilyName: 11
        case .organizationName: 12
        case .phoneticOrganizationName: 13
        case .departmentName: 14
        case .jobTitle: 15
        case .note: 16
        case .birthday: 17
        case .nonGregorianBirthday: 18
        case .dates: 19
        case .phoneNumbers: 20
        case .emailAddresses: 21
        case .postalAddresses: 22
        case .urlAddresses: 23
        case .contactRelations: 24
        case .socialProfiles: 25
        case .instantMessageAddresses: 26
        case .imageData: 27
        case .thumbnailImageData: 28
        case .imageDataAvailable: 29
        }
    }

    /// One more than the highest ``bitIndex``: the number of bit positions the keys take.
    /// A literal, so that the key sets built from it need no lazy initialization.
    @inlinable package static var bitIndexEnd: Int { 30 }

    /// Whether a ``MutableContact`` can set this key's value.
    ///
    /// The identifier is assigned when a contact is created, and the thumbnail and the
    /// image-availability flag are derived from the image data, so those three are read-only
    /// (``ContactValueKind/isWritable``).
    public var isWritable: Bool {
        ContactKeyTable.kind(of: self).isWritable
    }
}
