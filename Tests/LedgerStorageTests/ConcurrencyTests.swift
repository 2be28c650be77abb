import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

@Suite("Group commit and concurrent appenders")
struct ConcurrencyTests {
    @Test("Concurrent appenders from many tasks are all durable, in one gapless total order")
    func manyTasks() async throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        let tasks = 32
        let perTask = 20
        let receipts = try await withThrowingTaskGroup(of: [(Int, AppendReceipt)].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var mine: [(Int, AppendReceipt)] = []
                    for index in 0..<perTask {
                        let number = task * perTask + index + 1
                        mine.append((number, try await journal.append(entry(number, payloadBytes: 64))))
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let statistics = journal.statistics
        journal.close()

        let total = tasks * perTask
        #expect(Set(receipts.map(\.1.sequence)) == Set(1...UInt64(total)))
        #expect(statistics.records == total)
        #expect(statistics.groups >= 1 && statistics.groups <= total)
        // One fdatasync per group; a roll adds the fsync that cuts the zeros off the full segment,
        // the new segment's fsync and the directory's, the fdatasync of the zeros the new
        // segment's first frames go into, and one more fdatasync when frames were already
        // buffered in the group.
        let rolls = try segmentPaths(ledger).count - 1
        #expect(rolls > 0)
        #expect(statistics.dataSyncs >= statistics.groups + 4 * rolls)
        #expect(statistics.dataSyncs <= statistics.groups + 5 * rolls)
        let records = try readAll(ledger)
        #expect(records.map(\.sequence) == Array(1...UInt64(total)))
        let bySequence = Dictionary(uniqueKeysWithValues: receipts.map { ($0.1.sequence, $0.0) })
        for record in records {
            let number = try #require(bySequence[record.sequence])
            #expect(record.requestID == entry(number).requestID)
            #expect(record.payload == entry(number, payloadBytes: 64).payload)
        }
        // Commit times never go backwards.
        #expect(records.map(\.commitMicroseconds) == records.map(\.commitMicroseconds).sorted())
    }

    @Test("Completions run in sequence order, whichever threads enqueued")
    func completionsRunInSequenceOrder() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        let threads = 8
        let perThread = 100
        let order = Locked<[UInt64]>([])
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                done.enter()
                do {
                    try journal.enqueue(entry(thread * perThread + index + 1, payloadBytes: 64)) { result in
                        order.withLock { $0.append((try? result.get().sequence) ?? 0) }
                        done.leave()
                    }
                } catch {
                    done.leave()
                }
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        journal.close()
        #expect(order.withLock { $0 } == Array(1...UInt64(threads * perThread)))
    }

