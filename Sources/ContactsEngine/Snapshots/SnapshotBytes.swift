import ContactsModel
import Foundation
import LedgerStorage

/// Why a snapshot's state could not be decoded; the store then ignores the snapshot and replays
/// the journal, so this never reaches a caller of the public API.
package struct SnapshotDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, and where.
    package var reason: String

    package init(_ reason: String) { self.reason = reason }

    package var description: String { reason }
}

/// Appends the primitives of the snapshot state encoding: little-endian fixed-width integers,
/// LEB128 varints, and length-prefixed byte strings.
struct SnapshotWriter {
    private(set) var bytes: [UInt8] = []
    /// Where the state starts in ``bytes``: offsets written into it count from here.
    private var start = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// A writer that appends to `bytes`, which it holds (leaving `bytes` empty) until
    /// ``giveBack(_:)``: the state is then written after whatever `bytes` held, without a copy.
    init(appendingTo bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
        start = self.bytes.count
    }

    /// Hands the bytes back to the array the writer was made from, leaving the writer empty.
    mutating func giveBack(_ bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
        self.bytes = []
        start = 0
    }

    /// The bytes written since the writer started: the offset of the next one within the state.
    var offset: Int { bytes.count - start }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func varint(_ value: Int) { varint(UInt64(value)) }

