import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A label and a value as text, for comparing labeled values field by field.
struct VCardExpectedLabeled: Sendable, Equatable, CustomStringConvertible {
    let label: String?
    let value: String

    init(_ label: String?, _ value: String) {
        self.label = label
        self.value = value
    }

    var description: String { "\(label ?? "nil"): \(value.debugDescription)" }
}

/// An expected postal address; fields left out are empty.
struct VCardExpectedAddress: Sendable, Equatable {
    let label: String?
    let address: PostalAddress

    init(
        _ label: String?, street: String = "", subLocality: String = "", city: String = "",
        subAdministrativeArea: String = "", state: String = "", postalCode: String = "", country: String = "",
        isoCountryCode: String = ""
    ) {
        self.label = label
        self.address = PostalAddress(
            street: street, subLocality: subLocality, city: city, subAdministrativeArea: subAdministrativeArea,
            state: state, postalCode: postalCode, country: country, isoCountryCode: isoCountryCode)
    }
}

/// An expected photo: its format (from its first bytes), size and SHA-256 prefix, computed
/// independently of the reader (with Python's base64 module over the file's lines).
struct VCardExpectedPhoto: Sendable, Equatable {
    let format: VCardImageType
    let bytes: Int
    let sha256: String

    init(_ format: VCardImageType, bytes: Int, sha256: String) {
        self.format = format
        self.bytes = bytes
        self.sha256 = sha256
    }
}

/// An expected note: exact, or for a long one its start, end and length in characters.
enum VCardExpectedText: Sendable, Equatable {
    case exact(String)
    case affixes(String, String, count: Int)

    func matches(_ text: String) -> Bool {
        switch self {
        case .exact(let expected): text == expected
        case .affixes(let prefix, let suffix, let count):
            text.hasPrefix(prefix) && text.hasSuffix(suffix) && text.count == count
        }
    }
}

/// What one card of a fixture must import as. Every field is compared: a field left out
/// must be empty in the contact.
struct VCardExpectedCard: Sendable {
    var index: Int
    var type: ContactType = .person
    var prefix = ""
    var given = ""
    var middle = ""
    var family = ""
    var suffix = ""
    var nickname = ""
    var phoneticGiven = ""
    var phoneticMiddle = ""
    var phoneticFamily = ""
    var organization = ""
    var department = ""
    var jobTitle = ""
    var note: VCardExpectedText = .exact("")
    var birthday: String?
    var dates: [VCardExpectedLabeled] = []
    var phones: [VCardExpectedLabeled] = []
    var emails: [VCardExpectedLabeled] = []
    var addresses: [VCardExpectedAddress] = []
    var urls: [VCardExpectedLabeled] = []
    var relations: [VCardExpectedLabeled] = []
    /// Instant message addresses as `service:username`.
    var instantMessages: [VCardExpectedLabeled] = []
    var photo: VCardExpectedPhoto?
}

/// A card the reader must reject.
struct VCardExpectedRejection: Sendable, Equatable, CustomStringConvertible {
    let index: Int
    let line: Int
    let kind: VCardCardError.Kind

    init(index: Int, line: Int, _ kind: VCardCardError.Kind) {
        self.index = index
        self.line = line
        self.kind = kind
    }

    var description: String { "card \(index) line \(line) \(kind)" }
}

/// A warning the reader must give.
struct VCardExpectedWarning: Sendable, Equatable, CustomStringConvertible {
    let kind: VCardWarning.Kind
    let line: Int

    init(_ kind: VCardWarning.Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    var description: String { "\(kind) at line \(line)" }
}

/// One fixture file and everything it must import as.
struct VCardFixture: Sendable, CustomTestStringConvertible {
    let path: String
    let cards: [VCardExpectedCard]
    let rejected: [VCardExpectedRejection]
    let warnings: [VCardExpectedWarning]
    let fallbackEncoding: String.Encoding

    init(
        _ path: String, fallbackEncoding: String.Encoding = .windowsCP1252, cards: [VCardExpectedCard],
        rejected: [VCardExpectedRejection] = [], warnings: [VCardExpectedWarning] = []
    ) {
        self.path = path
        self.cards = cards
        self.rejected = rejected
        self.warnings = warnings
        self.fallbackEncoding = fallbackEncoding
    }

    var testDescription: String {
        fallbackEncoding == .windowsCP1252 ? path : "\(path) (fallback \(fallbackEncoding))"
    }
}
