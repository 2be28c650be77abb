import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// Failure paths driven through the fault-injecting file layer, over real files.
@Suite("Faults: torn writes, lost unsynced data, EIO and ENOSPC")
struct FaultInjectionTests {
    /// The size of the frame the tests tear: record 3, with a 40-byte payload and author "tester".
    static let tornFrameBytes = RecordFrame.frameHeaderBytes + RecordFrame.envelopeFixedBytes + 6 + 40

    @Test(
        "A write torn at every byte offset of the last record: fails closed; reopening cuts it away, in this process or a new one",
        arguments: 0..<tornFrameBytes, [false, true])
    func tornAtEveryByte(keep: Int, asNewProcess: Bool) throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let faults = FaultInjectingFileSystem()
        let acknowledged = try makeLedger(at: ledger, count: 2)
        let segment = try #require(try segmentPaths(ledger).first)
        let end = bytes(of: segment).count
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        let syncs = faults.callCount(.synchronizeData)
        faults.inject(.init(.write, pathContains: "journal/", effect: .tearWrite(keepBytes: keep)))
        #expect(throws: StorageError.self) { try journal.appendAndWait(entry(3)) }
        #expect(journal.writerFailure != nil)
        #expect(journal.durableHead.sequence == 2)
        #expect(faults.callCount(.synchronizeData) == syncs, "a failed write is never followed by a sync")
        journal.close()
        // What recovery reports dropping: the torn bytes up to the last one that is not zero, as
        // zeros after a record cannot be told from the zeros a writer fills ahead of its records.
        let torn = Array(bytes(of: segment).dropFirst(end))
        let reported = Int64((torn.lastIndex { $0 != 0 } ?? -1) + 1)
        #expect(keep < 8 || reported > 0, "a torn frame keeps a nonzero length")

        // A reader takes the tear for the journal's end and changes nothing.
        let verified = try JournalReader(at: ledger).verify()
        #expect(verified.head == HeadDigest(sequence: 2, hash: acknowledged[1].hash))
        if keep == 0 {
            #expect(verified.tail == .clean)
        } else if case .tornRecord(let location, let dropped, _) = verified.tail {
            #expect(location == LedgerLocation(file: segmentName(1), offset: Int64(end)))
            #expect(dropped == reported)
        } else {
            Issue.record("expected a torn tail, got \(verified.tail)")
        }
        #expect(bytes(of: segment).count > end + keep, "the open filled zeros ahead of the records")