    mutating func fixed32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func fixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Overwrites eight bytes written earlier by ``fixed64(_:)`` at `offset` (an ``offset``).
    mutating func patchFixed64(_ value: UInt64, at offset: Int) {
        let at = start + offset
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(at..<at + 8, with: $0) }
    }

    mutating func raw(_ other: some Collection<UInt8>) { bytes.append(contentsOf: other) }

    /// A length, then the bytes.
    mutating func data(_ other: [UInt8]) {
        varint(other.count)
        bytes.append(contentsOf: other)
    }

    /// A length, then the UTF-8 bytes.
    package mutating func string(_ value: String) {
        var copy = value
        copy.withUTF8 { utf8 in
            varint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func uuid(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
    }

    /// A count, then the elements' bytes as they are in memory (little-endian on every platform
    /// the package builds for); read back with one copy.
    mutating func array<Element: FixedWidthInteger>(_ values: [Element]) {
        varint(values.count)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// A count, then each string, sorted so that the bytes do not depend on hashing order.
    mutating func strings(_ values: Set<String>) {
        varint(values.count)
        for value in values.sorted() { string(value) }
    }
}

/// Reads what ``SnapshotWriter`` wrote, throwing on anything out of bounds.
struct SnapshotReader: ~Copyable {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private(set) var offset = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have no base address; any non-null pointer does, since nothing is read.
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = buffer.count
    }

    var isAtEnd: Bool { offset == end }

    /// A reader at the same position, for looking ahead.
    func copy() -> SnapshotReader {
        var copy = SnapshotReader(UnsafeBufferPointer(start: base, count: end))
        copy.offset = offset
        return copy
    }

    /// Moves to the end, leaving the rest unread.
    mutating func skipRest() { offset = end }

    /// Moves to `position`, which must lie within the state.
    mutating func seek(to position: Int) throws(SnapshotDecodingError) {
        guard position >= 0 && position <= end else {
            throw SnapshotDecodingError("a section offset of \(position) lies outside the \(end)-byte state")
        }
        offset = position
    }

    /// The bytes not read yet.
    var remaining: Int { end - offset }

    private func failure(_ what: String) -> SnapshotDecodingError {
        SnapshotDecodingError("\(what) at state byte \(offset)")
    }

    mutating func byte() throws(SnapshotDecodingError) -> UInt8 {
        guard offset < end else { throw failure("the state ends early") }
        defer { offset += 1 }
        return base[offset]
    }

    mutating func varint() throws(SnapshotDecodingError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw failure("the state ends inside a number") }
            let next = base[offset]
            offset += 1
            guard shift < 64 else { throw failure("a number is too long") }
            result |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return result }
            shift += 7
        }
    }

    /// A varint that must be at most `limit`, as an `Int`.
    mutating func count(atMost limit: Int) throws(SnapshotDecodingError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else { throw failure("a count of \(value) is more than \(limit)") }
        return Int(value)
    }

    mutating func fixed64() throws(SnapshotDecodingError) -> UInt64 {
        guard end - offset >= 8 else { throw failure("the state ends early") }
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: base + offset, count: 8))
        }
        offset += 8
        return UInt64(littleEndian: value)
    }

    /// The next `count` bytes, without copying; valid while the state buffer is.
    mutating func raw(_ count: Int) throws(SnapshotDecodingError) -> UnsafeBufferPointer<UInt8> {
        guard count >= 0, end - offset >= count else { throw failure("a length of \(count) runs past the end") }
        defer { offset += count }
        return UnsafeBufferPointer(start: base + offset, count: count)
    }

    mutating func data() throws(SnapshotDecodingError) -> [UInt8] {
        Array(try raw(try count(atMost: end - offset)))
    }

    package mutating func string() throws(SnapshotDecodingError) -> String {
        let utf8 = try raw(try count(atMost: end - offset))
        guard let value = String(validating: utf8, as: UTF8.self) else { throw failure("a string is not UTF-8") }
        return value
    }

    mutating func uuid() throws(SnapshotDecodingError) -> UUID {
        let bytes = try raw(16)
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        return UUID(uuid: value)
    }

    /// The room an array that grows as contacts are saved gets beyond what it holds when it is
    /// restored: an eighth, so that appending does not copy it before a snapshot is due again
    /// (decision 0006: after an eighth of a large projection has changed). An array restored
    /// full would grow on its first append, copying it whole into fresh memory and making the
    /// first save after an open many times slower than the next ones. Room never written takes
    /// no memory.
    static func growthRoom(_ count: Int) -> Int { count / 8 }

    /// An array written by ``SnapshotWriter/array(_:)`` that grows as contacts are saved, with
    /// ``growthRoom(_:)`` beyond its elements.
    mutating func growableArray<Element: FixedWidthInteger>(
        of type: Element.Type = Element.self
    ) throws(SnapshotDecodingError) -> [Element] {
        try array(of: type, spare: Self.growthRoom)
    }

    /// An array written by ``SnapshotWriter/array(_:)``, with room for `spare(count)` more
    /// elements.
    mutating func array<Element: FixedWidthInteger>(
        of type: Element.Type = Element.self, spare: (Int) -> Int = { _ in 0 }
    ) throws(SnapshotDecodingError) -> [Element] {
        Self.copy(try arrayBytes(of: type), spare: spare)
    }

    /// The bytes of an array written by ``SnapshotWriter/array(_:)`` of `Element`s, without
    /// copying them (see ``copy(_:spare:)``); valid while the state buffer is.
    mutating func arrayBytes<Element: FixedWidthInteger>(
        of type: Element.Type
    ) throws(SnapshotDecodingError) -> UnsafeBufferPointer<UInt8> {
        let size = MemoryLayout<Element>.stride
        let count = try count(atMost: remaining / size)
        return try raw(count * size)
    }

    /// An array of the elements whose bytes ``arrayBytes(of:)`` returned, with room for
    /// `spare(count)` more.
    static func copy<Element: FixedWidthInteger>(
        _ source: UnsafeBufferPointer<UInt8>, spare: (Int) -> Int = { _ in 0 }
    ) -> [Element] {
        let count = source.count / MemoryLayout<Element>.stride
        let capacity = count + spare(count)
        // An empty array without room is the shared empty storage, which the initializer below
        // would write a count into (harmless, but a race to the thread sanitizer when the
        // restore's threads do it at once).
        guard capacity > 0 else { return [] }
        return [Element](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            if count > 0 {
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(source))
            }
            initialized = count
        }
    }

    /// A count that must be at most what the rest of the state could hold.
    mutating func count() throws(SnapshotDecodingError) -> Int {
        try count(atMost: remaining)
    }

    /// Throws unless `condition` holds: a structural check of restored state.
    func check(_ condition: Bool, _ what: @autoclosure () -> String) throws(SnapshotDecodingError) {
        guard condition else { throw failure(what()) }
    }

    mutating func strings() throws(SnapshotDecodingError) -> Set<String> {
        let count = try count(atMost: end - offset)
        var result = Set<String>(minimumCapacity: count)
        for _ in 0..<count { result.insert(try string()) }
        return result
    }
}
