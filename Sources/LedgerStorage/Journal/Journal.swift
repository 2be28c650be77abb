import Dispatch
import Foundation

/// The limits every journal enforces, each named with its unit last.
public struct JournalLimits: Sendable, Hashable {
    /// A segment is rolled when the next record would take it past this many bytes.
    public var segmentBytesMax: Int
    /// The largest record body (envelope, author and payload) accepted.
    public var recordBytesMax: Int
    /// The most records one group commit writes before its fdatasync.
    public var groupRecordsMax: Int
    /// The most frame bytes one group commit writes before its fdatasync.
    public var groupBytesMax: Int

    /// Creates limits; ``validate()`` checks that they fit together.
    public init(segmentBytesMax: Int, recordBytesMax: Int, groupRecordsMax: Int, groupBytesMax: Int) {
        self.segmentBytesMax = segmentBytesMax
        self.recordBytesMax = recordBytesMax
        self.groupRecordsMax = groupRecordsMax
        self.groupBytesMax = groupBytesMax
    }

    /// The limits used unless a caller chooses others: 64 MiB segments, 16 MiB records,
    /// groups of up to 1,024 records or 32 MiB.
    public static let standard = JournalLimits(
        segmentBytesMax: 64 << 20, recordBytesMax: 16 << 20, groupRecordsMax: 1024, groupBytesMax: 32 << 20)

    /// Throws unless any record within `recordBytesMax` fits in an empty segment and in a group.
    public func validate() throws(StorageError) {
        let minimumBody = RecordFrame.envelopeFixedBytes + RecordFrame.authorBytesMax
        guard recordBytesMax >= minimumBody, recordBytesMax <= RecordFrame.bodyBytesFormatMax else {
            throw StorageError.invalidArgument("recordBytesMax must be at least \(minimumBody)")
        }
        guard segmentBytesMax >= SegmentHeader.encodedBytes + RecordFrame.frameHeaderBytes + recordBytesMax else {
            throw StorageError.invalidArgument("segmentBytesMax must hold a header and one largest record")
        }
        guard groupRecordsMax >= 1, groupBytesMax >= RecordFrame.frameHeaderBytes + recordBytesMax else {
            throw StorageError.invalidArgument("a group must hold at least one largest record")
        }
    }
}

/// How a journal is opened for writing.
public struct JournalOptions: Sendable {
    /// The file layer; tests pass a ``FaultInjectingFileSystem``.
    public var fileSystem: any FileSystem
    /// The format limits.
    public var limits: JournalLimits
    /// How long to wait for another process's writer lock before failing with ``StorageError/locked(path:)``; 0 fails at once.
    public var lockWaitSeconds: Double
    /// The wall clock in microseconds; commit times never go below the previous record's.
    public var clock: @Sendable () -> Int64

    /// Creates options; every argument has the production default.
    public init(
        lockWaitSeconds: Double = 0, fileSystem: any FileSystem = SystemFileSystem(), limits: JournalLimits = .standard,
        clock: @escaping @Sendable () -> Int64 = WallClock.nowMicroseconds
    ) {
        self.fileSystem = fileSystem
        self.limits = limits
        self.lockWaitSeconds = lockWaitSeconds
        self.clock = clock
    }
}

/// What opening a journal for writing found and did, per the recovery decision table.
public struct RecoveryReport: Sendable, Hashable {
    /// The durable head after recovery.
    public var head: HeadDigest
    /// How the scan found the journal's end.
    public var tail: JournalTail
    /// Bytes removed from the end of the last segment (a torn record), or 0.
    public var truncatedBytes: Int64
    /// A last segment whose header was never completely written, removed and created anew.
    public var removedSegment: String?
    /// How many records were checked and handed to the caller.
    public var recordsReplayed: Int

    /// Whether open had to repair anything.
    public var repaired: Bool { truncatedBytes > 0 || removedSegment != nil }
}

/// Counters a writer keeps, for tests and benchmarks.
public struct WriterStatistics: Sendable, Hashable {
    /// Records made durable.
    public var records: Int = 0
    /// Groups written (one write, one fdatasync each, plus one more per segment roll).
    public var groups: Int = 0
    /// fdatasync and fsync calls made for records.
    public var dataSyncs: Int = 0
}

