import Foundation

/// The checksums of a record frame, computed over bytes where they lie.
extension RecordFrame {
    /// The masked CRC32C a frame stores: over its four length bytes, then its body.
    static func frameChecksum(_ bytes: [UInt8], frameStart: Int, bodyLength: Int) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            let bodyStart = frameStart + frameHeaderBytes
            let lengthCRC = CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: raw[frameStart..<frameStart + 4]))
            return CRC32C.mask(
                CRC32C.extend(lengthCRC, UnsafeRawBufferPointer(rebasing: raw[bodyStart..<bodyStart + bodyLength])))
        }
    }

    /// The chain hash of a record whose author is a string (as a record is written).
    static func chainHash(
        previous: SHA256Digest, sequence: UInt64, commitMicroseconds: Int64, requestID: UUID,
        schemaVersion: UInt16, payloadBytes: Int, payloadDigest: SHA256Digest, author: String
    ) -> SHA256Digest {
        var author = author
        return author.withUTF8 { utf8 in
            chainHash(
                previous: previous, sequence: sequence, commitMicroseconds: commitMicroseconds, requestID: requestID,
                schemaVersion: schemaVersion, payloadBytes: payloadBytes, payloadDigest: payloadDigest,
                author: UnsafeRawBufferPointer(utf8))
        }
    }

    /// The chain hash of a record whose author is bytes of a segment (as a record is read).
    static func chainHash(
        previous: SHA256Digest, sequence: UInt64, commitMicroseconds: Int64, requestID: UUID,
        schemaVersion: UInt16, payloadBytes: Int, payloadDigest: SHA256Digest, author: ArraySlice<UInt8>
    ) -> SHA256Digest {
        author.withUnsafeBytes { author in
            chainHash(
                previous: previous, sequence: sequence, commitMicroseconds: commitMicroseconds, requestID: requestID,
                schemaVersion: schemaVersion, payloadBytes: payloadBytes, payloadDigest: payloadDigest, author: author)
        }
    }

    /// The chain hash of a record: SHA-256 over the previous hash, the 40 envelope bytes every
    /// format starts with (sequence, commit time, request id, schema version, author and payload
    /// lengths, little-endian), the payload's digest and the author bytes.
    private static func chainHash(
        previous: SHA256Digest, sequence: UInt64, commitMicroseconds: Int64, requestID: UUID,
        schemaVersion: UInt16, payloadBytes: Int, payloadDigest: SHA256Digest, author: UnsafeRawBufferPointer
    ) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(previous)
        // The envelope on the stack: this runs once per record written and read.
        withUnsafeTemporaryAllocation(byteCount: canonicalEnvelopeBytes, alignment: 8) { envelope in
            envelope.storeBytes(of: sequence.littleEndian, toByteOffset: 0, as: UInt64.self)
            envelope.storeBytes(of: commitMicroseconds.littleEndian, toByteOffset: 8, as: Int64.self)
            withUnsafeBytes(of: requestID.uuid) {
                envelope.baseAddress!.advanced(by: 16).copyMemory(from: $0.baseAddress!, byteCount: 16)
            }
            envelope.storeBytes(of: schemaVersion.littleEndian, toByteOffset: 32, as: UInt16.self)
            envelope.storeBytes(of: UInt16(author.count).littleEndian, toByteOffset: 34, as: UInt16.self)
            envelope.storeBytes(of: UInt32(payloadBytes).littleEndian, toByteOffset: 36, as: UInt32.self)
            hasher.update(UnsafeRawBufferPointer(envelope))
        }
        hasher.update(payloadDigest)
        hasher.update(author)
        return hasher.finalize()
    }
}
