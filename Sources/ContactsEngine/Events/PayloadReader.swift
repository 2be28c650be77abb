import ContactsModel
import LedgerMigrations
import LedgerStorage

/// The typed decoders' view of a ``WireReader``: the same reads, with wire types checked and
/// errors turned into ``EventDecodingError``s.
///
/// Every method is a thin, inlined wrapper; the conversion runs only when a read fails.
struct PayloadReader {
    var wire: WireReader
    /// Whether the reads only check the message: strings and identifiers are checked as they
    /// would be decoded and come back empty, so that checking a message allocates nothing for
    /// them. Readers of nested messages inherit it.
    var checksOnly = false

    /// Whether every byte of the message has been read.
    @inline(__always)
    var isAtEnd: Bool { wire.isAtEnd }

    /// The offset of the next byte to read.
    @inline(__always)
    var offset: Int { wire.offset }

    /// The positions of the payload this reader has yet to read.
    @inline(__always)
    var remainingRange: Range<Int> { wire.remainingRange }

    /// Reads the next field's key.
    @inline(__always)
    mutating func nextKey() throws(EventDecodingError) -> WireKey {
        do throws(WireFormatError) {
            return try wire.readKey()
        } catch {
            throw EventDecodingError(error)
        }
    }

    /// Skips the value of a field the schema does not know, as every decoder must.
    @inline(__always)
    mutating func skip(_ key: WireKey) throws(EventDecodingError) {
        do throws(WireFormatError) {
            try wire.skipValue(of: key)
        } catch {
            throw EventDecodingError(error).within("#\(key.field)")
        }
    }

    @inline(__always)
    func expect(_ key: WireKey, _ wireType: WireType) throws(EventDecodingError) {
        guard key.wireType == wireType else {
            throw EventDecodingError(.wrongWireType(expected: wireType, found: key.wireType), offset: key.offset)
        }
    }

    /// Reads an unsigned integer.
    @inline(__always)
    mutating func varint(_ key: WireKey) throws(EventDecodingError) -> UInt64 {
        try expect(key, .varint)
        do throws(WireFormatError) {
            return try wire.readVarint()
        } catch {
            throw EventDecodingError(error)
        }
    }

    /// Reads a zigzagged signed integer.
    @inline(__always)
    mutating func int(_ key: WireKey) throws(EventDecodingError) -> Int {
        let start = wire.offset
        let raw = try varint(key)
        guard let value = Int(exactly: WireFormat.unzigzag(raw)) else {
            throw EventDecodingError(.invalidValue(raw), offset: start)
        }
        return value
    }

    /// Reads a Boolean, which must be 0 or 1.
    @inline(__always)
    mutating func bool(_ key: WireKey) throws(EventDecodingError) -> Bool {
        let start = wire.offset
        switch try varint(key) {
        case 0: return false
        case 1: return true
        case let other: throw EventDecodingError(.invalidValue(other), offset: start)
        }
    }

    /// Reads an enumeration's raw value and the case it names.
    @inline(__always)
    mutating func enumeration<Value: RawRepresentable<Int>>(
        _ key: WireKey, as type: Value.Type
    ) throws(EventDecodingError) -> Value {
        let start = wire.offset
        let raw = try varint(key)
        guard let value = Int(exactly: raw).flatMap(Value.init(rawValue:)) else {
            throw EventDecodingError(.invalidValue(raw), offset: start)
        }
        return value
    }

    /// Reads a string.
    @inline(__always)
    package mutating func string(_ key: WireKey) throws(EventDecodingError) -> String {
        try expect(key, .lengthDelimited)
        do throws(WireFormatError) {
            if checksOnly {
                _ = try wire.readLengthDelimited()
                return ""
            }
            return try wire.readString()
        } catch {
            throw EventDecodingError(error)
        }
    }

    /// Reads a string whose value the decoder checks (a calendar or time zone name), so that it
    /// is read even when the reads only check (``checksOnly``).
    @inline(__always)
    mutating func checkedName(_ key: WireKey) throws(EventDecodingError) -> String {
        try expect(key, .lengthDelimited)
        do throws(WireFormatError) {
            return try wire.readString()
        } catch {
            throw EventDecodingError(error)
        }
    }

    /// Reads raw bytes and hands them to `body` without copying them first.
    @inline(__always)
    mutating func withBytes<Value>(
        _ key: WireKey, _ body: (UnsafeBufferPointer<UInt8>) -> Value
    ) throws(EventDecodingError) -> Value {
        try expect(key, .lengthDelimited)
        do throws(WireFormatError) {
            return try wire.withBytes(body)
        } catch {
            throw EventDecodingError(error)
        }
    }

    /// Reads a nested message and returns a reader of it.
    @inline(__always)
    mutating func nested(_ key: WireKey) throws(EventDecodingError) -> PayloadReader {
        try expect(key, .lengthDelimited)
        do throws(WireFormatError) {
            return PayloadReader(wire: try wire.readNested(), checksOnly: checksOnly)
        } catch {
            throw EventDecodingError(error)
        }
    }

    /// The number of consecutive fields numbered like `key`'s, starting with it: how many
    /// elements of a repeated field follow, as writers write them, so that its array is
    /// allocated once. Only a hint: it stops at the first other field or malformed byte.
    func runLength(startingAt key: WireKey) -> Int {
        var scan = wire
        var count = 1
        do throws(WireFormatError) {
            try scan.skipValue(of: key)
            while !scan.isAtEnd {
                let next = try scan.readKey()
                guard next.field == key.field else { break }
                try scan.skipValue(of: next)
                count += 1
            }
        } catch {
            // The decoder proper reports the problem when it gets there.
        }
        return count
    }
}
