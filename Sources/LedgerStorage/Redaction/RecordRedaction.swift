import Foundation

/// What a redacted record keeps in place of its payload: the digest and length the chain covers,
/// why it was redacted, and what is left of the payload (``JournalRecord/payload``).
///
/// The chain hash covers a record's envelope, author and payload digest, never the payload bytes,
/// so a payload replaced by this form leaves every chain hash, saved head digest and snapshot
/// head as it was. The form is written in place of the payload, after the record's envelope and
/// author:
///
/// `CLREDACT` (8 bytes) ‖ original payload length (u32) ‖ original payload SHA-256 (32) ‖
/// payload schema version of the rest (varint) ‖ reason length (varint) ‖ reason (UTF-8) ‖ the rest.
///
/// A payload the journal appends never starts with the marker (``Journal`` refuses one that does),
/// so a payload that starts with it is a redacted one.
public struct RecordRedaction: Sendable, Hashable {
    /// The eight bytes a redacted payload starts with.
    public static let marker: [UInt8] = Array("CLREDACT".utf8)
    /// The longest reason, in UTF-8 bytes.
    public static let reasonBytesMax = 1024

    /// Why the record was redacted.
    public var reason: String
    /// The length of the payload the record was committed with, which the chain covers.
    public var originalPayloadBytes: Int
    /// The SHA-256 of the payload the record was committed with, which the chain covers.
    public var originalPayloadDigest: SHA256Digest
    /// The schema version the remaining payload is encoded in (the record's own schema version
    /// stays the one it was committed with, since the chain covers it).
    public var payloadSchemaVersion: UInt16

    /// Creates the description of a redaction.
    public init(
        reason: String, originalPayloadBytes: Int, originalPayloadDigest: SHA256Digest, payloadSchemaVersion: UInt16
    ) {
        self.reason = reason
        self.originalPayloadBytes = originalPayloadBytes
        self.originalPayloadDigest = originalPayloadDigest
        self.payloadSchemaVersion = payloadSchemaVersion
    }

    /// Whether a payload has the redacted form's marker.
    public static func isRedactedForm(_ payload: some Collection<UInt8>) -> Bool {
        payload.count >= marker.count && payload.prefix(marker.count).elementsEqual(marker)
    }

    /// The bytes that stand in the record for its payload: this description, then `remaining`.
    public func encoded(remaining: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + reason.utf8.count + remaining.count)
        writer.write(bytes: Self.marker)
        writer.write(UInt32(originalPayloadBytes))
        writer.write(originalPayloadDigest)
        writer.writeVarint(UInt64(payloadSchemaVersion))
        writer.writeVarint(UInt64(reason.utf8.count))
        writer.write(bytes: reason.utf8)
        writer.write(bytes: remaining)
        return writer.bytes
    }

    /// Reads the redacted form of a payload area: the redaction and the remaining payload.
    static func decode(_ bytes: ArraySlice<UInt8>) -> Result<(RecordRedaction, [UInt8]), DecodeFailure> {
        var reader = ByteReader(Array(bytes))
        do {
            _ = try reader.readBytes(marker.count)
            let length = Int(try reader.readUInt32())
            let digest = try reader.readDigest()
            let schema = try reader.readVarint()
            let reasonLength = try reader.readVarint()
            guard schema <= UInt64(UInt16.max), reasonLength <= UInt64(min(reasonBytesMax, reader.remaining)) else {
                return .failure(DecodeFailure("redacted record has a malformed redaction"))
            }
            guard let reason = String(validating: try reader.readBytes(Int(reasonLength)), as: UTF8.self) else {
                return .failure(DecodeFailure("redacted record's reason is not UTF-8"))
            }
            let remaining = Array(try reader.readBytes(reader.remaining))
            let redaction = RecordRedaction(
                reason: reason, originalPayloadBytes: length, originalPayloadDigest: digest,
                payloadSchemaVersion: UInt16(schema))
            return .success((redaction, remaining))
        } catch {
            return .failure(DecodeFailure("redacted record is truncated: \(error.description)"))
        }
    }
}

extension JournalRecord {
    /// The schema version ``payload`` is encoded in: the record's own, or for a redacted record
    /// the one its remaining payload was written in.
    public var payloadSchemaVersion: UInt16 { redaction?.payloadSchemaVersion ?? schemaVersion }
}
