import Foundation
import Testing

@testable import LedgerStorage

/// One test per row of the recovery decision table in DESIGN.md and `JournalScan`.
@Suite("Recovery on open: the decision table")
struct RecoveryTableTests {
    @Test("Clean end of the last segment: opens, reports nothing repaired")
    func cleanEnd() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 5)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { journal.close() }
        #expect(journal.recovery.tail == .clean)
        #expect(journal.recovery.truncatedBytes == 0)
        #expect(!journal.recovery.repaired)
        #expect(journal.recovery.head == HeadDigest(sequence: 5, hash: receipts[4].hash))
        #expect(journal.recovery.recordsReplayed == 5)
    }

    @Test("An incomplete record at the very end is truncated, fsynced and reported")
    func incompleteTailTruncated() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        let segment = try #require(try segmentPaths(ledger).last)
        let clean = bytes(of: segment)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(entry(6), sequence: 6, commitMicroseconds: 0, previousHash: .zero, into: &encoder)
        overwrite(segment, with: clean + encoder.bytes.prefix(encoder.count / 2))
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        #expect(journal.recovery.truncatedBytes == Int64(encoder.count / 2))
        guard case .tornRecord(let location, _, _) = journal.recovery.tail else {
            Issue.record("expected a torn record, got \(journal.recovery.tail)")
            return
        }
        #expect(location.offset == Int64(clean.count))
        #expect(journal.recovery.head.sequence == 5)
        let receipt = try journal.appendAndWait(entry(6))
        #expect(receipt.sequence == 6)
        journal.close()
        #expect(try readAll(ledger).map(\.sequence) == Array(1...6))
    }

    @Test("A checksum-failing last record is truncated and reported")
    func checksumFailingTailTruncated() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        let segment = try #require(try segmentPaths(ledger).last)
        var data = bytes(of: segment)
        let last = try #require(recordOffsets(inSegment: segment).last)
        data[data.count - 3] ^= 0x10
        overwrite(segment, with: data)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { journal.close() }
        #expect(journal.recovery.truncatedBytes == Int64(data.count - last))
        #expect(journal.recovery.head.sequence == 4)
        #expect(bytes(of: segment).count == last)
    }

    @Test("A bad record in the middle of the last segment is refused with segment and offset")
    func badRecordMidSegmentRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        let segment = try #require(try segmentPaths(ledger).last)
        var data = bytes(of: segment)
        let second = recordOffsets(inSegment: segment)[1]
        data[second + 60] ^= 0x01
        overwrite(segment, with: data)
        let error = #expect(throws: StorageError.self) {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        }
        guard case .corruption(let location, let reason) = error else {
            Issue.record("expected corruption, got \(String(describing: error))")
            return
        }
        #expect(location.file == "journal/00000000000000000001.seg")
        #expect(location.offset == Int64(second))
        #expect(reason.contains("checksum"))
        #expect(bytes(of: segment) == data, "a refused open must not modify the journal")
    }

    @Test("A bad record in an earlier segment is refused, even at that segment's end")
    func badRecordInEarlierSegmentRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 60, limits: smallLimits, payloadBytes: 200)
        let segments = try segmentPaths(ledger)
        #expect(segments.count > 2)
        var data = bytes(of: segments[0])
        data[data.count - 1] ^= 0x80
        overwrite(segments[0], with: data)
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        } throws: { isCorruption($0, file: "00000000000000000001.seg") }
    }

    /// Appends a well-formed, correctly checksummed record with the given sequence and previous hash.
    private func appendForged(to ledger: String, sequence: UInt64, previousHash: SHA256Digest) throws {
        let segment = try #require(try segmentPaths(ledger).last)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(
            entry(Int(sequence)), sequence: sequence, commitMicroseconds: WallClock.nowMicroseconds(),
            previousHash: previousHash, into: &encoder)
        overwrite(segment, with: bytes(of: segment) + encoder.bytes)
    }

    @Test("A gap in sequence numbers is refused")
    func sequenceGapRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 5)
        try appendForged(to: ledger, sequence: 7, previousHash: receipts[4].hash)
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        } throws: {
            guard case .corruption(_, let reason) = $0 as? StorageError else { return false }
            return reason.contains("sequence 7 where 6 was expected")
        }
    }

    @Test("A repeated sequence number is refused")
    func sequenceRepeatRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 5)
        try appendForged(to: ledger, sequence: 5, previousHash: receipts[4].hash)
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        } throws: {
            guard case .corruption(_, let reason) = $0 as? StorageError else { return false }
            return reason.contains("sequence 5 where 6 was expected")
        }
    }

    @Test("A broken chain is refused")
    func brokenChainRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        try appendForged(to: ledger, sequence: 6, previousHash: .zero)
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        } throws: {
            guard case .corruption(_, let reason) = $0 as? StorageError else { return false }
            return reason.contains("chain hash mismatch")
        }
    }

    @Test("A missing segment (a gap between segments) is refused")
    func missingSegmentRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 60, limits: smallLimits, payloadBytes: 200)
        let segments = try segmentPaths(ledger)
        #expect(segments.count >= 3)
        try FileManager.default.removeItem(atPath: segments[1])
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        } throws: {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return location.file.hasSuffix(URL(fileURLWithPath: segments[2]).lastPathComponent)
                && reason.contains("was expected")
        }
    }

    @Test("A last segment whose header was torn while rolling is removed and made anew")
    func tornSegmentHeaderReplaced() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 3)
        let paths = LedgerPaths(root: ledger)
        let identity = try LedgerDirectory.identity(at: ledger)
        let header = SegmentHeader(ledgerID: identity.ledgerID, firstSequence: 4, previousHash: receipts[2].hash)
        overwrite(paths.segment(firstSequence: 4), with: Array(header.encoded().prefix(30)))
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        #expect(journal.recovery.removedSegment == "journal/00000000000000000004.seg")
        #expect(journal.recovery.head.sequence == 3)
        #expect(try journal.appendAndWait(entry(4)).sequence == 4)
        journal.close()
        #expect(try readAll(ledger).map(\.sequence) == [1, 2, 3, 4])
        #expect(bytes(of: paths.segment(firstSequence: 4)).prefix(72) == header.encoded()[...])
    }

    @Test("A bad record followed by a valid one is refused, not truncated as a torn tail")
    func badRecordBeforeValidRecordRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        let segment = try #require(try segmentPaths(ledger).last)
        var data = bytes(of: segment)
        let offsets = recordOffsets(inSegment: segment)
        data[offsets[3]] ^= 0x04  // the length field of record 4 of 5
        overwrite(segment, with: data)
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        } throws: {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return location.offset == Int64(offsets[3]) && reason.contains("a valid record follows")
        }
        #expect(bytes(of: segment) == data)
    }

    @Test("A segment from another ledger is refused")
    func foreignSegmentRefused() throws {
        let directory = TemporaryDirectory()
        let first = directory.child("a")
        let second = directory.child("b")
        try makeLedger(at: first, count: 2)
        try makeLedger(at: second, count: 2)
        let foreign = try #require(try segmentPaths(second).first)
        overwrite(try #require(try segmentPaths(first).first), with: bytes(of: foreign))
        #expect {
            try Journal.open(at: first, options: JournalOptions(lockWaitSeconds: 2))
        } throws: {
            guard case .corruption(_, let reason) = $0 as? StorageError else { return false }
            return reason.contains("belongs to ledger")
        }
    }

    @Test("A missing, corrupt or mismatched snapshot is ignored and the journal is used instead")
    func badSnapshotIgnored() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 6)
        let reader = try JournalReader(at: ledger)
        let store = SnapshotStore(paths: LedgerPaths(root: ledger), identity: reader.identity)

        // Missing: nothing to use.
        #expect(try store.latestUsable(reader: reader).snapshot == nil)

        // Good: used.
        try store.write(sequence: 4, hash: receipts[3].hash, state: Array("state at 4".utf8))
        let good = try store.latestUsable(reader: reader)
        #expect(good.snapshot?.sequence == 4)
        #expect(good.snapshot?.state == Array("state at 4".utf8))

        // Corrupt: a flipped byte in the newest snapshot's state.
        try store.write(sequence: 5, hash: receipts[4].hash, state: Array("state at 5".utf8))
        let newest = LedgerPaths(root: ledger).snapshots + "/" + SnapshotStore.fileName(sequence: 5)
        var data = bytes(of: newest)
        data[data.count - 2] ^= 0xFF
        overwrite(newest, with: data)
        let corrupt = try store.latestUsable(reader: reader)
        #expect(corrupt.snapshot?.sequence == 4)
        #expect(corrupt.rejected.contains { $0.contains("checksum") })

        // Mismatched: a snapshot claiming a hash the journal does not have at its sequence.
        try store.write(sequence: 5, hash: receipts[0].hash, state: Array("forged".utf8))
        let mismatched = try store.latestUsable(reader: reader)
        #expect(mismatched.snapshot?.sequence == 4)
        #expect(mismatched.rejected.contains { $0.contains("does not match the journal") })
    }
}
