/// Writes fields in the wire format to a growing buffer: what typed event encoders write with,
/// and what turns a ``StoredMessage`` back into bytes.
///
/// A nested message is written in place by ``appendMessage(field:omitIfEmpty:_:)``: one byte is
/// reserved for its length, and the rare message of 128 bytes or more moves its bytes along once
/// the length is known. That costs less than measuring every message before writing it.
public struct WireEncoder: Sendable {
    @usableFromInline var storage: [UInt8]

    /// Creates an empty encoder, reserving room for `capacity` bytes.
    @inlinable
    public init(capacity: Int = 0) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// The bytes written so far.
    @inlinable
    public var bytes: [UInt8] { storage }

    /// The number of bytes written so far.
    @inlinable
    public var count: Int { storage.count }

    /// Encodes a whole message.
    public static func encode(_ message: StoredMessage) -> [UInt8] {
        var encoder = WireEncoder(capacity: message.entries.count * 8)
        encoder.append(message)
        return encoder.bytes
    }

    /// Appends a varint without a key.
    @inlinable
    public mutating func appendRawVarint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        storage.append(UInt8(truncatingIfNeeded: remaining))
    }

    /// Appends a field's key.
    @inlinable
    public mutating func appendKey(field: UInt32, wireType: WireType) {
        precondition(field >= 1 && field <= WireFormat.fieldNumberMax, "field number \(field) is out of range")
        appendRawVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// Appends an unsigned integer field.
    @inlinable
    public mutating func appendVarint(field: UInt32, value: UInt64) {
        appendKey(field: field, wireType: .varint)
        appendRawVarint(value)
    }

    /// Appends a signed integer field, zigzagged so that small negative values stay short.
    @inlinable
    public mutating func appendSignedVarint(field: UInt32, value: Int64) {
        appendVarint(field: field, value: WireFormat.zigzag(value))
    }

    /// Appends a Boolean field as the varint 0 or 1.
    @inlinable
    public mutating func appendBool(field: UInt32, value: Bool) {
        appendVarint(field: field, value: value ? 1 : 0)
    }

    /// Appends a length-delimited field holding raw bytes.
    @inlinable
    public mutating func appendBytes(field: UInt32, bytes: UnsafeRawBufferPointer) {
        appendKey(field: field, wireType: .lengthDelimited)
        appendRawVarint(UInt64(bytes.count))
        storage.append(contentsOf: bytes)
    }

    /// Appends a length-delimited field holding raw bytes.
    @inlinable
    public mutating func appendBytes(field: UInt32, bytes: [UInt8]) {
        bytes.withUnsafeBytes { appendBytes(field: field, bytes: $0) }
    }

    /// Appends a length-delimited field holding a string's UTF-8 bytes.
    @inlinable
    public mutating func appendString(field: UInt32, _ string: String) {
        var string = string
        string.withUTF8 { utf8 in appendBytes(field: field, bytes: UnsafeRawBufferPointer(utf8)) }
    }

    /// Appends a nested message whose fields `body` writes; with `omitIfEmpty`, a message with no
    /// fields is not written at all (its absence decodes to the same empty message).
    @inlinable
    public mutating func appendMessage<Failure: Error>(
        field: UInt32, omitIfEmpty: Bool = false, _ body: (inout WireEncoder) throws(Failure) -> Void
    ) throws(Failure) {
        let keyStart = storage.count
        appendKey(field: field, wireType: .lengthDelimited)
        let lengthAt = storage.count
        storage.append(0)
        try body(&self)
        let length = storage.count - lengthAt - 1
        if length < 0x80 {
            if length == 0 && omitIfEmpty {
                storage.removeSubrange(keyStart...)
            } else {
                storage[lengthAt] = UInt8(truncatingIfNeeded: length)
            }
        } else {
            patchLongLength(length, at: lengthAt)
        }
    }

    /// Writes a length of 128 or more over the one byte reserved for it, moving the message
    /// along to make room.
    @usableFromInline
    mutating func patchLongLength(_ length: Int, at lengthAt: Int) {
        let size = WireFormat.varintSize(UInt64(length))
        storage.insert(contentsOf: repeatElement(0, count: size - 1), at: lengthAt + 1)
        var remaining = UInt64(length)
        for index in lengthAt..<lengthAt + size {
            storage[index] = UInt8(truncatingIfNeeded: remaining) | (index < lengthAt + size - 1 ? 0x80 : 0)
            remaining >>= 7
        }
    }

    /// Appends a nested message given in stored form.
    public mutating func appendMessage(field: UInt32, _ message: StoredMessage) {
        appendMessage(field: field) { encoder in encoder.append(message) }
    }

    /// Appends every field of a stored message, in order.
    public mutating func append(_ message: StoredMessage) {
        for entry in message.entries {
            switch entry.value {
            case .varint(let value): appendVarint(field: entry.field, value: value)
            case .bytes(let bytes): appendBytes(field: entry.field, bytes: bytes)
            }
        }
    }
}
