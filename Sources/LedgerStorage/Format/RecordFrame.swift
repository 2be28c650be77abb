import Foundation

/// What a caller hands the journal to append: one save request's batch, already encoded.
public struct JournalEntry: Sendable, Hashable {
    /// The request's idempotency id.
    public var requestID: UUID
    /// Who made the change (the save request's transaction author); at most ``RecordFrame/authorBytesMax`` bytes.
    public var author: String
    /// The version of the payload's own schema, so that upcasters know how to read it.
    public var schemaVersion: UInt16
    /// The encoded batch of operations and their effects; with a ``redaction``, what it left.
    public var payload: [UInt8]
    /// Set only when a copy carries a redacted record over: the record is written in the redacted
    /// form, and its chain hash covers the redaction's original digest and length.
    public var redaction: RecordRedaction?

    /// Creates an entry.
    public init(
        requestID: UUID = RandomUUID.make(), author: String, schemaVersion: UInt16, payload: [UInt8],
        redaction: RecordRedaction? = nil
    ) {
        self.requestID = requestID
        self.author = author
        self.schemaVersion = schemaVersion
        self.payload = payload
        self.redaction = redaction
    }

    /// The bytes the record holds after its author: the payload, or its redacted form.
    var storedPayloadBytes: Int {
        redaction.map { $0.encoded(remaining: payload).count } ?? payload.count
    }
}

/// One record as read back from the journal, checked against its CRC, payload digest and chain.
public struct JournalRecord: Sendable, Hashable {
    /// The record's sequence number: gapless, from 1.
    public var sequence: UInt64
    /// The commit time in microseconds since the Unix epoch; never less than the previous record's.
    public var commitMicroseconds: Int64
    /// The request's idempotency id.
    public var requestID: UUID
    /// The transaction author.
    public var author: String
    /// The payload's schema version.
    public var schemaVersion: UInt16
    /// The encoded batch; for a redacted record, what the redaction left of it.
    public var payload: [UInt8]
    /// SHA-256 of the payload the record was committed with (which the chain covers): for a
    /// redacted record, the digest its redaction keeps, not that of ``payload``.
    public var payloadDigest: SHA256Digest
    /// The chain hash: SHA-256 over the previous hash, the envelope and the payload digest.
    public var hash: SHA256Digest
    /// Where the record's frame starts.
    public var location: LedgerLocation
    /// Set when the record's payload was redacted: why, and what the chain still covers.
    public var redaction: RecordRedaction? = nil

    /// The commit time as a `Date`.
    public var commitDate: Date { Date(timeIntervalSince1970: Double(commitMicroseconds) / 1_000_000) }
}

/// What a successful append reports once the record is durable.
public struct AppendReceipt: Sendable, Hashable {
    /// The sequence number the record was given.
    public var sequence: UInt64
    /// The commit time, in microseconds since the Unix epoch.
    public var commitMicroseconds: Int64
    /// The record's chain hash, which is now the head hash if no later record exists.
    public var hash: SHA256Digest
}

/// The head of a journal: the last record's sequence number and chain hash.
///
/// Written down elsewhere, it lets ``JournalReader`` prove later that nothing up to it was
/// altered, dropped or reordered. An empty journal's head is sequence 0 with a zero hash.
public struct HeadDigest: Sendable, Hashable, CustomStringConvertible {
    /// The last record's sequence, or 0 for an empty journal.
    public var sequence: UInt64
    /// The last record's chain hash, or zero for an empty journal.
    public var hash: SHA256Digest

    /// Creates a head digest.
    public init(sequence: UInt64, hash: SHA256Digest) {
        self.sequence = sequence
        self.hash = hash
    }

    /// The head of an empty journal.
    public static let empty = HeadDigest(sequence: 0, hash: .zero)

    /// `SEQUENCE:HEX`, the form tools print and accept.
    public var description: String { "\(sequence):\(hash.hex)" }

    /// Parses `SEQUENCE:HEX` (a space may stand for the colon).
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " })
        guard parts.count == 2, let sequence = UInt64(parts[0]), let hash = SHA256Digest(hex: String(parts[1])) else {
            return nil
        }
        self.init(sequence: sequence, hash: hash)
    }
}

