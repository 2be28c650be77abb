import Foundation

/// What a ledger's event store needs from a journal: append with acknowledgement after
/// durability, read back in order, and report the head.
///
/// ``Journal`` keeps records in segment files; ``InMemoryJournal`` keeps them in memory for tests
/// and scratch stores, with the same framing and chain, so both report the same head digest for
/// the same records. A deployment that outgrows local disks would put a replicated log behind
/// this protocol.
public protocol JournalStore: AnyObject, Sendable {
    /// The ledger's identity.
    var identity: LedgerIdentity { get }
    /// The head as of the last durable append.
    var durableHead: HeadDigest { get }
    /// The error that made the journal fail closed, if it has.
    var writerFailure: StorageError? { get }
    /// Queues a record; `completion` runs once it is durable (or has failed), in sequence order,
    /// never on the calling thread while `enqueue` is still running.
    @discardableResult
    func enqueue(
        _ entry: JournalEntry, completion: @escaping @Sendable (Result<AppendReceipt, StorageError>) -> Void
    ) throws(StorageError) -> UInt64
    /// Queues a record like ``enqueue(_:completion:)``; with `deferringWrite` the caller will call
    /// ``writeQueued()`` next, and the journal need not wake a writer for it.
    @discardableResult
    func enqueue(
        _ entry: JournalEntry, deferringWrite: Bool,
        completion: @escaping @Sendable (Result<AppendReceipt, StorageError>) -> Void
    ) throws(StorageError) -> UInt64
    /// Writes what is queued on the calling thread if no writer is busy, returning after those
    /// records' completions have run; otherwise (and when called from a completion) returns at
    /// once and the busy writer takes them.
    func writeQueued()
    /// Sets the closure run after the completions of each group of records made durable together
    /// (or failed together), on the same thread, before the next group's completions.
    func setGroupCompletionHandler(_ handler: (@Sendable () -> Void)?)
    /// Calls `body` with each durable record from `sequence` on, in order, until it returns false.
    func forEachRecord(from sequence: UInt64, _ body: (JournalRecord) throws -> Bool) throws
    /// The first sequence of each segment, in order, so that a reader looking for a recent record
    /// can read the newest segments first; a journal kept in one piece answers `[1]`.
    func segmentStarts() throws -> [UInt64]
    /// Waits for queued records and stops accepting new ones.
    func close()
}

extension JournalStore {
    /// One piece, starting at sequence 1.
    public func segmentStarts() throws -> [UInt64] { [1] }
}

extension Journal: JournalStore {
    /// The first sequence of each segment file, in order.
    public func segmentStarts() throws -> [UInt64] {
        try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystemForReading)
    }

    /// Reads the durable records from `sequence` on with a lock-free reader, stopping at the durable head.
    public func forEachRecord(from sequence: UInt64, _ body: (JournalRecord) throws -> Bool) throws {
        let limit = durableHead.sequence
        guard sequence <= limit else { return }
        var cursor = try JournalReader(at: paths.root, fileSystem: fileSystemForReading).records(from: sequence)
        // Stop at the durable head without reading further: records past it may still be
        // half-written by the writer thread.
        while let record = try cursor.next() {
            if record.sequence > limit { return }
            if try !body(record) { return }
            if record.sequence == limit { return }
        }
    }
}

/// A journal kept in memory: the same framing, chain and checks as a file journal, no files.
///
/// It can start empty or as a copy of a recorded ledger (all of it, or up to a sequence), so that
/// a test begins from recorded state and nothing it does touches the recording.
public final class InMemoryJournal: JournalStore, @unchecked Sendable {
    // Thread-safety: `records`, `failure`, `closed` and `groupCompleted` are guarded by `lock`;
    // completions run on `completions`, a serial queue, in the order records were appended.
    /// The ledger's identity (copied from the recording, or new).
    public let identity: LedgerIdentity
    private let lock = NSLock()
    private var records: [JournalRecord] = []
    private var lastCommit: Int64 = 0
    private var closed = false
    private var groupCompleted: (@Sendable () -> Void)?
    private let clock: @Sendable () -> Int64
    private let completions = DispatchQueue(label: "ContactsLedger in-memory journal")
    private let recordBytesMax: Int

    /// Creates an empty in-memory journal with a new identity.
    public init(
        clock: @escaping @Sendable () -> Int64 = WallClock.nowMicroseconds,
        recordBytesMax: Int = JournalLimits.standard.recordBytesMax
    ) {
        identity = LedgerIdentity(createdMicroseconds: clock())
        self.clock = clock
        self.recordBytesMax = recordBytesMax
    }

