import Foundation
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
        #expect(statistics.dataSyncs <= total + smallLimits.segmentBytesMax)
        // Each task's own appends are ordered as it made them.
        for task in 0..<tasks {
            let mine = receipts.filter { ($0.0 - 1) / perTask == task }.sorted { $0.0 < $1.0 }.map(\.1.sequence)
            #expect(mine == mine.sorted())
        }
        let records = try readAll(ledger, limits: smallLimits)
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
