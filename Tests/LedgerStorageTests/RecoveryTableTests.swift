import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// One test per row of the recovery decision table in Documentation/LogFormat.md and `JournalScan`.
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

    @Test("A checksum-failing last record above the durable floor is truncated and reported")
    func checksumFailingTailTruncated() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        // As a writer that died before closing leaves it: HEAD records only what its open found.
        try recordDurableHead(ledger, sequence: 4)
        let segment = try #require(try segmentPaths(ledger).last)
        var data = bytes(of: segment)
        let last = try #require(recordOffsets(inSegment: segment).last)
        data[data.count - 3] ^= 0x10
        overwrite(segment, with: data)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { journal.close() }
        #expect(journal.recovery.truncatedBytes == Int64(data.count - last))
        #expect(journal.recovery.head.sequence == 4)
        // Cut at the bad record; the zeros the open then filled ahead follow it.
        #expect(Array(bytes(of: segment).prefix(last)) == Array(data.prefix(last)))
        #expect(bytes(of: segment)[last...].allSatisfy { $0 == 0 })
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

    @Test("A broken chain is refused: a segment that does not continue the chain of the one before")
    func brokenChainRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 5)
        // Records of the current format do not store their chain hash (it is computed), so the
        // chain can break only where a stored hash meets it: a segment header's previous hash.
        var wrong = receipts[4].hash.bytes
        wrong[0] ^= 1
        let header = SegmentHeader(
            ledgerID: try JournalReader(at: ledger).identity.ledgerID, firstSequence: 6,
            previousHash: SHA256Digest(bytes: wrong.withUnsafeBytes { $0 }))
        var record = ByteWriter()
        _ = RecordFrame.encode(
            entry(6), sequence: 6, commitMicroseconds: WallClock.nowMicroseconds(), previousHash: header.previousHash,
            into: &record)
        overwrite(
            ledger + "/journal/" + SegmentHeader.fileName(firstSequence: 6), with: header.encoded() + record.bytes)
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        } throws: {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return reason.contains("chain broken at segment boundary")
                && location.file == "journal/" + SegmentHeader.fileName(firstSequence: 6)
        }
    }

    @Test("A record of format version 1 whose stored chain hash is wrong is refused, even with a fresh CRC")
    func brokenStoredHashRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try copyLedger(FormatTests.goldenDirectory(version: 1), to: ledger)
        let path = ledger + "/journal/00000000000000000001.seg"
        var segment = bytes(of: path)
        // The second record: its frame at 72 + 8 + 104 + 6 + 13; its stored chain hash at body + 72.
        let frame = 72 + 8 + 104 + 6 + 13
        let body = frame + 8
        let length = Int(segment[frame]) | Int(segment[frame + 1]) << 8
        segment[body + 72] ^= 0x01
        let crc = segment.withUnsafeBytes { raw in
            CRC32C.extend(
                CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: raw[frame..<frame + 4])),
                UnsafeRawBufferPointer(rebasing: raw[body..<body + length]))
        }
        withUnsafeBytes(of: CRC32C.mask(crc).littleEndian) { segment.replaceSubrange(frame + 4..<frame + 8, with: $0) }
        overwrite(path, with: segment)
        #expect {
            try JournalReader(at: ledger).verify()
        } throws: {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return reason.contains("chain hash mismatch at sequence 2") && location.offset == Int64(frame)
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

    @Test("A torn record at the end of the last of several segments is truncated; earlier segments are untouched")
    func tornTailInLastOfSeveralSegments() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 40, limits: smallLimits, payloadBytes: 200)
        let segments = try segmentPaths(ledger)
        #expect(segments.count >= 3)
        let earlier = segments.dropLast().map { bytes(of: $0) }
        let last = try #require(segments.last)
        let clean = bytes(of: last)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(
            entry(41, payloadBytes: 200), sequence: 41, commitMicroseconds: WallClock.nowMicroseconds(),
            previousHash: receipts[39].hash, into: &encoder)
        overwrite(last, with: clean + encoder.bytes.dropLast(5))
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        #expect(journal.recovery.truncatedBytes == Int64(encoder.count - 5))
        guard case .tornRecord(let location, _, _) = journal.recovery.tail else {
            Issue.record("expected a torn record, got \(journal.recovery.tail)")
            journal.close()
            return
        }
        #expect(location == LedgerLocation(file: LedgerPaths(root: ledger).relative(last), offset: Int64(clean.count)))
        #expect(journal.recovery.head == HeadDigest(sequence: 40, hash: receipts[39].hash))
        #expect(try journal.appendAndWait(entry(41, payloadBytes: 200)).sequence == 41)
        journal.close()
        for (path, content) in zip(segments.dropLast(), earlier) { #expect(bytes(of: path) == content) }
        #expect(try readAll(ledger).map(\.sequence) == Array(1...41))
    }

    /// Makes a ledger whose last segment holds only its header, as a writer that died right after
    /// rolling leaves it: the roll's header is written and synced, the write of the first record
    /// into it fails, and the failed writer is forgotten, as by a process that exited.
    private func makeLedgerEndingInEmptySegment(
        at ledger: String, clock: @escaping @Sendable () -> Int64 = WallClock.nowMicroseconds
    ) throws -> (receipts: [AppendReceipt], next: UInt64) {
        let perSegment = recordsPerSegment(smallLimits, payloadBytes: 200)
        try LedgerDirectory.create(at: ledger)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(
            at: ledger,
            options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults, limits: smallLimits, clock: clock))
        let receipts = try (1...perSegment).map { try journal.appendAndWait(entry($0, payloadBytes: 200)) }
        let next = UInt64(perSegment + 1)
        faults.inject(
            .init(.write, pathContains: SegmentHeader.fileName(firstSequence: next), skip: 1, effect: .fail(errno: EIO))
        )
        #expect(throws: StorageError.self) { try journal.appendAndWait(entry(Int(next), payloadBytes: 200)) }
        journal.close()
        Journal.forgetFailedWriter(at: ledger)
        #expect(try segmentPaths(ledger).count == 2)
        #expect(bytes(of: LedgerPaths(root: ledger).segment(firstSequence: next)).count == SegmentHeader.encodedBytes)
        return (receipts, next)
    }

    @Test("An empty last segment left by a roll: reopens cleanly, head() sees through it, appends continue in it")
    func emptyLastSegmentAfterRoll() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let (receipts, next) = try makeLedgerEndingInEmptySegment(at: ledger)
        let head = HeadDigest(sequence: next - 1, hash: try #require(receipts.last).hash)
        #expect(try JournalReader(at: ledger).head() == head)
        #expect(try JournalReader(at: ledger).verify().head == head)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        #expect(journal.recovery.tail == .clean)
        #expect(!journal.recovery.repaired)
        #expect(journal.recovery.head == head)
        let receipt = try journal.appendAndWait(entry(Int(next), payloadBytes: 200))
        journal.close()
        #expect(receipt.sequence == next)
        let empty = LedgerPaths(root: ledger).segment(firstSequence: next)
        #expect(recordOffsets(inSegment: empty) == [SegmentHeader.encodedBytes])
        #expect(try readAll(ledger).map(\.sequence) == Array(1...next))
        #expect(try JournalReader(at: ledger).head() == HeadDigest(sequence: next, hash: receipt.hash))
    }

    @Test(
        "Opening from an empty last segment keeps the last commit time, so a clock that steps back cannot go below it")
    func replayFromEmptyLastSegmentKeepsCommitTime() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let ticks = ClockScript((1...100).map { 1_000_000 + Int64($0) })
        let (receipts, next) = try makeLedgerEndingInEmptySegment(at: ledger, clock: { ticks.next() })
        let lastCommit = try #require(receipts.last).commitMicroseconds
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits, clock: { 5 }), replayFrom: next
        )
        #expect(journal.recovery.head.sequence == next - 1)
        let receipt = try journal.appendAndWait(entry(Int(next), payloadBytes: 200))
        journal.close()
        #expect(
            receipt.commitMicroseconds == lastCommit, "the clock stepped back; the commit time must repeat the last")
        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        reopened.close()
        #expect(reopened.recovery.head.sequence == next)
    }

    @Test("Journal.open(replayFrom:) from the middle hands over the records from there and appends after the head")
    func replayFromMiddle() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 50, limits: smallLimits, payloadBytes: 250)
        #expect(try segmentPaths(ledger).count > 3)
        for start in [2, 23, 50, 51] as [UInt64] {
            var delivered: [UInt64] = []
            let journal = try Journal.open(
                at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits), replayFrom: start
            ) { delivered.append($0.sequence) }
            let head = journal.recovery.head
            let count = journal.recovery.recordsReplayed
            journal.close()
            #expect(delivered == Array(start..<51), "from \(start)")
            #expect(count == delivered.count, "from \(start)")
            #expect(head == HeadDigest(sequence: 50, hash: receipts[49].hash), "from \(start)")
        }
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits), replayFrom: 37)
        #expect(try journal.appendAndWait(entry(51, payloadBytes: 250)).sequence == 51)
        journal.close()
        #expect(try JournalReader(at: ledger).verify().head.sequence == 51)
    }

    @Test("A torn header in a segment that is not the last is refused")
    func tornHeaderInEarlierSegmentRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 60, limits: smallLimits, payloadBytes: 200)
        let segments = try segmentPaths(ledger)
        #expect(segments.count >= 3)
        let torn = Array(bytes(of: segments[1]).prefix(30))
        overwrite(segments[1], with: torn)
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        } throws: { isCorruption($0, file: URL(fileURLWithPath: segments[1]).lastPathComponent) }
        #expect(bytes(of: segments[1]) == torn)
        #expect(try segmentPaths(ledger) == segments)
    }

    @Test("A damaged header in a last segment longer than a header is refused, not replaced")
    func badHeaderInLongLastSegmentRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 30, limits: smallLimits, payloadBytes: 200)
        let last = try #require(try segmentPaths(ledger).last)
        for length in [SegmentHeader.encodedBytes + 1, bytes(of: last).count] {
            let template = Array(bytes(of: last))
            var damaged = Array(template.prefix(length))
            damaged[30] ^= 0x01
            overwrite(last, with: damaged)
            #expect {
                try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
            } throws: {
                guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
                return location == LedgerLocation(file: LedgerPaths(root: ledger).relative(last), offset: 0)
                    && reason.contains("checksum")
            }
            #expect(bytes(of: last) == damaged, "a refused open must not modify the journal")
            overwrite(last, with: template)
        }
    }

    @Test("A missing first segment is refused by open and by verify")
    func missingFirstSegmentRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 40, limits: smallLimits, payloadBytes: 200)
        let segments = try segmentPaths(ledger)
        try FileManager.default.removeItem(atPath: segments[0])
        let second = LedgerPaths(root: ledger).relative(segments[1])
        let refusal: (any Error) -> Bool = {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return location.file == second && reason.contains("earlier segments are missing")
        }
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        } throws: { refusal($0) }
        #expect { try JournalReader(at: ledger).verify() } throws: { refusal($0) }
        #expect {
            try JournalReader(at: ledger).verify(against: HeadDigest(sequence: 40, hash: receipts[39].hash))
        } throws: { refusal($0) }
        #expect { try readAll(ledger) } throws: { refusal($0) }
    }

    @Test("A tiny last segment that does not continue the sequence is refused, not taken for a torn roll")
    func tinyLastSegmentAfterGapRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 40, limits: smallLimits, payloadBytes: 200)
        let segments = try segmentPaths(ledger)
        // The last segment, with acknowledged records, is lost; a tiny file named after the next
        // sequence sits where a torn roll would have left one.
        try FileManager.default.removeItem(atPath: try #require(segments.last))
        let tiny = LedgerPaths(root: ledger).segment(firstSequence: UInt64(receipts.count + 1))
        overwrite(tiny, with: [1, 2, 3])
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        } throws: {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return location.file == segmentName(UInt64(receipts.count + 1)) && reason.contains("was expected")
        }
        #expect(bytes(of: tiny) == [1, 2, 3])
    }

    @Test(
        "A crash during recovery (EIO on the truncation's fsync) loses nothing and leaks nothing; the next open recovers",
        arguments: [false, true])
    func crashDuringRecovery(crash: Bool) throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 5)
        let segment = try #require(try segmentPaths(ledger).last)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(entry(6), sequence: 6, commitMicroseconds: 0, previousHash: .zero, into: &encoder)
        let torn = bytes(of: segment) + encoder.bytes.prefix(encoder.count / 2)
        overwrite(segment, with: torn)
        let faults = FaultInjectingFileSystem()
        faults.inject(.init(.synchronize, pathContains: ".seg", effect: .fail(errno: EIO)))
        #expect(throws: StorageError.self) {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        }
        #expect(faults.openFileCount == 0, "a failed open must close every file it opened")
        #expect(faults.refusedCloseCalls.isEmpty)
        if crash {
            faults.simulateCrash(seed: 1, mode: .loseAllUnsynced)
            #expect(bytes(of: segment) == torn, "the crash undoes the truncation that was never synced")
        }
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        #expect(journal.recovery.head == HeadDigest(sequence: 5, hash: receipts[4].hash))
        #expect(journal.recovery.truncatedBytes == (crash ? Int64(encoder.count / 2) : 0))
        #expect(try journal.appendAndWait(entry(6)).sequence == 6)
        journal.close()
        #expect(try readAll(ledger).map(\.requestID) == (1...6).map { entry($0).requestID })
    }

    @Test("Reopening with a smaller record limit keeps every record written under the larger one")
    func smallerLimitsKeepEveryRecord() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 4, payloadBytes: 5_000)
        let smaller = JournalLimits(
            segmentBytesMax: 64 << 20, recordBytesMax: 2_048, groupRecordsMax: 16, groupBytesMax: 1 << 20)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smaller))
        #expect(journal.recovery.tail == .clean)
        #expect(!journal.recovery.repaired)
        #expect(journal.recovery.head == HeadDigest(sequence: 4, hash: receipts[3].hash))
        // Limits count the largest envelope of the current format (39 bytes), the 6-byte author
        // and the payload.
        #expect(throws: StorageError.limitExceeded(what: "record bytes", limit: 2_048, actual: 39 + 6 + 5_000)) {
            try journal.appendAndWait(entry(5, payloadBytes: 5_000))
        }
        #expect(try journal.appendAndWait(entry(5)).sequence == 5)
        journal.close()
        let records = try readAll(ledger)
        #expect(records.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(records.prefix(4).map(\.payload) == (1...4).map { entry($0, payloadBytes: 5_000).payload })
    }

    @Test("A bad record followed by a valid one larger than the current limit is refused, not truncated")
    func badRecordBeforeLargeValidRecordRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 4, payloadBytes: 5_000)
        let segment = try #require(try segmentPaths(ledger).last)
        var data = bytes(of: segment)
        let offsets = recordOffsets(inSegment: segment)
        data[offsets[2] + 200] ^= 0x01
        overwrite(segment, with: data)
        let smaller = JournalLimits(
            segmentBytesMax: 64 << 20, recordBytesMax: 2_048, groupRecordsMax: 16, groupBytesMax: 1 << 20)
        #expect {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smaller))
        } throws: {
            guard case .corruption(let location, let reason) = $0 as? StorageError else { return false }
            return location.offset == Int64(offsets[2]) && reason.contains("a valid record follows")
        }
        #expect(bytes(of: segment) == data)
    }

    @Test("A missing or corrupt snapshot is ignored and the journal used; one that checks out but disagrees is not")
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
        #expect(try good.snapshot?.readState() == Array("state at 4".utf8))

        // Corrupt: a flipped byte in the newest snapshot's state. Writing it removes the older one,
        // since one is kept; put back, as an older build kept two, it is what the search falls back to.
        let olderPath = LedgerPaths(root: ledger).snapshots + "/" + SnapshotStore.fileName(sequence: 4)
        let olderFile = bytes(of: olderPath)
        try store.write(sequence: 5, hash: receipts[4].hash, state: Array("state at 5".utf8))
        #expect(try store.sequences() == [5])
        overwrite(olderPath, with: olderFile)
        let newest = LedgerPaths(root: ledger).snapshots + "/" + SnapshotStore.fileName(sequence: 5)
        var data = bytes(of: newest)
        data[data.count - 2] ^= 0xFF
        overwrite(newest, with: data)
        let corrupt = try store.latestUsable(reader: reader)
        #expect(corrupt.snapshot?.sequence == 4)
        #expect(corrupt.rejected.contains { $0.contains("state checksum mismatch") })

        // Of another format version (the 112-byte header of version 1): passed over, with the reason.
        var older = bytes(of: newest)
        older[8] = 1
        overwrite(newest, with: older)
        #expect(try store.latestUsable(reader: reader).rejected.contains { $0.contains("format version 1") })

        // Mismatched: a snapshot that checks out on its own but claims a hash the journal does not
        // have at its sequence records that head as durable, so the journal lost or altered it.
        try store.write(sequence: 5, hash: receipts[0].hash, state: Array("forged".utf8))
        #expect {
            try store.latestUsable(reader: reader)
        } throws: {
            guard case .corruption(_, let reason) = $0 as? StorageError else { return false }
            return reason.contains("but snapshots/" + SnapshotStore.fileName(sequence: 5) + " recorded")
        }
    }

    @Test("A snapshot reads the same through the system file layer as through another layer")
    func snapshotMappedOrRead() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 3)
        let reader = try JournalReader(at: ledger)
        let state = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // The empty one first, put back after the second removes it (one snapshot is kept).
        try SnapshotStore(paths: LedgerPaths(root: ledger), identity: reader.identity).write(
            sequence: 2, hash: receipts[1].hash, state: [])
        let emptyPath = LedgerPaths(root: ledger).snapshots + "/" + SnapshotStore.fileName(sequence: 2)
        let emptyFile = bytes(of: emptyPath)
        try SnapshotStore(paths: LedgerPaths(root: ledger), identity: reader.identity).write(
            sequence: 3, hash: receipts[2].hash, state: state)
        overwrite(emptyPath, with: emptyFile)
        for fileSystem in [SystemFileSystem(), FaultInjectingFileSystem()] as [any FileSystem] {
            let store = SnapshotStore(
                paths: LedgerPaths(root: ledger), identity: reader.identity, fileSystem: fileSystem)
            guard case .success(let snapshot) = store.read(sequence: 3),
                case .success(let empty) = store.read(sequence: 2)
            else {
                Issue.record("a written snapshot does not read back through \(type(of: fileSystem))")
                continue
            }
            #expect(try snapshot.readState() == state)
            #expect(snapshot.hash == receipts[2].hash)
            #expect(try empty.readState().isEmpty)
        }
        // A file too short for its header: refused, not read past its end.
        let short = LedgerPaths(root: ledger).snapshots + "/" + SnapshotStore.fileName(sequence: 1)
        overwrite(short, with: Array(SnapshotStore.magic))
        let store = SnapshotStore(paths: LedgerPaths(root: ledger), identity: reader.identity)
        guard case .failure(let failure) = store.read(sequence: 1) else {
            Issue.record("a truncated snapshot was accepted")
            return
        }
        #expect(failure.reason.contains("too short"))
    }
}
