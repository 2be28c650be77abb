import Dispatch
import Foundation

/// The limits every journal enforces, each named with its unit last.
public struct JournalLimits: Sendable, Hashable {
    /// A segment is rolled when the next record would take it past this many bytes.
    public var segmentBytesMax: Int
    /// The largest record body (envelope, author and payload) accepted for appending; reading is
    /// bounded only by the format, so lowering it never makes a stored record unreadable.
    public var recordBytesMax: Int
    /// The most records one group commit writes before its fdatasync.
    public var groupRecordsMax: Int
    /// The most frame bytes one group commit writes before its fdatasync.
    public var groupBytesMax: Int
    /// At most how far ahead of its records the writer fills the segment with zeros (never past
    /// `segmentBytesMax`); 0 appends at the end of the file instead.
    ///
    /// A record written into space that is already allocated and durable does not change the
    /// file's size, so its fdatasync writes the data alone, not the inode as well (decision 0011).
    /// The writer fills as far ahead as the segment already holds, at least 64 KiB and at most
    /// this, and renews the space when less than half of it is left, in the same write and
    /// fdatasync as the group that uses it up.
    public var preallocationBytes: Int

    /// Creates limits; ``validate()`` checks that they fit together.
    public init(
        segmentBytesMax: Int, recordBytesMax: Int, groupRecordsMax: Int, groupBytesMax: Int,
        preallocationBytes: Int = 4 << 20
    ) {
        self.segmentBytesMax = segmentBytesMax
        self.recordBytesMax = recordBytesMax
        self.groupRecordsMax = groupRecordsMax
        self.groupBytesMax = groupBytesMax
        self.preallocationBytes = preallocationBytes
    }

    /// The limits used unless a caller chooses others: 64 MiB segments, 16 MiB records,
    /// groups of up to 1,024 records or 32 MiB, and 4 MiB of zeros ahead of the records.
    public static let standard = JournalLimits(
        segmentBytesMax: 64 << 20, recordBytesMax: 16 << 20, groupRecordsMax: 1024, groupBytesMax: 32 << 20)

    /// Throws unless `recordBytesMax` is within the format's bounds and any record within it fits
    /// in an empty segment and in a group.
    ///
    /// `recordBytesMax` bounds what is appended, not what is read: a record written under a larger
    /// limit stays readable, and valid, after the limit is lowered.
    public func validate() throws(StorageError) {
        let minimumBody = RecordFrame.envelopeBytesMax + RecordFrame.authorBytesMax
        guard recordBytesMax >= minimumBody else {
            throw StorageError.invalidArgument("recordBytesMax must be at least \(minimumBody)")
        }
        guard recordBytesMax <= RecordFrame.bodyBytesFormatMax else {
            throw StorageError.invalidArgument(
                "recordBytesMax must be at most \(RecordFrame.bodyBytesFormatMax), the largest length a frame can hold")
        }
        guard segmentBytesMax >= SegmentHeader.encodedBytes + RecordFrame.frameHeaderBytes + recordBytesMax else {
            throw StorageError.invalidArgument("segmentBytesMax must hold a header and one largest record")
        }
        guard groupRecordsMax >= 1, groupBytesMax >= RecordFrame.frameHeaderBytes + recordBytesMax else {
            throw StorageError.invalidArgument("a group must hold at least one largest record")
        }
        guard preallocationBytes >= 0 else {
            throw StorageError.invalidArgument("preallocationBytes must not be negative")
        }
    }
}

/// How a journal is opened for writing.
public struct JournalOptions: Sendable {
    /// The file layer; tests pass one that injects faults and simulates crashes.
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
    /// Bytes of a torn record removed from the end of the last segment (to its last byte that is
    /// not zero; zeros after it are cut as well), or 0.
    public var truncatedBytes: Int64
    /// A last segment whose header was never completely written, removed and created anew.
    public var removedSegment: String?
    /// How many records were checked and handed to the caller.
    public var recordsReplayed: Int
    /// When a writer of this ledger failed earlier in this process: the position it had made
    /// durable, which open cut the journal back to before scanning, and what it removed.
    public var writerFailureRollback: WriterFailureRollback?

    /// Whether open had to repair anything.
    public var repaired: Bool {
        truncatedBytes > 0 || removedSegment != nil
            || writerFailureRollback.map { $0.droppedBytes > 0 || !$0.removedSegments.isEmpty } == true
    }
}

