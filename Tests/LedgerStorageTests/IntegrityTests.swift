import Foundation
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
            guard case .corruption(_, let reason) = $0 as? StorageError else { return false }
            return reason.contains("the saved digest says")
        }
    }

    @Test("Editing an earlier record breaks the chain at the next one, even with a fresh CRC and digest")
    func editedEarlierRecordBreaksChain() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 4)
        let segment = try #require(try segmentPaths(ledger).first)
        let original = bytes(of: segment)
        let offsets = recordOffsets(inSegment: segment)
        var forged = entry(2)
        forged.payload = Array("rewritten".utf8)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(
            forged, sequence: 2, commitMicroseconds: receipts[1].commitMicroseconds, previousHash: receipts[0].hash,
            into: &encoder)
        let data = Array(original[0..<offsets[1]]) + encoder.bytes + Array(original[offsets[2]...])
        overwrite(segment, with: data)
        #expect {
            try JournalReader(at: ledger).verify()
        } throws: {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return reason.contains("chain hash mismatch at sequence 3")
                && location.offset == Int64(offsets[1] + encoder.count)
        }
    }
}