/// A ledger's journal opened for appending: the single writer, with group commit.
///
/// Many threads or tasks may append at once. Each append becomes one record; the writer
/// thread takes every record queued so far (up to the group limits), writes them with one
/// write and makes them durable with one fdatasync, and only then completes each caller,
/// in sequence order. Nothing is acknowledged before its fdatasync returns.
///
/// A failed write or fdatasync is never retried on the same descriptor: the journal fails
/// closed. Every caller in the failed group, and every later caller, gets
/// ``StorageError/writerFailed(cause:)``; reopening recovers from what is on disk.
public final class Journal: @unchecked Sendable {
    // Thread-safety: the immutable lets are safe to share; the `queue`, `nextSequence`,
    // `durable`, `failure`, `closing`, `writerDone` and `statistics` fields are read and
    // written only with `condition` held; the `segment`, `segmentHasRoom` and `lastHash`
    // group fields are touched only by the writer thread after `open` returns.

    /// The ledger's paths.
    public let paths: LedgerPaths
    /// The ledger's identity.
    public let identity: LedgerIdentity
    /// What open found and repaired.
    public let recovery: RecoveryReport
    /// The limits in force.
    public let limits: JournalLimits
    private let fileSystem: any FileSystem
    private let clock: @Sendable () -> Int64
    private let lockFile: OpenFile

    private struct Pending {
        var entry: JournalEntry
        var sequence: UInt64
        var frameBytes: Int
        var completion: @Sendable (Result<AppendReceipt, StorageError>) -> Void
    }

    private let condition = NSCondition()
    private var queue: [Pending] = []
    private var nextSequence: UInt64
    private var durable: HeadDigest
    private var failure: StorageError?
    private var closing = false
    private var closed = false
    private var writerDone = false
    private var counters = WriterStatistics()

    private var segment: OpenFile
    private var writeOffset: Int64
    private var lastHash: SHA256Digest
    private var lastCommit: Int64

    private init(
        paths: LedgerPaths, identity: LedgerIdentity, recovery: RecoveryReport, options: JournalOptions,
        lockFile: OpenFile, segment: OpenFile, writeOffset: Int64, lastCommit: Int64
    ) {
        self.paths = paths
        self.identity = identity
        self.recovery = recovery
        self.limits = options.limits
        self.fileSystem = options.fileSystem
        self.clock = options.clock
        self.lockFile = lockFile
        self.segment = segment
        self.writeOffset = writeOffset
        self.lastHash = recovery.head.hash
        self.lastCommit = lastCommit
        self.nextSequence = recovery.head.sequence + 1
        self.durable = recovery.head
    }

    /// Opens the ledger at `path` for writing: takes the writer lock, scans the journal,
    /// applies the recovery decision table, and starts the writer thread.
    ///
    /// Every record from `replayFrom` on is checked and passed to `onRecord` in order, so a
    /// caller can rebuild its projections in the same pass. Throws ``StorageError/locked(path:)``
    /// if another writer holds the ledger, ``StorageError/corruption(location:reason:)`` for
    /// damage other than a torn tail, or whatever `onRecord` throws.
    public static func open(
        at path: String, options: JournalOptions = JournalOptions(), replayFrom: UInt64 = 1,
        onRecord: (JournalRecord) throws -> Void = { _ in }
    ) throws -> Journal {
        try options.limits.validate()
        let fileSystem = options.fileSystem
        let paths = LedgerPaths(root: path)
        let identity = try LedgerDirectory.identity(at: path, fileSystem: fileSystem)
        let lockFile = try acquireLock(paths, fileSystem: fileSystem, waitSeconds: options.lockWaitSeconds)
        do {
            var scan = try JournalScan(
                paths: paths, identity: identity, fileSystem: fileSystem,
                recordBytesMax: options.limits.recordBytesMax, from: replayFrom)
            var replayed = 0
            while let record = try scan.next() {
                try onRecord(record)
                replayed += 1
            }
            var truncated: Int64 = 0
            var removed: String?
            let tail = scan.tail ?? .clean
            let head = HeadDigest(sequence: scan.expectedSequence - 1, hash: scan.previousHash)
            let segment: OpenFile
            let writeOffset: Int64
            switch tail {
            case .tornSegmentHeader(let file, _):
                // The crash came while rolling: nothing was ever acknowledged in this file.
                try fileSystem.remove(paths.root + "/" + file)
                try fileSystem.synchronizeDirectory(paths.journal)
                removed = file
                segment = try createSegment(paths, identity, fileSystem, first: head.sequence + 1, previous: head.hash)
                writeOffset = Int64(SegmentHeader.encodedBytes)
            case .tornRecord(let location, let dropped, _):
                segment = try fileSystem.open(paths.root + "/" + location.file, .readWrite)
                try fileSystem.truncate(segment, to: location.offset)
                try fileSystem.synchronize(segment)
                truncated = dropped
                writeOffset = location.offset
            case .clean:
                let existing = try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
                if let first = scan.currentSegmentFirstSequence ?? existing.last {
                    segment = try fileSystem.open(paths.segment(firstSequence: first), .readWrite)
                    writeOffset = try fileSystem.size(of: segment)
                } else {
                    segment = try createSegment(paths, identity, fileSystem, first: 1, previous: .zero)
                    writeOffset = Int64(SegmentHeader.encodedBytes)
                }
            }
            let report = RecoveryReport(
                head: head, tail: tail, truncatedBytes: truncated, removedSegment: removed, recordsReplayed: replayed)
            let journal = Journal(
                paths: paths, identity: identity, recovery: report, options: options, lockFile: lockFile,
                segment: segment, writeOffset: writeOffset,
                lastCommit: scan.lastCommitMicroseconds == .min ? 0 : scan.lastCommitMicroseconds)
            journal.startWriter()
            return journal
        } catch {
            try? fileSystem.close(lockFile)
            throw error
        }
    }

