import LedgerStorage

// Every contact key, declared in one place: its case and bit (``ContactKey``), its key-set member,
// and its row in ``ContactKeyTable``. With its storage (ContactValues.swift) and its public
// properties (ContactProperties.swift), that is all a new key of an existing value kind needs.

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
    /// The vCard properties of a card that no other key holds (`X-` and extended properties, a
    /// `UID` other than the identifier), each kept as its content line, so that a card written
    /// by an address-book client comes back with them (`Documentation/VCard.md`).
    case vCardExtensions
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
        case .vCardExtensions: 30
        }
    }

    /// One more than the highest ``bitIndex``: the number of bit positions the keys take.
    /// A literal, so that the key sets built from it need no lazy initialization.
    @inlinable package static var bitIndexEnd: Int { 31 }

    /// Whether a ``MutableContact`` can set this key's value.
    ///
    /// The identifier is assigned when a contact is created, and the thumbnail and the
    /// image-availability flag are derived from the image data, so those three are read-only
    /// (``ContactValueKind/isWritable``).
    public var isWritable: Bool {
        ContactKeyTable.kind(of: self).isWritable
    }
}

// One static member per key, so that key sets read like option sets:
// `let keys: ContactKeySet = [.givenName, .familyName]`.

extension ContactKeySet {
    /// The set holding ``ContactKey/identifier`` alone.
    public static let identifier = ContactKeySet(ContactKey.identifier)
    /// The set holding ``ContactKey/contactType`` alone.
    public static let contactType = ContactKeySet(ContactKey.contactType)
    /// The set holding ``ContactKey/namePrefix`` alone.
    public static let namePrefix = ContactKeySet(ContactKey.namePrefix)
    /// The set holding ``ContactKey/givenName`` alone.
    public static let givenName = ContactKeySet(ContactKey.givenName)
    /// The set holding ``ContactKey/middleName`` alone.
    public static let middleName = ContactKeySet(ContactKey.middleName)
    /// The set holding ``ContactKey/familyName`` alone.
    public static let familyName = ContactKeySet(ContactKey.familyName)
    /// The set holding ``ContactKey/previousFamilyName`` alone.
    public static let previousFamilyName = ContactKeySet(ContactKey.previousFamilyName)
    /// The set holding ``ContactKey/nameSuffix`` alone.
    public static let nameSuffix = ContactKeySet(ContactKey.nameSuffix)
    /// The set holding ``ContactKey/nickname`` alone.
    public static let nickname = ContactKeySet(ContactKey.nickname)
    /// The set holding ``ContactKey/phoneticGivenName`` alone.
    public static let phoneticGivenName = ContactKeySet(ContactKey.phoneticGivenName)
    /// The set holding ``ContactKey/phoneticMiddleName`` alone.
    public static let phoneticMiddleName = ContactKeySet(ContactKey.phoneticMiddleName)
    /// The set holding ``ContactKey/phoneticFamilyName`` alone.
    public static let phoneticFamilyName = ContactKeySet(ContactKey.phoneticFamilyName)
    /// The set holding ``ContactKey/organizationName`` alone.
    public static let organizationName = ContactKeySet(ContactKey.organizationName)
    /// The set holding ``ContactKey/phoneticOrganizationName`` alone.
    public static let phoneticOrganizationName = ContactKeySet(ContactKey.phoneticOrganizationName)
    /// The set holding ``ContactKey/departmentName`` alone.
    public static let departmentName = ContactKeySet(ContactKey.departmentName)
    /// The set holding ``ContactKey/jobTitle`` alone.
    public static let jobTitle = ContactKeySet(ContactKey.jobTitle)
    /// The set holding ``ContactKey/note`` alone.
    public static let note = ContactKeySet(ContactKey.note)
    /// The set holding ``ContactKey/birthday`` alone.
    public static let birthday = ContactKeySet(ContactKey.birthday)
    /// The set holding ``ContactKey/nonGregorianBirthday`` alone.
    public static let nonGregorianBirthday = ContactKeySet(ContactKey.nonGregorianBirthday)
    /// The set holding ``ContactKey/dates`` alone.
    public static let dates = ContactKeySet(ContactKey.dates)
    /// The set holding ``ContactKey/phoneNumbers`` alone.
    public static let phoneNumbers = ContactKeySet(ContactKey.phoneNumbers)
    /// The set holding ``ContactKey/emailAddresses`` alone.
    public static let emailAddresses = ContactKeySet(ContactKey.emailAddresses)
    /// The set holding ``ContactKey/postalAddresses`` alone.
    public static let postalAddresses = ContactKeySet(ContactKey.postalAddresses)
    /// The set holding ``ContactKey/urlAddresses`` alone.
    public static let urlAddresses = ContactKeySet(ContactKey.urlAddresses)
    /// The set holding ``ContactKey/contactRelations`` alone.
    public static let contactRelations = ContactKeySet(ContactKey.contactRelations)
    /// The set holding ``ContactKey/socialProfiles`` alone.
    public static let socialProfiles = ContactKeySet(ContactKey.socialProfiles)
    /// The set holding ``ContactKey/instantMessageAddresses`` alone.
    public static let instantMessageAddresses = ContactKeySet(ContactKey.instantMessageAddresses)
    /// The set holding ``ContactKey/imageData`` alone.
    public static let imageData = ContactKeySet(ContactKey.imageData)
    /// The set holding ``ContactKey/thumbnailImageData`` alone.
    public static let thumbnailImageData = ContactKeySet(ContactKey.thumbnailImageData)
    /// The set holding ``ContactKey/imageDataAvailable`` alone.
    public static let imageDataAvailable = ContactKeySet(ContactKey.imageDataAvailable)
    /// The set holding ``ContactKey/vCardExtensions`` alone.
    public static let vCardExtensions = ContactKeySet(ContactKey.vCardExtensions)
}

