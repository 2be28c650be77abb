import Foundation
import LedgerStorage
import Testing

@testable import ContactsLedger

/// The commit path under concurrency and failure: blocking callers that write their own group,
/// asynchronous callers that the journal's writer thread serves, and a failed fdatasync.
@Suite("Contact store: the commit path")
struct ContactStoreCommitPathTests {
    /// The sequences of the changes a store posts, as NotificationCenter observers see them.
    final class PostedSequences: @unchecked Sendable {
        // Thread-safety: guarded by `lock`.
        private let lock = NSLock()
        private var sequences: [UInt64] = []
        private var token: NSObjectProtocol?

        init(_ store: ContactStore) {
            token = NotificationCenter.default.addObserver(forName: .contactStoreDidChange, object: store, queue: nil) {
                [self] note in
                let range = note.userInfo?[ContactStoreChangeKey.sequences] as? [UInt64] ?? []
                lock.lock()
                sequences.append(contentsOf: range.first.map { [$0] } ?? [])
                lock.unlock()
            }
        }

        var values: [UInt64] {
            lock.lock()
            defer { lock.unlock() }
            return sequences
        }

        deinit { if let token { NotificationCenter.default.removeObserver(token) } }
    }

    @Test(
        "Blocking and asynchronous saves at once: each commits once, with one change posted and streamed per commit, in order"
    )
    func blockingAndAsynchronousSaves() async throws {
        let directory = StoreDirectory()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess())
        let posted = PostedSequences(store)
        let stream = store.changes()
        let threads = 6
        let tasks = 6
        let perWriter = 8
        let total = (threads + tasks) * perWriter
        let blocking = Locked<[UInt64]>([])
        let threadsDone = DispatchGroup()
        for thread in 0..<threads {
            threadsDone.enter()
            Thread {
                for index in 0..<perWriter {
                    var request = SaveRequest(transactionAuthor: "thread-\(thread)")
                    request.add(
                        makeContact(given: "Thread\(thread)", family: "Blocking\(index)"),
                        toContainerWithIdentifier: nil)
                    if let result = try? store.execute(request) { blocking.withLock { $0.append(result.sequence) } }
                }
                threadsDone.leave()
            }.start()
        }
        let asynchronous = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var mine: [UInt64] = []
                    for index in 0..<perWriter {
                        var request = SaveRequest(transactionAuthor: "task-\(task)")
                        request.add(
                            makeContact(given: "Task\(task)", family: "Async\(index)"), toContainerWithIdentifier: nil)
                        mine.append(try await store.execute(request).sequence)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                threadsDone.wait()
                continuation.resume()
            }
        }
        let sequences = blocking.withLock { $0 } + asynchronous
        #expect(sequences.count == total, "a blocking save failed")
        #expect(Set(sequences) == Set(1...UInt64(total)))
        #expect(store.headDigest.sequence == UInt64(total))
        #expect(posted.values == Array(1...UInt64(total)))
        var streamed: [UInt64] = []
        for await change in stream {
            streamed.append(change.sequences.lowerBound)
            #expect(change.sequences.count == 1)
            if streamed.count == total { break }
        }
        #expect(streamed == Array(1...UInt64(total)))
        #expect(try store.unifiedContacts(matching: .matchingName("blocking3"), keysToFetch: listKeys).count == threads)
        #expect(try store.unifiedContacts(matching: .matchingName("async3"), keysToFetch: listKeys).count == tasks)
        store.close()
    }

    @Test(
        "A blocking save whose fdatasync fails: it and the save queued behind it fail, later saves are refused, reopening recovers"
    )
    func failedSyncFailsClosed() async throws {
        let directory = StoreDirectory()
        let faults = FaultInjectingFileSystem()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess(), fileSystem: faults)
        let posted = PostedSequences(store)
        let kept = makeContact(given: "Kept", family: "Durable")
        try add([kept], to: store)
        let syncs = faults.callCount(.synchronizeData)

        faults.inject(.init(.synchronizeData, pathContains: "journal/", effect: .fail(errno: EIO)))
        faults.holdDataSyncs()
        let leaderOutcome = Locked<Result<SaveResult, ContactStoreError>?>(nil)
        let leaderDone = DispatchSemaphore(value: 0)
        Thread {
            var request = SaveRequest()
            request.add(makeContact(given: "Lost", family: "Leader"), toContainerWithIdentifier: nil)
            let outcome = Result { try store.execute(request) }.mapError { $0 as! ContactStoreError }
            leaderOutcome.withLock { $0 = outcome }
            leaderDone.signal()
        }.start()
        let deadline = Date().addingTimeInterval(5)
        while faults.dataSyncsWaiting == 0 && Date() < deadline { usleep(1_000) }
        #expect(faults.dataSyncsWaiting == 1, "the blocking save never reached its fdatasync")
        let follower = Task {
            var request = SaveRequest()
            request.add(makeContact(given: "Lost", family: "Follower"), toContainerWithIdentifier: nil)
            return try await store.execute(request)
        }
        usleep(50_000)
        faults.releaseDataSyncs()
        #expect(leaderDone.wait(timeout: .now() + 5) == .success)

        guard case .failure(let leaderError) = try #require(leaderOutcome.withLock { $0 }) else {
            Issue.record("a save was acknowledged although its fdatasync failed")
            return
        }
        #expect(leaderError.storageError.map { if case .writerFailed = $0 { true } else { false } } == true)
        await #expect(throws: ContactStoreError.self) { try await follower.value }
        #expect(faults.callCount(.synchronizeData) == syncs + 1, "a failed fdatasync was retried")
        var later = SaveRequest()
        later.add(makeContact(given: "Refused", family: "Later"), toContainerWithIdentifier: nil)
        #expect { try store.execute(later) } throws: { ($0 as? ContactStoreError)?.code == .storeNotWritable }
        #expect(store.headDigest.sequence == 1)
        #expect(try store.unifiedContacts(matching: .matchingName("lost"), keysToFetch: listKeys).isEmpty)
        #expect(
            identifiers(try store.unifiedContacts(matching: .matchingName("kept"), keysToFetch: listKeys)) == [
                kept.identifier
            ])
        #expect(posted.values == [1], "a change was posted for a save that failed")
        store.close()

        let reopened = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess())
        defer { reopened.close() }
        #expect(reopened.headDigest.sequence == 1)
        #expect(try reopened.unifiedContacts(matching: .matchingName("lost"), keysToFetch: listKeys).isEmpty)
        try add([makeContact(given: "After", family: "Reopen")], to: reopened)
        #expect(reopened.headDigest.sequence == 2)
    }
}
