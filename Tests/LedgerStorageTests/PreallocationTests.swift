import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// The zeros the writer puts ahead of its records (decision 0011), and the recovery table's rows
/// for them: a clean end in the last segment, damage anywhere else.
@Suite("Space filled with zeros ahead of the records")
struct PreallocationTests {
    /// The offset just after the last record of a segment file.
    private func recordsEnd(_ segment: String) -> Int {
        let data = bytes(of: segment)
        guard let last = recordOffsets(inSegment: segment).last(where: { RecordFrame.readUInt32(data, $0) != 0 }) else {
            return SegmentHeader.encodedBytes
        }
        return last + RecordFrame.frameHeaderBytes + Int(RecordFrame.readUInt32(data, last))
    }

    /// Copies a ledger directory as it is on disk now: what a writer killed at this moment leaves.
    private func copyLedger(_ ledger: String, to copy: String) throws {
        try FileManager.default.copyItem(atPath: ledger, toPath: copy)
    }

    /// A new ledger of `count` records (40-byte payloads) copied while its writer still runs, as a
    /// kill leaves it (the zeros ahead of its records included), the original then closed: the
    /// copy, its one segment, and the receipts of the records.
    private func killedLedger(
        in directory: TemporaryDirectory, records count: Int
    ) throws -> (ledger: String, segment: String, receipts: [AppendReceipt]) {
        let ledger = directory.child("l")
        let journal = try createAndOpen(ledger)
        let receipts = try (1...count).map { try journal.appendAndWait(entry($0)) }
        let killed = directory.child("killed")
        try copyLedger(ledger, to: killed)
        journal.close()
        let segment = try #require(try segmentPaths(killed).first)
        return (killed, segment, receipts)
    }

    @Test(
        "Records go into zeros written ahead; a copy taken while the writer runs (a kill) reopens clean and appends after its last record; close cuts the zeros"
    )
    func zerosAheadAreACleanEnd() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let journal = try createAndOpen(ledger)
        let receipts = try (1...5).map { try journal.appendAndWait(entry($0)) }
        let segment = try #require(try segmentPaths(ledger).first)
        let end = SegmentHeader.encodedBytes + 5 * frameBytes(payloadBytes: 40)
        #expect(recordsEnd(segment) == end)
        // The open filled 64 KiB ahead of the segment's header; the records went into that space.
        #expect(bytes(of: segment).count == SegmentHeader.encodedBytes + 65_536)
        #expect(bytes(of: segment)[end...].allSatisfy { $0 == 0 })
        let killed = directory.child("killed")
        try copyLedger(ledger, to: killed)
        journal.close()
        #expect(bytes(of: segment).count == end, "close cuts the zeros off")

