import Foundation

/// The `HEAD` file: a head the journal is known to have made durable, written by the writer
/// after an fsync that covered it.
///
/// Layout (72 bytes, little-endian): magic `CLHEADMK` (8), format version 1 (2), reserved zero
/// (2), ledger id (16), sequence (8), chain hash of that record (32), masked CRC32C of the
/// preceding 68 bytes (4).
///
/// Recovery reads it as a floor: a journal that ends below it, or whose record at or below it
/// does not check out, lost records that were acknowledged, which is corruption and never a
/// torn write (decision 0018).
public struct HeadMarker: Sendable, Hashable {
    /// The eight bytes the file starts with.
    public static let magic: [UInt8] = Array("CLHEADMK".utf8)
    /// The format version this build writes and reads.
    public static let formatVersion: UInt16 = 1
    /// The size of the file in bytes.
    public static let encodedBytes = 72

    /// The ledger the marker belongs to.
    public var ledgerID: UUID
    /// The sequence and chain hash of a record that was durable when the marker was written.
    public var head: HeadDigest

    /// Creates a marker.
    public init(ledgerID: UUID, head: HeadDigest) {
        self.ledgerID = ledgerID
        self.head = head
    }

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        Self.encode(magic: Self.magic, ledgerID: ledgerID, head: head)
    }

    /// Decodes and checks a marker's bytes.
    public static func decode(_ bytes: [UInt8]) -> Result<HeadMarker, DecodeFailure> {
        decode(bytes, magic: magic, name: "HEAD").map { HeadMarker(ledgerID: $0.ledgerID, head: $0.head) }
    }

    /// The 72 bytes of a file that records a head, in the layout above with its own magic: `HEAD`'s,
    /// and the header of `TREE` (``TreeFileHeader``).
    static func encode(magic: [UInt8], ledgerID: UUID, head: HeadDigest) -> [UInt8] {
        var writer = ByteWriter(capacity: encodedBytes)
        writer.write(bytes: magic)
        writer.write(formatVersion)
        writer.write(UInt16(0))
        writer.write(ledgerID)
        writer.write(head.sequence)
        writer.write(head.hash)
        writer.write(CRC32C.mask(CRC32C.checksum(writer.bytes)))
        return writer.bytes
    }

    /// Decodes and checks the bytes of a file that records a head; errors name the file `name`.
    static func decode(
        _ bytes: [UInt8], magic: [UInt8], name: String
    ) -> Result<(ledgerID: UUID, head: HeadDigest), DecodeFailure> {
        guard bytes.count == encodedBytes else {
            return .failure(DecodeFailure("\(name) is \(bytes.count) bytes, not \(encodedBytes)"))
        }
        guard Array(bytes[0..<8]) == magic else { return .failure(DecodeFailure("\(name) has a bad magic")) }
        let expected = CRC32C.checksum(bytes[0..<68])
        var reader = ByteReader(bytes, range: 8..<encodedBytes)
        do {
            let version = try reader.readUInt16()
            let reserved = try reader.readUInt16()
            let id = try reader.readUUID()
            let sequence = try reader.readUInt64()
            let hash = try reader.readDigest()
            let stored = try reader.readUInt32()
            guard CRC32C.mask(expected) == stored else { return .failure(DecodeFailure("\(name) checksum mismatch")) }
            guard version == formatVersion else {
                return .failure(DecodeFailure("\(name) format version \(version) is not supported"))
            }
            guard reserved == 0 else { return .failure(DecodeFailure("\(name)'s reserved field is not zero")) }
            return .success((id, HeadDigest(sequence: sequence, hash: hash)))
        } catch {
            return .failure(DecodeFailure(error.description))
        }
    }
}
