import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// A blocking caller that finds the writer idle writes its group itself, as the group's leader;
/// records queued meanwhile join the next group, which the writer thread takes.
@Suite("Group commit: a blocking caller leads its group")
struct GroupLeaderTests {
    /// Values completions and handlers write from other threads.
    final class Log: @unchecked Sendable {
        // Thread-safety: every access holds `lock`.
        private let lock = NSLock()
        private var entries: [String] = []
        private var threads: [pthread_t] = []

        func append(_ entry: String) {
            lock.lock()
            entries.append(entry)
            threads.append(pthread_self())
            lock.unlock()
        }

        var values: [String] {
            lock.lock()
            defer { lock.unlock() }
            return entries
        }

        /// Whether every entry was written on `thread`.
        func allOn(_ thread: pthread_t) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return threads.allSatisfy { pthread_equal($0, thread) != 0 }
        }
    }

    /// Waits until `condition` holds, for up to five seconds.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    @Test("A lone deferred record is written, synced and completed on the calling thread before writeQueued returns")
    func loneLeaderWritesOnCallingThread() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        defer { journal.close() }
        let log = Log()
        journal.setGroupCompletionHandler { log.append("group") }
        let syncs = faults.callCount(.synchronizeData)
        try journal.enqueue(entry(2), deferringWrite: true) { result in
            log.append((try? result.get().sequence).map { "durable \($0)" } ?? "failed")
        }
        journal.writeQueued()
        #expect(log.values == ["durable 2", "group"])
        #expect(log.allOn(pthread_self()), "the completion and the handler ran on another thread")
        #expect(faults.callCount(.synchronizeData) == syncs + 1)
        #expect(journal.durableHead.sequence == 2)
        #expect(try readAll(ledger).map(\.sequence) == [1, 2])
    }

    @Test("Records queued while a leader syncs join the next group and complete after it, in sequence order")
    func followersJoinTheNextGroup() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        defer { journal.close() }
        let log = Log()
        journal.setGroupCompletionHandler { log.append("group") }
        let groupsBefore = journal.statistics.groups
        faults.holdDataSyncs()
        let leaderDone = DispatchSemaphore(value: 0)
        Thread {
            let receipt = try? journal.appendAndWait(entry(2))
            log.append("leader \(receipt?.sequence ?? 0)")
            leaderDone.signal()
        }.start()
        #expect(eventually { faults.dataSyncsWaiting == 1 }, "the leader never reached its fdatasync")

        // While the leader holds the writer role: plain enqueues and a deferred one whose
        // writeQueued returns at once, since another thread is writing.
        for number in 3...6 {
            try journal.enqueue(entry(number)) { result in
                log.append((try? result.get().sequence).map { "durable \($0)" } ?? "failed")
            }
        }
        try journal.enqueue(entry(7), deferringWrite: true) { result in
            log.append((try? result.get().sequence).map { "durable \($0)" } ?? "failed")
        }
        journal.writeQueued()
        #expect(log.values.isEmpty, "something completed before its fdatasync returned")

        faults.releaseDataSyncs()
        #expect(leaderDone.wait(timeout: .now() + 5) == .success)
        #expect(eventually { log.values.filter { $0.hasPrefix("durable") }.count == 5 })
        #expect(eventually { log.values.filter { $0 == "group" }.count == 2 })
        let durable = log.values.filter { $0.hasPrefix("durable") }
        #expect(durable == ["durable 3", "durable 4", "durable 5", "durable 6", "durable 7"])
        // The leader's group (record 2) is completed, and its handler run, before the next group starts.
        let values = log.values
        let firstGroup = try #require(values.firstIndex(of: "group"))
        let firstFollower = try #require(values.firstIndex(of: "durable 3"))
        #expect(firstGroup < firstFollower)
        #expect(values.last == "group")
        #expect(journal.statistics.groups == groupsBefore + 2)
        #expect(try readAll(ledger).map(\.sequence) == Array(1...7))
    }

    @Test(
        "A leader whose fdatasync fails: its outcome is unknown, every record queued behind it fails, nothing is retried, the journal stays closed",
        arguments: [Int32(EIO), ENOSPC])
    func leaderFailureFailsTheFollowers(errno: Int32) throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let acknowledged = try makeLedger(at: ledger, count: 1)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        let log = Log()
        journal.setGroupCompletionHandler { log.append("group") }
        let syncs = faults.callCount(.synchronizeData)
        faults.inject(.init(.synchronizeData, pathContains: "journal/", effect: .fail(errno: errno)))
        faults.holdDataSyncs()
        let leaderDone = DispatchSemaphore(value: 0)
        let leaderError = Log()
        Thread {
            do {
                _ = try journal.appendAndWait(entry(2))
                leaderError.append("acknowledged")
            } catch StorageError.outcomeUnknown {
                leaderError.append("outcomeUnknown")
            } catch {
                leaderError.append("other \(error)")
            }
            leaderDone.signal()
        }.start()
        #expect(eventually { faults.dataSyncsWaiting == 1 }, "the leader never reached its fdatasync")
        for number in 3...5 {
            try journal.enqueue(entry(number)) { result in
                switch result {
                case .success(let receipt): log.append("durable \(receipt.sequence)")
                case .failure(.writerFailed): log.append("failed writerFailed")
                case .failure(let error): log.append("failed other \(error)")
                }
            }
        }
        faults.releaseDataSyncs()
        #expect(leaderDone.wait(timeout: .now() + 5) == .success)
        #expect(eventually { log.values.filter { $0.hasPrefix("failed") }.count == 3 })

        let leaderOutcome = try #require(leaderError.values.first)
        // Its record was written, so it may be on disk (decision 0021); those behind it were not.
        #expect(leaderOutcome == "outcomeUnknown")
        #expect(
            log.values.allSatisfy { !$0.hasPrefix("durable") }, "a record was acknowledged after a failed fdatasync")
        #expect(log.values.filter { $0.hasPrefix("failed") } == Array(repeating: "failed writerFailed", count: 3))
        #expect(faults.callCount(.synchronizeData) == syncs + 1, "a failed fdatasync was retried")
        #expect(journal.writerFailure != nil)
        #expect(journal.durableHead == acknowledged[0].head)
        #expect(throws: StorageError.self) { try journal.appendAndWait(entry(6)) }
        journal.close()

        let reopened = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { reopened.close() }
        #expect(reopened.recovery.head == acknowledged[0].head)
        #expect(try reopened.appendAndWait(entry(2)).sequence == 2)
    }
}

extension AppendReceipt {
    /// The head digest this receipt makes durable.
    fileprivate var head: HeadDigest { HeadDigest(sequence: sequence, hash: hash) }
}
