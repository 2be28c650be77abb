/// What a contact key's value is. Every format handles a key by its kind, so a new key of an
/// existing kind needs a row in ``ContactKeyTable`` and no code of its own.
///
/// ``ContactValues`` reads and writes the value of a key of each kind through an accessor keyed
/// by the key (`values[string: key]`, `values[phoneNumbers: key]`, ...).
package enum ContactValueKind: Sendable, Hashable {
    /// The identifier, which ``ContactValues`` does not hold.
    case identifier
    /// A ``ContactType``; `values[contactType:]`.
    case contactType
    /// Text, empty when absent; `values[string:]`.
    case string
    /// An optional Gregorian date; `values[date:]`.
    case date
    /// An optional date in a Chinese, Hebrew or Islamic calendar; `values[date:]`.
    case nonGregorianDate
    /// Labeled Gregorian dates; `values[labeledDates:]`.
    case labeledDates
    /// Labeled phone numbers; `values[phoneNumbers:]`.
    case labeledPhoneNumbers
    /// Labeled text; `values[labeledStrings:]`.
    case labeledStrings
    /// Labeled postal addresses; `values[postalAddresses:]`.
    case labeledPostalAddresses
    /// Labeled names of related people; `values[contactRelations:]`.
    case labeledRelations
    /// Labeled social network profiles; `values[socialProfiles:]`.
    case labeledSocialProfiles
    /// Labeled instant message addresses; `values[instantMessageAddresses:]`.
    case labeledInstantMessageAddresses
    /// Optional image data; `values[data:]`.
    case imageData
    /// The thumbnail, derived from the image data (``ContactValues/thumbnailImageData``).
    case thumbnailImageData
    /// Whether there is image data, derived from it (``ContactValues/imageDataAvailable``).
    case imageDataAvailable

    /// Whether a ``MutableContact`` can set a value of this kind: the identifier is assigned when a
    /// contact is created, and the derived image values follow the image data.
    package var isWritable: Bool {
        switch self {
        case .identifier, .thumbnailImageData, .imageDataAvailable: false
        default: true
        }
    }
}

/// The search index a key's values are found by.
package enum ContactKeySearch: Sendable, Hashable {
    /// The name index: the key is one of the searched name fields.
    case name
    /// The email index.
    case email
    /// The phone index.
    case phone
}

/// How a key's value is written to a vCard and read back (`Documentation/VCard.md`). Property
/// names are spelled as the writer writes them; a reader compares them without case.
package enum ContactVCardMapping: Sendable, Hashable {
    /// Neither written nor read: a value derived from another.
    case none
    /// The whole value as the text of one property, of which a card's first counts (`TITLE`).
    case text(String)
    /// The whole value as the text of one property, of which every one a card holds counts,
    /// joined with line feeds (`NOTE`).
    case repeatedText(String)
    /// One component of a structured text property (`N`, `ORG`), by its position. A component
    /// that takes the rest also gets, when read, the non-empty components after it, joined with
    /// ", " (`ORG`'s department).
    case component(String, Int, takesRest: Bool = false)
    /// Properties that the vCard code of the key's value kind writes and reads, with structure
    /// of their own (`TEL`, `ADR`, `BDAY`); the first is the one written.
    case byKind([String])

    /// The names of the properties the key is written to or read from.
    package var propertyNames: [String] {
        switch self {
        case .none: []
        case .text(let name), .repeatedText(let name), .component(let name, _, _): [name]
        case .byKind(let names): names
        }
    }
}

/// One row of ``ContactKeyTable``: what every format needs to know about one contact key.
package struct ContactKeyDescriptor: Sendable {
    /// The key.
    package let key: ContactKey
    /// What its value is, which decides how each format handles it.
    package let kind: ContactValueKind
    /// The number of its field in a Contact message of the event schema, or nil for a key whose
    /// value is stored elsewhere (the identifier) or derived (the thumbnail and the image flag).
    package let codecField: UInt32?
    /// Its name as a member of a contact's JSON object.
    package let jsonKey: String
    /// How a vCard holds it.
    package let vCard: ContactVCardMapping
    /// The search index its values are found by, if any.
    package let search: ContactKeySearch?
    /// For labeled values that must not be blank, the noun a validation message names one value
    /// by ("a phone number"); nil where values may be blank.
    package let blankValueNoun: String?
    /// The English name ``Contact/localizedString(forKey:)`` gives.
    package let displayName: String

    /// A row; the JSON key is the key's raw value, the framework's key name.
    package init(
        _ key: ContactKey, _ kind: ContactValueKind, field codecField: UInt32?, vCard: ContactVCardMapping,
        search: ContactKeySearch? = nil, blankValueNoun: String? = nil, name displayName: String
    ) {
        self.key = key
        self.kind = kind
        self.codecField = codecField
        self.jsonKey = key.rawValue
        self.vCard = vCard
        self.search = search
        self.blankValueNoun = blankValueNoun
        self.displayName = displayName
    }
}
