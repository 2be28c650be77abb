import LedgerStorage

/// The value of one field of a stored message, as the wire format carries it.
public enum StoredField: Sendable, Hashable {
    /// An unsigned integer (wire type 0); a signed one is zigzagged, a Boolean is 0 or 1.
    case varint(UInt64)
    /// Raw bytes (wire type 2): a UTF-8 string, binary data or a nested message.
    case bytes([UInt8])

    /// A string field's value.
    public static func string(_ string: String) -> StoredField { .bytes(Array(string.utf8)) }

    /// A signed integer field's value, zigzagged.
    public static func signed(_ value: Int64) -> StoredField { .varint(WireFormat.zigzag(value)) }

    /// A nested message field's value.
    public static func message(_ message: StoredMessage) -> StoredField { .bytes(WireEncoder.encode(message)) }

    /// The wire type the value is written with.
    public var wireType: WireType {
        switch self {
        case .varint: .varint
        case .bytes: .lengthDelimited
        }
    }

    /// The integer, or nil when the value is length-delimited.
    public var varintValue: UInt64? {
        if case .varint(let value) = self { value } else { nil }
    }

    /// The zigzagged signed integer, or nil when the value is length-delimited.
    public var signedValue: Int64? { varintValue.map(WireFormat.unzigzag) }

    /// The bytes, or nil when the value is a varint.
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    /// The bytes read as UTF-8 text, or nil when the value is a varint or not valid UTF-8.
    public var stringValue: String? {
        bytesValue.flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The bytes parsed as a nested message, or nil when the value is a varint.
    public func messageValue() throws(WireFormatError) -> StoredMessage? {
        guard let bytes = bytesValue else { return nil }
        return try WireDecoder.decode(bytes)
    }
}

/// A message in its stored, weakly typed form: its fields in the order they were written.
///
/// Upcasters read and rewrite events in this form, by field number, without the model types. A
/// nested message stays bytes until someone asks for it with ``message(_:)`` or rewrites it with
/// ``updateMessages(_:_:)``, so an upcaster pays only for the parts it touches.
public struct StoredMessage: Sendable, Hashable {
    /// One field of a message: its number and its value.
    public struct Entry: Sendable, Hashable {
        /// The field number.
        public var field: UInt32
        /// The value.
        public var value: StoredField

        /// Creates an entry.
        public init(field: UInt32, value: StoredField) {
            self.field = field
            self.value = value
        }
    }

    /// The fields, in the order they are written; a repeated field appears once per element.
    public var entries: [Entry]

    /// Creates a message from its fields.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// Creates a message from `(field, value)` pairs, in order.
    public init(_ fields: KeyValuePairs<UInt32, StoredField>) {
        self.entries = fields.map { Entry(field: $0.key, value: $0.value) }
    }

    /// Parses a message from its bytes.
    public init(parsing bytes: [UInt8]) throws(WireFormatError) {
        self = try WireDecoder.decode(bytes)
    }

    /// The message's bytes.
    public var encoded: [UInt8] { WireEncoder.encode(self) }

    /// Whether the message has a field with this number.
    public func contains(_ field: UInt32) -> Bool {
        entries.contains { $0.field == field }
    }

    /// The first value of a field, or nil when the message has none.
    public func first(_ field: UInt32) -> StoredField? {
        entries.first { $0.field == field }?.value
    }

    /// Every value of a field, in order.
    public func all(_ field: UInt32) -> [StoredField] {
        entries.lazy.filter { $0.field == field }.map(\.value)
    }

    /// The first value of a field as an unsigned integer, or nil when it is absent or not a varint.
    public func varint(_ field: UInt32) -> UInt64? {
        first(field)?.varintValue
    }

    /// The first value of a field as UTF-8 text, or nil when it is absent, a varint or not UTF-8.
    public func string(_ field: UInt32) -> String? {
        first(field)?.stringValue
    }

