import Foundation

/// The contents of a ledger's `LEDGER` file: what the directory is and which ledger it holds.
///
/// Layout (40 bytes, little-endian), as `Documentation/LogFormat.md` describes:
/// magic `CLLEDGER` (8), format version (2), reserved zero (2), ledger id (16),
/// creation time in microseconds since 1970 (8), masked CRC32C of the preceding 36 bytes (4).
public struct LedgerIdentity: Sendable, Hashable {
    /// The eight bytes every `LEDGER` file starts with.
    public static let magic: [UInt8] = Array("CLLEDGER".utf8)
    /// The on-disk format version this code writes and reads.
    public static let formatVersion: UInt16 = 1
    /// The size of the encoded file in bytes.
    public static let encodedBytes = 40

    /// The ledger's unique id; every segment header repeats it.
    public var ledgerID: UUID
    /// When the ledger was created, in microseconds since the Unix epoch.
    public var createdMicroseconds: Int64
    /// The format version the file declares.
    public var formatVersion: UInt16

    /// Creates an identity for a new ledger.
    public init(
        ledgerID: UUID = RandomUUID.make(), createdMicroseconds: Int64,
        formatVersion: UInt16 = LedgerIdentity.formatVersion
    ) {
        self.ledgerID = ledgerID
        self.createdMicroseconds = createdMicroseconds
        self.formatVersion = formatVersion
    }

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.encodedBytes)
        writer.write(bytes: Self.magic)
        writer.write(formatVersion)
        writer.write(UInt16(0))
        writer.write(ledgerID)
        writer.write(createdMicroseconds)
        writer.write(CRC32C.mask(CRC32C.checksum(writer.bytes)))
        return writer.bytes
    }

    /// Decodes and checks a `LEDGER` file; the error string says what is wrong.
    public static func decode(_ bytes: [UInt8]) -> Result<LedgerIdentity, DecodeFailure> {
        guard bytes.count == encodedBytes else {
            return .failure(DecodeFailure("identity file is \(bytes.count) bytes, expected \(encodedBytes)"))
        }
        guard Array(bytes[0..<8]) == magic else { return .failure(DecodeFailure("bad magic")) }
        var reader = ByteReader(bytes, range: 8..<encodedBytes)
        do {
            let version = try reader.readUInt16()
            _ = try reader.readUInt16()
            let id = try reader.readUUID()
            let created = try reader.readInt64()
            let stored = try reader.readUInt32()
            guard CRC32C.mask(CRC32C.checksum(Array(bytes[0..<36]))) == stored else {
                return .failure(DecodeFailure("checksum mismatch"))
            }
            guard version == formatVersion else {
                return .failure(
                    DecodeFailure("format version \(version) is not supported (this build reads \(formatVersion))"))
            }
            return .success(LedgerIdentity(ledgerID: id, createdMicroseconds: created, formatVersion: version))
        } catch {
            return .failure(DecodeFailure(error.description))
        }
    }
}

/// Why some stored bytes could not be decoded.
public struct DecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in words.
    public var reason: String
    /// Creates a failure with a reason.
    public init(_ reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}
