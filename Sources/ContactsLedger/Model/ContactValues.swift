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
    /// The values themselves; `ContactValues` keeps them behind one reference, so that a copy
    /// (a contact handed to a save request, planned, recorded and applied) retains one object
    /// instead of every string and array, and copies them only when a shared copy is changed.
    private struct Stored: Sendable, Hashable {
        var contactType: ContactType = .person
        var namePrefix = ""
        var givenName = ""
        var middleName = ""
        var familyName = ""
        var previousFamilyName = ""
        var nameSuffix = ""
        var nickname = ""
        var phoneticGivenName = ""
        var phoneticMiddleName = ""
        var phoneticFamilyName = ""
        var organizationName = ""
        var phoneticOrganizationName = ""
        var departmentName = ""
        var jobTitle = ""
        var note = ""
        var birthday: DateComponents?
        var nonGregorianBirthday: DateComponents?
        var dates: [LabeledValue<DateComponents>] = []
        var phoneNumbers: [LabeledValue<PhoneNumber>] = []
        var emailAddresses: [LabeledValue<String>] = []
        var postalAddresses: [LabeledValue<PostalAddress>] = []
        var urlAddresses: [LabeledValue<String>] = []
        var contactRelations: [LabeledValue<ContactRelation>] = []
        var socialProfiles: [LabeledValue<SocialProfile>] = []
        var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] = []
        var imageData: Data?
    }

    /// The box `ContactValues` shares until one of its copies changes (copy-on-write).
    private final class Box: @unchecked Sendable {
        // Thread-safety: a box reachable from more than one value is never written; a value
        // copies it first (`makeUnique`).
        var stored: Stored

        init(_ stored: Stored) { self.stored = stored }
    }

    /// The box of every empty set of values until one is changed.
    private static let emptyBox = Box(Stored())

    private var box: Box

    /// Gives this value a box of its own before a write.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.stored) }
    }

    package var contactType: ContactType {
        get { box.stored.contactType }
        _modify {
            makeUnique()
            yield &box.stored.contactType
        }
    }

    package var namePrefix: String {
        get { box.stored.namePrefix }
        _modify {
            makeUnique()
            yield &box.stored.namePrefix
        }
    }

    package var givenName: String {
        get { box.stored.givenName }
        _modify {
            makeUnique()
            yield &box.stored.givenName
        }
    }

    package var middleName: String {
        get { box.stored.middleName }
        _modify {
            makeUnique()
            yield &box.stored.middleName
        }
    }

    package var familyName: String {
        get { box.stored.familyName }
        _modify {
            makeUnique()
            yield &box.stored.familyName
        }
    }

    package var previousFamilyName: String {
        get { box.stored.previousFamilyName }
        _modify {
            makeUnique()
            yield &box.stored.previousFamilyName
        }
    }

    package var nameSuffix: String {
        get { box.stored.nameSuffix }
        _modify {
            makeUnique()
            yield &box.stored.nameSuffix
        }
    }

    package var nickname: String {
        get { box.stored.nickname }
        _modify {
            makeUnique()
            yield &box.stored.nickname
        }
    }

    package var phoneticGivenName: String {
        get { box.stored.phoneticGivenName }
        _modify {
            makeUnique()
            yield &box.stored.phoneticGivenName
        }
    }

    package var phoneticMiddleName: String {
        get { box.stored.phoneticMiddleName }
        _modify {
            makeUnique()
            yield &box.stored.phoneticMiddleName
        }
    }

    package var phoneticFamilyName: String {
        get { box.stored.phoneticFamilyName }
        _modify {
            makeUnique()
            yield &box.stored.phoneticFamilyName
        }
    }

    package var organizationName: String {
        get { box.stored.organizationName }
        _modify {
            makeUnique()
            yield &box.stored.organizationName
        }
    }

    package var phoneticOrganizationName: String {
        get { box.stored.phoneticOrganizationName }
        _modify {
            makeUnique()
            yield &box.stored.phoneticOrganizationName
        }
    }

    package var departmentName: String {
        get { box.stored.departmentName }
        _modify {
            makeUnique()
            yield &box.stored.departmentName
        }
    }

    package var jobTitle: String {
        get { box.stored.jobTitle }
        _modify {
            makeUnique()
            yield &box.stored.jobTitle
        }
    }

    package var note: String {
        get { box.stored.note }
        _modify {
            makeUnique()
            yield &box.stored.note
        }
    }

    package var birthday: DateComponents? {
        get { box.stored.birthday }
        _modify {
            makeUnique()
            yield &box.stored.birthday
        }
    }

    package var nonGregorianBirthday: DateComponents? {
        get { box.stored.nonGregorianBirthday }
        _modify {
            makeUnique()
            yield &box.stored.nonGregorianBirthday
        }
    }

    package var dates: [LabeledValue<DateComponents>] {
        get { box.stored.dates }
        _modify {
            makeUnique()
            yield &box.stored.dates
        }
    }

    package var phoneNumbers: [LabeledValue<PhoneNumber>] {
        get { box.stored.phoneNumbers }
        _modify {
            makeUnique()
            yield &box.stored.phoneNumbers
        }
    }

    package var emailAddresses: [LabeledValue<String>] {
        get { box.stored.emailAddresses }
        _modify {
            makeUnique()
            yield &box.stored.emailAddresses
        }
    }

    package var postalAddresses: [LabeledValue<PostalAddress>] {
        get { box.stored.postalAddresses }
        _modify {
            makeUnique()
            yield &box.stored.postalAddresses
        }
    }

    package var urlAddresses: [LabeledValue<String>] {
        get { box.stored.urlAddresses }
        _modify {
            makeUnique()
            yield &box.stored.urlAddresses
        }
    }

    package var contactRelations: [LabeledValue<ContactRelation>] {
        get { box.stored.contactRelations }
        _modify {
            makeUnique()
            yield &box.stored.contactRelations
        }
    }

    package var socialProfiles: [LabeledValue<SocialProfile>] {
        get { box.stored.socialProfiles }
        _modify {
            makeUnique()
            yield &box.stored.socialProfiles
        }
    }

    package var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] {
        get { box.stored.instantMessageAddresses }
        _modify {
            makeUnique()
            yield &box.stored.instantMessageAddresses
        }
    }

    package var imageData: Data? {
        get { box.stored.imageData }
        _modify {
            makeUnique()
            yield &box.stored.imageData
        }
    }

    /// Whether two sets of values hold the same value for every key.
    package static func == (lhs: ContactValues, rhs: ContactValues) -> Bool {
        lhs.box === rhs.box || lhs.box.stored == rhs.box.stored
    }

    /// Hashes every value.
    package func hash(into hasher: inout Hasher) {
        box.stored.hash(into: &hasher)
    }

    /// Creates the values of an empty contact.
    package init() { box = Self.emptyBox }

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
