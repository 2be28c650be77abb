import Foundation

/// Appends little-endian fixed-width integers and raw bytes to a growing buffer.
///
/// The journal's formats are written by hand with this type rather than with Codable,
/// so that the byte layout is exactly what `Documentation/LogFormat.md` says.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer, reserving room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written so far.
    public var count: Int { bytes.count }

    /// Appends one byte.
    public mutating func write(_ value: UInt8) { bytes.append(value) }

    /// Appends a 16-bit unsigned integer, little-endian.
    public mutating func write(_ value: UInt16) { appendLittleEndian(value) }

    /// Appends a 32-bit unsigned integer, little-endian.
    public mutating func write(_ value: UInt32) { appendLittleEndian(value) }

    /// Appends a 64-bit unsigned integer, little-endian.
    public mutating func write(_ value: UInt64) { appendLittleEndian(value) }

    /// Appends a 64-bit signed integer, little-endian two's complement.
    public mutating func write(_ value: Int64) { appendLittleEndian(UInt64(bitPattern: value)) }

    /// Appends raw bytes.
    public mutating func write(bytes other: some Collection<UInt8>) { bytes.append(contentsOf: other) }

    /// Appends the 16 bytes of a UUID in their canonical order.
    public mutating func write(_ uuid: UUID) {
        let u = uuid.uuid
        // Two words holding the bytes in order from their highest byte, appended highest first.
        appendHighByteFirst(
            of: UInt64(u.0) << 56 | UInt64(u.1) << 48 | UInt64(u.2) << 40 | UInt64(u.3) << 32
                | UInt64(u.4) << 24 | UInt64(u.5) << 16 | UInt64(u.6) << 8 | UInt64(u.7))
        appendHighByteFirst(
            of: UInt64(u.8) << 56 | UInt64(u.9) << 48 | UInt64(u.10) << 40 | UInt64(u.11) << 32
                | UInt64(u.12) << 24 | UInt64(u.13) << 16 | UInt64(u.14) << 8 | UInt64(u.15))
    }

    /// Appends the 32 bytes of a digest.
    public mutating func write(_ digest: SHA256Digest) {
        digest.append(to: &bytes)
    }

    /// Appends an unsigned integer in LEB128 form (7 bits a byte, low first): small values take one byte.
    public mutating func writeVarint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    /// Overwrites four bytes at `offset` with a little-endian 32-bit value.
    public mutating func overwrite(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    private mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for index in 0..<MemoryLayout<T>.size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    private mutating func appendHighByteFirst(of value: UInt64) {
        for index in (0..<8).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}

/// A reason a byte reader stopped: the input ended early or held a value out of range.
public struct ByteReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offset at which reading failed.
    public var offset: Int
    /// What was wrong.
    public var reason: String

    /// Creates an error at an offset.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// The reason and offset, in one line.
    public var description: String { "\(reason) at byte \(offset)" }
}

/// Reads little-endian fixed-width integers and raw bytes from a byte array, checking every bound.
public struct ByteReader: Sendable {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// The next position to read.
    public private(set) var offset: Int
    /// One past the last readable position.
    public let end: Int

    /// Reads `bytes[range]`.
    public init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        offset = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    /// The number of bytes left to read.
    public var remaining: Int { end - offset }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= end }

    private mutating func take(_ count: Int) throws(ByteReaderError) -> Int {
        guard count >= 0, end - offset >= count else {
            throw ByteReaderError(
                offset: offset, reason: "input ends early (needs \(count) bytes, has \(end - offset))")
        }
        let start = offset
        offset += count
        return start
    }

    private mutating func readLittleEndian<T: FixedWidthInteger>(_: T.Type) throws(ByteReaderError) -> T {
        let start = try take(MemoryLayout<T>.size)
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            value |= T(bytes[start + index]) << (8 * index)
        }
        return value
    }

    /// Reads one byte.
    public mutating func readUInt8() throws(ByteReaderError) -> UInt8 { bytes[try take(1)] }
    /// Reads a little-endian 16-bit unsigned integer.
    public mutating func readUInt16() throws(ByteReaderError) -> UInt16 { try readLittleEndian(UInt16.self) }
    /// Reads a little-endian 32-bit unsigned integer.
    public mutating func readUInt32() throws(ByteReaderError) -> UInt32 { try readLittleEndian(UInt32.self) }
    /// Reads a little-endian 64-bit unsigned integer.
    public mutating func readUInt64() throws(ByteReaderError) -> UInt64 { try readLittleEndian(UInt64.self) }
    /// Reads a little-endian 64-bit signed integer.
    public mutating func readInt64() throws(ByteReaderError) -> Int64 {
        Int64(bitPattern: try readLittleEndian(UInt64.self))
    }

    /// Reads `count` raw bytes.
    public mutating func readBytes(_ count: Int) throws(ByteReaderError) -> ArraySlice<UInt8> {
        let start = try take(count)
        return bytes[start..<start + count]
    }

    /// Reads a 16-byte UUID.
    public mutating func readUUID() throws(ByteReaderError) -> UUID {
        let start = try take(16)
        let b = bytes
        let s = start
        return UUID(
            uuid: (
                b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7],
                b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15]
            ))
    }

    /// Reads a 32-byte digest.
    public mutating func readDigest() throws(ByteReaderError) -> SHA256Digest {
        let start = try take(32)
        return SHA256Digest(bytes: bytes[start..<start + 32])
    }

    /// Reads an unsigned LEB128 integer of at most ten bytes.
    public mutating func readVarint() throws(ByteReaderError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readUInt8()
            if shift == 63 && byte > 1 {
                throw ByteReaderError(offset: offset - 1, reason: "varint overflows 64 bits")
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }
}
