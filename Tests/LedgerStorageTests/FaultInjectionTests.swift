import Foundation
import Testing

@testable import LedgerStorage

/// Failure paths driven through the fault-injecting file layer, over real files.
@Suite("Faults: torn writes, lost unsynced data, EIO and ENOSPC")
struct FaultInjectionTests {
    /// The size of the frame the tests tear: record 3, with a 40-byte payload and author "tester".
    static let frameBytes = RecordFrame.frameHeaderBytes + RecordFrame.envelopeFixedBytes + 6 + 40

    @Test(
        "A write torn at every byte offset of the last record: fails closed, reopen truncates it",
        arguments: 0..<frameBytes)
    func tornAtEveryByte(keep: Int) throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let faults = FaultInjectingFileSystem()
        let acknowledged = try makeLedger(at: ledger, count: 2)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        faults.inject(.init(.write, pathContains: "journal/", effect: .tearWrite(keepBytes: keep)))
        #expect(throws: StorageError.self) { try journal.appendAndWait(entry(3)) }
        #expect(journal.writerFailure != nil)
        #expect(journal.durableHead.sequence == 2)
        journal.close()

        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { reopened.close() }
        #expect(reopened.recovery.truncatedBytes == Int64(keep))
        #expect(reopened.recovery.head == HeadDigest(sequence: 2, hash: acknowledged[1].hash))
        #expect(try reopened.appendAndWait(entry(3)).sequence == 3)
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
        let records = try readAll(ledger, limits: smallLimits)
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

    @Test("EIO on fdatasync: no acknowledgement, the writer fails closed, reopening recovers")
    func fdatasyncFailure() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let faults = FaultInjectingFileSystem()
        try makeLedger(at: ledger, count: 3)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        faults.inject(.init(.synchronizeData, effect: .fail(errno: EIO)))
        let error = #expect(throws: StorageError.self) { try journal.appendAndWait(entry(4)) }
        guard case .writerFailed(let cause) = error else {
            Issue.record("expected writerFailed, got \(String(describing: error))")
            return
        }
        #expect(cause.contains("fdatasync"))
        #expect(journal.durableHead.sequence == 3)
        let syncsAfterFailure = faults.callCount(.synchronizeData)
        // Later appends are refused at once: the failed descriptor is never synced again.
        #expect(throws: StorageError.self) { try journal.appendAndWait(entry(5)) }
        #expect(faults.callCount(.synchronizeData) == syncsAfterFailure)
        journal.close()

        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { reopened.close() }
        #expect(reopened.recovery.head.sequence >= 3)
        let next = try reopened.appendAndWait(entry(9))
        #expect(next.sequence == reopened.recovery.head.sequence + 1)
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

    @Test("EIO while rolling to a new segment fails closed and reopening recovers every acknowledged record")
    func failureWhileRolling() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let faults = FaultInjectingFileSystem()
        try LedgerDirectory.create(at: ledger)
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults, limits: smallLimits))
        // The first segment is created at open; fail the fsync of the next segment's header.
        faults.inject(.init(.synchronize, pathContains: ".seg", effect: .fail(errno: EIO)))
        var acknowledged: [UInt64] = []
        var failed = false
        for number in 1...40 {
            do {
                acknowledged.append(try journal.appendAndWait(entry(number, payloadBytes: 300)).sequence)
            } catch {
                failed = true
                break
            }
        }
        #expect(failed)
        journal.close()
        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        reopened.close()
        let sequences = try readAll(ledger, limits: smallLimits).map(\.sequence)
        #expect(Array(sequences.prefix(acknowledged.count)) == acknowledged)
    }
}
