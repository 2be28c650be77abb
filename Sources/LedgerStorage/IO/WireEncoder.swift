/// Writes fields in the wire format to a growing buffer: what typed event encoders write with,
/// and what turns a stored message back into bytes.
///
/// A nested message is written in place, between ``beginMessage(field:)`` and
/// ``endMessage(_:omitIfEmpty:)`` (or by ``appendMessage(field:omitIfEmpty:_:)`` around a closure):
/// one byte is reserved for its length, and the rare message of 128 bytes or more moves its bytes
/// along once the length is known. That costs less than measuring every message before writing it.
///
/// The buffer is grown ahead of the writes, by doubling, and each field is written through one
/// unsafe pointer, with the bound checked once per field rather than once per byte.
public struct WireEncoder: Sendable {
    /// The buffer; only its first `used` bytes are written, the rest is room to grow into.
    @usableFromInline var storage: [UInt8]
    /// The number of bytes written.
    @usableFromInline var used: Int

    /// Creates an empty encoder with room for `capacity` bytes before it first grows.
    @inlinable
    public init(capacity: Int = 0) {
        storage = [UInt8](repeating: 0, count: max(capacity, 16))
        used = 0
    }

    /// The bytes written so far.
    @inlinable
    public var bytes: [UInt8] { Array(storage[..<used]) }

    /// The number of bytes written so far.
    @inlinable
    public var count: Int { used }

    /// Returns the bytes written, without copying them.
    @inlinable
    public consuming func finish() -> [UInt8] {
        storage.removeSubrange(used...)
        return storage
    }

    /// Makes room for `extra` more bytes.
    @inlinable
    mutating func reserve(_ extra: Int) {
        if storage.count - used < extra { grow(extra) }
    }

    /// Grows the buffer to at least twice its size, and by `extra` bytes at least.
    @usableFromInline
    mutating func grow(_ extra: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(storage.count, extra)))
    }

    /// Writes a varint at `position` of a buffer known to have room, and returns the position
    /// after it.
    @inlinable
    package static func write(_ value: UInt64, to buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int) -> Int {
        var remaining = value
        var index = position
        while remaining >= 0x80 {
            buffer[index] = UInt8(truncatingIfNeeded: remaining) | 0x80
            remaining >>= 7
            index += 1
        }
        buffer[index] = UInt8(truncatingIfNeeded: remaining)
        return index + 1
    }

    /// Appends one or two varints (a key and a value, or a key and a length), then up to `count`
    /// bytes from `bytes`, with a single bound check.
    @inlinable
    mutating func appendVarints(_ first: UInt64, _ second: UInt64, bytes: UnsafeRawBufferPointer? = nil) {
        let byteCount = bytes?.count ?? 0
        reserve(2 * WireFormat.varintBytesMax + byteCount)
        let start = used
        let end = storage.withUnsafeMutableBufferPointer { buffer in
            var position = Self.write(first, to: buffer, at: start)
            position = Self.write(second, to: buffer, at: position)
            if let bytes, byteCount > 0 {
                UnsafeMutableRawPointer(buffer.baseAddress! + position).copyMemory(
                    from: bytes.baseAddress!, byteCount: byteCount)
            }
            return position + byteCount
        }
        used = end
    }

    /// Appends a varint without a key.
    @inlinable
    public mutating func appendRawVarint(_ value: UInt64) {
        reserve(WireFormat.varintBytesMax)
        let start = used
        used = storage.withUnsafeMutableBufferPointer { Self.write(value, to: $0, at: start) }
    }

    @inlinable
    static func key(field: UInt32, wireType: WireType) -> UInt64 {
        precondition(field >= 1 && field <= WireFormat.fieldNumberMax, "field number \(field) is out of range")
        return UInt64(field) << 3 | UInt64(wireType.rawValue)
    }

    /// Appends a field's key.
    @inlinable
    public mutating func appendKey(field: UInt32, wireType: WireType) {
        appendRawVarint(Self.key(field: field, wireType: wireType))
    }

    /// Appends an unsigned integer field.
    @inlinable
    public mutating func appendVarint(field: UInt32, value: UInt64) {
        appendVarints(Self.key(field: field, wireType: .varint), value)
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
        appendVarints(Self.key(field: field, wireType: .lengthDelimited), UInt64(bytes.count), bytes: bytes)
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

    /// Where a nested message started, from ``beginMessage(field:)``, for ``endMessage(_:omitIfEmpty:)``.
    public struct MessageMark: Sendable {
        @usableFromInline let keyStart: Int
        @usableFromInline let lengthAt: Int

        @inlinable
        init(keyStart: Int, lengthAt: Int) {
            self.keyStart = keyStart
            self.lengthAt = lengthAt
        }
    }

    /// Starts a nested message: writes its key and reserves one byte for its length. Append its
    /// fields, then close it with ``endMessage(_:omitIfEmpty:)``; messages nest like brackets.
    @inlinable
    public mutating func beginMessage(field: UInt32) -> MessageMark {
        let keyStart = used
        // The key, then a length of 0 as a placeholder for the real one.
        appendVarints(Self.key(field: field, wireType: .lengthDelimited), 0)
        return MessageMark(keyStart: keyStart, lengthAt: used - 1)
    }

    /// Ends the nested message `mark` began by writing its length; with `omitIfEmpty`, a message
    /// with no fields is taken out again (its absence decodes to the same empty message).
    @inlinable
    public mutating func endMessage(_ mark: MessageMark, omitIfEmpty: Bool = false) {
        let length = used - mark.lengthAt - 1
        if length < 0x80 {
            if length == 0 && omitIfEmpty {
                used = mark.keyStart
            } else {
                storage[mark.lengthAt] = UInt8(truncatingIfNeeded: length)
            }
        } else {
            patchLongLength(length, at: mark.lengthAt)
        }
    }

    /// Appends a nested message whose fields `body` writes; with `omitIfEmpty`, a message with no
    /// fields is not written at all.
    @inlinable
    public mutating func appendMessage<Failure: Error>(
        field: UInt32, omitIfEmpty: Bool = false, _ body: (inout WireEncoder) throws(Failure) -> Void
    ) throws(Failure) {
        let mark = beginMessage(field: field)
        try body(&self)
        endMessage(mark, omitIfEmpty: omitIfEmpty)
    }

    /// Writes a length of 128 or more over the one byte reserved for it, moving the message
    /// along to make room.
    @usableFromInline
    mutating func patchLongLength(_ length: Int, at lengthAt: Int) {
        let extra = WireFormat.varintSize(UInt64(length)) - 1
        reserve(extra)
        let bodyStart = lengthAt + 1
        storage.withUnsafeMutableBufferPointer { buffer in
            // The regions overlap; raw copyMemory is a memmove.
            let base = UnsafeMutableRawPointer(buffer.baseAddress!)
            (base + bodyStart + extra).copyMemory(from: base + bodyStart, byteCount: length)
            _ = Self.write(UInt64(length), to: buffer, at: lengthAt)
        }
        used += extra
    }
}
