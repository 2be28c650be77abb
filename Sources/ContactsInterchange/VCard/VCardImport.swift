import ContactsModel

/// What ``VCardSerialization/read(_:strict:fallbackEncoding:)`` found in a vCard file: the
/// contacts it could read, the cards it had to reject, and what it read leniently.
///
/// Cards are numbered by their position in the file, from 0: every `BEGIN:VCARD` starts one,
/// and a run of text outside any card (before a `BEGIN:VCARD` that is missing, say) counts as
/// one too, so that it can be reported. A rejected card never stops the cards around it from
/// being read.
public struct VCardImport: Sendable {
    /// The contacts read, each with the position (from 0) of its card in the file, in file order.
    ///
    /// The contacts are new: each has a new identifier, as the framework's parsed contacts do,
    /// and none is saved until a save request adds it.
    public var contacts: [(index: Int, contact: MutableContact)]
    /// The cards that could not be read, in file order.
    public var rejected: [VCardCardError]
    /// What was read leniently or left out, in file order.
    public var warnings: [VCardWarning]
    /// The `UID` of each contact's card that has one, by the card's position: the text as
    /// written, without a `urn:uuid:` scheme. An import matches it against the identifiers a
    /// store holds, so that a card exported from the store updates its contact.
    public var uids: [Int: String] = [:]

    /// Creates an import result.
    public init(
        contacts: [(index: Int, contact: MutableContact)] = [], rejected: [VCardCardError] = [],
        warnings: [VCardWarning] = []
    ) {
        self.contacts = contacts
        self.rejected = rejected
        self.warnings = warnings
    }
}

/// A card that could not be read, with its position in the file and the line of the problem.
public struct VCardCardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why a card was rejected.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A `BEGIN:VCARD` has no `END:VCARD` before the next `BEGIN:VCARD` or the end of the
        /// file; the line is that of the `BEGIN:VCARD`.
        case missingEnd
        /// Text stands outside any card: an `END:VCARD` without its `BEGIN:VCARD`, or lines
        /// before the first card or between cards; the line is the first such line.
        case missingBegin
        /// A line has no colon and is not a bare property name.
        case lineWithoutColon
        /// A `PHOTO` is marked as inline data but its base64 or data URI cannot be decoded.
        case undecodablePhoto
        /// A `BDAY`, `ANNIVERSARY`, `X-ABDATE` or `X-ALTBDAY` is not a date, or is a date the
        /// model does not accept (a 31st month, say).
        case invalidDate
        /// The card was read, but the store refused to save it (for example a value its
        /// validation rejects, or a note the client may not write); the line is the card's first.
        case refusedByStore
    }

    /// The position of the card in the file, counted from 0.
    public let cardIndex: Int
    /// The line of the problem, counted from 1 as an editor counts them.
    public let line: Int
    /// Why the card was rejected.
    public let kind: Kind
    /// The problem in one sentence, naming the property or line concerned.
    public let message: String

    /// Creates an error; only the reader does this.
    package init(cardIndex: Int, line: Int, kind: Kind, message: String) {
        self.cardIndex = cardIndex
        self.line = line
        self.kind = kind
        self.message = message
    }

    /// The card (by 0-based index), the line and the message, in one line.
    public var description: String {
        "vCard at index \(cardIndex) (0-based), line \(line): \(message)"
    }
}

/// Something the reader did leniently or left out, with the card and line it concerns.
public struct VCardWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was done.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A card has no `VERSION`; it was read as vCard 3.0.
        case missingVersion
        /// A card names a version other than 2.1, 3.0 or 4.0; it was read as vCard 3.0.
        case unknownVersion
        /// A second `N`, `FN`, `ORG`, `TITLE`, `NICKNAME`, `BDAY`, `PHOTO` or other single
        /// property was left out; the first one counts.
        case duplicateProperty
        /// A `PHOTO` refers to a URL; photos are never fetched, so it was left out.
        case photoURLIgnored
        /// A `CHARSET` parameter names a character set this reader does not know; the value
        /// was read by the guess (UTF-8 when valid, else the fallback encoding).
        case unknownCharset
        /// A value's bytes are not valid in the character set its `CHARSET` names; it was read
        /// by the guess, or as UTF-8 with replacement characters when UTF-8 was named.
        case charsetMismatch
        /// An `X-ABADR` is not a two-letter country code (old Apple exporters wrote street
        /// text there); it was left out.
        case invalidCountryCode
        /// An `X-ABLabel` belongs to no property (it has no group, or no property shares its
        /// group); it was left out.
        case orphanLabel
        /// A line holds only a property name and no colon (`FN`); it was read as that property
        /// with an empty value.
        case propertyWithoutValue
        /// A date given as free text (`VALUE=text`) is not a date; it was left out.
        case textDateIgnored
        /// A `RELATED` property names a URI rather than a name; it was left out.
        case relatedURIIgnored
    }

    /// The position of the card in the file, counted from 0.
    public let cardIndex: Int
    /// The line concerned, counted from 1.
    public let line: Int
    /// What was done.
    public let kind: Kind
    /// What was done, in one sentence.
    public let message: String

    /// Creates a warning; only the reader does this.
    package init(cardIndex: Int, line: Int, kind: Kind, message: String) {
        self.cardIndex = cardIndex
        self.line = line
        self.kind = kind
        self.message = message
    }

    /// The card (by 0-based index), the line and the message, in one line.
    public var description: String {
        "vCard at index \(cardIndex) (0-based), line \(line): \(message)"
    }
}