    /// Creates an in-memory copy of a recorded ledger's records, up to and including `sequence`
    /// (all of them when nil); the recording is only read.
    public init(
        copying reader: JournalReader, through sequence: UInt64? = nil,
        clock: @escaping @Sendable () -> Int64 = WallClock.nowMicroseconds
    ) throws {
        identity = reader.identity
        self.clock = clock
        self.recordBytesMax = JournalLimits.standard.recordBytesMax
        var cursor = try reader.records(from: 1)
        while let record = try cursor.next() {
            if let sequence, record.sequence > sequence { break }
            records.append(record)
            lastCommit = record.commitMicroseconds
        }
    }

    /// The head as of the last append.
    public var durableHead: HeadDigest {
        lock.lock()
        defer { lock.unlock() }
        return records.last.map { HeadDigest(sequence: $0.sequence, hash: $0.hash) } ?? .empty
    }

    /// Always nil: memory does not fail.
    public var writerFailure: StorageError? { nil }

    /// Appends a record at once and schedules its completion on the journal's queue.
    @discardableResult
    public func enqueue(
        _ entry: JournalEntry, completion: @escaping @Sendable (Result<AppendReceipt, StorageError>) -> Void
    ) throws(StorageError) -> UInt64 {
        let authorBytes = entry.author.utf8.count
        guard authorBytes <= RecordFrame.authorBytesMax else {
            throw StorageError.limitExceeded(
                what: "author bytes", limit: RecordFrame.authorBytesMax, actual: authorBytes)
        }
        let bound = RecordFrame.bodyBytesBound(authorBytes: authorBytes, payloadBytes: entry.payload.count)
        guard bound <= recordBytesMax else {
            throw StorageError.limitExceeded(what: "record bytes", limit: recordBytesMax, actual: bound)
        }
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw StorageError.closed }
        let sequence = UInt64(records.count + 1)
        let previous = records.last?.hash ?? .zero
        let commit = max(clock(), lastCommit)
        let body = RecordFrame.bodyBytes(
            sequence: sequence, schemaVersion: entry.schemaVersion, authorBytes: authorBytes,
            payloadBytes: entry.payload.count)
        var writer = ByteWriter(capacity: RecordFrame.frameHeaderBytes + body)
        _ = RecordFrame.encode(
            entry, sequence: sequence, commitMicroseconds: commit, previousHash: previous, into: &writer)
        let location = LedgerLocation(file: "memory", offset: Int64(sequence))
        guard
            case .success(let record) = RecordFrame.decodeBody(
                writer.bytes, bodyStart: RecordFrame.frameHeaderBytes, bodyLength: body, previousHash: previous,
                location: location, formatVersion: SegmentHeader.currentFormatVersion)
        else {
            preconditionFailure("a record encoded here must decode here")
        }
        records.append(record)
        lastCommit = commit
        let receipt = AppendReceipt(sequence: sequence, commitMicroseconds: commit, hash: record.hash)
        completions.async { [self] in
            completion(.success(receipt))
            lock.lock()
            let handler = groupCompleted
            lock.unlock()
            handler?()
        }
        return sequence
    }

    /// The same as ``enqueue(_:completion:)``: memory has no writer to wake, and each record is a
    /// group of its own.
    @discardableResult
    public func enqueue(
        _ entry: JournalEntry, deferringWrite: Bool,
        completion: @escaping @Sendable (Result<AppendReceipt, StorageError>) -> Void
    ) throws(StorageError) -> UInt64 {
        try enqueue(entry, completion: completion)
    }

    /// Does nothing: records are appended when they are queued, and completed on the journal's queue.
    public func writeQueued() {}

    /// Sets the closure run on the journal's queue after each record's completion (each record is
    /// a group of its own).
    public func setGroupCompletionHandler(_ handler: (@Sendable () -> Void)?) {
        lock.lock()
        groupCompleted = handler
        lock.unlock()
    }

    /// Calls `body` with each record from `sequence` on.
    public func forEachRecord(from sequence: UInt64, _ body: (JournalRecord) throws -> Bool) throws {
        let snapshot: ArraySlice<JournalRecord>
        lock.lock()
        snapshot = records[min(records.count, Int(max(1, sequence)) - 1)...]
        lock.unlock()
        for record in snapshot where try !body(record) { return }
    }

    /// Stops accepting appends once queued completions have run.
    public func close() {
        lock.lock()
        closed = true
        lock.unlock()
        completions.sync {}
    }

    /// Writes the records into a new ledger directory, giving it this journal's identity and chain.
    public func write(to path: String, fileSystem: any FileSystem = SystemFileSystem()) throws {
        let copy: [JournalRecord]
        lock.lock()
        copy = records
        lock.unlock()
        try LedgerDirectory.createCopy(at: path, identity: identity, records: copy, fileSystem: fileSystem)
    }
}
