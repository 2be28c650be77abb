import ContactsModel
import LedgerMigrations
import LedgerStorage

/// The compact forms schema version 2 gives the commonest text of a contact event: identifiers
/// in the canonical UUID form, written as their 16 bytes, and the framework's standard labels,
/// written as small numbers (`Documentation/EventSchema.md`, "Version 2").
///
/// Both are alternatives to the text field they stand for, in a field of their own, so the text
/// form stays valid for anything else: an identifier that is not an upper-case UUID string, or
/// a label this table does not hold, is written as text exactly as in version 1.
enum CompactFields {
    /// The 16 bytes of an identifier that is exactly the canonical text of a UUID: 36
    /// characters, hyphens after the 8th, 12th, 16th and 20th hex digit, digits and upper-case
    /// `A` to `F` (what `UUID().uuidString` gives). Anything else is nil and is written as text,
    /// so that decoding the bytes gives back the same string.
    static func uuidBytes(_ identifier: String) -> UUIDBytes? {
        let utf8 = identifier.utf8
        guard utf8.count == 36 else { return nil }
        if let parsed = utf8.withContiguousStorageIfAvailable(parseUUID) { return parsed }
        return Array(utf8).withUnsafeBufferPointer(parseUUID)
    }

    /// ``uuidBytes(_:)`` of an identifier's UTF-8.
    static func uuidBytes(utf8: UnsafeBufferPointer<UInt8>) -> UUIDBytes? {
        parseUUID(utf8)
    }

    /// The offsets of the 32 hex digits in the canonical text, in order.
    private static let digitOffsets: [Int] = (0..<36).filter { ![8, 13, 18, 23].contains($0) }

    /// The value of each upper-case hex digit byte; 0xFF for every other byte.
    private static let hexValues: [UInt8] = (0..<256).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }

    /// Parses 36 bytes of canonical UUID text; nil for anything else.
    private static func parseUUID(_ text: UnsafeBufferPointer<UInt8>) -> UUIDBytes? {
        guard text.count == 36, text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"),
            text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-")
        else { return nil }
        return hexValues.withUnsafeBufferPointer { values in
            digitOffsets.withUnsafeBufferPointer { offsets in
                var result = UUIDBytes()
                var invalid: UInt8 = 0
                for index in 0..<16 {
                    let high = values[Int(text[offsets[2 * index]])]
                    let low = values[Int(text[offsets[2 * index + 1]])]
                    invalid |= (high | low) & 0xF0
                    result.set(index, high << 4 | (low & 0x0F))
                }
                return invalid == 0 ? result : nil
            }
        }
    }

    /// The standard labels by their number in schema version 2. A number is never reused or
    /// renumbered; new labels are appended. Index 0 is unused, so that a label number is never 0.
    static let standardLabels: [String] = [
        "",
        Label.home, Label.work, Label.school, Label.other, Label.emailiCloud, Label.urlAddressHomePage,
        Label.dateAnniversary, Label.phoneNumberiPhone, Label.phoneNumberAppleWatch, Label.phoneNumberMobile,
        Label.phoneNumberMain, Label.phoneNumberHomeFax, Label.phoneNumberWorkFax, Label.phoneNumberOtherFax,
        Label.phoneNumberPager,
    ]

    /// The number of a standard label, or nil for any other label.
    static let standardLabelNumbers: [String: UInt64] = {
        var numbers: [String: UInt64] = [:]
        for (number, label) in standardLabels.enumerated() where number > 0 { numbers[label] = UInt64(number) }
        return numbers
    }()

    /// The label with a number, or nil for a number the table does not hold.
    static func standardLabel(_ number: UInt64) -> String? {
        guard number > 0, number < UInt64(standardLabels.count) else { return nil }
        return standardLabels[Int(number)]
    }
}

/// The 16 bytes of a UUID, kept inline.
struct UUIDBytes: Equatable {
    private var storage: (UInt64, UInt64) = (0, 0)

    /// Zero bytes.
    init() {}

    static func == (left: UUIDBytes, right: UUIDBytes) -> Bool {
        left.storage.0 == right.storage.0 && left.storage.1 == right.storage.1
    }

    /// A copy of exactly 16 bytes.
    init(copying bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count == 16, "a UUID has 16 bytes")
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
    }

    /// Sets one byte.
    @inline(__always)
    mutating func set(_ index: Int, _ value: UInt8) {
        withUnsafeMutableBytes(of: &storage) { $0[index] = value }
    }

    /// Calls `body` with the 16 bytes.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: storage) { body($0) }
    }

    /// The bytes' canonical text (``UUIDText``).
    var text: String {
        withBytes { UUIDText.canonical($0.assumingMemoryBound(to: UInt8.self))! }
    }
}

/// An identifier as an operation's fields hold it: text, or the 16 bytes of a UUID that stand
/// for its canonical text. A replay keeps the bytes, so that it makes no string per contact.
enum DecodedIdentifier {
    case text(String)
    case uuid(UUIDBytes)

    /// The identifier.
    package var string: String {
        switch self {
        case .text(let text): text
        case .uuid(let bytes): bytes.text
        }
    }

    /// Calls `body` with the identifier's key in the projection's contact table.
    func withTableKey<Result>(_ body: (ContactTable.IdentifierKey) -> Result) -> Result {
        switch self {
        case .text(let text): ContactTable.withKey(text, body)
        case .uuid(let bytes): ContactTable.withKey(bytes, body)
        }
    }
}

extension WireEncoder {
    /// Appends an identifier's text field, unless it is empty or `uuid` holds its 16 bytes (which
    /// ``appendIdentifierUUID(_:_:)`` writes later: fields go in ascending number).
    @inline(__always)
    mutating func appendIdentifierText<Field: RawRepresentable<UInt32>>(
        _ identifier: String, _ uuid: UUIDBytes?, _ field: Field
    ) {
        if uuid == nil { appendNonEmpty(field, identifier) }
    }

    /// Appends an identifier's 16 UUID bytes, if it has them; the counterpart of
    /// ``appendIdentifierText(_:_:_:)``.
    @inline(__always)
    mutating func appendIdentifierUUID<Field: RawRepresentable<UInt32>>(_ uuid: UUIDBytes?, _ field: Field) {
        if let uuid { uuid.withBytes { appendBytes(field: field.rawValue, bytes: $0) } }
    }
}

extension PayloadReader {
    /// Reads an identifier written as 16 UUID bytes, keeping the bytes; anything but 16 bytes is
    /// refused.
    mutating func uuidBytes(_ key: WireKey) throws(EventDecodingError) -> UUIDBytes {
        let offset = key.offset
        let bytes = try withBytes(key) { bytes -> UUIDBytes? in
            bytes.count == 16 ? UUIDBytes(copying: bytes) : nil
        }
        guard let bytes else { throw EventDecodingError(.notAUUID, offset: offset) }
        return bytes
    }

    /// Reads an identifier written as 16 UUID bytes, as its text (empty when the reads only
    /// check); anything but 16 bytes is refused.
    mutating func uuidIdentifier(_ key: WireKey) throws(EventDecodingError) -> String {
        let bytes = try uuidBytes(key)
        return checksOnly ? "" : bytes.text
    }

    /// Reads a standard label's number; a number the table does not hold is refused.
    mutating func standardLabel(_ key: WireKey) throws(EventDecodingError) -> String {
        let offset = key.offset
        let number = try varint(key)
        guard let label = CompactFields.standardLabel(number) else {
            throw EventDecodingError(.unknownStandardLabel(number), offset: offset)
        }
        return label
    }
}