/// Every contact key in one table: its value kind, its field in the event schema, its JSON key,
/// its vCard properties, the search index it feeds, its validation and its display name
/// (decision 0015).
///
/// The binary codec, the JSON reader and writer, the vCard writer and reader, validation, key
/// availability and the search indexes read a key's row instead of switching over the keys, so a
/// new key of an existing value kind is its case and row in this file, its storage in
/// ``ContactValues`` and its public properties (ContactProperties.swift), and the documentation.
/// The numbers and names are part of stored and exchanged data: a field number or a JSON key
/// that has shipped is never changed or reused (`ContactKeyTableTests` checks them against
/// `Documentation/EventSchema.md` and `Documentation/VCard.md`).
package enum ContactKeyTable {
    /// One row per key, in the order of ``ContactKey/allCases``.
    package static let rows: [ContactKeyDescriptor] = [
        .init(.identifier, .identifier, field: nil, vCard: .byKind(["UID"]), name: "identifier"),
        .init(.contactType, .contactType, field: 7, vCard: .byKind(["KIND", "X-ABShowAs"]), name: "contact type"),
        .init(.namePrefix, .string, field: 9, vCard: .component("N", 3), search: .name, name: "prefix"),
        .init(.givenName, .string, field: 2, vCard: .component("N", 1), search: .name, name: "given name"),
        .init(.middleName, .string, field: 8, vCard: .component("N", 2), search: .name, name: "middle name"),
        .init(.familyName, .string, field: 3, vCard: .component("N", 0), search: .name, name: "family name"),
        .init(
            .previousFamilyName, .string, field: 16, vCard: .text("X-MAIDENNAME"), search: .name,
            name: "previous family name"),
        .init(.nameSuffix, .string, field: 10, vCard: .component("N", 4), search: .name, name: "suffix"),
        .init(.nickname, .string, field: 11, vCard: .text("NICKNAME"), search: .name, name: "nickname"),
        .init(
            .phoneticGivenName, .string, field: 17, vCard: .text("X-PHONETIC-FIRST-NAME"), search: .name,
            name: "phonetic given name"),
        .init(
            .phoneticMiddleName, .string, field: 18, vCard: .text("X-PHONETIC-MIDDLE-NAME"), search: .name,
            name: "phonetic middle name"),
        .init(
            .phoneticFamilyName, .string, field: 19, vCard: .text("X-PHONETIC-LAST-NAME"), search: .name,
            name: "phonetic family name"),
        .init(.organizationName, .string, field: 4, vCard: .component("ORG", 0), search: .name, name: "company"),
        .init(
            .phoneticOrganizationName, .string, field: 20, vCard: .text("X-PHONETIC-ORG"), search: .name,
            name: "phonetic company name"),
        .init(.departmentName, .string, field: 13, vCard: .component("ORG", 1, takesRest: true), name: "department"),
        .init(.jobTitle, .string, field: 12, vCard: .text("TITLE"), name: "job title"),
        .init(.note, .string, field: 21, vCard: .repeatedText("NOTE"), name: "note"),
        .init(.birthday, .date, field: 22, vCard: .byKind(["BDAY"]), name: "birthday"),
        .init(
            .nonGregorianBirthday, .nonGregorianDate, field: 23, vCard: .byKind(["X-ALTBDAY"]),
            name: "birthday (other calendar)"),
        .init(.dates, .labeledDates, field: 24, vCard: .byKind(["X-ABDATE"]), name: "dates"),
        .init(
            .phoneNumbers, .labeledPhoneNumbers, field: 5, vCard: .byKind(["TEL"]), search: .phone,
            blankValueNoun: "a phone number", name: "phone"),
        .init(
            .emailAddresses, .labeledStrings, field: 6, vCard: .byKind(["EMAIL"]), search: .email,
            blankValueNoun: "an email address", name: "email"),
        .init(.postalAddresses, .labeledPostalAddresses, field: 14, vCard: .byKind(["ADR"]), name: "address"),
        .init(
            .urlAddresses, .labeledStrings, field: 15, vCard: .byKind(["URL"]), blankValueNoun: "a URL address",
            name: "URL"),
        .init(
            .contactRelations, .labeledRelations, field: 25, vCard: .byKind(["X-ABRELATEDNAMES"]),
            name: "related name"),
        .init(
            .socialProfiles, .labeledSocialProfiles, field: 26, vCard: .byKind(["X-SOCIALPROFILE"]),
            name: "social profile"),
        .init(
            .instantMessageAddresses, .labeledInstantMessageAddresses, field: 27, vCard: .byKind(["IMPP"]),
            name: "instant message"),
        .init(.imageData, .imageData, field: 28, vCard: .byKind(["PHOTO"]), name: "image"),
        .init(.thumbnailImageData, .thumbnailImageData, field: nil, vCard: .none, name: "thumbnail"),
        .init(.imageDataAvailable, .imageDataAvailable, field: nil, vCard: .none, name: "image available"),
        .init(.vCardExtensions, .labeledStrings, field: 29, vCard: .none, name: "other vCard properties"),
    ]

    /// The order in which a vCard holds the keys' properties, Apple's: a structured property
    /// (`N`, `ORG`) comes at its first component's key. The contact type and the identifier are
    /// not listed: a card starts and ends with them.
    package static let vCardOrder: [ContactKey] = [
        .familyName, .nickname, .previousFamilyName, .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName,
        .organizationName, .phoneticOrganizationName, .jobTitle, .emailAddresses, .phoneNumbers, .postalAddresses,
        .socialProfiles, .note, .urlAddresses, .birthday, .nonGregorianBirthday, .dates, .contactRelations,
        .instantMessageAddresses, .imageData,
    ]

    /// The rows by ``ContactKey/bitIndex``, so that finding a key's row reads one array element.
    private static let rowsByBit: [ContactKeyDescriptor] = {
        var byBit = [ContactKeyDescriptor?](repeating: nil, count: ContactKey.bitIndexEnd)
        for row in rows {
            precondition(byBit[row.key.bitIndex] == nil, "\(row.key) has two rows")
            byBit[row.key.bitIndex] = row
        }
        return byBit.map { row in
            guard let row else { preconditionFailure("a contact key has no row") }
            return row
        }
    }()

    /// The row of a key.
    package static subscript(key: ContactKey) -> ContactKeyDescriptor {
        rowsByBit[key.bitIndex]
    }

    /// The value kinds by ``ContactKey/bitIndex``: what code that handles one key at a time reads,
    /// since copying a whole row copies (and retains) its strings.
    private static let kindsByBit: [ContactValueKind] = rowsByBit.map(\.kind)

    /// The value kind of a key.
    @inline(__always)
    package static func kind(of key: ContactKey) -> ContactValueKind {
        kindsByBit[key.bitIndex]
    }

    /// The searched name fields, in key order: the name index holds the words of these keys'
    /// values.
    package static let searchedNameKeys: [ContactKey] = rows.filter { $0.search == .name }.map(\.key)

    /// The keys whose values hold text (strings and labeled values), in key order: the keys the
    /// check for NUL characters reads.
    package static let textKeys: [ContactKey] = rows.filter { row in
        switch row.kind {
        case .identifier, .contactType, .date, .nonGregorianDate, .imageData, .thumbnailImageData,
            .imageDataAvailable:
            false
        default: true
        }
    }.map(\.key)

    /// The keys that validation checks, in key order: dates, and labeled values that must not be
    /// blank.
    package static let validatedKeys: [ContactKey] = rows.filter { row in
        switch row.kind {
        case .date, .nonGregorianDate, .labeledDates: true
        default: row.blankValueNoun != nil
        }
    }.map(\.key)

    /// The JSON keys of a contact object.
    package static let jsonKeys: Set<String> = Set(rows.map(\.jsonKey))

    /// The rows by JSON key.
    package static let rowsByJSONKey: [String: ContactKeyDescriptor] = Dictionary(
        uniqueKeysWithValues: rows.map { ($0.jsonKey, $0) })
}