/// The record frame: how one record is laid out in a segment, and the checks made on it.
///
/// Frame: body length (u32), masked CRC32C over the length and the body (u32), body.
///
/// Body, format version 2 (segments whose header says 2; every segment this build creates):
/// sequence (varint), commit time µs (i64), request id (16), schema version (varint), author
/// length A (varint), author (A bytes of UTF-8), payload (the rest of the body). Varints are
/// unsigned LEB128, written in their shortest form; the envelope takes 27 bytes for a record
/// below sequence 128 with a short author, and at most ``envelopeBytesMax``.
///
/// Body, format version 1 (read only): sequence (u64), commit time µs (i64), request id (16),
/// schema version (u16), author length A (u16), payload length P (u32), the payload's SHA-256 (32),
/// the record's chain hash (32), author, payload: a 104-byte envelope.
///
/// The chain hash is the same in both versions. It is computed over the record's canonical
/// envelope, the first 40 bytes of version 1's (sequence u64, time i64, request id, schema u16,
/// author length u16, payload length u32, little-endian), whatever form the segment stores:
/// SHA-256(previous hash ‖ canonical envelope ‖ SHA-256(payload) ‖ author), which is version 1's
/// SHA-256(previous ‖ body bytes 0..<72 ‖ author). It commits to the payload's digest, not to the
/// payload, so a payload could be redacted later while the chain still verifies. Version 2 stores
/// neither digest (a reader computes both anyway to check them, and they would be most of the
/// envelope) and writes the small integers as varints.
public enum RecordFrame {
    /// Bytes before the body: the length and the CRC.
    public static let frameHeaderBytes = 8
    /// The fewest bytes a body of the current format has before its author: a one-byte
    /// sequence, the time, the request id, a one-byte schema version and author length.
    public static let envelopeFixedBytes = 27
    /// The most bytes a body of the current format has before its author: a ten-byte sequence,
    /// the time, the request id, a three-byte schema version and a two-byte author length. Append
    /// limits are checked against a body of this envelope, so the sequence a record gets cannot
    /// change whether it fits.
    public static let envelopeBytesMax = 10 + 8 + 16 + 3 + 2
    /// The size of the canonical envelope the chain hash covers.
    static let canonicalEnvelopeBytes = 40
    /// The most bytes an author may take.
    public static let authorBytesMax = 1024
    /// The largest body the format can describe; ``JournalLimits/recordBytesMax`` may set a lower bound for appends.
    public static let bodyBytesFormatMax = Int(UInt32.max)

    /// The bytes a body of format version 1 has before its author.
    static let envelopeVersion1Bytes = 104

    /// The fewest bytes a body of a segment of `formatVersion` has before its author.
    public static func envelopeFixedBytes(formatVersion: UInt16) -> Int {
        formatVersion == 1 ? envelopeVersion1Bytes : envelopeFixedBytes
    }

    /// The body size limits are checked against: ``envelopeBytesMax``, the author and the payload.
    public static func bodyBytesBound(authorBytes: Int, payloadBytes: Int) -> Int {
        envelopeBytesMax + authorBytes + payloadBytes
    }

    /// The exact body size of a record of the current format.
    public static func bodyBytes(sequence: UInt64, schemaVersion: UInt16, authorBytes: Int, payloadBytes: Int) -> Int {
        varintBytes(sequence) + 8 + 16 + varintBytes(UInt64(schemaVersion)) + varintBytes(UInt64(authorBytes))
            + authorBytes + payloadBytes
    }

    /// The bytes of a value as an unsigned LEB128 varint.
    static func varintBytes(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
    }