/// Counters a writer keeps, for tests and benchmarks.
public struct WriterStatistics: Sendable, Hashable {
    /// Records made durable.
    public var records: Int = 0
    /// Groups made durable (one write and one fdatasync each, plus more when a group rolls).
    public var groups: Int = 0
    /// Every fdatasync, fsync and directory fsync the writer called, including any that
    /// failed: one fdatasync per group, one more when a group rolls with frames already buffered,
    /// one more before a group's frames when they would run past the zeros ahead (the first group
    /// in a new segment, or a group larger than the space left), per roll an fsync of the full
    /// segment (cutting its zeros off), of the new segment and of the journal directory, and an
    /// fsync at close (cutting the zeros off the last segment). The fsyncs that
    /// ``Journal/open(at:options:replayFrom:onRecord:)`` makes before the writer starts are not counted.
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
/// closed. A caller in the failed group whose record was written but whose fdatasync failed gets
/// ``StorageError/outcomeUnknown(cause:)``; every other caller in it that the failure reached,
/// and every later caller, gets ``StorageError/writerFailed(cause:)``, meaning its record was not
/// written. Records a successful fdatasync covered are acknowledged even when work after it
/// fails (the zeros written ahead, or a roll), and that failure stops the writer for later
/// records (decision 0021). Reopening recovers from what is on disk, after cutting the journal
/// back to what the failed writer had made durable (see ``RecoveryReport/writerFailureRollback``).
///
/// One thread at a time holds the writer role: the journal's writer thread, or a caller that
/// found the writer idle and writes as the group's leader (``appendAndWait(_:)``, or
/// ``enqueue(_:deferringWrite:completion:)`` followed by ``writeQueued()``), which saves the
/// two thread wake-ups a lone blocking writer would otherwise pay. Records queued while a group
/// is being written join the next group, which the writer thread takes. Whoever holds the role
/// runs the group's completions, in sequence order, and then the group completion handler
/// (``setGroupCompletionHandler(_:)``), before the next group is taken.
///
/// Completions run on the thread holding the writer role. A completion may call
/// ``enqueue(_:completion:)``, ``append(_:)`` or ``close()`` (which then only marks the journal
/// closing and returns; the writer closes the files once the queue is empty), but not
/// ``appendAndWait(_:)``, which would wait for the thread it runs on. A journal dropped without
/// ``close()`` closes itself the same way.
public final class Journal: @unchecked Sendable {
    // Thread-safety: the lets are immutable; everything mutable lives in `writer`, which guards
    // it (see `JournalWriter`). The writer thread holds `writer`, never the journal, so that
    // dropping the last reference to a journal runs its deinit.

    /// The ledger's paths.
    public let paths: LedgerPaths
    /// The ledger's identity.
    public let identity: LedgerIdentity
    /// What open found and repaired.
    public let recovery: RecoveryReport
    /// The limits in force.
    public let limits: JournalLimits
    private let writer: JournalWriter

    /// The file layer readers of this journal use.
    var fileSystemForReading: any FileSystem { writer.fileSystem }

    private init(
        paths: LedgerPaths, identity: LedgerIdentity, recovery: RecoveryReport, limits: JournalLimits,
        writer: JournalWriter
    ) {
        self.paths = paths
        self.identity = identity
        self.recovery = recovery
        self.limits = limits
        self.writer = writer
    }

