import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

@Suite("Integrity: checksums, the chain and the head digest")
struct IntegrityTests {
    /// Which part of a three-record ledger's single segment a bit is flipped in.
    enum Region: String, CaseIterable, Sendable {
        case header, firstRecord, middleRecord, lastRecord
    }

    @Test("A flipped bit anywhere in a segment is detected", arguments: Region.allCases)
    func flippedBit(region: Region) throws {
        let seed = testSeed("flippedBit \(region)")
        var random = SplitMix64(seed: seed)
        let directory = TemporaryDirectory()
        let template = directory.child("template")
        let receipts = try makeLedger(at: template, count: 3)
        let segment = try #require(try segmentPaths(template).first)
        let original = bytes(of: segment)
        let offsets = recordOffsets(inSegment: segment)
        let range: Range<Int> =
            switch region {
            case .header: 0..<SegmentHeader.encodedBytes
            case .firstRecord: offsets[0]..<offsets[1]
            case .middleRecord: offsets[1]..<offsets[2]
            case .lastRecord: offsets[2]..<original.count
            }
        for position in range {
            var damaged = original
            let bit = UInt8(1) << UInt8(random.next() % 8)
            damaged[position] ^= bit
            overwrite(segment, with: damaged)
            let context = "seed \(seed): bit \(bit) at byte \(position)"
            do {
                let verified = try JournalReader(at: template).verify()
                // The only damage a reader may take for a crash is in the last record, and then it
                // must say so: a torn tail, never a clean journal with altered content.
                #expect(region == .lastRecord, "\(context): damage outside the last record went unnoticed")
                #expect(verified.tail != .clean, "\(context)")
                #expect(verified.head.sequence == 2, "\(context)")
                // Against the digest written down after the last append, the loss is caught.
                #expect(throws: StorageError.self, "\(context)") {
                    try JournalReader(at: template).verify(against: HeadDigest(sequence: 3, hash: receipts[2].hash))
                }
            } catch {
                #expect(isCorruption(error), "\(context): \(error)")
            }
        }
        overwrite(segment, with: original)
        #expect(try JournalReader(at: template).verify().head.sequence == 3)
    }

    @Test("A record edited and re-checksummed is caught by the chain against a saved head digest")
    func editedRecordCaughtByChain() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 4)
        // Without HEAD (it would catch the edit itself, decision 0018) only the saved digest can.
        try FileManager.default.removeItem(atPath: LedgerPaths(root: ledger).headMarker)
        let saved = HeadDigest(sequence: 4, hash: receipts[3].hash)
        #expect(try JournalReader(at: ledger).verify(against: saved).head == saved)

        // Rewrite the last record with a different payload, a fresh digest, a recomputed chain
        // hash and a valid CRC: every local check passes.
        let segment = try #require(try segmentPaths(ledger).first)
        let offsets = recordOffsets(inSegment: segment)
        var data = Array(bytes(of: segment)[0..<offsets[3]])
        var forged = entry(4)
        forged.payload = Array("a different story".utf8)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(
            forged, sequence: 4, commitMicroseconds: WallClock.nowMicroseconds(), previousHash: receipts[2].hash,
            into: &encoder)
        data += encoder.bytes
        overwrite(segment, with: data)

        let unanchored = try JournalReader(at: ledger).verify()
        #expect(unanchored.head.sequence == 4, "without a saved digest the forgery is self-consistent")
        #expect {
            try JournalReader(at: ledger).verify(against: saved)
        } throws: {
            guard case .digestMismatch(let sequence, let expected, let found) = $0 as? StorageError else {
                return false
            }
            return sequence == saved.sequence && expected == saved.hash.hex && found != expected
        }
    }

    @Test("Editing an earlier record breaks the chain at the next segment boundary, even with a fresh CRC")
    func editedEarlierRecordBreaksChain() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 20, limits: smallLimits, payloadBytes: 300)
        let segments = try segmentPaths(ledger)
        try #require(segments.count >= 2)
        let segment = segments[0]
        let original = bytes(of: segment)
        let offsets = recordOffsets(inSegment: segment)
        try #require(offsets.count >= 3)
        var forged = entry(2)
        forged.payload = Array("rewritten".utf8)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(
            forged, sequence: 2, commitMicroseconds: receipts[1].commitMicroseconds, previousHash: receipts[0].hash,
            into: &encoder)
        let data = Array(original[0..<offsets[1]]) + encoder.bytes + Array(original[offsets[2]...])
        overwrite(segment, with: data)
        // Records of the current format do not store their hash; the next stored one is the next
        // segment's header, which holds the hash the edited segment no longer ends with.
        #expect {
            try JournalReader(at: ledger).verify()
        } throws: {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return reason.contains("chain broken at segment boundary")
                && location
                    == LedgerLocation(file: "journal/" + URL(fileURLWithPath: segments[1]).lastPathComponent, offset: 0)
        }
    }

    @Test("verify(against:) with sequence 0 requires the zero hash")
    func verifyAgainstSequenceZero() throws {
        let directory = TemporaryDirectory()
        let empty = directory.child("empty")
        try LedgerDirectory.create(at: empty)
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 2)
        let forged = HeadDigest(sequence: 0, hash: SHA256.hash(Array("not the empty journal".utf8)))
        for path in [empty, ledger] {
            #expect(try JournalReader(at: path).verify(against: .empty).head.sequence == (path == empty ? 0 : 2))
            #expect {
                try JournalReader(at: path).verify(against: forged)
            } throws: {
                guard case .digestMismatch(let sequence, let expected, let found) = $0 as? StorageError else {
                    return false
                }
                return sequence == 0 && expected == forged.hash.hex && found == SHA256Digest.zero.hex
            }
        }
    }

    @Test("A journal that ends before the saved digest names its last segment and the offset where it ends")
    func journalEndingEarlyNamesLastSegment() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 30, limits: smallLimits, payloadBytes: 300)
        // Without HEAD, which would report the shortened journal itself, only the saved digest can.
        try FileManager.default.removeItem(atPath: LedgerPaths(root: ledger).headMarker)
        let last = try #require(try segmentPaths(ledger).last)
        let name = LedgerPaths(root: ledger).relative(last)
        let saved = HeadDigest(sequence: 31, hash: receipts[29].hash)
        let clean = bytes(of: last)
        func expectEndsAt(_ offset: Int, sequence: UInt64) {
            #expect {
                try JournalReader(at: ledger).verify(against: saved)
            } throws: {
                guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
                return location == LedgerLocation(file: name, offset: Int64(offset))
                    && reason.contains("ends at sequence \(sequence)")
            }
        }
        expectEndsAt(clean.count, sequence: 30)
        // With a torn tail, the journal's valid data ends where the torn record starts.
        let lastRecord = try #require(recordOffsets(inSegment: last).last)
        overwrite(last, with: Array(clean.dropLast(3)))
        expectEndsAt(lastRecord, sequence: 29)
    }

    @Test("head() checks an empty or torn last segment against the chain of the one before")
    func headWithTornOrEmptyLastSegment() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 30, limits: smallLimits, payloadBytes: 300)
        let identity = try LedgerDirectory.identity(at: ledger)
        let next = LedgerPaths(root: ledger).segment(firstSequence: 31)
        #expect(!FileManager.default.fileExists(atPath: next))
        let expected = HeadDigest(sequence: 30, hash: receipts[29].hash)
        let header = SegmentHeader(ledgerID: identity.ledgerID, firstSequence: 31, previousHash: receipts[29].hash)
        #expect(try JournalReader(at: ledger).head() == expected)

        // Torn while rolling: a partial header.
        overwrite(next, with: Array(header.encoded().prefix(30)))
        #expect(try JournalReader(at: ledger).head() == expected)
        // Empty after a roll: a whole header and no record.
        overwrite(next, with: header.encoded())
        #expect(try JournalReader(at: ledger).head() == expected)
        // An empty last segment whose header does not continue the chain cannot vouch for a head.
        let forged = SegmentHeader(
            ledgerID: identity.ledgerID, firstSequence: 31, previousHash: SHA256.hash(Array("forged".utf8)))
        overwrite(next, with: forged.encoded())
        #expect { try JournalReader(at: ledger).head() } throws: { isCorruption($0, file: "00000000000000000031.seg") }
    }
}
