/// A cursor over the bytes of a message that reads keys and values, checking every bound.
///
/// The reader borrows the bytes: create it inside `withUnsafeBufferPointer` (or use
/// ``withReader(_:_:)``) and never let it outlive that call. Offsets are positions in the whole
/// buffer, so a reader of a nested message reports errors at the offsets of the outer payload.
/// Every read consumes at least one byte or throws, so no input can make a loop over it hang.
public struct WireReader {
    /// The whole buffer; a nested reader shares it and reads a narrower range.
    @usableFromInline let buffer: UnsafeBufferPointer<UInt8>
    /// The next position to read.
    @usableFromInline var position: Int
    /// One past the last position this reader may read.
    @usableFromInline let end: Int

    /// Creates a reader of a whole buffer that must stay valid while the reader is used.
    @inlinable
    public init(unsafeBuffer buffer: UnsafeBufferPointer<UInt8>) {
        self.init(buffer: buffer, range: 0..<buffer.count)
    }

    @inlinable
    init(buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.buffer = buffer
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    /// Calls `body` with a reader of the bytes, valid only during the call.
    @inlinable
    public static func withReader<Value, Failure: Error>(
        _ bytes: [UInt8], _ body: (inout WireReader) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        // `withUnsafeBufferPointer` rethrows untyped errors; carrying the typed error out through
        // a Result keeps `body`'s error type.
        let result: Result<Value, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var reader = WireReader(unsafeBuffer: buffer)
            do throws(Failure) {
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The offset of the next byte to read.
    @inlinable
    public var offset: Int { position }

    /// The offset one past the last byte this reader may read.
    @inlinable
    public var endOffset: Int { end }

    /// Whether every byte of the message has been read.
    @inlinable
    public var isAtEnd: Bool { position >= end }

    /// Reads a varint.
    @inlinable @inline(__always)
    public mutating func readVarint() throws(WireFormatError) -> UInt64 {
        guard position < end else {
            throw WireFormatError(offset: position, reason: .truncatedVarint)
        }
        let first = buffer[position]
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        return try readLongVarint()
    }

    /// Reads a varint of two or more bytes; kept out of line so the one-byte case stays small.
    @usableFromInline
    mutating func readLongVarint() throws(WireFormatError) -> UInt64 {
        let start = position
        // Two bytes, the commonest long varint (a field number above 15, a length of 128 to
        // 16,383 bytes), without the loop.
        if end - position >= 2, buffer[position + 1] < 0x80 {
            position += 2
            return UInt64(buffer[start] & 0x7F) | UInt64(buffer[start + 1]) << 7
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var index = position
        while true {
            guard index < end else {
                throw WireFormatError(offset: start, reason: .truncatedVarint)
            }
            let byte = buffer[index]
            index += 1
            // The tenth byte may carry only the 64th bit.
            if shift == 63 && byte > 1 {
                throw WireFormatError(offset: start, reason: .varintOverflow)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                position = index
                return result
            }
            shift += 7
        }
    }

    /// Reads a field's key and checks its field number and wire type.
    @inlinable @inline(__always)
    public mutating func readKey() throws(WireFormatError) -> WireKey {
        let start = position
        let raw = try readVarint()
        let field = raw >> 3
        guard field >= 1, field <= UInt64(WireFormat.fieldNumberMax) else {
            throw WireFormatError(offset: start, reason: .fieldNumberOutOfRange(field))
        }
        let type = UInt8(truncatingIfNeeded: raw & 7)
        guard let wireType = WireType(rawValue: type) else {
            throw WireFormatError(offset: start, reason: .unsupportedWireType(type))
        }
        return WireKey(field: UInt32(truncatingIfNeeded: field), wireType: wireType, offset: start)
    }

    /// Reads a length and returns the range of the bytes it covers, moving past them.
    @inlinable @inline(__always)
    public mutating func readLengthDelimited() throws(WireFormatError) -> Range<Int> {
        let start = position
        let length = try readVarint()
        let remaining = end - position
        guard length <= UInt64(remaining) else {
            throw WireFormatError(offset: start, reason: .lengthOutOfBounds(length: length, remaining: remaining))
        }
        let lower = position
        position += Int(length)
        return lower..<position
    }

    /// Reads a length-delimited value and returns a reader of its bytes, for a nested message.
    @inlinable @inline(__always)
    public mutating func readNested() throws(WireFormatError) -> WireReader {
        WireReader(buffer: buffer, range: try readLengthDelimited())
    }

    /// The positions this reader has yet to read, in the whole buffer: a nested message's
    /// bytes, right after ``readNested()``.
    @inlinable
    public var remainingRange: Range<Int> { position..<end }

    /// Reads a length-delimited value as UTF-8 text; ill-formed sequences become U+FFFD.
    ///
    /// The bytes of a payload are covered by a CRC and a SHA-256 before they get here, and
    /// every writer writes Swift strings, which are always valid UTF-8; repairing rather than
    /// rejecting keeps the read path to one validating copy.
    @inlinable
    public mutating func readString() throws(WireFormatError) -> String {
        let range = try readLengthDelimited()
        if range.isEmpty { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// Reads a length-delimited value as a copy of its bytes.
    @inlinable
    public mutating func readBytes() throws(WireFormatError) -> [UInt8] {
        Array(UnsafeBufferPointer(rebasing: buffer[try readLengthDelimited()]))
    }

    /// Calls `body` with the bytes of a length-delimited value, valid only during the call.
    @inlinable
    public mutating func withBytes<Value>(
        _ body: (UnsafeBufferPointer<UInt8>) -> Value
    ) throws(WireFormatError) -> Value {
        body(UnsafeBufferPointer(rebasing: buffer[try readLengthDelimited()]))
    }

    /// Skips the value of a field this reader's caller does not know.
    @inlinable @inline(__always)
    public mutating func skipValue(of key: WireKey) throws(WireFormatError) {
        switch key.wireType {
        case .varint: _ = try readVarint()
        case .lengthDelimited: _ = try readLengthDelimited()
        }
    }
}