    /// Opens the lock file and takes its exclusive flock, waiting up to `waitSeconds`.
    private static func acquireLock(
        _ paths: LedgerPaths, fileSystem: any FileSystem, waitSeconds: Double
    )
        throws(StorageError) -> OpenFile
    {
        let file = try fileSystem.open(paths.lock, .createOrOpen(permissions: LedgerDirectory.filePermissions))
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, waitSeconds) * 1e9)
        do throws(StorageError) {
            while true {
                if try fileSystem.tryLockExclusive(file) == .acquired { return file }
                if DispatchTime.now().uptimeNanoseconds >= deadline { throw StorageError.locked(path: paths.root) }
                usleep(10_000)
            }
        } catch {
            try? fileSystem.close(file)
            throw error
        }
    }

    /// Creates a segment file, writes and fsyncs its header, and fsyncs the journal directory.
    private static func createSegment(
        _ paths: LedgerPaths, _ identity: LedgerIdentity, _ fileSystem: any FileSystem, first: UInt64,
        previous: SHA256Digest
    ) throws(StorageError) -> OpenFile {
        let header = SegmentHeader(ledgerID: identity.ledgerID, firstSequence: first, previousHash: previous)
        let file = try fileSystem.open(
            paths.segment(firstSequence: first), .createNew(permissions: LedgerDirectory.filePermissions))
        do {
            try fileSystem.write(file, header.encoded(), at: 0)
            try fileSystem.synchronize(file)
            try fileSystem.synchronizeDirectory(paths.journal)
        } catch {
            try? fileSystem.close(file)
            throw error
        }
        return file
    }

    private func startWriter() {
        let thread = Thread { [self] in self.runWriter() }
        thread.name = "ContactsLedger journal writer"
        thread.start()
    }

    // MARK: Appending

    /// Queues a record and returns its sequence number at once; `completion` runs on the
    /// writer thread after the record is durable (or its group failed), in sequence order.
    ///
    /// Throws without queuing anything if the entry is over a limit, the journal is closed,
    /// or the writer has failed.
    @discardableResult
    public func enqueue(
        _ entry: JournalEntry, completion: @escaping @Sendable (Result<AppendReceipt, StorageError>) -> Void
    ) throws(StorageError) -> UInt64 {
        let authorBytes = entry.author.utf8.count
        guard authorBytes <= RecordFrame.authorBytesMax else {
            throw StorageError.limitExceeded(
                what: "author bytes", limit: RecordFrame.authorBytesMax, actual: authorBytes)
        }
        let body = RecordFrame.envelopeFixedBytes + authorBytes + entry.payload.count
        guard body <= limits.recordBytesMax else {
            throw StorageError.limitExceeded(what: "record bytes", limit: limits.recordBytesMax, actual: body)
        }
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        if closing { throw StorageError.closed }
        let sequence = nextSequence
        nextSequence += 1
        queue.append(
            Pending(
                entry: entry, sequence: sequence, frameBytes: RecordFrame.frameHeaderBytes + body,
                completion: completion))
        condition.signal()
        return sequence
    }

    /// Appends one record and returns after it is on disk (fdatasync has returned).
    public func append(_ entry: JournalEntry) async throws(StorageError) -> AppendReceipt {
        let result: Result<AppendReceipt, StorageError> = await withCheckedContinuation { continuation in
            do throws(StorageError) {
                try enqueue(entry) { continuation.resume(returning: $0) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }

    /// Appends one record and blocks the calling thread until it is on disk.
    public func appendAndWait(_ entry: JournalEntry) throws(StorageError) -> AppendReceipt {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        try enqueue(entry) { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return try box.get()
    }

    /// The head as of the last durable group.
    public var durableHead: HeadDigest {
        condition.lock()
        defer { condition.unlock() }
        return durable
    }

    /// The writer's counters.
    public var statistics: WriterStatistics {
        condition.lock()
        defer { condition.unlock() }
        return counters
    }

    /// The error that made the writer fail closed, if it has.
    public var writerFailure: StorageError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// Waits for every queued record to be written, stops the writer and releases the lock.
    public func close() {
        condition.lock()
        if closed {
            condition.unlock()
            return
        }
        closing = true
        condition.broadcast()
        while !writerDone { condition.wait() }
        closed = true
        condition.unlock()
        try? fileSystem.close(segment)
        try? fileSystem.close(lockFile)
    }

    deinit {
        close()
    }

    // MARK: The writer thread

    private func runWriter() {
        while true {
            condition.lock()
            while queue.isEmpty && !closing && failure == nil { condition.wait() }
            if failure != nil || (queue.isEmpty && closing) {
                writerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            var count = 0
            var bytes = 0
            while count < queue.count && count < limits.groupRecordsMax {
                if count > 0 && bytes + queue[count].frameBytes > limits.groupBytesMax { break }
                bytes += queue[count].frameBytes
                count += 1
            }
            let group = Array(queue[0..<count])
            queue.removeFirst(count)
            condition.unlock()

            let outcome = writeGroup(group, frameBytes: bytes)

            condition.lock()
            var abandoned: [Pending] = []
            switch outcome {
            case .success(let receipts):
                durable = HeadDigest(sequence: receipts.last!.sequence, hash: receipts.last!.hash)
                counters.records += receipts.count
                counters.groups += 1
            case .failure(let error):
                let failed = StorageError.writerFailed(cause: error.description)
                failure = failed
                abandoned = queue
                queue = []
            }
            condition.unlock()

            switch outcome {
            case .success(let receipts):
                for (pending, receipt) in zip(group, receipts) { pending.completion(.success(receipt)) }
            case .failure(let error):
                let failed = StorageError.writerFailed(cause: error.description)
                for pending in group { pending.completion(.failure(failed)) }
                for pending in abandoned { pending.completion(.failure(failed)) }
            }
        }
    }

    /// Writes one group: frames into the current segment, rolling when a record would not fit,
    /// then one fdatasync. Runs on the writer thread only.
    private func writeGroup(_ group: [Pending], frameBytes: Int) -> Result<[AppendReceipt], StorageError> {
        let commit = max(clock(), lastCommit)
        var buffer = ByteWriter(capacity: frameBytes)
        var receipts: [AppendReceipt] = []
        receipts.reserveCapacity(group.count)
        var hash = lastHash
        var syncs = 0
        do throws(StorageError) {
            for pending in group {
                let end = writeOffset + Int64(buffer.count) + Int64(pending.frameBytes)
                if end > Int64(limits.segmentBytesMax)
                    && writeOffset + Int64(buffer.count) > Int64(SegmentHeader.encodedBytes)
                {
                    if buffer.count > 0 {
                        try flush(&buffer)
                        syncs += 1
                    }
                    try fileSystem.close(segment)
                    segment = try Self.createSegment(
                        paths, identity, fileSystem, first: pending.sequence, previous: hash)
                    writeOffset = Int64(SegmentHeader.encodedBytes)
                    syncs += 1
                    buffer = ByteWriter(capacity: frameBytes)
                }
                hash = RecordFrame.encode(
                    pending.entry, sequence: pending.sequence, commitMicroseconds: commit, previousHash: hash,
                    into: &buffer)
                receipts.append(AppendReceipt(sequence: pending.sequence, commitMicroseconds: commit, hash: hash))
            }
            try flush(&buffer)
            syncs += 1
        } catch {
            return .failure(error)
        }
        lastHash = hash
        lastCommit = commit
        condition.lock()
        counters.dataSyncs += syncs
        condition.unlock()
        return .success(receipts)
    }

    /// Writes the buffered frames at the end of the segment and fdatasyncs it.
    private func flush(_ buffer: inout ByteWriter) throws(StorageError) {
        guard buffer.count > 0 else { return }
        let file = segment
        let offset = writeOffset
        try fileSystem.write(file, buffer.bytes, at: offset)
        try fileSystem.synchronizeData(file)
        writeOffset += Int64(buffer.count)
        buffer = ByteWriter(capacity: 0)
    }
}

/// A result handed from the writer thread to a blocked caller.
private final class ResultBox: @unchecked Sendable {
    // Thread-safety: `set` happens before the semaphore signal and `get` after the wait.
    private var result: Result<AppendReceipt, StorageError>?
    func set(_ value: Result<AppendReceipt, StorageError>) { result = value }
    func get() throws(StorageError) -> AppendReceipt { try result!.get() }
}