    @Test("close() with appends in flight: every caller completes, none hangs, and every success is durable")
    func closeWithAppendsInFlight() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        let succeeded = Locked<Set<UUID>>([])
        let errors = Locked<[StorageError]>([])
        let finished = DispatchGroup()
        for thread in 0..<12 {
            finished.enter()
            Thread {
                var number = thread * 1_000_000
                while true {
                    number += 1
                    let next = entry(number)
                    do throws(StorageError) {
                        _ = try journal.appendAndWait(next)
                    } catch {
                        errors.withLock { $0.append(error) }
                        break
                    }
                    succeeded.withLock { _ = $0.insert(next.requestID) }
                }
                finished.leave()
            }.start()
        }
        while journal.durableHead.sequence < 60 { usleep(1_000) }
        journal.close()
        #expect(finished.wait(timeout: .now() + 20) == .success, "an appender hung after close()")
        #expect(errors.withLock { $0 } == Array(repeating: StorageError.closed, count: 12))
        #expect(throws: StorageError.closed) { try journal.enqueue(entry(0)) { _ in } }
        let stored = try readAll(ledger)
        #expect(Set(stored.map(\.requestID)) == succeeded.withLock { $0 })
        #expect(stored.map(\.sequence) == Array(1...UInt64(stored.count)))
    }

    @Test("close() from a completion does not deadlock: the writer finishes the queue and releases the lock")
    func closeFromCompletion() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        let closed = DispatchSemaphore(value: 0)
        let queuedBehind = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<AppendReceipt, StorageError>?>(nil)
        try journal.enqueue(entry(2)) { _ in
            journal.close()
            closed.signal()
        }
        _ = try? journal.enqueue(entry(3)) { result in
            outcome.withLock { $0 = result }
            queuedBehind.signal()
        }
        guard wait(closed, seconds: 5) else {
            Issue.record("close() called from a completion deadlocked the writer")
            return
        }
        #expect(throws: StorageError.closed) { try journal.enqueue(entry(4)) { _ in } }
        journal.close()
        if wait(queuedBehind, seconds: 1) {
            // Queued before the close: written, as close() promises.
            #expect(outcome.withLock { try? $0?.get().sequence } == 3)
        }
        let again = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 0))
        again.close()
        #expect(try readAll(ledger).count >= 2)
    }

    @Test("A journal dropped without close() releases its files and the lock")
    func droppedJournalReleasesLock() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        let faults = FaultInjectingFileSystem()
        weak var dropped: Journal?
        do {
            let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
            dropped = journal
            _ = try journal.appendAndWait(entry(2))
        }
        #expect(dropped == nil, "the writer thread keeps a dropped journal alive")
        #expect(faults.openFileCount == 0)
        let again = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 0))
        again.close()
    }

    /// Holds a journal for a test; the completion that drops it runs after the test has let go.
    final class Holder: @unchecked Sendable {
        // Thread-safety: written by the test before the gated completion runs, then only by it.
        var journal: Journal?
    }

    @Test("A journal whose last reference is dropped in a completion closes itself on the writer thread")
    func lastReferenceDroppedInCompletion() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        let faults = FaultInjectingFileSystem()
        let holder = Holder()
        holder.journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        let dropped = DispatchSemaphore(value: 0)
        faults.holdDataSyncs()
        try holder.journal?.enqueue(entry(2)) { _ in
            holder.journal = nil
            dropped.signal()
        }
        faults.releaseDataSyncs()
        #expect(wait(dropped), "the completion never ran")
        let again = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 5))
        again.close()
        #expect(faults.openFileCount == 0)
        #expect(try readAll(ledger).count == 2)
    }

    @Test("Closing from several threads at once closes each descriptor once")
    func concurrentCloses() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        for _ in 0..<20 {
            let faults = FaultInjectingFileSystem()
            let journal = try Journal.open(
                at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
            try journal.enqueue(entry(2)) { _ in }
            DispatchQueue.concurrentPerform(iterations: 4) { _ in journal.close() }
            #expect(faults.refusedCloseCalls.isEmpty, "a descriptor was closed twice")
            #expect(faults.openFileCount == 0)
        }
    }

    @Test("A thread names itself where the system shows it, cut to 15 bytes; the journal's writer is named")
    func threadNames() throws {
        #if os(Linux)
            final class Seen: @unchecked Sendable {
                // Written by one thread before it signals, read by the test after waiting.
                var names: [String] = []
            }
            let seen = Seen()
            let done = DispatchSemaphore(value: 0)
            let comm: @Sendable () -> String = {
                (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            }
            Thread {
                ThreadName.setCurrent("a name longer than fifteen bytes")
                seen.names.append(comm())
                done.signal()
            }.start()
            done.wait()
            let directory = TemporaryDirectory()
            let ledger = directory.child("l")
            try LedgerDirectory.create(at: ledger)
            let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
            // Completions run on the writer thread.
            try journal.enqueue(entry(1)) { _ in
                seen.names.append(comm())
                done.signal()
            }
            done.wait()
            journal.close()
            #expect(seen.names == ["a name longer t\n", "journal writer\n"])
        #endif
    }

    @Test("Records queued together share one fdatasync")
    func queuedRecordsShareASync() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        // Hold the writer inside the first group's fdatasync, queue 199 more records behind it,
        // then let it go: they must all go out in one more group with one more fdatasync.
        faults.holdDataSyncs()
        let done = DispatchGroup()
        done.enter()
        try journal.enqueue(entry(1)) { _ in done.leave() }
        while faults.dataSyncsWaiting == 0 { usleep(1_000) }
        for number in 2...200 {
            done.enter()
            try journal.enqueue(entry(number)) { _ in done.leave() }
        }
        faults.releaseDataSyncs()
        done.wait()
        let statistics = journal.statistics
        journal.close()
        #expect(statistics.records == 200)
        #expect(statistics.groups == 2)
        #expect(statistics.dataSyncs == 2)
        #expect(try readAll(ledger).count == 200)
    }

    @Test("Commit times never go backwards, even when the clock does")
    func clockSteppingBack() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let times: [Int64] = [5_000, 9_000, 7_000, 3_000, 12_000]
        let tick = ClockScript(times)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, clock: { tick.next() }))
        let receipts = try (1...5).map { try journal.appendAndWait(entry($0)) }
        journal.close()
        let acknowledged: [Int64] = receipts.map { $0.commitMicroseconds }
        #expect(acknowledged == [5_000, 9_000, 9_000, 9_000, 12_000])
        let stored: [Int64] = try readAll(ledger).map { $0.commitMicroseconds }
        #expect(stored == [5_000, 9_000, 9_000, 9_000, 12_000])
    }
}

/// A clock that returns scripted times in order.
final class ClockScript: @unchecked Sendable {
    // Thread-safety: guarded by `lock`.
    private let lock = NSLock()
    private var times: [Int64]
    init(_ times: [Int64]) { self.times = times }
    func next() -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        return times.isEmpty ? 0 : times.removeFirst()
    }
}