    /// Opens the ledger at `path` for writing: takes the writer lock, scans the journal,
    /// applies the recovery decision table, makes what it will append to durable, and starts
    /// the writer thread.
    ///
    /// Every record from `replayFrom` on is checked and passed to `onRecord` in order, so a
    /// caller can rebuild its projections in the same pass. The scan starts at the segment that
    /// holds `replayFrom`; segments before it are not read (a caller that starts from a snapshot
    /// checks the snapshot's hash against the journal instead). Starting from 1 checks the whole
    /// journal, including that its first segment starts at sequence 1.
    ///
    /// Before the writer starts, open fsyncs the segment it will append to, the journal directory
    /// and the ledger directory: a writer that died between creating or writing a segment and
    /// fsyncing it must not leave records that a new writer builds on, and acknowledges, without
    /// them being durable. If a writer of this ledger failed earlier in this process, open first
    /// cuts the journal back to what that writer had made durable.
    ///
    /// Throws ``StorageError/locked(path:)`` if another writer holds the ledger,
    /// ``StorageError/corruption(location:reason:)`` for damage other than a torn tail, or
    /// whatever `onRecord` throws.
    public static func open(
        at path: String, options: JournalOptions = JournalOptions(), replayFrom: UInt64 = 1,
        onRecord: (JournalRecord) throws -> Void = { _ in }
    ) throws -> Journal {
        try options.limits.validate()
        let fileSystem = options.fileSystem
        let paths = LedgerPaths(root: path)
        let identity = try LedgerDirectory.identity(at: path, fileSystem: fileSystem)
        let lockFile = try acquireLock(paths, fileSystem: fileSystem, waitSeconds: options.lockWaitSeconds)
        // Owned here until the writer takes it; closed on every error path.
        var segment: OpenFile?
        do {
            let rollback = try rollBackFailedWriter(paths, identity, fileSystem)
            var scan = try JournalScan(paths: paths, identity: identity, fileSystem: fileSystem, from: replayFrom)
            var replayed = 0
            while let record = try scan.next() {
                try onRecord(record)
                replayed += 1
            }
            var truncated: Int64 = 0
            var removed: String?
            let tail = scan.tail ?? .clean
            let head = HeadDigest(sequence: scan.expectedSequence - 1, hash: scan.previousHash)
            var segmentFirst: UInt64
            var writeOffset: Int64
            // Whether the segment to append to is one the scan read (rather than one created here).
            var appendsToScannedSegment = true
            switch tail {
            case .tornSegmentHeader(let file, _):
                // The crash came while rolling: nothing was ever acknowledged in this file.
                try fileSystem.remove(paths.root + "/" + file)
                try fileSystem.synchronizeDirectory(paths.journal)
                removed = file
                segmentFirst = head.sequence + 1
                segment = try createSegment(paths, identity, fileSystem, first: segmentFirst, previous: head.hash)
                writeOffset = Int64(SegmentHeader.encodedBytes)
                appendsToScannedSegment = false
            case .tornRecord(let location, let dropped, _):
                let file = try fileSystem.open(paths.root + "/" + location.file, .readWrite)
                segment = file
                try fileSystem.truncate(file, to: location.offset)
                try fileSystem.synchronize(file)
                truncated = dropped
                guard let first = scan.currentSegmentFirstSequence else {
                    preconditionFailure("a torn record is always in a segment the scan is on")
                }
                segmentFirst = first
                writeOffset = location.offset
            case .clean:
                if let last = scan.sequences.last {
                    let file = try fileSystem.open(paths.segment(firstSequence: last), .readWrite)
                    segment = file
                    segmentFirst = last
                    // The records end where the scan found the clean end: at the end of the file,
                    // or where the zeros the writer put ahead of its records begin.
                    guard let end = scan.endLocation, end.file == paths.relative(paths.segment(firstSequence: last))
                    else { preconditionFailure("a clean scan ends in the last segment") }
                    writeOffset = end.offset
                } else {
                    segmentFirst = 1
                    segment = try createSegment(paths, identity, fileSystem, first: 1, previous: .zero)
                    writeOffset = Int64(SegmentHeader.encodedBytes)
                    appendsToScannedSegment = false
                }
            }
            if appendsToScannedSegment, scan.segmentFormatVersion != SegmentHeader.currentFormatVersion,
                let older = segment
            {
                // A segment of an older format is never appended to: records are framed one way in
                // a segment. One that holds records ends here and the next starts in the current
                // format; one that holds none (a roll just before the upgrade) is made anew.
                if writeOffset < (try fileSystem.size(of: older)) {
                    // Zeros after its last record (the scan reads them in any format as its end):
                    // only the last segment may end in zeros, and this one will not be the last.
                    try fileSystem.truncate(older, to: writeOffset)
                }
                // Its records may be a dead writer's, never synced: they are built on, and recorded
                // in HEAD, only once durable.
                try fileSystem.synchronize(older)
                segment = nil
                try fileSystem.close(older)
                if writeOffset <= Int64(SegmentHeader.encodedBytes) {
                    try fileSystem.remove(paths.segment(firstSequence: segmentFirst))
                    try fileSystem.synchronizeDirectory(paths.journal)
                }
                segmentFirst = head.sequence + 1
                segment = try createSegment(paths, identity, fileSystem, first: segmentFirst, previous: head.hash)
                writeOffset = Int64(SegmentHeader.encodedBytes)
            }
            guard let file = segment else { preconditionFailure("every row of the table leaves a segment open") }
            // The space ahead is filled here, made durable by the fsync below, so that the first
            // group does not need an fdatasync of its own for it (see `JournalWriter.flush`). A
            // disk too full for the zeros does not keep the journal from opening: they are cut
            // back off, and the first group makes room for itself (and fails closed if it cannot).
            let size = try fileSystem.size(of: file)
            var allocatedEnd = size
            do {
                try JournalWriter.fillAhead(
                    file, from: &allocatedEnd, after: writeOffset, framesWritten: true, limits: options.limits,
                    fileSystem: fileSystem)
            } catch {
                try fileSystem.truncate(file, to: size)
                allocatedEnd = size
            }
            // A previous writer may have died (or failed) after creating or writing this segment
            // and before fsyncing it or its directory; make it durable before anything is
            // acknowledged on top of it.
            try fileSystem.synchronize(file)
            try fileSystem.synchronizeDirectory(paths.journal)
            try fileSystem.synchronizeDirectory(paths.root)
            // The head open found is durable now: recorded, damage to it is never a torn write.
            let marked = DurableHeads.advanceMarker(
                to: head, from: scan.durable.markerSequence, paths, identity, fileSystem: fileSystem)
            let report = RecoveryReport(
                head: head, tail: tail, truncatedBytes: truncated, removedSegment: removed, recordsReplayed: replayed,
                writerFailureRollback: rollback)
            let writer = JournalWriter(
                paths: paths, identity: identity, options: options, lockFile: lockFile, segment: file,
                segmentFirst: segmentFirst, writeOffset: writeOffset, allocatedEnd: allocatedEnd,
                head: head,
                lastCommit: scan.lastCommitMicroseconds == .min ? 0 : scan.lastCommitMicroseconds,
                markedSequence: marked)
            segment = nil
            writer.start()
            return Journal(paths: paths, identity: identity, recovery: report, limits: options.limits, writer: writer)
        } catch {
            if let segment { try? fileSystem.close(segment) }
            try? fileSystem.unlock(lockFile)
            try? fileSystem.close(lockFile)
            throw error
        }
    }

