/// Every contact key in one table: its value kind, its field in the event schema, its JSON key,
/// its vCard properties, the search index it feeds, its validation and its display name
/// (decision 0015).
///
/// The binary codec, the JSON reader and writer, the vCard writer and reader, validation, key
/// availability and the search indexes read a key's row instead of switching over the keys, so a
/// new key of an existing value kind is its declaration in the model (the ``ContactKey`` case,
/// its storage in ``ContactValues`` and the public properties), a row here and the documentation.
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