        let reader = try JournalReader(at: killed).verify()
        #expect(reader.tail == .clean)
        #expect(reader.head == HeadDigest(sequence: 5, hash: receipts[4].hash))
        let reopened = try Journal.open(at: killed, options: JournalOptions(lockWaitSeconds: 2))
        #expect(reopened.recovery.tail == .clean)
        #expect(!reopened.recovery.repaired)
        #expect(reopened.recovery.head == HeadDigest(sequence: 5, hash: receipts[4].hash))
        #expect(try reopened.appendAndWait(entry(6)).sequence == 6)
        reopened.close()
        let copied = try #require(try segmentPaths(killed).first)
        #expect(recordOffsets(inSegment: copied).last == end)
        #expect(bytes(of: copied).count == end + frameBytes(payloadBytes: 40))
        let records = try readAll(killed)
        #expect(records.map(\.sequence) == Array(1...6))
        #expect(records.map(\.payload) == (1...6).map { entry($0).payload })
    }

    @Test(
        "The zeros ahead grow with the segment: after every commit, between half and all of the records' size, at least 64 KiB, at most the limit"
    )
    func zerosAheadGrowWithTheSegment() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        var limits = JournalLimits.standard
        limits.preallocationBytes = 256 << 10
        let journal = try createAndOpen(ledger, limits: limits)
        defer { journal.close() }
        let segment = LedgerPaths(root: ledger).segment(firstSequence: 1)
        var fills = 0
        var lastSize = 0
        for number in 1...200 {
            _ = try journal.appendAndWait(entry(number, payloadBytes: 3_000))
            let size = bytes(of: segment).count
            let end = recordsEnd(segment)
            let ahead = min(limits.preallocationBytes, max(65_536, end))
            #expect(size - end >= ahead / 2 && size - end <= ahead, "record \(number): \(size - end) bytes ahead")
            if size != lastSize { fills += 1 }
            lastSize = size
        }
        #expect(bytes(of: segment).count > 256 << 10)
        #expect(fills < 20, "the space is renewed in steps, not with every commit")
    }

    @Test(
        "A group larger than the zeros left, cut by a crash before its fdatasync: open keeps a prefix of it and never refuses"
    )
    func groupPastTheZerosThenCrash() throws {
        let seed = testSeed("groupPastTheZerosThenCrash")
        var random = SplitMix64(seed: seed)
        var limits = JournalLimits.standard
        limits.preallocationBytes = 1024
        for run in 0..<30 {
            let directory = TemporaryDirectory()
            let ledger = directory.child("l")
            let faults = FaultInjectingFileSystem()
            let journal = try createAndOpen(ledger, fileSystem: faults, limits: limits)
            let acknowledged = try journal.appendAndWait(entry(1))
            faults.holdDataSyncs()
            // Eleven frames of about 350 bytes queue behind a held sync: one group, past the zeros.
            let held = DispatchSemaphore(value: 0)
            try journal.enqueue(entry(2, payloadBytes: 300)) { _ in held.signal() }
            let heldBy = Date().addingTimeInterval(10)
            while faults.dataSyncsWaiting == 0 && Date() < heldBy { usleep(1_000) }
            try #require(faults.dataSyncsWaiting == 1, "the first record's fdatasync never came")
            let done = DispatchGroup()
            for number in 3...13 {
                done.enter()
                try journal.enqueue(entry(number, payloadBytes: 300)) { _ in done.leave() }
            }
            // Syncs pass one at a time until the group's frames are all written and its sync waits.
            let segment = LedgerPaths(root: ledger).segment(firstSequence: 1)
            let deadline = Date().addingTimeInterval(10)
            while recordOffsets(inSegment: segment).count < 13 && Date() < deadline {
                let passed = faults.callCount(.synchronizeData)
                faults.passDataSyncs(1)
                while faults.callCount(.synchronizeData) == passed && Date() < deadline { usleep(100) }
                while faults.dataSyncsWaiting == 0 && Date() < deadline { usleep(100) }
            }
            #expect(Date() < deadline, "the group's frames were never written")
            #expect(wait(held))
            faults.simulateCrash(seed: random.next(), mode: .keepRandomPrefix)
            faults.releaseDataSyncs()
            #expect(done.wait(timeout: .now() + 10) == .success)
            journal.close()
            let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: limits))
            let head = reopened.recovery.head
            reopened.close()
            #expect(head.sequence >= acknowledged.sequence && head.sequence <= 13, "seed \(seed) run \(run)")
            let records = try readAll(ledger)
            #expect(records.map(\.sequence) == Array(1...head.sequence), "seed \(seed) run \(run)")
        }
    }

    @Test("A disk too full for the zeros at open does not keep the journal from opening; the first group makes room")
    func noSpaceForTheZerosAtOpen() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 3)
        let segment = LedgerPaths(root: ledger).segment(firstSequence: 1)
        let end = bytes(of: segment).count
        let faults = FaultInjectingFileSystem()
        faults.inject(.init(.write, pathContains: "journal/", effect: .fail(errno: ENOSPC)))
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        #expect(journal.recovery.head == HeadDigest(sequence: 3, hash: receipts[2].hash))
        #expect(bytes(of: segment).count == end, "the zeros that did not fit are cut back off")
        let syncs = journal.statistics.dataSyncs
        #expect(try journal.appendAndWait(entry(4)).sequence == 4)
        #expect(journal.statistics.dataSyncs == syncs + 2, "the first group made its zeros durable first")
        journal.close()
        #expect(try readAll(ledger).map(\.sequence) == [1, 2, 3, 4])
    }

    @Test("With preallocationBytes 0 the writer appends at the end of the file")
    func noPreallocation() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        var limits = JournalLimits.standard
        limits.preallocationBytes = 0
        let journal = try createAndOpen(ledger, limits: limits)
        defer { journal.close() }
        for number in 1...3 { _ = try journal.appendAndWait(entry(number)) }
        let segment = try #require(try segmentPaths(ledger).first)
        #expect(bytes(of: segment).count == SegmentHeader.encodedBytes + 3 * frameBytes(payloadBytes: 40))
        limits.preallocationBytes = -1
        #expect(throws: StorageError.self) { try limits.validate() }
    }

    @Test("Zeros ahead stop at segmentBytesMax, and a roll cuts them off the full segment before the next exists")
    func rollsCutTheZeros() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let journal = try createAndOpen(ledger, limits: smallLimits)
        let perSegment = recordsPerSegment(smallLimits, payloadBytes: 200)
        for number in 1...perSegment { _ = try journal.appendAndWait(entry(number, payloadBytes: 200)) }
        let first = try #require(try segmentPaths(ledger).first)
        #expect(bytes(of: first).count == smallLimits.segmentBytesMax)
        _ = try journal.appendAndWait(entry(perSegment + 1, payloadBytes: 200))
        let segments = try segmentPaths(ledger)
        #expect(segments.count == 2)
        #expect(bytes(of: first).count == recordsEnd(first))
        #expect(bytes(of: segments[1]).count == smallLimits.segmentBytesMax)
        journal.close()
        #expect(try readAll(ledger).map(\.sequence) == Array(1...UInt64(perSegment + 1)))
    }

    @Test("Zeros followed by other bytes are a torn tail: cut, and counted to the last byte that is not zero")
    func zerosThenGarbageIsATornTail() throws {
        let directory = TemporaryDirectory()
        let (killed, segment, receipts) = try killedLedger(in: directory, records: 3)
        let end = recordsEnd(segment)
        var data = bytes(of: segment)
        data[end + 100] = 0xA5
        data[end + 102] = 0x01
        overwrite(segment, with: data)

        let verified = try JournalReader(at: killed).verify()
        #expect(
            verified.tail
                == .tornRecord(
                    location: LedgerLocation(file: segmentName(1), offset: Int64(end)), droppedBytes: 103,
                    reason: (verified.tail.tornReason ?? "")))
        let reopened = try Journal.open(at: killed, options: JournalOptions(lockWaitSeconds: 2))
        #expect(reopened.recovery.truncatedBytes == 103)
        #expect(reopened.recovery.head == HeadDigest(sequence: 3, hash: receipts[2].hash))
        #expect(try reopened.appendAndWait(entry(4)).sequence == 4)
        reopened.close()
        #expect(try readAll(killed).map(\.sequence) == [1, 2, 3, 4])
    }

    @Test("A record lost in the zeros with a valid one after it is damage, not a clean end or a torn tail")
    func hypotheticalHoleIsCorruption() throws {
        let directory = TemporaryDirectory()
        let (killed, segment, _) = try killedLedger(in: directory, records: 5)
        let offsets = recordOffsets(inSegment: segment)
        var data = bytes(of: segment)
        for index in offsets[3]..<offsets[4] { data[index] = 0 }
        overwrite(segment, with: data)
        let error = #expect(throws: StorageError.self) { try JournalReader(at: killed).verify() }
        #expect(error.map { isCorruption($0, file: segmentName(1)) } == true)
        #expect(throws: StorageError.self) { try Journal.open(at: killed, options: JournalOptions(lockWaitSeconds: 2)) }
    }

    @Test(
        "A reader that sees a record still zero with a valid one after it (racing the writer) reads again; zeros that stay are damage"
    )
    func readerRacingTheWriterReadsAgain() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let journal = try createAndOpen(ledger)
        defer { journal.close() }
        let receipts = try (1...5).map { try journal.appendAndWait(entry($0)) }
        let segment = LedgerPaths(root: ledger).segment(firstSequence: 1)
        let offsets = recordOffsets(inSegment: segment)
        let fourth = Int64(offsets[3])..<Int64(offsets[4])
        // The scan reads the segment in a chunk, then whole at the bad frame, then again up to
        // three times: five reads, the last of which must see the record.
        for stale in 1...5 {
            let faults = FaultInjectingFileSystem()
            for _ in 0..<stale { faults.inject(.init(.read, pathContains: ".seg", effect: .readZeros(fourth))) }
            let reader = try JournalReader(at: ledger, fileSystem: faults)
            if stale <= 4 {
                #expect(
                    try reader.verify().head == HeadDigest(sequence: 5, hash: receipts[4].hash), "\(stale) stale reads")
            } else {
                let error = #expect(throws: StorageError.self) { try reader.verify() }
                #expect(error.map { isCorruption($0, file: segmentName(1)) } == true)
            }
        }
        // Read again, a record before the bad one differs: the bytes already checked changed.
        let faults = FaultInjectingFileSystem()
        faults.inject(.init(.read, pathContains: ".seg", effect: .readZeros(fourth)))
        faults.inject(.init(.read, pathContains: ".seg", effect: .readZeros(Int64(offsets[1])..<Int64(offsets[2]))))
        let error = #expect(throws: StorageError.self) { try JournalReader(at: ledger, fileSystem: faults).verify() }
        #expect(error?.description.contains("changed under the scan") == true, "\(String(describing: error))")
    }

    @Test("Zeros after the last record of a segment that is not the last are damage, named with segment and offset")
    func zerosInAnEarlierSegmentAreCorruption() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let perSegment = recordsPerSegment(smallLimits, payloadBytes: 200)
        _ = try makeLedger(at: ledger, count: perSegment + 2, limits: smallLimits, payloadBytes: 200)
        let segments = try segmentPaths(ledger)
        #expect(segments.count == 2)
        let end = recordsEnd(segments[0])
        overwrite(segments[0], with: bytes(of: segments[0]) + [UInt8](repeating: 0, count: 64))
        let error = #expect(throws: StorageError.self) { try JournalReader(at: ledger).verify() }
        guard case .corruption(let location, let reason) = error else {
            Issue.record("expected corruption, got \(String(describing: error))")
            return
        }
        #expect(location == LedgerLocation(file: segmentName(1), offset: Int64(end)))
        #expect(reason.contains("not the last segment"))
    }

    /// What follows the last segment's header when it holds no whole record.
    enum LastSegmentRest: String, CaseIterable, Sendable {
        /// Zeros only: a roll filled ahead, nothing written.
        case zeros
        /// Its only record, torn after 20 bytes.
        case tornRecord
    }

    @Test(
        "A last segment without a whole record (zeros, or a torn first record): a scan from it starts a segment earlier and keeps the commit time",
        arguments: LastSegmentRest.allCases)
    func lastSegmentWithoutAWholeRecord(rest: LastSegmentRest) throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let ticks = ClockScript((1...100).map { 1_000_000 + Int64($0) })
        let perSegment = recordsPerSegment(smallLimits, payloadBytes: 200)
        let receipts = try {
            let journal = try createAndOpen(ledger, limits: smallLimits, clock: { ticks.next() })
            defer { journal.close() }
            return try (1...perSegment + 1).map { try journal.appendAndWait(entry($0, payloadBytes: 200)) }
        }()
        let next = UInt64(perSegment + 1)
        // As a writer that died before closing leaves it, so that the last record may be torn.
        try recordDurableHead(ledger, sequence: next - 1)
        let last = LedgerPaths(root: ledger).segment(firstSequence: next)
        let written = bytes(of: last)
        switch rest {
        case .zeros:
            overwrite(
                last, with: Array(written.prefix(SegmentHeader.encodedBytes)) + [UInt8](repeating: 0, count: 512))
        case .tornRecord:
            overwrite(last, with: Array(written.prefix(SegmentHeader.encodedBytes + 20)))
        }
        let head = HeadDigest(sequence: next - 1, hash: receipts[perSegment - 1].hash)
        #expect(try JournalReader(at: ledger).head() == head)
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits, clock: { 5 }), replayFrom: next
        )
        #expect(journal.recovery.head == head)
        let receipt = try journal.appendAndWait(entry(Int(next), payloadBytes: 200))
        journal.close()
        // The clock stepped back to 5; the commit time repeats the last one instead.
        #expect(receipt.commitMicroseconds == receipts[perSegment - 1].commitMicroseconds)
        #expect(recordOffsets(inSegment: last).first == SegmentHeader.encodedBytes)
        #expect(try readAll(ledger).map(\.sequence) == Array(1...next))
    }
}

extension JournalTail {
    /// The reason of a torn tail, for comparing the rest of it.
    fileprivate var tornReason: String? {
        if case .tornRecord(_, _, let reason) = self { return reason }
        return nil
    }
}