    /// Opens the lock file and takes its exclusive flock, waiting up to `waitSeconds`.
    static func acquireLock(
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

    /// Creates a segment file, writes and fsyncs its header, and fsyncs the journal directory;
    /// `onSync` is called before each of the two syncs.
    static func createSegment(
        _ paths: LedgerPaths, _ identity: LedgerIdentity, _ fileSystem: any FileSystem, first: UInt64,
        previous: SHA256Digest, onSync: () -> Void = {}
    ) throws(StorageError) -> OpenFile {
        let header = SegmentHeader(ledgerID: identity.ledgerID, firstSequence: first, previousHash: previous)
        let file = try fileSystem.open(
            paths.segment(firstSequence: first), .createNew(permissions: LedgerDirectory.filePermissions))
        do {
            try fileSystem.write(file, header.encoded(), at: 0)
            onSync()
            try fileSystem.synchronize(file)
            onSync()
            try fileSystem.synchronizeDirectory(paths.journal)
        } catch {
            try? fileSystem.close(file)
            throw error
        }
        return file
    }

    // MARK: Appending

    /// Queues a record and returns its sequence number at once; `completion` runs on the thread
    /// holding the writer role after the record is durable (or its group failed), in sequence order.
    ///
    /// Throws without queuing anything if the entry is over a limit, the journal is closed,
    /// or the writer has failed.
    @discardableResult
    public func enqueue(
        _ entry: JournalEntry, completion: @escaping @Sendable (Result<AppendReceipt, StorageError>) -> Void
    ) throws(StorageError) -> UInt64 {
        try writer.enqueue(entry, completion: completion)
    }

    /// Queues a record like ``enqueue(_:completion:)``; with `deferringWrite`, without waking the
    /// writer thread, because the caller will call ``writeQueued()`` next and write the group
    /// itself if the writer is idle.
    ///
    /// A caller that defers must call ``writeQueued()``: until then the record waits for the next
    /// group someone else writes.
    @discardableResult
    public func enqueue(
        _ entry: JournalEntry, deferringWrite: Bool,
        completion: @escaping @Sendable (Result<AppendReceipt, StorageError>) -> Void
    ) throws(StorageError) -> UInt64 {
        try writer.enqueue(entry, wakeWriter: !deferringWrite, completion: completion)
    }

    /// Writes the queued records on the calling thread, as the group's leader, if no thread holds
    /// the writer role; returns after their fdatasync and completions (and the group completion
    /// handler) have run. Returns at once if another thread is writing: it, or the writer thread
    /// after it, takes what is queued.
    ///
    /// Called from a completion, it returns at once: the thread running the completion holds the
    /// writer role and takes what is queued after it.
    public func writeQueued() {
        writer.writeQueuedIfIdle()
    }

    /// Sets the closure that runs after the completions of each group (durable or failed), on
    /// the thread that ran them and before the next group is taken; nil removes it.
    ///
    /// Completions can leave work to it that is cheaper done once per group. It has the same
    /// limits as a completion.
    public func setGroupCompletionHandler(_ handler: (@Sendable () -> Void)?) {
        writer.setGroupCompletionHandler(handler)
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
    ///
    /// When no other thread is writing, the calling thread writes the group itself (see the
    /// type's documentation). Must not be called from a completion (the thread holding the writer
    /// role), which it would wait for forever.
    public func appendAndWait(_ entry: JournalEntry) throws(StorageError) -> AppendReceipt {
        precondition(
            !writer.isWriterThread,
            "Journal.appendAndWait was called on the journal's writer thread (from a completion); it would wait "
                + "for itself forever. Use enqueue(_:completion:) or append(_:) there.")
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        _ = try writer.enqueue(entry, wakeWriter: false) { result in
            box.set(result)
            done.signal()
        }
        writer.writeQueuedIfIdle()
        done.wait()
        return try box.get()
    }

    /// The head as of the last durable group.
    public var durableHead: HeadDigest { writer.durableHead }

    /// The writer's counters.
    public var statistics: WriterStatistics { writer.statistics }

    /// The error that made the writer fail closed, if it has.
    public var writerFailure: StorageError? { writer.failureIfAny }

    /// Waits for every queued record to be written, stops the writer and releases the lock.
    ///
    /// Safe to call more than once and from several threads at once. Called from a completion
    /// (on the thread holding the writer role), it marks the journal closing and returns at once:
    /// the writer thread writes what is queued, then closes the files and releases the lock.
    public func close() { writer.close() }

    deinit { writer.close() }
}

/// The state of one open journal that the writer thread works on.
///
/// It is separate from ``Journal`` so that the thread keeps it, not the journal, alive.
final class JournalWriter: @unchecked Sendable {
    // Thread-safety: the lets are immutable. `queue`, `nextSequence`, `durable`, `failure`,
    // `closing`, `writerDone`, `filesReleased`, `filesClosed`, `writerThread`, `roleHolder`,
    // `groupCompleted` and `counters` are read and written only with `condition` held.
    // `segment`, `segmentFirst`, `writeOffset`, `allocatedEnd`, `syncedOffset`, `lastHash` and `lastCommit` belong
    // to the thread holding the writer role (`roleHolder` is set, under `condition`, while one
    // does); after the writer thread has set `writerDone` (under `condition`, with no role held),
    // `releaseFiles` may take `segment`.

    package let paths: LedgerPaths
    package let identity: LedgerIdentity
    package let fileSystem: any FileSystem
    let limits: JournalLimits
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
    /// An empty array with room, kept from the group before, for the next group (guarded by
    /// `condition`; see ``writeNextGroupLocked()``).
    private var spareQueue: [Pending] = []
    private var nextSequence: UInt64
    private var durable: HeadDigest
    private var failure: StorageError?
    private var closing = false
    private var writerDone = false
    private var filesReleased = false
    private var filesClosed = false
    private var writerThread: pthread_t?
    /// The thread writing a group and running its completions, if any: the writer thread or a
    /// leading caller. At most one at a time, so groups are written and completed in order.
    private var roleHolder: pthread_t?
    private var groupCompleted: (@Sendable () -> Void)?
    private var counters = WriterStatistics()

    private var segment: OpenFile?
    private var segmentFirst: UInt64
    private var writeOffset: Int64
    /// The size of `segment`: from `writeOffset` to here it holds zeros, written ahead of the records.
    private var allocatedEnd: Int64
    /// How much of `segment` the last successful sync made durable.
    private var syncedOffset: Int64
    private var lastHash: SHA256Digest
    private var lastCommit: Int64
    /// The sequence `HEAD` records, or nil when it records nothing usable.
    private let markedSequence: UInt64?

    init(
        paths: LedgerPaths, identity: LedgerIdentity, options: JournalOptions, lockFile: OpenFile, segment: OpenFile,
        segmentFirst: UInt64, writeOffset: Int64, allocatedEnd: Int64, head: HeadDigest, lastCommit: Int64,
        markedSequence: UInt64?
    ) {
        self.markedSequence = markedSequence
        self.paths = paths
        self.identity = identity
        self.fileSystem = options.fileSystem
        self.limits = options.limits
        self.clock = options.clock
        self.lockFile = lockFile
        self.segment = segment
        self.segmentFirst = segmentFirst
        self.writeOffset = writeOffset
        self.allocatedEnd = max(allocatedEnd, writeOffset)
        self.syncedOffset = writeOffset
        self.lastHash = head.hash
        self.lastCommit = lastCommit
        self.nextSequence = head.sequence + 1
        self.durable = head
    }

    func start() {
        // Named from within: on Linux a name set before the thread starts never reaches the
        // system (``ThreadName/setCurrent(_:)``).
        Thread { [self] in
            ThreadName.setCurrent("journal writer")
            self.run()
        }.start()
    }

    /// Whether the calling thread is this journal's writer thread or holds the writer role.
    var isWriterThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isWriterThreadLocked
    }

    private var isWriterThreadLocked: Bool {
        let current = pthread_self()
        if let roleHolder, pthread_equal(roleHolder, current) != 0 { return true }
        guard let writerThread else { return false }
        return pthread_equal(writerThread, current) != 0
    }

    func setGroupCompletionHandler(_ handler: (@Sendable () -> Void)?) {
        condition.lock()
        groupCompleted = handler
        condition.unlock()
    }

    var durableHead: HeadDigest {
        condition.lock()
        defer { condition.unlock() }
        return durable
    }

    var statistics: WriterStatistics {
        condition.lock()
        defer { condition.unlock() }
        return counters
    }

    var failureIfAny: StorageError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    func enqueue(
        _ entry: JournalEntry, wakeWriter: Bool = true,
        completion: @escaping @Sendable (Result<AppendReceipt, StorageError>) -> Void
    ) throws(StorageError) -> UInt64 {
        let authorBytes = entry.author.utf8.count
        guard authorBytes <= RecordFrame.authorBytesMax else {
            throw StorageError.limitExceeded(
                what: "author bytes", limit: RecordFrame.authorBytesMax, actual: authorBytes)
        }
        // A payload with the redacted form's marker would read back as a redacted record.
        guard !RecordRedaction.isRedactedForm(entry.payload) else {
            throw StorageError.invalidArgument("a payload may not start with the redacted form's marker")
        }
        // Checked with the largest envelope, so that whether a record fits does not depend on the
        // sequence number it gets.
        let bound = RecordFrame.bodyBytesBound(authorBytes: authorBytes, payloadBytes: entry.storedPayloadBytes)
        guard bound <= limits.recordBytesMax else {
            throw StorageError.limitExceeded(what: "record bytes", limit: limits.recordBytesMax, actual: bound)
        }
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        if closing { throw StorageError.closed }
        let sequence = nextSequence
        nextSequence += 1
        let body = RecordFrame.bodyBytes(
            sequence: sequence, schemaVersion: entry.schemaVersion, authorBytes: authorBytes,
            payloadBytes: entry.storedPayloadBytes)
        queue.append(
            Pending(
                entry: entry, sequence: sequence, frameBytes: RecordFrame.frameHeaderBytes + body,
                completion: completion))
        // The writer thread needs no wake-up while some thread holds the role: the holder hands
        // what is queued on when it lets go.
        if wakeWriter && roleHolder == nil { condition.signal() }
        return sequence
    }

    /// Stops accepting appends; off the writer thread, also waits for the queue to be written
    /// and the files to be closed.
    func close() {
        condition.lock()
        closing = true
        condition.broadcast()
        if isWriterThreadLocked {
            // Waiting here would wait for this very thread: the writer closes the files when it exits.
            condition.unlock()
            return
        }
        while !writerDone { condition.wait() }
        condition.unlock()
        releaseFiles()
        condition.lock()
        while !filesClosed { condition.wait() }
        condition.unlock()
    }

    /// Closes the segment and the lock file, once, after the writer thread has stopped; only the
    /// first caller closes them, so a descriptor number is never closed twice.
    private func releaseFiles() {
        condition.lock()
        guard writerDone, !filesReleased else {
            condition.unlock()
            return
        }
        filesReleased = true
        let file = segment
        segment = nil
        let failed = failure != nil
        condition.unlock()
        if let file {
            // A journal closed in good order ends at its last record. After a failure nothing
            // more is written: the next open recovers (and the zeros are a clean end anyway).
            if !failed { try? trimAllocation(file) }
            try? fileSystem.close(file)
        }
        if !failed { markDurableHead() }
        // Unlocked first, so that the ledger is free when this returns even if a child process
        // forked meanwhile still holds a copy of the lock file's descriptor (``FileSystem/unlock(_:)``).
        try? fileSystem.unlock(lockFile)
        try? fileSystem.close(lockFile)
        condition.lock()
        filesClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Records the durable head in `HEAD` if it moved since the marker was last written, so that
    /// damage to the records up to it is never taken for a torn write (decision 0018). A marker
    /// that cannot be written leaves the older one, which is still true; the records are durable
    /// either way.
    private func markDurableHead() {
        condition.lock()
        let head = durable
        condition.unlock()
        let now = DurableHeads.advanceMarker(
            to: head, from: markedSequence, paths, identity, fileSystem: fileSystem)
        guard now != markedSequence else { return }
        condition.lock()
        counters.dataSyncs += 2  // the marker's file and its directory
        condition.unlock()
    }

    private func countSync() {
        condition.lock()
        counters.dataSyncs += 1
        condition.unlock()
    }

    // MARK: The writer thread

    private func run() {
        condition.lock()
        writerThread = pthread_self()
        condition.unlock()
        while true {
            condition.lock()
            while roleHolder != nil || (queue.isEmpty && !closing && failure == nil) { condition.wait() }
            if failure != nil || (queue.isEmpty && closing) {
                writerDone = true
                let release = closing
                condition.broadcast()
                condition.unlock()
                // After a failure the files (and the lock) stay open until close() or deinit.
                if release { releaseFiles() }
                return
            }
            writeNextGroupLocked()
        }
    }

    /// Writes the queued records on the calling thread if no thread holds the writer role.
    func writeQueuedIfIdle() {
        condition.lock()
        guard roleHolder == nil, !queue.isEmpty, failure == nil else {
            condition.unlock()
            return
        }
        writeNextGroupLocked()
    }

    /// Takes the writer role and the next group, writes and syncs it, runs its completions in
    /// sequence order and then the group completion handler, and lets go of the role. Call with
    /// `condition` held, no role held, records queued and no failure; returns with it released.
    private func writeNextGroupLocked() {
        roleHolder = pthread_self()
        var count = 0
        var bytes = 0
        while count < queue.count && count < limits.groupRecordsMax {
            if count > 0 && bytes + queue[count].frameBytes > limits.groupBytesMax { break }
            bytes += queue[count].frameBytes
            count += 1
        }
        // Mostly the whole queue: then it is taken as it is, and an emptied array of the last
        // group's takes its place, so that neither copies nor grows.
        var group: [Pending] = []
        swap(&group, &spareQueue)
        if count == queue.count {
            swap(&group, &queue)
        } else {
            group.append(contentsOf: queue[0..<count])
            queue.removeFirst(count)
        }
        let handler = groupCompleted
        condition.unlock()

        let outcome = writeGroup(group, frameBytes: bytes)

        if outcome.failure != nil, !fileSystem.hasSimulatedCrash {
            // What was written after `syncedOffset` may be in the page cache but not on disk,
            // and a later fsync through another descriptor would not say so (fsyncgate). After a
            // simulated power cut no process is left to remember it.
            FailedWriterRegistry.shared.record(
                root: paths.root,
                .init(
                    ledgerID: identity.ledgerID, segmentFirstSequence: segmentFirst, offset: syncedOffset,
                    durableSequence: outcome.durable.last?.sequence ?? durableHead.sequence))
        }
        condition.lock()
        var abandoned: [Pending] = []
        if let last = outcome.durable.last {
            durable = HeadDigest(sequence: last.sequence, hash: last.hash)
            counters.records += outcome.durable.count
            counters.groups += 1
        }
        if let error = outcome.failure {
            failure = StorageError.writerFailed(cause: error.description)
            abandoned = queue
            queue = []
        }
        condition.unlock()

        complete(group, abandoned, outcome)
        handler?()

        // Emptied before taking the lock: the records' completions may hold the last reference
        // to their store, whose release closes this journal, which takes the lock.
        group.removeAll(keepingCapacity: true)
        condition.lock()
        spareQueue = group
        let leading = writerThread.map { pthread_equal($0, pthread_self()) == 0 } ?? true
        roleHolder = nil
        // A leader hands what was queued meanwhile (or a close or failure) to the writer thread;
        // the writer thread itself just loops.
        if leading && (!queue.isEmpty || closing || failure != nil) { condition.broadcast() }
        condition.unlock()
    }

    /// Runs the completions of a written group and of the records abandoned behind a failure:
    /// the durable records get their receipts; a record whose frame was handed to a write that
    /// was not confirmed gets ``StorageError/outcomeUnknown(cause:)``, since a later open may
    /// find it; a record never written gets ``StorageError/writerFailed(cause:)``.
    private func complete(_ group: [Pending], _ abandoned: [Pending], _ outcome: GroupWrite) {
        let cause = outcome.failure?.description ?? ""
        let failed = StorageError.writerFailed(cause: cause)
        for (index, pending) in group.enumerated() {
            if index < outcome.durable.count {
                pending.completion(.success(outcome.durable[index]))
            } else if index < outcome.durable.count + outcome.unconfirmed {
                pending.completion(.failure(.outcomeUnknown(cause: cause)))
            } else {
                pending.completion(.failure(failed))
            }
        }
        for pending in abandoned { pending.completion(.failure(failed)) }
    }

    /// How the write of one group ended.
    struct GroupWrite {
        /// The receipts of the records made durable: the group's first records, in order.
        var durable: [AppendReceipt] = []
        /// The error that stopped the writer, if any. It failed the records after `durable`, or,
        /// when every record is durable, work done after their fdatasync (the zeros ahead).
        var failure: StorageError?
        /// How many records after `durable` were handed to a write whose fdatasync never
        /// succeeded: whether they are on disk cannot be known.
        var unconfirmed = 0
    }

    /// A failed flush: the error, and whether the buffered frames may have reached the file.
    struct FlushFailure: Error {
        var error: StorageError
        var framesMayBeWritten: Bool
    }

    /// Writes one group: frames into the current segment, rolling when a record would not fit,
    /// then one fdatasync. Runs on the writer thread only.
    ///
    /// The records a successful fdatasync covered are durable whatever fails after it: in a group
    /// that rolls, those before the roll; in any group, every record when only the zeros written
    /// ahead of them failed (decision 0021).
    private func writeGroup(_ group: [Pending], frameBytes: Int) -> GroupWrite {
        let commit = max(clock(), lastCommit)
        var buffer = ByteWriter(capacity: frameBytes)
        var receipts: [AppendReceipt] = []
        receipts.reserveCapacity(group.count)
        var hash = lastHash
        var outcome = GroupWrite()
        do throws(FlushFailure) {
            for pending in group {
                let end = writeOffset + Int64(buffer.count) + Int64(pending.frameBytes)
                if end > Int64(limits.segmentBytesMax)
                    && writeOffset + Int64(buffer.count) > Int64(SegmentHeader.encodedBytes)
                {
                    outcome.failure = try flush(&buffer)
                    outcome.durable = receipts
                    if outcome.failure != nil { break }
                    do throws(StorageError) {
                        try roll(first: pending.sequence, previous: hash)
                    } catch {
                        throw FlushFailure(error: error, framesMayBeWritten: false)
                    }
                    buffer = ByteWriter(capacity: frameBytes)
                }
                hash = RecordFrame.encode(
                    pending.entry, sequence: pending.sequence, commitMicroseconds: commit, previousHash: hash,
                    into: &buffer)
                receipts.append(AppendReceipt(sequence: pending.sequence, commitMicroseconds: commit, hash: hash))
            }
            if outcome.failure == nil {
                outcome.failure = try flush(&buffer)
                outcome.durable = receipts
            }
        } catch {
            outcome.failure = error.error
            outcome.unconfirmed = error.framesMayBeWritten ? receipts.count - outcome.durable.count : 0
        }
        if let last = outcome.durable.last {
            lastHash = last.hash
            lastCommit = commit
        }
        return outcome
    }

    /// Closes the full segment and creates the next one, named after `first`.
    ///
    /// The full segment is first cut back to its last record and fsynced, before the next one
    /// exists: only the last segment may end in zeros (see ``JournalScan``).
    private func roll(first: UInt64, previous: SHA256Digest) throws(StorageError) {
        if let old = segment {
            try trimAllocation(old)
            // Its data is already synced; an error from close changes nothing about durability.
            segment = nil
            try? fileSystem.close(old)
        }
        let file = try Journal.createSegment(
            paths, identity, fileSystem, first: first, previous: previous, onSync: { self.countSync() })
        segment = file
        segmentFirst = first
        writeOffset = Int64(SegmentHeader.encodedBytes)
        allocatedEnd = writeOffset
        syncedOffset = writeOffset
    }

    /// The zeros written ahead of the records, from one buffer that stays in memory: a fresh
    /// allocation of megabytes would fault in every page of it on each fill.
    private static let zeros = [UInt8](repeating: 0, count: 64 << 10)

    /// Renews the zeros ahead of records that end at `end`, when fewer than half of the space
    /// ahead is left after it: writes zeros from `allocatedEnd` (the file's size), or from `end`
    /// when the frames up to it are written already (`framesWritten`), and moves `allocatedEnd`.
    ///
    /// The space ahead is as much as the segment already holds, between 64 KiB and
    /// ``JournalLimits/preallocationBytes``, never past `segmentBytesMax`: a ledger that stays
    /// small wastes little, and a first commit writes few zeros. Nothing is written when the
    /// limit is 0. The caller makes the zeros durable.
    static func fillAhead(
        _ file: OpenFile, from allocatedEnd: inout Int64, after end: Int64, framesWritten: Bool,
        limits: JournalLimits, fileSystem: any FileSystem
    ) throws(StorageError) {
        let ahead = min(Int64(limits.preallocationBytes), max(Int64(zeros.count), end))
        guard ahead > 0, end + ahead / 2 > allocatedEnd else { return }
        let target = min(Int64(limits.segmentBytesMax), end + ahead)
        var position = framesWritten ? max(allocatedEnd, end) : allocatedEnd
        while position < target {
            let count = Int(min(Int64(zeros.count), target - position))
            try fileSystem.write(file, zeros[..<count], at: position)
            position += Int64(count)
        }
        allocatedEnd = max(allocatedEnd, target)
    }

    /// Cuts the zeros after the last record off `file` and fsyncs it, if there are any.
    private func trimAllocation(_ file: OpenFile) throws(StorageError) {
        guard allocatedEnd > writeOffset else { return }
        try fileSystem.truncate(file, to: writeOffset)
        countSync()
        try fileSystem.synchronize(file)
        allocatedEnd = writeOffset
    }

    /// Writes the buffered frames at the write offset, renews the zeros ahead of them when less
    /// than half of the space ahead is left, and fdatasyncs once (twice when the frames would
    /// run past the zeros: see the body).
    ///
    /// Throws when the frames are not durable, saying whether they may have reached the file.
    /// Returns the error of renewing the zeros behind them when that failed but the fdatasync
    /// succeeded: the frames are durable then, and the caller stops the writer after them.
    private func flush(_ buffer: inout ByteWriter) throws(FlushFailure) -> StorageError? {
        guard buffer.count > 0 else { return nil }
        guard let file = segment else { preconditionFailure("the writer appends only with a segment open") }
        let end = writeOffset + Int64(buffer.count)
        if limits.preallocationBytes > 0 && end > allocatedEnd {
            // The frames would run past the zeros (the first group in a new segment, or a group
            // larger than the space left): the zeros are made durable first, so that frames are
            // only ever written over durable zeros. Otherwise the frames written over zeros and
            // those appended past the file's end, with its new size, could reach the disk
            // independently, and a crash keep later frames while losing earlier ones (which open
            // would have to refuse). Pages written back out of order remain possible, as with
            // appends (decision 0011). No frame is written when this fails.
            do throws(StorageError) {
                try Self.fillAhead(
                    file, from: &allocatedEnd, after: end, framesWritten: false, limits: limits,
                    fileSystem: fileSystem)
                countSync()
                try fileSystem.synchronizeData(file)
            } catch {
                throw FlushFailure(error: error, framesMayBeWritten: false)
            }
        }
        var zerosFailure: StorageError?
        do throws(StorageError) {
            try fileSystem.write(file, buffer.bytes, at: writeOffset)
            // Renewed behind the frames, in the same fdatasync: only zeros go past the durable
            // size. A failure here (a full disk) leaves the frames written, so they are synced
            // all the same: the caller learns whether they are durable, not just that the zeros
            // are missing.
            do throws(StorageError) {
                try Self.fillAhead(
                    file, from: &allocatedEnd, after: end, framesWritten: true, limits: limits,
                    fileSystem: fileSystem)
            } catch {
                zerosFailure = error
            }
            allocatedEnd = max(allocatedEnd, end)
            countSync()
            try fileSystem.synchronizeData(file)
        } catch {
            throw FlushFailure(error: error, framesMayBeWritten: true)
        }
        writeOffset = end
        syncedOffset = writeOffset
        buffer = ByteWriter(capacity: 0)
        return zerosFailure
    }
}

/// A result handed from the writer thread to a blocked caller.
private final class ResultBox: @unchecked Sendable {
    // Thread-safety: `set` happens before the semaphore signal and `get` after the wait.
    private var result: Result<AppendReceipt, StorageError>?
    func set(_ value: Result<AppendReceipt, StorageError>) { result = value }
    func get() throws(StorageError) -> AppendReceipt { try result!.get() }
}
