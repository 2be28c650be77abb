/// The rules of the payload wire format that every stored event follows, whatever its schema version.
///
/// A message is a sequence of fields. Each field is a key, the varint `(fieldNumber << 3) | wireType`,
/// followed by its value: a varint for wire type 0, or a varint length and that many bytes for wire
/// type 2 (UTF-8 strings, raw bytes and nested messages). Decoders skip fields they do not know, and a
/// repeated field is written once per element, in order. The format is protobuf's, restricted to those
/// two wire types, so that `protoc --decode_raw` can read a payload in an emergency.
public enum WireFormat {
    /// The largest field number a key may carry (protobuf's limit, 2²⁹ − 1).
    public static let fieldNumberMax: UInt32 = (1 << 29) - 1

    /// The most bytes a varint may take: ten, enough for 64 bits at 7 bits a byte.
    public static let varintBytesMax = 10

    /// Maps a signed integer to an unsigned one so that small magnitudes stay short (zigzag).
    @inlinable
    public static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// Reverses ``zigzag(_:)``.
    @inlinable
    public static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// The number of bytes the varint form of a value takes, from 1 to 10.
    @inlinable
    public static func varintSize(_ value: UInt64) -> Int {
        // Each byte carries 7 bits; a zero still takes one byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }
}

/// How a field's value is laid out after its key.
public enum WireType: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// An unsigned LEB128 integer (7 bits a byte, low first); signed values are zigzagged first.
    case varint = 0
    /// A varint length followed by that many bytes.
    case lengthDelimited = 2

    /// The wire type's name, as error messages show it.
    public var description: String {
        switch self {
        case .varint: "varint"
        case .lengthDelimited: "length-delimited"
        }
    }
}

/// The key of one field: its number, its wire type, and where the key starts.
public struct WireKey: Sendable, Hashable {
    /// The field number, from 1 to ``WireFormat/fieldNumberMax``.
    public var field: UInt32
    /// How the value that follows is laid out.
    public var wireType: WireType
    /// The offset of the key's first byte in the buffer being read.
    public var offset: Int

    /// Creates a key.
    @inlinable
    public init(field: UInt32, wireType: WireType, offset: Int) {
        self.field = field
        self.wireType = wireType
        self.offset = offset
    }
}

/// Why bytes are not a well-formed message, and the offset where reading stopped.
public struct WireFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the bytes.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The input ends inside a varint.
        case truncatedVarint
        /// A varint is longer than ten bytes or holds more than 64 bits.
        case varintOverflow
        /// A key's field number is 0 or larger than ``WireFormat/fieldNumberMax``.
        case fieldNumberOutOfRange(UInt64)
        /// A key names a wire type other than 0 (varint) and 2 (length-delimited).
        case unsupportedWireType(UInt8)
        /// A length-delimited value claims more bytes than remain in its message.
        case lengthOutOfBounds(length: UInt64, remaining: Int)

        /// The reason in words.
        public var description: String {
            switch self {
            case .truncatedVarint: "input ends inside a varint"
            case .varintOverflow: "varint overflows 64 bits"
            case .fieldNumberOutOfRange(let number): "field number \(number) is out of range"
            case .unsupportedWireType(let type): "unsupported wire type \(type)"
            case .lengthOutOfBounds(let length, let remaining):
                "length \(length) exceeds the \(remaining) bytes that remain"
            }
        }
    }

    /// The offset, in the buffer being read, of the key or value that is malformed.
    public var offset: Int
    /// What is wrong.
    public var reason: Reason

    /// Creates an error at an offset.
    @inlinable
    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// The reason and the offset, in one line.
    public var description: String { "\(reason) at byte \(offset)" }
}