    /// Every value of a field that is UTF-8 text, in order.
    public func strings(_ field: UInt32) -> [String] {
        all(field).compactMap(\.stringValue)
    }

    /// The first value of a field parsed as a nested message, or nil when it is absent or a varint.
    public func message(_ field: UInt32) throws(WireFormatError) -> StoredMessage? {
        guard let value = first(field) else { return nil }
        return try value.messageValue()
    }

    /// Every value of a field parsed as a nested message, in order; varint values are left out.
    public func messages(_ field: UInt32) throws(WireFormatError) -> [StoredMessage] {
        var result: [StoredMessage] = []
        for value in all(field) {
            if let message = try value.messageValue() { result.append(message) }
        }
        return result
    }

    /// Appends a value of a field after every other field.
    public mutating func append(_ field: UInt32, _ value: StoredField) {
        entries.append(Entry(field: field, value: value))
    }

    /// Gives a field exactly one value: the first occurrence is replaced in place and any others
    /// are removed, or the value is appended when the field is absent.
    public mutating func set(_ field: UInt32, _ value: StoredField) {
        guard let index = entries.firstIndex(where: { $0.field == field }) else {
            append(field, value)
            return
        }
        entries[index].value = value
        var position = entries.index(after: index)
        while position < entries.endIndex {
            if entries[position].field == field {
                entries.remove(at: position)
            } else {
                position += 1
            }
        }
    }

    /// Removes every value of a field.
    public mutating func remove(_ field: UInt32) {
        entries.removeAll { $0.field == field }
    }

    /// Renumbers every value of a field, keeping its place among the other fields.
    ///
    /// Values already numbered `newField` stay, so the result can hold both; remove them first
    /// when that is not wanted.
    public mutating func rename(_ field: UInt32, to newField: UInt32) {
        for index in entries.indices where entries[index].field == field {
            entries[index].field = newField
        }
    }

    /// Rewrites every value of a field as a nested message: each is parsed, passed to `body`,
    /// and encoded back in its place.
    ///
    /// A value that is a varint throws ``MigrationError/notAMessage(field:)``, bytes that are not
    /// a message throw ``MigrationError/wireFormat(_:)``, and `body` may throw its own errors.
    public mutating func updateMessages(
        _ field: UInt32, _ body: (inout StoredMessage) throws(MigrationError) -> Void
    ) throws(MigrationError) {
        for index in entries.indices where entries[index].field == field {
            guard case .bytes(let bytes) = entries[index].value else {
                throw MigrationError.notAMessage(field: field)
            }
            var nested: StoredMessage
            do {
                nested = try WireDecoder.decode(bytes)
            } catch {
                throw MigrationError.wireFormat(error)
            }
            try body(&nested)
            entries[index].value = .message(nested)
        }
    }
}

/// Parses bytes into a ``StoredMessage`` without knowing the schema.
///
/// Every bound is checked: malformed input throws a ``WireFormatError`` naming the offset where
/// reading stopped, and never traps or loops. Nested messages are not parsed here (the bytes of
/// a string and of a message look alike); ask for them with ``StoredMessage/message(_:)``.
public enum WireDecoder {
    /// Parses a whole message.
    public static func decode(_ bytes: [UInt8]) throws(WireFormatError) -> StoredMessage {
        try WireReader.withReader(bytes) { (reader: inout WireReader) throws(WireFormatError) in
            try decode(from: &reader)
        }
    }

    /// Parses the rest of a reader's message.
    public static func decode(from reader: inout WireReader) throws(WireFormatError) -> StoredMessage {
        var message = StoredMessage()
        while !reader.isAtEnd {
            let key = try reader.readKey()
            switch key.wireType {
            case .varint: message.append(key.field, .varint(try reader.readVarint()))
            case .lengthDelimited: message.append(key.field, .bytes(try reader.readBytes()))
            }
        }
        return message
    }
}
