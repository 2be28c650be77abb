import Foundation

/// Every stored property of a contact, without the fetch bookkeeping.
///
/// ``Contact`` and ``MutableContact`` wrap this with the identifier and the set of available
/// keys, and guard every read and write by that set. A store reads and writes it directly:
/// it builds one from its projection, and applies a save by copying the changed keys.
///
/// The values of keys that were not fetched are the defaults (empty strings and arrays, nil,
/// `.person`): ``keeping(_:)`` clears them, so that a partial contact never carries data its
/// holder was not given (a note without the notes entitlement, say). The two image-derived
/// keys have no storage of their own; ``imageData`` is kept whenever any of the three image
/// keys is, and the derived values are computed from it.
package struct ContactValues: Sendable, Hashable {
    package var contactType: ContactType = .person
    package var namePrefix = ""
    package var givenName = ""
    package var middleName = ""
    package var familyName = ""
    package var previousFamilyName = ""
    package var nameSuffix = ""
    package var nickname = ""
    package var phoneticGivenName = ""
    package var phoneticMiddleName = ""
    package var phoneticFamilyName = ""
    package var organizationName = ""
    package var phoneticOrganizationName = ""
    package var departmentName = ""
    package var jobTitle = ""
    package var note = ""
    package var birthday: DateComponents?
    package var nonGregorianBirthday: DateComponents?
    package var dates: [LabeledValue<DateComponents>] = []
    package var phoneNumbers: [LabeledValue<PhoneNumber>] = []
    package var emailAddresses: [LabeledValue<String>] = []
    package var postalAddresses: [LabeledValue<PostalAddress>] = []
    package var urlAddresses: [LabeledValue<String>] = []
    package var contactRelations: [LabeledValue<ContactRelation>] = []
    package var socialProfiles: [LabeledValue<SocialProfile>] = []
    package var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] = []
    package var imageData: Data?

    /// Creates the values of an empty contact.
    package init() {}

    /// The thumbnail: the image data itself when it is at most
    /// ``Contact/thumbnailImageDataBytesMax`` bytes, otherwise nil.
    package var thumbnailImageData: Data? {
        guard let imageData, imageData.count <= Contact.thumbnailImageDataBytesMax else {
            return nil
        }
        return imageData
    }

    /// Whether there is image data.
    package var imageDataAvailable: Bool {
        imageData != nil
    }

    /// Whether this and another set of values hold the same value for a key.
    ///
    /// The identifier is not part of the values, so it always compares equal.
    package func hasSameValue(as other: ContactValues, for key: ContactKey) -> Bool {
        switch key {
        case .identifier: true
        case .contactType: contactType == other.contactType
        case .namePrefix: namePrefix == other.namePrefix
        case .givenName: givenName == other.givenName
        case .middleName: middleName == other.middleName
        case .familyName: familyName == other.familyName
        case .previousFamilyName: previousFamilyName == other.previousFamilyName
        case .nameSuffix: nameSuffix == other.nameSuffix
        case .nickname: nickname == other.nickname
        case .phoneticGivenName: phoneticGivenName == other.phoneticGivenName
        case .phoneticMiddleName: phoneticMiddleName == other.phoneticMiddleName
        case .phoneticFamilyName: phoneticFamilyName == other.phoneticFamilyName
        case .organizationName: organizationName == other.organizationName
        case .phoneticOrganizationName: phoneticOrganizationName == other.phoneticOrganizationName
        case .departmentName: departmentName == other.departmentName
        case .jobTitle: jobTitle == other.jobTitle
        case .note: note == other.note
        case .birthday: birthday == other.birthday
        case .nonGregorianBirthday: nonGregorianBirthday == other.nonGregorianBirthday
        case .dates: dates == other.dates
        case .phoneNumbers: phoneNumbers == other.phoneNumbers
        case .emailAddresses: emailAddresses == other.emailAddresses
        case .postalAddresses: postalAddresses == other.postalAddresses
        case .urlAddresses: urlAddresses == other.urlAddresses
        case .contactRelations: contactRelations == other.contactRelations
        case .socialProfiles: socialProfiles == other.socialProfiles
        case .instantMessageAddresses: instantMessageAddresses == other.instantMessageAddresses
        case .imageData: imageData == other.imageData
        case .thumbnailImageData: thumbnailImageData == other.thumbnailImageData
        case .imageDataAvailable: imageDataAvailable == other.imageDataAvailable
        }
    }

    /// The keys, among the given ones, whose values differ from another set of values.
    package func keys(
        differingFrom other: ContactValues, among candidates: ContactKeySet = .all
    ) -> ContactKeySet {
        ContactKeySet(candidates.keys.filter { !hasSameValue(as: other, for: $0) })
    }

    /// Copies one key's value from another set of values; a derived image key copies the
    /// image data it comes from, and the identifier copies nothing.
    package mutating func copyValue(for key: ContactKey, from other: ContactValues) {
        switch key {
        case .identifier: break
        case .contactType: contactType = other.contactType
        case .namePrefix: namePrefix = other.namePrefix
        case .givenName: givenName = other.givenName
        case .middleName: middleName = other.middleName
        case .familyName: familyName = other.familyName
        case .previousFamilyName: previousFamilyName = other.previousFamilyName
        case .nameSuffix: nameSuffix = other.nameSuffix
        case .nickname: nickname = other.nickname
        case .phoneticGivenName: phoneticGivenName = other.phoneticGivenName
        case .phoneticMiddleName: phoneticMiddleName = other.phoneticMiddleName
        case .phoneticFamilyName: phoneticFamilyName = other.phoneticFamilyName
        case .organizationName: organizationName = other.organizationName
        case .phoneticOrganizationName: phoneticOrganizationName = other.phoneticOrganizationName
        case .departmentName: departmentName = other.departmentName
        case .jobTitle: jobTitle = other.jobTitle
        case .note: note = other.note
        case .birthday: birthday = other.birthday
        case .nonGregorianBirthday: nonGregorianBirthday = other.nonGregorianBirthday
        case .dates: dates = other.dates
        case .phoneNumbers: phoneNumbers = other.phoneNumbers
        case .emailAddresses: emailAddresses = other.emailAddresses
        case .postalAddresses: postalAddresses = other.postalAddresses
        case .urlAddresses: urlAddresses = other.urlAddresses
        case .contactRelations: contactRelations = other.contactRelations
        case .socialProfiles: socialProfiles = other.socialProfiles
        case .instantMessageAddresses: instantMessageAddresses = other.instantMessageAddresses
        case .imageData, .thumbnailImageData, .imageDataAvailable: imageData = other.imageData
        }
    }

    /// Copies the values of the given keys from another set of values, as a store does when
    /// it applies a save of a contact's changed keys.
    package mutating func update(_ keys: ContactKeySet, from other: ContactValues) {
        for key in keys.keys {
            copyValue(for: key, from: other)
        }
    }

    /// Returns these values with every key outside the given set reset to its default.
    package func keeping(_ keys: ContactKeySet) -> ContactValues {
        var kept = ContactValues()
        kept.update(keys, from: self)
        return kept
    }
}