    /// Encodes a record in the current format version and returns its chain hash.
    public static func encode(
        _ entry: JournalEntry, sequence: UInt64, commitMicroseconds: Int64, previousHash: SHA256Digest,
        into writer: inout ByteWriter
    ) -> SHA256Digest {
        // Encoded on the journal's writer thread, one record after another: the author's bytes
        // are read where the string keeps them, and the envelope is built on the stack.
        let authorBytes = entry.author.utf8.count
        let start = writer.count
        writer.write(UInt32(0))  // length, filled in below
        writer.write(UInt32(0))  // CRC, filled in below
        let bodyStart = writer.count
        writer.writeVarint(sequence)
        writer.write(commitMicroseconds)
        writer.write(entry.requestID)
        writer.writeVarint(UInt64(entry.schemaVersion))
        writer.writeVarint(UInt64(authorBytes))
        writer.write(bytes: entry.author.utf8)
        if let redaction = entry.redaction {
            writer.write(bytes: redaction.encoded(remaining: entry.payload))
        } else {
            writer.write(bytes: entry.payload)
        }
        writer.overwrite(UInt32(writer.count - bodyStart), at: start)
        let hash = chainHash(
            previous: previousHash, sequence: sequence, commitMicroseconds: commitMicroseconds,
            requestID: entry.requestID, schemaVersion: entry.schemaVersion,
            payloadBytes: entry.redaction?.originalPayloadBytes ?? entry.payload.count,
            payloadDigest: entry.redaction?.originalPayloadDigest ?? SHA256.hash(entry.payload), author: entry.author)
        let crc = frameChecksum(writer.bytes, frameStart: start, bodyLength: writer.count - bodyStart)
        writer.overwrite(crc, at: start + 4)
        return hash
    }

    /// The outcome of looking at the bytes at one offset of a segment.
    enum Parse {
        /// A frame whose length fits and whose CRC matches.
        case frame(bodyStart: Int, bodyLength: Int)
        /// Not a good frame: too short for its length, an implausible length, or a CRC mismatch.
        case bad(reason: String)
    }

    /// Checks the frame at `offset`: a length the format allows that fits in the file, and the CRC.
    ///
    /// The length is bounded only by the format (at least the envelope, at most what 32 bits hold)
    /// and by the bytes present, never by ``JournalLimits/recordBytesMax``: that limit applies to
    /// appends, and a record written under a larger one is still valid.
    static func parse(_ bytes: [UInt8], at offset: Int, formatVersion: UInt16) -> Parse {
        let end = bytes.count
        guard end - offset >= frameHeaderBytes else {
            return .bad(reason: "incomplete frame header (\(end - offset) bytes)")
        }
        let length = Int(readUInt32(bytes, offset))
        let envelope = envelopeFixedBytes(formatVersion: formatVersion)
        guard length >= envelope else {
            return .bad(reason: "implausible record length \(length), shorter than the \(envelope)-byte envelope")
        }
        guard end - offset - frameHeaderBytes >= length else {
            return .bad(reason: "incomplete record (\(end - offset - frameHeaderBytes) of \(length) body bytes)")
        }
        let stored = readUInt32(bytes, offset + 4)
        let bodyStart = offset + frameHeaderBytes
        let computed = frameChecksum(bytes, frameStart: offset, bodyLength: length)
        guard computed == stored else { return .bad(reason: "record checksum mismatch") }
        return .frame(bodyStart: bodyStart, bodyLength: length)
    }