        if asNewProcess { Journal.forgetFailedWriter(at: ledger) }
        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { reopened.close() }
        if asNewProcess {
            #expect(reopened.recovery.writerFailureRollback == nil)
            #expect(reopened.recovery.truncatedBytes == reported)
        } else {
            #expect(
                reopened.recovery.writerFailureRollback
                    == WriterFailureRollback(
                        location: LedgerLocation(file: segmentName(1), offset: Int64(end)), droppedBytes: reported,
                        removedSegments: []))
            #expect(reopened.recovery.truncatedBytes == 0)
        }
        // Cut back to the last acknowledged record; the reopen filled zeros ahead of it.
        #expect(recordOffsets(inSegment: segment).count == 2)
        #expect(bytes(of: segment)[end...].allSatisfy { $0 == 0 })
        #expect(reopened.recovery.head == HeadDigest(sequence: 2, hash: acknowledged[1].hash))
        #expect(try reopened.appendAndWait(entry(3)).sequence == 3)
    }

    /// Where in a group the tear lands: the group's frames in one segment, or, in a group that
    /// rolls, its frames before the roll, the new segment's header or its frames after the roll
    /// (written after the zeros they go into).
    enum TearTarget: String, Sendable {
        case framesWithoutRoll, framesBeforeRoll, header, framesAfterRoll
    }

    @Test(
        "A group of several records torn at a random offset, sometimes across a segment roll: nothing acknowledged is lost",
        arguments: 0..<24)
    func tornGroupAtRandomOffsets(run: Int) throws {
        let seed = testSeed("tornGroupAtRandomOffsets run \(run)")
        var random = SplitMix64(seed: seed)
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        // Payloads of 220 bytes or more (frames of 274 or more) keep a segment to at most 14
        // records, so that a group of up to a segment's worth stays within one group commit
        // (groupRecordsMax 16, groupBytesMax 4096).
        let payload = 220 + Int(random.next() % 160)
        let frame = frameBytes(payloadBytes: payload)
        let perSegment = recordsPerSegment(smallLimits, payloadBytes: payload)
        // After the records written first and the one the writer is held on, the current segment
        // holds `fill` records; the group behind it either fits, crosses the boundary, or starts at it.
        let scenario = run % 3
        let fill: Int
        let groupSize: Int
        switch scenario {
        case 0:
            fill = 1 + Int(random.next() % UInt64(perSegment - 2))
            groupSize = 2 + Int(random.next() % UInt64(perSegment - fill - 1))
        case 1:
            fill = 1 + Int(random.next() % UInt64(perSegment - 1))
            groupSize = perSegment - fill + 1 + Int(random.next() % UInt64(fill))
        default:
            fill = perSegment
            groupSize = 2 + Int(random.next() % UInt64(perSegment - 1))
        }
        try #require(groupSize <= smallLimits.groupRecordsMax && groupSize * frame <= smallLimits.groupBytesMax)
        let before = perSegment * Int(random.next() % 2) + fill - 1
        let beforeRoll = scenario == 1 ? perSegment - fill : 0
        let target: TearTarget =
            switch scenario {
            case 0: .framesWithoutRoll
            case 1: [.framesBeforeRoll, .header, .framesAfterRoll][Int(random.next() % 3)]
            default: [.header, .framesAfterRoll][Int(random.next() % 2)]
            }
        let skip: Int
        let targetBytes: Int
        switch target {
        case .framesWithoutRoll:
            (skip, targetBytes) = (0, groupSize * frame)
        case .framesBeforeRoll:
            (skip, targetBytes) = (0, beforeRoll * frame)
        case .header:
            (skip, targetBytes) = (scenario == 1 ? 1 : 0, SegmentHeader.encodedBytes)
        case .framesAfterRoll:
            // After the new header, the zeros its first frames go into are written (and synced).
            (skip, targetBytes) = (scenario == 1 ? 3 : 2, (groupSize - beforeRoll) * frame)
        }
        // A held record that starts a new segment is written after the fdatasync the writer holds
        // on (that of the zeros it goes into), so the tear must let its write through too.
        let heldStartsSegment = before > 0 && before % perSegment == 0
        let skipHeld = heldStartsSegment ? 1 : 0
        let keep = Int(random.next() % UInt64(targetBytes))
        let afterwards = random.next() % 3  // reopen in this process, as a new process, or after a crash
        let context =
            "seed \(seed): \(before) + 1 records, then a group of \(groupSize) (\(perSegment) a segment, fill \(fill)), "
            + "tear \(target) keeping \(keep) of \(targetBytes) bytes, afterwards \(afterwards)"

        if before > 0 { try makeLedger(at: ledger, count: before, limits: smallLimits, payloadBytes: payload) }
        if before == 0 { try LedgerDirectory.create(at: ledger) }
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults, limits: smallLimits))
        faults.holdDataSyncs()
        let held = DispatchSemaphore(value: 0)
        let heldResult = Locked<Result<AppendReceipt, StorageError>?>(nil)
        try journal.enqueue(entry(before + 1, payloadBytes: payload)) { result in
            heldResult.withLock { $0 = result }
            held.signal()
        }
        while faults.dataSyncsWaiting == 0 { usleep(1_000) }
        faults.inject(
            .init(.write, pathContains: "journal/", skip: skip + skipHeld, effect: .tearWrite(keepBytes: keep)))
        let groupResults = Locked<[Bool]>([])
        let group = DispatchGroup()
        for number in (before + 2)...(before + 1 + groupSize) {
            group.enter()
            try journal.enqueue(entry(number, payloadBytes: payload)) { result in
                groupResults.withLock { $0.append((try? result.get()) != nil) }
                group.leave()
            }
        }
        faults.releaseDataSyncs()
        #expect(wait(held), "\(context)")
        #expect(group.wait(timeout: .now() + 10) == .success, "\(context)")
        #expect((try? heldResult.withLock { $0 }?.get().sequence) == UInt64(before + 1), "\(context)")
        // The frames synced before a roll are acknowledged, whatever fails after them (decision
        // 0021); the rest of the group is not.
        let synced = target == .framesBeforeRoll ? 0 : beforeRoll
        #expect(
            groupResults.withLock { $0 }
                == Array(repeating: true, count: synced) + Array(repeating: false, count: groupSize - synced),
            "\(context)")
        #expect(journal.writerFailure != nil, "\(context)")
        journal.close()

        // What each way of reopening must keep: everything acknowledged; a new process also keeps
        // whole frames that made it before the tear, since nothing says they were not synced.
        let acknowledged = before + 1 + synced
        let expected: ClosedRange<Int>
        switch afterwards {
        case 0:
            expected = acknowledged...acknowledged
        case 1:
            Journal.forgetFailedWriter(at: ledger)
            let whole = target == .header ? 0 : keep / frame
            expected = (acknowledged + whole)...(acknowledged + whole)
        default:
            faults.simulateCrash(
                seed: random.next(), mode: random.next() % 2 == 0 ? .loseAllUnsynced : .keepRandomPrefix)
            expected = acknowledged...(before + 1 + groupSize)
        }
        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        let head = reopened.recovery.head.sequence
        let next = try reopened.appendAndWait(entry(Int(head) + 1, payloadBytes: payload))
        reopened.close()
        #expect(expected.contains(Int(head)), "\(context): head \(head), expected \(expected)")
        #expect(next.sequence == head + 1, "\(context)")
        let records = try readAll(ledger)
        #expect(records.map(\.sequence) == Array(1...(head + 1)), "\(context)")
        for record in records {
            let original = entry(Int(record.sequence), payloadBytes: payload)
            #expect(record.requestID == original.requestID, "\(context): sequence \(record.sequence)")
            #expect(record.payload == original.payload, "\(context): sequence \(record.sequence)")
        }
    }

    @Test("Losing unsynced data at random moments never loses an acknowledged append", arguments: 0..<24)
    func lostUnsyncedData(run: Int) async throws {
        let seed = testSeed("lostUnsyncedData run \(run)")
        var random = SplitMix64(seed: seed)
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults, limits: smallLimits))
        let acknowledged = Locked<[UUID: Int]>([:])
        let submitted = Locked<[UUID: Int]>([:])
        let writers = 1 + Int(random.next() % 6)
        let delayMicroseconds = random.next() % 30_000
        let crashSeed = random.next()
        let mode: FaultInjectingFileSystem.CrashMode = random.next() % 2 == 0 ? .loseAllUnsynced : .keepRandomPrefix

        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var number = writer * 1_000_000
                    while true {
                        number += 1
                        let next = entry(number, payloadBytes: 20 + number % 300)
                        submitted.withLock { $0[next.requestID] = number }
                        guard (try? await journal.append(next)) != nil else { return }
                        acknowledged.withLock { $0[next.requestID] = number }
                    }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .microseconds(delayMicroseconds))
                faults.simulateCrash(seed: crashSeed, mode: mode)
            }
        }
        journal.close()

        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        reopened.close()
        let records = try readAll(ledger)
        let present = Dictionary(uniqueKeysWithValues: records.map { ($0.requestID, $0) })
        let all = submitted.withLock { $0 }
        for (id, number) in acknowledged.withLock({ $0 }) {
            let record = try #require(present[id], "seed \(seed): acknowledged append \(number) is missing")
            #expect(record.payload == entry(number, payloadBytes: 20 + number % 300).payload, "seed \(seed)")
        }
        for record in records {
            let number = try #require(all[record.requestID], "seed \(seed): a record nobody submitted appeared")
            #expect(record.payload == entry(number, payloadBytes: 20 + number % 300).payload, "seed \(seed)")
        }
        #expect(records.map(\.sequence) == Array(1...UInt64(max(1, records.count))).prefix(records.count).map { $0 })
    }

    @Test("EIO on fdatasync: an unknown outcome, no further write or sync, and a reopen cuts the unsynced record away")
    func fdatasyncFailure() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let faults = FaultInjectingFileSystem()
        let receipts = try makeLedger(at: ledger, count: 3)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        faults.inject(.init(.synchronizeData, effect: .fail(errno: EIO)))
        let error = #expect(throws: StorageError.self) { try journal.appendAndWait(entry(4)) }
        // The record was written, so it may be on disk: its outcome is unknown (decision 0021).
        guard case .outcomeUnknown(let cause) = error else {
            Issue.record("expected outcomeUnknown, got \(String(describing: error))")
            return
        }
        #expect(cause.contains("fdatasync"))
        #expect(journal.durableHead.sequence == 3)
        let writes = faults.callCount(.write)
        let syncs = faults.callCount(.synchronizeData) + faults.callCount(.synchronize)
        // Later appends are refused at once: nothing is written, the failed descriptor is never synced again.
        #expect(throws: StorageError.self) { try journal.appendAndWait(entry(5)) }
        #expect(faults.callCount(.write) == writes)
        #expect(faults.callCount(.synchronizeData) + faults.callCount(.synchronize) == syncs)
        journal.close()
        #expect(faults.callCount(.write) == writes)

        // The page cache still holds record 4, so a reader sees it; but its sync failed, and a sync
        // through another descriptor would not say whether it reached the disk.
        #expect(try JournalReader(at: ledger).verify().head.sequence == 4)
        let second = FaultInjectingFileSystem()
        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: second))
        #expect(reopened.recovery.head == HeadDigest(sequence: 3, hash: receipts[2].hash))
        #expect(reopened.recovery.writerFailureRollback?.droppedBytes == Int64(frameBytes(payloadBytes: 40)))
        #expect(reopened.recovery.repaired)
        let fourth = try reopened.appendAndWait(entry(4))
        let fifth = try reopened.appendAndWait(entry(5))
        #expect(fourth.sequence == 4)
        // Power fails: the bytes whose sync failed are lost, whatever later syncs said.
        second.simulateCrash(seed: testSeed("fdatasyncFailure"), mode: .loseAllUnsynced)
        reopened.close()
        let records = try readAll(ledger)
        #expect(records.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(records.map(\.hash).suffix(2) == [fourth.hash, fifth.hash])
        #expect(records.map(\.requestID) == (1...5).map { entry($0).requestID })
    }

    @Test("ENOSPC on write: the error names the cause, nothing is acknowledged, committed data survives")
    func noSpaceOnWrite() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let faults = FaultInjectingFileSystem()
        let committed = try makeLedger(at: ledger, count: 3)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        faults.inject(.init(.write, pathContains: "journal/", effect: .fail(errno: ENOSPC)))
        let error = #expect(throws: StorageError.self) { try journal.appendAndWait(entry(4)) }
        #expect(error?.description.contains("No space left on device") == true)
        journal.close()
        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { reopened.close() }
        #expect(reopened.recovery.head == HeadDigest(sequence: 3, hash: committed[2].hash))
        #expect(reopened.recovery.truncatedBytes == 0)
    }

    @Test(
        "EIO while rolling to a new segment fails closed and reopening recovers every acknowledged record",
        arguments: [
            // The fsync that cuts the zeros off the full segment: the next segment is never made.
            (skip: 0, removedSegments: 0),
            // The fsync of the next segment's header: the half-made segment is removed.
            (skip: 1, removedSegments: 1),
        ])
    func failureWhileRolling(skip: Int, removedSegments: Int) throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let faults = FaultInjectingFileSystem()
        try LedgerDirectory.create(at: ledger)
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults, limits: smallLimits))
        // The first segment is created at open; a roll fsyncs the full segment, then the next one.
        faults.inject(.init(.synchronize, pathContains: ".seg", skip: skip, effect: .fail(errno: EIO)))
        var acknowledged: [UInt64: UUID] = [:]
        var failed = false
        for number in 1...40 {
            let next = entry(number, payloadBytes: 300)
            do {
                acknowledged[try journal.appendAndWait(next).sequence] = next.requestID
            } catch {
                failed = true
                break
            }
        }
        #expect(failed)
        #expect(!acknowledged.isEmpty)
        journal.close()
        #expect(faults.refusedCloseCalls.isEmpty)
        #expect(faults.openFileCount == 0)
        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        reopened.close()
        #expect(reopened.recovery.writerFailureRollback?.removedSegments.count == removedSegments)
        let records = try readAll(ledger)
        #expect(records.count == acknowledged.count)
        for record in records { #expect(acknowledged[record.sequence] == record.requestID) }
    }

    @Test("Reading files into one buffer gives each file's bytes, keeps the buffer's storage, and an EIO empties it")
    func readIntoReusedBuffer() throws {
        let directory = TemporaryDirectory()
        let sizes = [100_000, 300_000, 7, 0, 250_000]
        for (index, size) in sizes.enumerated() {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            try Data(bytes).write(to: URL(fileURLWithPath: directory.child("file-\(index)")))
        }
        let faults = FaultInjectingFileSystem()
        var buffer: [UInt8] = []
        var storage: UnsafeRawPointer?
        for (index, size) in sizes.enumerated() {
            try faults.readAll(directory.child("file-\(index)"), into: &buffer)
            #expect(buffer == (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }, "file \(index)")
            #expect(buffer == (try faults.readAll(directory.child("file-\(index)"))))
            if index >= 1 {
                // Read into the storage the largest file so far needed, without a new allocation.
                #expect(buffer.capacity >= 300_000)
                let now = buffer.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
                if let storage, let now { #expect(now == storage, "file \(index)") }
                if storage == nil { storage = now }
            }
        }
        faults.inject(.init(.read, effect: .fail(errno: EIO)))
        #expect(throws: StorageError.self) { try faults.readAll(directory.child("file-0"), into: &buffer) }
        #expect(buffer.isEmpty)
        try faults.readAll(directory.child("file-0"), into: &buffer)
        #expect(buffer.count == sizes[0])
    }

    @Test("A roll that fails to create the next segment leaves no descriptor to be closed twice")
    func failedRollClosesEachDescriptorOnce() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults, limits: smallLimits))
        faults.inject(.init(.open, pathContains: ".seg", effect: .fail(errno: ENOSPC)))
        var number = 0
        while journal.writerFailure == nil && number < 100 {
            number += 1
            _ = try? journal.appendAndWait(entry(number, payloadBytes: 300))
        }
        #expect(journal.writerFailure != nil)
        journal.close()
        journal.close()
        #expect(faults.refusedCloseCalls.isEmpty, "close() closed a descriptor the failed roll had already closed")
        #expect(faults.openFileCount == 0)
    }

    @Test(
        "A roll whose directory fsync failed, a reopen in this process, appends, then a crash: nothing acknowledged is lost",
        arguments: [false, true], [false, true])
    func directoryFsyncFailureDuringRoll(reopenThroughAnotherLayer: Bool, forgetFailedWriter: Bool) throws {
        let seed = testSeed("directoryFsyncFailureDuringRoll \(reopenThroughAnotherLayer) \(forgetFailedWriter)")
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults, limits: smallLimits))
        faults.inject(.init(.synchronizeDirectory, pathContains: "journal", effect: .fail(errno: EIO)))
        var acknowledged: [UInt64: UUID] = [:]
        var number = 0
        while journal.writerFailure == nil && number < 100 {
            number += 1
            let next = entry(number, payloadBytes: 200)
            if let receipt = try? journal.appendAndWait(next) { acknowledged[receipt.sequence] = next.requestID }
        }
        journal.close()
        #expect(try segmentPaths(ledger).count == 2, "the roll created the next segment before its directory fsync")
        // Forgetting the failed writer reopens the way a new process in the same boot would:
        // then nothing cuts the new segment away, and open itself must make it durable.
        if forgetFailedWriter { Journal.forgetFailedWriter(at: ledger) }
        let second = reopenThroughAnotherLayer ? FaultInjectingFileSystem() : faults
        let reopened = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: second, limits: smallLimits))
        // Few enough appends that no further roll (and its directory fsync) happens.
        for _ in 0..<3 {
            number += 1
            let next = entry(number, payloadBytes: 200)
            acknowledged[try reopened.appendAndWait(next).sequence] = next.requestID
        }
        let report = second.simulateCrash(seed: seed, mode: .loseAllUnsynced)
        reopened.close()
        let records = Dictionary(uniqueKeysWithValues: try readAll(ledger).map { ($0.sequence, $0.requestID) })
        for (sequence, id) in acknowledged {
            #expect(records[sequence] == id, "seed \(seed): acknowledged \(sequence) lost; crash: \(report)")
        }
    }

    @Test(
        "A segment a dead writer created without fsyncing its directory is made durable before anything goes into it",
        arguments: [false, true])
    func segmentLeftWithoutDirectoryFsync(openThroughAnotherLayer: Bool) throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let perSegment = recordsPerSegment(smallLimits, payloadBytes: 200)
        let receipts = try makeLedger(at: ledger, count: perSegment, limits: smallLimits, payloadBytes: 200)
        let identity = try LedgerDirectory.identity(at: ledger)
        // The writer that died: it created the next segment and synced its header, but not the directory.
        let first = FaultInjectingFileSystem()
        let next = UInt64(perSegment + 1)
        let header = SegmentHeader(ledgerID: identity.ledgerID, firstSequence: next, previousHash: receipts.last!.hash)
        let file = try first.open(
            LedgerPaths(root: ledger).segment(firstSequence: next), .createNew(permissions: 0o600))
        try first.write(file, header.encoded(), at: 0)
        try first.synchronize(file)
        try first.close(file)

        let second = openThroughAnotherLayer ? FaultInjectingFileSystem() : first
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: second, limits: smallLimits))
        #expect(journal.recovery.head.sequence == next - 1)
        let acknowledged = try (0..<3).map { try journal.appendAndWait(entry(Int(next) + $0, payloadBytes: 200)) }
        let report = second.simulateCrash(seed: 7, mode: .loseAllUnsynced)
        journal.close()
        let records = try readAll(ledger)
        #expect(records.map(\.sequence) == Array(1...(next + 2)), "crash: \(report)")
        #expect(records.suffix(3).map(\.hash) == acknowledged.map(\.hash))
    }
}
