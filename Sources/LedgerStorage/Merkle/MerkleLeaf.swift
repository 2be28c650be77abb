import Foundation

/// A record's leaf in the ledger's Merkle tree: the fields the chain hash covers, in the chain's
/// canonical form, without the previous record's hash.
///
/// Bytes (little-endian): sequence (u64), commit time in µs (i64), request id (16), schema version
/// (u16), author length A (u16), payload length (u32), SHA-256 of the payload (32), author (A bytes,
/// UTF-8): 72 + A bytes. The chain hash of the record is SHA-256(previous hash ‖ leaf). The payload
/// enters only through its digest, so replacing a payload by its digest changes no leaf, no tree
/// head and no proof.
public struct MerkleLeaf: Sendable, Hashable {
    /// The record's sequence number.
    public var sequence: UInt64
    /// The record's commit time, µs since 1970.
    public var commitMicroseconds: Int64
    /// The save request's id.
    public var requestID: UUID
    /// The payload's schema version.
    public var schemaVersion: UInt16
    /// The payload's length in bytes.
    public var payloadBytes: UInt32
    /// SHA-256 of the payload.
    public var payloadDigest: SHA256Digest
    /// The transaction author.
    public var author: String

    /// The bytes before the author.
    public static let fixedBytes = 72

    /// The leaf of a record read from the journal.
    public init(_ record: JournalRecord) {
        sequence = record.sequence
        commitMicroseconds = record.commitMicroseconds
        requestID = record.requestID
        schemaVersion = record.schemaVersion
        // A redacted record's leaf is the one it was committed with, as its chain hash is.
        payloadBytes = UInt32(record.redaction?.originalPayloadBytes ?? record.payload.count)
        payloadDigest = record.payloadDigest
        author = record.author
    }

    /// The leaf's bytes, as they are hashed.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: Self.fixedBytes + author.utf8.count)
        writer.write(sequence)
        writer.write(commitMicroseconds)
        writer.write(requestID)
        writer.write(schemaVersion)
        writer.write(UInt16(author.utf8.count))
        writer.write(payloadBytes)
        writer.write(payloadDigest)
        writer.write(bytes: author.utf8)
        return writer.bytes
    }

    /// The leaf hash, SHA-256(0x00 ‖ leaf).
    public var hash: SHA256Digest { MerkleHash.leaf(bytes) }

    /// Reads a leaf's bytes, naming what is wrong with them when they are not one.
    public init(decoding bytes: [UInt8]) throws(DecodeFailure) {
        guard bytes.count >= Self.fixedBytes else {
            throw DecodeFailure("a leaf is at least \(Self.fixedBytes) bytes, not \(bytes.count)")
        }
        var reader = ByteReader(bytes)
        do {
            sequence = try reader.readUInt64()
            commitMicroseconds = try reader.readInt64()
            requestID = try reader.readUUID()
            schemaVersion = try reader.readUInt16()
            let authorBytes = Int(try reader.readUInt16())
            payloadBytes = try reader.readUInt32()
            payloadDigest = try reader.readDigest()
            guard bytes.count == Self.fixedBytes + authorBytes else {
                throw DecodeFailure("the leaf's author is \(bytes.count - Self.fixedBytes) bytes, not \(authorBytes)")
            }
            guard let text = String(validating: bytes[Self.fixedBytes...], as: UTF8.self) else {
                throw DecodeFailure("the leaf's author is not UTF-8")
            }
            author = text
        } catch let failure as DecodeFailure {
            throw failure
        } catch {
            throw DecodeFailure("the leaf is malformed: \(error)")
        }
    }
}
