import Foundation

/// The header at the start of every journal segment file.
///
/// Layout (72 bytes, little-endian): magic `CLSEGMNT` (8), format version (2), reserved zero (2),
/// ledger id (16), first sequence number (8), hash of the record before the first one, or 32 zero
/// bytes for sequence 1 (32), masked CRC32C of the preceding 68 bytes (4).
/// Carrying the previous hash lets each segment's chain be checked on its own. The format version
/// says how the segment's records are framed (``RecordFrame``): this build writes version 2 and
/// reads 1 and 2.
public struct SegmentHeader: Sendable, Hashable {
    /// The eight bytes every segment starts with.
    public static let magic: [UInt8] = Array("CLSEGMNT".utf8)
    /// The format version of the segments this build creates.
    public static let currentFormatVersion: UInt16 = 2
    /// The format versions this build reads.
    public static let readableFormatVersions: ClosedRange<UInt16> = 1...2
    /// The size of the encoded header in bytes; the first record starts here.
    public static let encodedBytes = 72

    /// The ledger this segment belongs to.
    public var ledgerID: UUID
    /// The sequence number of the first record this segment holds (or will hold).
    public var firstSequence: UInt64
    /// The chain hash of record `firstSequence - 1`, or zero when `firstSequence` is 1.
    public var previousHash: SHA256Digest
    /// How the segment's records are framed.
    public var formatVersion: UInt16

    /// Creates a header.
    public init(
        ledgerID: UUID, firstSequence: UInt64, previousHash: SHA256Digest,
        formatVersion: UInt16 = SegmentHeader.currentFormatVersion
    ) {
        self.ledgerID = ledgerID
        self.firstSequence = firstSequence
        self.previousHash = previousHash
        self.formatVersion = formatVersion
    }

    /// The header's bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.encodedBytes)
        writer.write(bytes: Self.magic)
        writer.write(formatVersion)
        writer.write(UInt16(0))
        writer.write(ledgerID)
        writer.write(firstSequence)
        writer.write(previousHash)
        writer.write(CRC32C.mask(CRC32C.checksum(writer.bytes)))
        return writer.bytes
    }

    /// Decodes and checks a header from the first bytes of a segment.
    public static func decode(_ bytes: [UInt8]) -> Result<SegmentHeader, DecodeFailure> {
        guard bytes.count >= encodedBytes else {
            return .failure(DecodeFailure("segment header is incomplete (\(bytes.count) of \(encodedBytes) bytes)"))
        }
        guard Array(bytes[0..<8]) == magic else { return .failure(DecodeFailure("segment header has a bad magic")) }
        let expected = CRC32C.checksum(bytes[0..<68])
        var reader = ByteReader(bytes, range: 8..<encodedBytes)
        do {
            let version = try reader.readUInt16()
            _ = try reader.readUInt16()
            let id = try reader.readUUID()
            let first = try reader.readUInt64()
            let previous = try reader.readDigest()
            let stored = try reader.readUInt32()
            guard CRC32C.mask(expected) == stored else {
                return .failure(DecodeFailure("segment header checksum mismatch"))
            }
            guard readableFormatVersions.contains(version) else {
                return .failure(DecodeFailure("segment format version \(version) is not supported"))
            }
            return .success(
                SegmentHeader(ledgerID: id, firstSequence: first, previousHash: previous, formatVersion: version))
        } catch {
            return .failure(DecodeFailure(error.description))
        }
    }

    /// The file name of the segment whose first record has this sequence number.
    public static func fileName(firstSequence: UInt64) -> String {
        let digits = String(firstSequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".seg"
    }

    /// The first sequence number a segment file name declares, or nil if the name is not a segment's.
    public static func firstSequence(fromFileName name: String) -> UInt64? {
        guard name.hasSuffix(".seg"), name.count == 24 else { return nil }
        return UInt64(name.dropLast(4))
    }
}
