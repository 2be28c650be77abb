import Foundation
import LedgerStorage

/// Every stored property of a contact, without the fetch bookkeeping.
///
/// ``Contact`` and ``MutableContact`` wrap this with the identifier and the set of available
/// keys, and guard every read and write by that set. A store reads and writes it directly:
/// it builds one from its projection, and applies a save by copying the changed keys.
///
/// The values of keys that were not fetched are the defaults (empty strings and arrays, nil,
/// `.person`): ``keeping(_:)`` clears them, so that a partial contact never carries data its
/// holder was not given (a note without the notes entitlement, say). The two image-derived
/// keys have no storage of their own; ``Stored/imageData`` is kept whenever any of the three image
/// keys is, and the derived values are computed from it.
@dynamicMemberLookup
package struct ContactValues: Sendable, Hashable {
    /// The values themselves, read and written as properties of `ContactValues`
    /// (`values.givenName`) through dynamic member lookup. `ContactValues` keeps them behind one
    /// reference, so that a copy (a contact handed to a save request, planned, recorded and
    /// applied) retains one object instead of every string and array, and copies them only when
    /// a shared copy is changed.
    package struct Stored: Sendable, Hashable {
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
    }

    /// The box `ContactValues` shares until one of its copies changes (copy-on-write).
    private final class Box: @unchecked Sendable {
        // Thread-safety: a box reachable from more than one value is never written; a value
        // copies it first (`makeUnique`).
        //
        // Unchecked: the box is private and reached only through a `ContactValues`, whose own
        // accesses Swift checks as it checks any value's (a read overlapping a write of the same
        // value is refused); the runtime's check of this property on every read and write of
        // every value cost about a twentieth of a fetch by identifier.
        @exclusivity(unchecked) var stored: Stored

        init(_ stored: Stored) { self.stored = stored }
    }

    /// The box of every empty set of values until one is changed.
    private static let emptyBox = Box(Stored())

    private var box: Box

    /// Gives this value a box of its own before a write.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.stored) }
    }

    /// Reads and writes a stored property (`values.givenName`, `values.phoneNumbers.append(…)`);
    /// a write first gives this value a box of its own.
    package subscript<Value>(dynamicMember property: WritableKeyPath<Stored, Value>) -> Value {
        get { box.stored[keyPath: property] }
        _modify {
            makeUnique()
            yield &box.stored[keyPath: property]
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
        guard let imageData = self.imageData, imageData.count <= Contact.thumbnailImageDataBytesMax else {
            return nil
        }
        return imageData
    }

    /// Whether there is image data.
    package var imageDataAvailable: Bool {
        self.imageData != nil
    }

    /// Whether this and another set of values hold the same value for a key.
    ///
    /// The identifier is not part of the values, so it always compares equal.
    package func hasSameValue(as other: ContactValues, for key: ContactKey) -> Bool {
        switch key {
        case .identifier: true
        case .contactType: self.contactType == other.contactType
        case .namePrefix: self.namePrefix == other.namePrefix
        case .givenName: self.givenName == other.givenName
        case .middleName: self.middleName == other.middleName
        case .familyName: self.familyName == other.familyName
        case .previousFamilyName: self.previousFamilyName == other.previousFamilyName
        case .nameSuffix: self.nameSuffix == other.nameSuffix
        case .nickname: self.nickname == other.nickname
        case .phoneticGivenName: self.phoneticGivenName == other.phoneticGivenName
        case .phoneticMiddleName: self.phoneticMiddleName == other.phoneticMiddleName
        case .phoneticFamilyName: self.phoneticFamilyName == other.phoneticFamilyName
        case .organizationName: self.organizationName == other.organizationName
        case .phoneticOrganizationName: self.phoneticOrganizationName == other.phoneticOrganizationName
        case .departmentName: self.departmentName == other.departmentName
        case .jobTitle: self.jobTitle == other.jobTitle
        case .note: self.note == other.note
        case .birthday: self.birthday == other.birthday
        case .nonGregorianBirthday: self.nonGregorianBirthday == other.nonGregorianBirthday
        case .dates: self.dates == other.dates
        case .phoneNumbers: self.phoneNumbers == other.phoneNumbers
        case .emailAddresses: self.emailAddresses == other.emailAddresses
        case .postalAddresses: self.postalAddresses == other.postalAddresses
        case .urlAddresses: self.urlAddresses == other.urlAddresses
        case .contactRelations: self.contactRelations == other.contactRelations
        case .socialProfiles: self.socialProfiles == other.socialProfiles
        case .instantMessageAddresses: self.instantMessageAddresses == other.instantMessageAddresses
        case .imageData: self.imageData == other.imageData
        case .thumbnailImageData: self.thumbnailImageData == other.thumbnailImageData
        case .imageDataAvailable: self.imageDataAvailable == other.imageDataAvailable
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
        case .contactType: self.contactType = other.contactType
        case .namePrefix: self.namePrefix = other.namePrefix
        case .givenName: self.givenName = other.givenName
        case .middleName: self.middleName = other.middleName
        case .familyName: self.familyName = other.familyName
        case .previousFamilyName: self.previousFamilyName = other.previousFamilyName
        case .nameSuffix: self.nameSuffix = other.nameSuffix
        case .nickname: self.nickname = other.nickname
        case .phoneticGivenName: self.phoneticGivenName = other.phoneticGivenName
        case .phoneticMiddleName: self.phoneticMiddleName = other.phoneticMiddleName
        case .phoneticFamilyName: self.phoneticFamilyName = other.phoneticFamilyName
        case .organizationName: self.organizationName = other.organizationName
        case .phoneticOrganizationName: self.phoneticOrganizationName = other.phoneticOrganizationName
        case .departmentName: self.departmentName = other.departmentName
        case .jobTitle: self.jobTitle = other.jobTitle
        case .note: self.note = other.note
        case .birthday: self.birthday = other.birthday
        case .nonGregorianBirthday: self.nonGregorianBirthday = other.nonGregorianBirthday
        case .dates: self.dates = other.dates
        case .phoneNumbers: self.phoneNumbers = other.phoneNumbers
        case .emailAddresses: self.emailAddresses = other.emailAddresses
        case .postalAddresses: self.postalAddresses = other.postalAddresses
        case .urlAddresses: self.urlAddresses = other.urlAddresses
        case .contactRelations: self.contactRelations = other.contactRelations
        case .socialProfiles: self.socialProfiles = other.socialProfiles
        case .instantMessageAddresses: self.instantMessageAddresses = other.instantMessageAddresses
        case .imageData, .thumbnailImageData, .imageDataAvailable: self.imageData = other.imageData
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