    /// Decodes a CRC-checked body of a segment of `formatVersion` and checks its internal
    /// lengths, its digest and chain hash (version 1 stores both; version 2 stores neither, and
    /// they are computed).
    static func decodeBody(
        _ bytes: [UInt8], bodyStart: Int, bodyLength: Int, previousHash: SHA256Digest, location: LedgerLocation,
        formatVersion: UInt16
    ) -> Result<JournalRecord, DecodeFailure> {
        var reader = ByteReader(bytes, range: bodyStart..<bodyStart + bodyLength)
        do {
            let sequence: UInt64
            let time: Int64
            let requestID: UUID
            let schema: UInt16
            let authorLength: Int
            let payloadLength: Int
            var stored: (digest: SHA256Digest, hash: SHA256Digest)?
            if formatVersion == 1 {
                sequence = try reader.readUInt64()
                time = try reader.readInt64()
                requestID = try reader.readUUID()
                schema = try reader.readUInt16()
                authorLength = Int(try reader.readUInt16())
                payloadLength = Int(try reader.readUInt32())
                stored = (try reader.readDigest(), try reader.readDigest())
                guard authorLength <= authorBytesMax, envelopeVersion1Bytes + authorLength + payloadLength == bodyLength
                else {
                    return .failure(DecodeFailure("record lengths disagree with its frame"))
                }
            } else {
                sequence = try reader.readVarint()
                time = try reader.readInt64()
                requestID = try reader.readUUID()
                let schemaValue = try reader.readVarint()
                let authorValue = try reader.readVarint()
                guard schemaValue <= UInt64(UInt16.max) else {
                    return .failure(DecodeFailure("record schema version \(schemaValue) is out of range"))
                }
                guard authorValue <= UInt64(authorBytesMax), authorValue <= UInt64(reader.remaining) else {
                    return .failure(DecodeFailure("record lengths disagree with its frame"))
                }
                schema = UInt16(schemaValue)
                authorLength = Int(authorValue)
                payloadLength = reader.remaining - authorLength
                guard payloadLength <= Int(UInt32.max) else {
                    return .failure(DecodeFailure("record payload is longer than the format allows"))
                }
            }
            let authorBytes = try reader.readBytes(authorLength)
            guard let author = String(validating: authorBytes, as: UTF8.self) else {
                return .failure(DecodeFailure("record author is not UTF-8"))
            }
            let area = try reader.readBytes(payloadLength)
            guard let (payload, redaction) = payloadAndRedaction(area, formatVersion: formatVersion) else {
                return .failure(DecodeFailure("record \(sequence) has a malformed redacted payload"))
            }
            let digest = redaction?.originalPayloadDigest ?? SHA256.hash(payload)
            if let stored, stored.digest != digest {
                return .failure(DecodeFailure("payload digest mismatch for sequence \(sequence)"))
            }
            let hash = chainHash(
                previous: previousHash, sequence: sequence, commitMicroseconds: time, requestID: requestID,
                schemaVersion: schema, payloadBytes: redaction?.originalPayloadBytes ?? payloadLength,
                payloadDigest: digest, author: authorBytes)
            if let stored, stored.hash != hash {
                return .failure(DecodeFailure("chain hash mismatch at sequence \(sequence)"))
            }
            return .success(
                JournalRecord(
                    sequence: sequence, commitMicroseconds: time, requestID: requestID, author: author,
                    schemaVersion: schema, payload: payload, payloadDigest: digest, hash: hash, location: location,
                    redaction: redaction))
        } catch {
            return .failure(DecodeFailure(error.description))
        }
    }

    /// A payload area as the record holds it: the payload itself, or for a redacted record (format
    /// version 2 only) what its redaction left and the redaction; nil when the redacted form is
    /// malformed.
    static func payloadAndRedaction(
        _ area: ArraySlice<UInt8>, formatVersion: UInt16
    ) -> ([UInt8], RecordRedaction?)? {
        guard formatVersion != 1, RecordRedaction.isRedactedForm(area) else { return (Array(area), nil) }
        guard case .success(let (redaction, remaining)) = RecordRedaction.decode(area) else { return nil }
        return (remaining, redaction)
    }

    /// The sequence number stored in a body, read without any check beyond the bytes present
    /// (nil if a version 2 varint runs past `limit` or is longer than ten bytes).
    static func peekSequence(_ bytes: [UInt8], bodyStart: Int, limit: Int, formatVersion: UInt16) -> UInt64? {
        if formatVersion == 1 {
            guard limit - bodyStart >= 8 else { return nil }
            return UInt64(readUInt32(bytes, bodyStart)) | (UInt64(readUInt32(bytes, bodyStart + 4)) << 32)
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var position = bodyStart
        while position < limit, shift < 70 {
            let byte = bytes[position]
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            position += 1
        }
        return nil
    }

    /// How many bytes from `start` reach the last byte that is not zero: what a cut at `start`
    /// drops of records, leaving out the zeros a writer filled ahead of them.
    static func nonZeroExtent(_ bytes: [UInt8], from start: Int) -> Int {
        var end = bytes.count
        while end > start && bytes[end - 1] == 0 { end -= 1 }
        return max(0, end - start)
    }

    @inline(__always)
    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
