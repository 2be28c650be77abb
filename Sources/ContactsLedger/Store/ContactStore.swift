import ContactsEngine
import ContactsInterchange
import ContactsModel
import Dispatch
import Foundation
import LedgerStorage
import Synchronization

/// Who is using a store, and what the platform says it may do.
public struct ClientContext: Sendable {
    /// A stable identifier for the client (for example its bundle identifier).
    public var identifier: String
    /// The client's authorization as the host knows it; `.notDetermined` defers to the ledger's
    /// record of an earlier decision, or to ``accessDecision`` when access is requested.
    public var authorization: AuthorizationStatus
    /// Whether the client holds the notes entitlement (may read and write ``Contact/note``).
    public var notesEntitlement: Bool
    /// What the user decides when a not-yet-determined client requests access (the prompt's stand-in).
    public var accessDecision: @Sendable () -> AuthorizationStatus

    /// Creates a client context.
    public init(
        identifier: String, authorization: AuthorizationStatus = .authorized, notesEntitlement: Bool = false,
        accessDecision: @escaping @Sendable () -> AuthorizationStatus = { .denied }
    ) {
        self.identifier = identifier
        self.authorization = authorization
        self.notesEntitlement = notesEntitlement
        self.accessDecision = accessDecision
    }

    /// A client with full access and the notes entitlement, for tools and tests.
    public static func fullAccess(_ identifier: String = "contacts-ledger") -> ClientContext {
        ClientContext(identifier: identifier, authorization: .authorized, notesEntitlement: true)
    }
}

/// A point in a ledger's history: a sequence number, or a time (inclusive).
public enum LedgerPoint: Sendable, Hashable {
    /// After the record with this sequence number (0 is the empty ledger).
    case sequence(UInt64)
    /// After the last record committed at or before this time.
    case time(Date)
}

/// The address book over a ledger, like `CNContactStore`: fetches, save requests, access,
/// notifications and change history.
///
/// A store opened on a ledger directory is its single writer (other processes get
/// ``StorageError/locked(path:)``) unless it is opened read-only. Saves are acknowledged only
/// after their record is on disk; reads see only durable state.
public final class ContactStore: @unchecked Sendable {
    // Thread-safety: `projection` is guarded by `projectionLock` (readers share it; applying a
    // record takes it exclusively); `indexes` and `pendingIndexChanges` by `indexLock`, taken
    // after `projectionLock` or with no lock held (decision 0014). `staged`, `nextSequence`,
    // `failure` and `pendingRequests` are guarded by `commitLock`; `access` is written holding
    // `commitLock` and then `projectionLock` for writing, and read holding either. Lock order:
    // `commitLock`, then `projectionLock`, then the journal's own lock. `observers` is guarded
    // by `observerLock`, `completed` by `completedLock` (taken with no other lock held),
    // `submissions` and `planning` by `submissionLock` (taken with no other lock held, or after
    // `commitLock`), `finishDepth` by `finishLock` (taken before `commitLock`, never after it).
    //
    // A read (a fetch, an enumeration, the state of a change-history read) holds
    // `projectionLock` for reading, and `indexLock` after it, once from its selection to its
    // last decoded contact, so that it sees one head; it never takes `commitLock`. Planning holds
    // `projectionLock` only for reading, and the writers of it that hold `commitLock` (a finish,
    // an access change) wait for `commitLock` first: a read never waits while a group is planned.

    /// How the store reaches its ledger.
    private enum Backing {
        case journal(any JournalStore)
        case reader(JournalReader)
        case frozen(JournalReader)
    }

    private let backing: Backing
    /// The ledger's identity.
    public let identity: LedgerIdentity
    /// The client this store serves.
    public let client: ClientContext
    private let projectionLock = ReadWriteLock()
    /// Where the state lives: an allocation of its own, at an address that never changes, so
    /// that planning reads it in place (``DurableProjection``). A copy of it per request would
    /// retain and release every buffer it holds, under the commit lock, on cache lines that
    /// the finishing thread writes.
    private let projectionStorage: UnsafeMutablePointer<Projection>
    /// The state, without its search indexes: the projection's own are left empty in a store,
    /// which keeps them in `indexes` (decision 0014).
    private var projection: Projection {
        unsafeAddress { UnsafePointer(projectionStorage) }
        unsafeMutableAddress { projectionStorage }
    }
    private let indexLock = ReadWriteLock()
    /// Where the search indexes live: an allocation of its own, like `projectionStorage`, so
    /// that readers read them in place (``readState(_:)``).
    private let indexesStorage: UnsafeMutablePointer<SearchIndexes>
    /// The search indexes of `projection`, as of the records applied before the changes in
    /// `pendingIndexChanges`.
    private var indexes: SearchIndexes {
        unsafeAddress { UnsafePointer(indexesStorage) }
        unsafeMutableAddress { indexesStorage }
    }
    /// Index changes of applied records, in order, that `indexes` does not have yet: a finish
    /// records them, answers its callers, and then applies them (``catchUpIndexes()``), unless a
    /// reader that needed the indexes did first.
    private var pendingIndexChanges: [SearchIndexes.Change] = []
    private let commitLock = NSLock()
    private var staged = StagedChanges()
    private var nextSequence: UInt64
    private var failure: ContactStoreError?
    private var access: ClientAccess
    private var pendingRequests: [UUID: [@Sendable (Result<SaveResult, ContactStoreError>) -> Void]] = [:]
    /// Records the journal has completed whose group has not been finished yet (see ``finishGroup(waitingForTurn:)``).
    private var completed: [CompletedRecord] = []
    private let completedLock = NSLock()
    /// Held while a group is finished, so that groups are finished one at a time and in order,
    /// whichever thread finishes them (see ``groupCompleted()``). Recursive, so that an observer
    /// that closes the store from within a finish does not wait for itself.
    private let finishLock = NSRecursiveLock()
    /// How many finishes the thread holding `finishLock` is inside (more than one when an observer
    /// of a finish leads a save of its own); guarded by `finishLock`.
    private var finishDepth = 0
    /// The sequence of the last record queued in the journal. The journal's writer reads it after
    /// a group to see whether records wait behind it.
    private let enqueuedThrough = Atomic<UInt64>(0)
    /// Finishes a group while the journal writes the records queued behind it.
    private let finisher = DispatchQueue(label: "contacts-ledger.finish-group")
    private let observerLock = NSLock()
    private var observers: [UUID: AsyncStream<StoreChange>.Continuation] = [:]
    /// Writes snapshots of the projection for a store that writes a ledger directory; nil otherwise.
    private let snapshotter: ProjectionSnapshotter?
    /// Asynchronous save requests waiting for the thread that plans them (see ``planSubmissions()``).
    private var submissions: [Submission] = []
    /// Whether a thread is planning `submissions`.
    private var planning = false
    private let submissionLock = NSLock()
    /// The default container's identifier (the ledger's id; it never changes).
    private let defaultContainerID: String

    private init(
        backing: Backing, identity: LedgerIdentity, projection: Projection, client: ClientContext,
        snapshotter: ProjectionSnapshotter? = nil
    ) {
        self.backing = backing
        self.identity = identity
        var state = projection
        indexesStorage = .allocate(capacity: 1)
        indexesStorage.initialize(to: state.indexes)
        state.indexes = SearchIndexes(defaultCountryCode: state.indexes.defaultCountryCode)
        projectionStorage = .allocate(capacity: 1)
        projectionStorage.initialize(to: state)
        self.client = client
        self.snapshotter = snapshotter
        defaultContainerID = projection.defaultContainer.identifier
        nextSequence = projection.head.sequence + 1
        var resolved = ClientAccess(status: client.authorization, notesEntitlement: client.notesEntitlement)
        if client.authorization == .notDetermined, let recorded = projection.access(of: client.identifier) {
            resolved = recorded
        }
        access = resolved
        if case .journal(let journal) = backing {
            // The store owns its journal: a strong reference back from the journal would be a cycle.
            journal.setGroupCompletionHandler { [weak self] in self?.groupCompleted() }
        }
    }

    deinit {
        projectionStorage.deinitialize(count: 1)
        projectionStorage.deallocate()
        indexesStorage.deinitialize(count: 1)
        indexesStorage.deallocate()
    }

    // MARK: Opening

    /// Opens (creating it if `create` is true and nothing is there) the ledger at `path` as its
    /// single writer: restores the projections from the newest snapshot that checks out against
    /// the journal and replays the records after it, or replays the whole journal when there is
    /// no usable snapshot. Snapshots are written on ``close()`` and in the background as the
    /// ledger grows (decision 0006).
    public convenience init(
        ledgerAt path: String, client: ClientContext, create: Bool = true, lockWaitSeconds: Double = 0,
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws {
        if create && !fileSystem.exists(LedgerPaths(root: path).identity) {
            do { try LedgerDirectory.create(at: path, fileSystem: fileSystem) } catch { throw ContactStoreError(error) }
        }
        let options = JournalOptions(lockWaitSeconds: lockWaitSeconds, fileSystem: fileSystem)
        var opened: (journal: Journal, projection: Projection?, loadedAt: HeadDigest?)?
        if let identity = try? LedgerDirectory.identity(at: path, fileSystem: fileSystem) {
            _ = try ProjectionSnapshots.withNewest(
                paths: LedgerPaths(root: path), identity: identity, fileSystem: fileSystem
            ) { start in
                guard let (journal, projection) = try Self.openJournal(at: path, options: options, from: start) else {
                    return false
                }
                opened = (journal, projection, start.head)
                return true
            }
        }
        if opened == nil {
            guard let (journal, projection) = try Self.openJournal(at: path, options: options, from: nil) else {
                preconditionFailure("a replay from the start has no snapshot to disagree with")
            }
            opened = (journal, projection, nil)
        }
        guard let (journal, replayed, loadedAt) = opened else { preconditionFailure("the journal was opened above") }
        var projection = replayed ?? Projection(ledgerID: journal.identity.ledgerID)
        projection.prepareForQueries()
        let snapshotter = ProjectionSnapshotter(
            paths: journal.paths, identity: journal.identity, fileSystem: fileSystem,
            loadedAt: projection.head == loadedAt ? loadedAt?.sequence : nil)
        self.init(
            backing: .journal(journal), identity: journal.identity, projection: projection, client: client,
            snapshotter: snapshotter)
    }

    /// A snapshot whose record in the journal has another chain hash.
    private struct SnapshotMismatch: Error {}

    /// Opens the journal for writing and replays into the projection: from `start` (a snapshot's
    /// projection) the records after it, else every record. With a start, the scan begins at the
    /// snapshot's own record, which must carry the snapshot's chain hash; returns nil, with the
    /// journal closed, when it does not or the journal ends before it (open cut the journal back
    /// after a failed writer). Otherwise returns the journal and the projection (nil when there
    /// was neither a start nor a record).
    private static func openJournal(
        at path: String, options: JournalOptions, from start: Projection?
    ) throws -> (Journal, Projection?)? {
        // Created at the first record to apply, so that a store opened at its head starts no thread.
        var replay: ProjectionReplay?
        var matched = start == nil
        let journal: Journal
        do {
            journal = try Journal.open(at: path, options: options, replayFrom: start?.head.sequence ?? 1) {
                record in
                if let start, record.sequence == start.head.sequence {
                    guard record.hash == start.head.hash else { throw SnapshotMismatch() }
                    matched = true
                    return
                }
                if replay == nil {
                    replay = ProjectionReplay(
                        try start
                            ?? Projection(
                                ledgerID: LedgerDirectory.identity(at: path, fileSystem: options.fileSystem).ledgerID),
                        journalBytes: LedgerDirectory.segmentBytes(
                            LedgerPaths(root: path), from: record.sequence, fileSystem: options.fileSystem),
                        fileSystem: options.fileSystem)
                }
                try replay!.add(record)
            }
        } catch is SnapshotMismatch {
            _ = try? replay?.finish()
            return nil
        } catch let error as StorageError {
            // A record read before the one that failed to read, which could not be decoded, is
            // the first error: finishing reports it.
            _ = try replay?.finish()
            throw ContactStoreError(error)
        } catch {
            // A record that could not be decoded (the first, in order) or the ledger's identity.
            _ = try? replay?.finish()
            throw error
        }
        // From here each path finishes the replay once.
        guard matched else {
            _ = try? replay?.finish()
            journal.close()
            return nil
        }
        do {
            return (journal, try replay?.finish() ?? start)
        } catch {
            journal.close()
            throw error
        }
    }

    /// Opens the ledger at `path` read-only, without the writer lock: ``refresh()`` reads what
    /// the writer appends later. With `asOf`, the store shows the ledger as it was at that point
    /// and never changes.
    public convenience init(readingLedgerAt path: String, asOf point: LedgerPoint? = nil, client: ClientContext) throws
    {
        let reader: JournalReader
        do { reader = try JournalReader(at: path) } catch { throw ContactStoreError(error) }
        let last = try Self.lastSequence(reader, through: point)
        var restored: Projection?
        _ = try ProjectionSnapshots.withNewest(
            paths: reader.paths, identity: reader.identity, fileSystem: reader.fileSystem, through: last
        ) { start in
            var candidate = start
            guard try Self.replay(reader, into: &candidate, through: last) else { return false }
            restored = candidate
            return true
        }
        var projection = restored ?? Projection(ledgerID: reader.identity.ledgerID)
        if restored == nil { _ = try Self.replay(reader, into: &projection, through: last) }
        projection.prepareForQueries()
        self.init(
            backing: point == nil ? .reader(reader) : .frozen(reader), identity: reader.identity,
            projection: projection,
            client: client)
    }

    /// Creates a store over an empty in-memory journal: the same code as a file ledger, no files.
    public static func inMemory(client: ClientContext = .fullAccess()) -> ContactStore {
        let journal = InMemoryJournal()
        return ContactStore(
            backing: .journal(journal), identity: journal.identity,
            projection: Projection(ledgerID: journal.identity.ledgerID), client: client)
    }

    /// Creates an in-memory store that starts from a recorded ledger (all of it, or through a
    /// point); nothing the store does touches the recording.
    public static func inMemory(
        copyingLedgerAt path: String, through point: LedgerPoint? = nil, client: ClientContext = .fullAccess()
    )
        throws -> ContactStore
    {
        do {
            let reader = try JournalReader(at: path)
            let last = try Self.lastSequence(reader, through: point)
            let journal = try InMemoryJournal(copying: reader, through: last)
            var restored: Projection?
            _ = ProjectionSnapshots.withNewest(
                paths: reader.paths, identity: reader.identity, fileSystem: reader.fileSystem, through: last
            ) { start in
                // The copy holds the records; the snapshot's own must carry its hash.
                var matches = false
                try? journal.forEachRecord(from: start.head.sequence) { record in
                    matches = record.sequence == start.head.sequence && record.hash == start.head.hash
                    return false
                }
                if matches { restored = start }
                return matches
            }
            var projection = restored ?? Projection(ledgerID: reader.identity.ledgerID)
            let replay = ProjectionReplay(
                projection,
                journalBytes: LedgerDirectory.segmentBytes(
                    reader.paths, from: projection.head.sequence + 1, fileSystem: reader.fileSystem),
                fileSystem: reader.fileSystem)
            do {
                try journal.forEachRecord(from: projection.head.sequence + 1) { record in
                    try replay.add(record)
                    return true
                }
            } catch let error as StorageError {
                // A record read before the failing read, which could not be decoded, comes first.
                _ = try replay.finish()
                throw error
            } catch {
                _ = try? replay.finish()
                throw error
            }
            projection = try replay.finish()
            projection.prepareForQueries()
            return ContactStore(
                backing: .journal(journal), identity: journal.identity, projection: projection, client: client)
        } catch let error as StorageError {
            throw ContactStoreError(error)
        }
    }

    /// The sequence a point resolves to in a ledger (inclusive).
    package static func lastSequence(_ reader: JournalReader, through point: LedgerPoint?) throws -> UInt64? {
        switch point {
        case nil: return nil
        case .sequence(let sequence): return sequence
        case .time(let date):
            let limit = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
            var last: UInt64 = 0
            try reader.forEach { record in
                if record.commitMicroseconds <= limit { last = record.sequence }
            }
            return last
        }
    }

    /// Applies the records after the projection's head, through `last` (to the end when nil).
    ///
    /// A projection restored from a snapshot (head above 0) is checked first: the scan starts at
    /// its head's record, which must carry its chain hash; returns false, having applied
    /// nothing, when it does not or the journal ends before it.
    private static func replay(
        _ reader: JournalReader, into projection: inout Projection, through last: UInt64?
    )
        throws -> Bool
    {
        let head = projection.head
        let replay: ProjectionReplay
        do {
            var cursor = try reader.records(from: max(1, head.sequence))
            if head.sequence > 0 {
                guard let record = try cursor.next(), record.sequence == head.sequence, record.hash == head.hash else {
                    return false
                }
            }
            if let last, last <= head.sequence { return true }
            replay = ProjectionReplay(
                projection,
                journalBytes: LedgerDirectory.segmentBytes(
                    reader.paths, from: head.sequence + 1, fileSystem: reader.fileSystem),
                fileSystem: reader.fileSystem)
            do {
                while let record = try cursor.next() {
                    if let last, record.sequence > last { break }
                    try replay.add(record)
                }
            } catch let error as StorageError {
                // A record read before the failing read, which could not be decoded, comes first.
                _ = try replay.finish()
                throw error
            } catch {
                _ = try? replay.finish()
                throw error
            }
        } catch let error as StorageError {
            throw ContactStoreError(error)
        }
        projection = try replay.finish()
        return true
    }

    /// Waits for queued saves, writes a snapshot of the projection if the ledger changed since the
    /// last one (a cache, see decision 0006), and releases the ledger; the store accepts no saves
    /// afterwards.
    public func close() {
        if case .journal(let journal) = backing { journal.close() }
        // The groups handed to the finishing queue are finished before the final snapshot is
        // taken, unless this thread is finishing one (an observer closing the store): that finish,
        // and any queued behind it, go on after this returns.
        if !callerIsFinishing { finisher.sync {} }
        commitLock.lock()
        let failedWriting = journalFailed
        if failure == nil { failure = ContactStoreError(.storeNotWritable, "the store is closed") }
        commitLock.unlock()
        if let snapshotter {
            // After a failed write the journal is cut back on reopen; only a healthy store's
            // projection is written down. The lock is released already: snapshots need none.
            if failedWriting {
                snapshotter.waitForWrites()
            } else {
                snapshotter.writeFinal(withProjection { $0 })
            }
        }
        observerLock.lock()
        let streams = observers.values
        observers = [:]
        observerLock.unlock()
        for stream in streams { stream.finish() }
    }

    /// Whether the journal failed closed (a write or fsync error).
    private var journalFailed: Bool {
        if case .journal(let journal) = backing { return journal.writerFailure != nil }
        return false
    }

    /// Writes a snapshot of the projection now and returns after it is on disk; does nothing for
    /// a store that does not write a ledger directory (read-only or in memory).
    ///
    /// Recovery calls it after rebuilding the projection from the journal.
    package func writeSnapshot() throws {
        guard let snapshotter else { return }
        snapshotter.waitForWrites()
        let current = withProjection { $0 }
        do {
            try ProjectionSnapshots.write(
                current, paths: snapshotter.paths, identity: snapshotter.identity, fileSystem: snapshotter.fileSystem)
        } catch {
            throw ContactStoreError(error)
        }
    }

    /// The head digest of the state this store shows.
    public var headDigest: HeadDigest { projectionLock.read { projection.head } }

    /// Calls `body` with each durable record from `sequence` on, until it returns false.
    package func forEachRecord(from sequence: UInt64, _ body: (JournalRecord) throws -> Bool) throws {
        do {
            switch backing {
            case .journal(let journal):
                try journal.forEachRecord(from: sequence, body)
            case .reader(let reader), .frozen(let reader):
                var cursor = try reader.records(from: sequence)
                while let record = try cursor.next() {
                    if try !body(record) { return }
                }
            }
        } catch let error as StorageError {
            throw ContactStoreError(error)
        }
    }

    /// Reads the projection, search indexes included, under the read lock: a copy of the state
    /// with the indexes put back in (decision 0014). The store's own reads use ``readState(_:)``.
    package func withProjection<R>(_ body: (Projection) throws -> R) rethrows -> R {
        try readState { _, _ in try body(projectionWithIndexes()) }
    }

    /// A copy of the projection holding the store's indexes; call holding `projectionLock` and
    /// with the indexes caught up.
    private func projectionWithIndexes() -> Projection {
        var whole = projection
        whole.indexes = indexes
        return whole
    }

    /// Applies records to the projection with `apply`, leaving their index changes pending
    /// (decision 0014); call holding `projectionLock` for writing.
    private func applyLeavingIndexChangesPending(_ apply: () -> Void) {
        projection.recordIndexChanges()
        apply()
        let changes = projection.takeIndexChanges()
        indexLock.write { pendingIndexChanges.append(contentsOf: changes) }
    }

    /// Reads the state (whose own indexes are empty) and its search indexes, brought up to it,
    /// under the read locks. Both are read where they lie (``borrowPointee(_:_:)``).
    package func readState<R>(_ body: (borrowing Projection, borrowing SearchIndexes) throws -> R) rethrows -> R {
        try projectionLock.read {
            catchUpIndexes()
            return try indexLock.read {
                try Self.borrowPointee(UnsafePointer(projectionStorage)) { projection in
                    try Self.borrowPointee(UnsafePointer(indexesStorage)) { indexes in try body(projection, indexes) }
                }
            }
        }
    }

    /// Reads the state as ``readState(_:)`` does, with the client's access as of that state, so
    /// that the access checks, the grants and the contacts a read returns agree.
    func readStateAndAccess<R>(
        _ body: (borrowing Projection, borrowing SearchIndexes, ClientAccess) throws -> R
    ) rethrows -> R {
        try readState { projection, indexes in try body(projection, indexes, access) }
    }

    /// Calls `body` with the value at `pointer`, borrowed where it lies. A release build copies
    /// a copyable value read out of a pointer to pass it on (every buffer in it retained and
    /// released: about a fifth of a fetch by identifier, for the projection and the indexes);
    /// a function generic over a pointee that may be noncopyable cannot copy it, and passes it
    /// on in place (a read access, not a copy), which its specializations keep.
    @inline(__always)
    private static func borrowPointee<Value: ~Copyable, Result>(
        _ pointer: UnsafePointer<Value>, _ body: (borrowing Value) throws -> Result
    ) rethrows -> Result {
        try body(pointer.pointee)
    }

    /// Applies the pending index changes, if any: the indexes then match the state. Called by a
    /// finish after it answered its callers, and by any reader before it reads the indexes; a
    /// reader holds `projectionLock`, so no finish adds changes meanwhile.
    private func catchUpIndexes() {
        if indexLock.read({ pendingIndexChanges.isEmpty }) { return }
        indexLock.write {
            guard !pendingIndexChanges.isEmpty else { return }
            indexes.apply(pendingIndexChanges)
            pendingIndexChanges.removeAll(keepingCapacity: true)
            if indexes.needsPreparation { indexes.prepareForQueries() }
        }
    }

    // MARK: Saving

    /// Executes a save request: validates every change, commits them as one record, and returns
    /// after the record is on disk (fdatasync has returned). On any error nothing is written,
    /// nothing changes, and no notification is posted.
    @discardableResult
    public func execute(_ request: SaveRequest) async throws -> SaveResult {
        try await withCheckedThrowingContinuation { continuation in
            submit(request) { continuation.resume(with: $0) }
        }
    }

    /// Executes a save request, blocking the calling thread until the record is on disk.
    ///
    /// Called from an observer of `contactStoreDidChange` while the store posts it, it throws
    /// ``ContactStoreError/Code/dataAccessError``: it could wait for the thread it runs on.
    @discardableResult
    public func execute(_ request: SaveRequest) throws -> SaveResult {
        try wait { self.submit(request, leading: true, completion: $0) }
    }

    /// A save request waiting to be planned, with what was worked out for it before the commit lock.
    private struct Submission: Sendable {
        var request: SaveRequest
        var override: SaveClient?
        var prepared: PreparedSaveRequest
        /// For a request that only adds contacts: the event planning makes of it, and its encoding.
        var speculative: (event: LedgerEvent, encoded: EncodedEvent)?
        var completion: @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    }

    /// Validates and queues a request; `completion` runs once it is durable or has failed.
    ///
    /// A `leading` caller blocks until the outcome anyway and calls ``wait(_:)``: the
    /// journal does not wake its writer thread for the record, and the caller writes the group
    /// itself if the writer is idle. An asynchronous caller does not lead, so that no task blocks
    /// a thread of the cooperative pool in fdatasync; nor does it wait for the commit lock: it
    /// leaves its request to the thread planning already, if there is one (see
    /// ``planSubmissions()``).
    private func submit(
        _ request: SaveRequest, as override: SaveClient? = nil, leading: Bool = false,
        completion: @escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    ) {
        // What depends only on the request is worked out before the commit lock, which planning
        // against the durable and staged state must hold.
        let prepared = PreparedSaveRequest(request)
        // A request that only adds contacts is encoded before the lock too: if planning accepts
        // it, planning makes exactly this event (see `addOnlyEvent`). A leading caller plans
        // alone and encodes under the lock, without building the event twice.
        let speculative =
            leading
            ? nil
            : prepared.addOnlyEvent(
                createdBy: override?.identifier ?? client.identifier, defaultContainer: defaultContainerID
            ).map { (event: $0, encoded: EventCodec.encodeLocatingAdds($0)) }
        let submission = Submission(
            request: request, override: override, prepared: prepared, speculative: speculative, completion: completion)
        if leading {
            commitLock.lock()
            let answer = submitLocked(submission, leading: true)
            commitLock.unlock()
            answer?()
            return
        }
        submissionLock.lock()
        submissions.append(submission)
        if planning {
            submissionLock.unlock()
            return
        }
        planning = true
        submissionLock.unlock()
        planSubmissions()
    }

    /// Plans and queues the waiting asynchronous submissions, in the order they arrived, under
    /// the commit lock, until none is left; the thread that found no one planning runs it.
    ///
    /// Callers that arrive meanwhile add their requests to the list and return, instead of
    /// blocking a thread of the cooperative pool on the commit lock (and paying for its sleep and
    /// wake-up). Answers that need no journal (errors, committed requests) run after the lock is
    /// released.
    private func planSubmissions() {
        var batch: [Submission] = []
        var answers: [() -> Void] = []
        while true {
            commitLock.lock()
            submissionLock.lock()
            swap(&batch, &submissions)
            if batch.isEmpty {
                // Under both locks: a submission that arrives after this finds no one planning
                // and plans itself.
                planning = false
                submissionLock.unlock()
                commitLock.unlock()
                return
            }
            submissionLock.unlock()
            for submission in batch {
                if let answer = submitLocked(submission, leading: false) { answers.append(answer) }
            }
            commitLock.unlock()
            batch.removeAll(keepingCapacity: true)
            for answer in answers { answer() }
            answers.removeAll(keepingCapacity: true)
        }
    }

    /// Validates and queues one submission; call with `commitLock` held. Returns what must still
    /// be done once the lock is released (answering a request that was not queued), or nil when
    /// the request was queued and its completion runs when it is durable.
    private func submitLocked(_ submission: Submission, leading: Bool) -> (() -> Void)? {
        let request = submission.request
        let completion = submission.completion
        if let failure {
            return { completion(.failure(failure)) }
        }
        let journal: any JournalStore
        guard case .journal(let writable) = backing else {
            return { completion(.failure(ContactStoreError(.storeNotWritable, "the store is read-only"))) }
        }
        journal = writable
        let requestID = request.requestIdentifier
        if pendingRequests[requestID] != nil {
            // The same request is queued already: answer with its outcome when it has one.
            pendingRequests[requestID]!.append { result in
                completion(
                    result.map {
                        SaveResult(
                            sequence: $0.sequence, commitDate: $0.commitDate,
                            affectedIdentifiers: $0.affectedIdentifiers, wasAlreadyCommitted: true)
                    })
            }
            return nil
        }
        if let committed = projectionLock.read({ projection.sequence(ofRequest: requestID) }) {
            return {
                let original = Result { try self.originalResult(of: committed, journal: journal) }
                completion(
                    original.mapError { $0 as? ContactStoreError ?? ContactStoreError(.dataAccessError, "\($0)") })
            }
        }
        let sequence = nextSequence
        let saveClient = submission.override ?? SaveClient(identifier: client.identifier, access: access)
        // The staged changes move into the planner's view and back, so the request's effects are
        // written into them in place; `undo` takes them out again if the request is not queued.
        var planned: (staged: StagedChanges, undo: StagedUndo) = (StagedChanges(), StagedUndo())
        let outcome: Result<(operations: [LedgerOperation], affected: [String]), ContactStoreError> =
            projectionLock.read {
                var planner = SavePlanner(
                    state: StagedView(base: DurableProjection(self), staged: takeStaged()), client: saveClient,
                    request: request, sequence: sequence)
                let result: Result<(operations: [LedgerOperation], affected: [String]), ContactStoreError>
                do throws(ContactStoreError) {
                    result = .success(try planner.plan(submission.prepared))
                } catch {
                    result = .failure(error)
                }
                planned = planner.state.detach()
                return result
            }
        let plan: (operations: [LedgerOperation], affected: [String])
        switch outcome {
        case .failure(let error):
            restoreStaged(&planned)
            return { completion(.failure(error)) }
        case .success(let value): plan = value
        }
        guard !plan.operations.isEmpty else {
            restoreStaged(&planned)
            let head = projectionLock.read { (projection.head, projection.lastCommitMicroseconds) }
            return {
                completion(
                    .success(
                        SaveResult(
                            sequence: head.0.sequence, commitDate: Date(microseconds: head.1),
                            affectedIdentifiers: [], wasAlreadyCommitted: false)))
            }
        }
        let event: LedgerEvent
        var encoded: EncodedEvent?
        if let speculative = submission.speculative, speculative.event.operations.count == plan.operations.count {
            assert(speculative.event.operations == plan.operations, "planning changed an add-only request's event")
            event = speculative.event
            encoded = speculative.encoded
        } else {
            event = LedgerEvent(operations: plan.operations)
        }
        if let error = enqueueLocked(
            event, encoded: encoded, requestID: requestID, author: request.transactionAuthor ?? "",
            affected: plan.affected, planned: &planned, journal: journal, leading: leading, completion: completion)
        {
            return { completion(.failure(error)) }
        }
        return nil
    }

    /// Moves the staged changes out of the store, for a planner to write into in place; call with
    /// `commitLock` held, and give them back (``restoreStaged(_:)`` or ``enqueueLocked``) before
    /// releasing it.
    private func takeStaged() -> StagedChanges {
        var taken = StagedChanges()
        swap(&taken, &staged)
        return taken
    }

    /// Gives planned staged changes back to the store without the request's effects.
    private func restoreStaged(_ planned: inout (staged: StagedChanges, undo: StagedUndo)) {
        planned.undo.rollBack(&planned.staged)
        swap(&staged, &planned.staged)
    }

    /// Encodes (unless `encoded` is its encoding already) and queues an event whose effects are
    /// planned into `planned`, and gives the staged changes back to the store: with the event's
    /// effects when the journal took the record, without them (and with the error returned) when
    /// it refused it. Call with `commitLock` held.
    private func enqueueLocked(
        _ event: LedgerEvent, encoded given: EncodedEvent? = nil, requestID: UUID, author: String, affected: [String],
        planned: inout (staged: StagedChanges, undo: StagedUndo), journal: any JournalStore, leading: Bool,
        completion: @escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    ) -> ContactStoreError? {
        let sequence = nextSequence
        let encoded = given ?? EventCodec.encodeLocatingAdds(event)
        let entry = JournalEntry(
            requestID: requestID, author: author, schemaVersion: EventCodec.currentSchemaVersion,
            payload: encoded.payload)
        let undo = planned.undo
        do {
            let assigned = try journal.enqueue(entry, deferringWrite: leading) { [self] result in
                // The group is finished as a whole, in `finishGroup`, once all its records are here.
                let record = CompletedRecord(
                    event: event, encoded: encoded, requestID: requestID, author: author, affected: affected,
                    staged: undo, result: result)
                completedLock.lock()
                completed.append(record)
                completedLock.unlock()
            }
            precondition(assigned == sequence, "the journal assigned \(assigned) where the store expected \(sequence)")
            enqueuedThrough.store(assigned, ordering: .releasing)
        } catch {
            restoreStaged(&planned)
            return ContactStoreError(error)
        }
        swap(&staged, &planned.staged)
        nextSequence += 1
        pendingRequests[requestID] = [completion]
        return nil
    }

    /// Plans requests one after another, each seeing the ones before it, against the durable and
    /// staged state, without committing anything: the first failure throws.
    package func dryRun(_ requests: [SaveRequest]) throws(ContactStoreError) {
        commitLock.lock()
        defer { commitLock.unlock() }
        let saveClient = SaveClient(identifier: client.identifier, access: access)
        let outcome: ContactStoreError? = projectionLock.read {
            var view = StagedView(base: DurableProjection(self), staged: staged)
            var sequence = nextSequence
            for request in requests {
                var planner = SavePlanner(state: view, client: saveClient, request: request, sequence: sequence)
                do throws(ContactStoreError) {
                    _ = try planner.plan()
                } catch {
                    return error
                }
                view = planner.state
                sequence += 1
            }
            return nil
        }
        if let outcome { throw outcome }
    }

    /// A record the journal has completed (made durable, or failed), waiting for its group to be finished.
    private struct CompletedRecord {
        var event: LedgerEvent
        /// The event as its record holds it, with where its added contacts lie.
        var encoded: EncodedEvent
        var requestID: UUID
        var author: String
        var affected: [String]
        /// Its writes to the staged changes, released once it is applied.
        var staged: StagedUndo
        var result: Result<AppendReceipt, StorageError>
    }

    /// Whether the calling thread is finishing a group (running an observer of its notification).
    private var callerIsFinishing: Bool {
        // The lock is recursive: only the thread finishing, or a thread when none is, gets it.
        guard finishLock.try() else { return false }
        defer { finishLock.unlock() }
        return finishDepth > 0
    }

    /// The sequence of the last record this store queued in its journal (durable or not).
    var queuedThrough: UInt64 { enqueuedThrough.load(ordering: .acquiring) }

    /// Runs on the thread holding the journal's writer role after the completions of a group
    /// (records made durable by one fdatasync, or failed together), and decides who finishes it
    /// (decision 0013).
    ///
    /// When records are queued behind the group, the group is handed to the store's finishing
    /// queue, so that the journal writes and syncs the next group while this one is applied and
    /// its callers are answered. Otherwise the thread finishes the group itself, since nothing
    /// waits to be written and a hand-off would only add a thread wake-up to the caller's wait (a
    /// lone writer's save pays none), unless an earlier group is being finished: the journal's
    /// writer never waits for a finish.
    private func groupCompleted() {
        completedLock.lock()
        var last: UInt64?
        if case .success(let receipt)? = completed.last?.result { last = receipt.sequence }
        completedLock.unlock()
        let queuedBehind = last.map { queuedThrough > $0 } ?? false
        if queuedBehind || !finishGroup(waitingForTurn: false) {
            finisher.async { self.finishGroup() }
        }
    }

    /// Finishes the groups completed so far, in sequence order: advances the projection by them
    /// under one acquisition of the locks, then, record by record, posts the changes and
    /// completes the callers. Groups are finished one at a time (`finishLock`), so a call that
    /// finds its records taken by an earlier one does nothing. Without `waitingForTurn`, returns
    /// false at once if another thread is finishing.
    @discardableResult
    private func finishGroup(waitingForTurn: Bool = true) -> Bool {
        if waitingForTurn {
            finishLock.lock()
        } else if !finishLock.try() {
            return false
        }
        finishDepth += 1
        defer {
            finishDepth -= 1
            finishLock.unlock()
        }
        completedLock.lock()
        let records = completed
        completed = []
        completedLock.unlock()
        guard !records.isEmpty else { return true }
        // The records are read in place, by index: one copied out of the array is a dozen
        // references to retain and release, and a group's records were copied three times.
        var waiting: [[@Sendable (Result<SaveResult, ContactStoreError>) -> Void]] = []
        var outcomes: [Result<SaveResult, ContactStoreError>] = []
        waiting.reserveCapacity(records.count)
        outcomes.reserveCapacity(records.count)
        commitLock.lock()
        let durable = records.contains { if case .success = $0.result { true } else { false } }
        if durable {
            projectionLock.write {
                // The index changes are recorded, and applied after the callers are answered
                // (decision 0014): readers that need the indexes apply them first.
                var operations = 0
                applyLeavingIndexChangesPending {
                    for index in records.indices {
                        guard case .success(let receipt) = records[index].result else { continue }
                        projection.apply(
                            records[index].event, encoded: records[index].encoded, receipt: receipt,
                            requestID: records[index].requestID)
                        operations += records[index].event.operations.count
                    }
                }
                snapshotter?.applied(operations: operations, contacts: projection.contactCount) {
                    catchUpIndexes()
                    return projectionWithIndexes()
                }
            }
        }
        for index in records.indices {
            waiting.append(pendingRequests.removeValue(forKey: records[index].requestID) ?? [])
            switch records[index].result {
            case .success(let receipt):
                staged.release(records[index].staged)
                outcomes.append(
                    .success(
                        SaveResult(
                            sequence: receipt.sequence, commitDate: Date(microseconds: receipt.commitMicroseconds),
                            affectedIdentifiers: records[index].affected, wasAlreadyCommitted: false)))
            case .failure(let error):
                // Fail closed: nothing queued can be trusted; reads keep serving the durable state.
                failure = ContactStoreError(
                    .storeNotWritable, "a write to the ledger failed; reopen the store to recover: \(error)")
                staged = StagedChanges()
                outcomes.append(.failure(ContactStoreError(error)))
            }
        }
        commitLock.unlock()
        // Architecture.md's commit path: the projection has advanced; the changes are published
        // (one per record on the streams, one for the whole group in a notification, decision
        // 0012), then the callers return.
        let streams = observingStreams()
        var commits: [(sequence: UInt64, author: String, affected: [String])] = []
        commits.reserveCapacity(records.count)
        for index in records.indices {
            guard case .success(let receipt) = records[index].result else { continue }
            commits.append((receipt.sequence, records[index].author, records[index].affected))
            if streams.isEmpty { continue }
            let change = StoreChange(
                sequences: receipt.sequence...receipt.sequence, authors: [records[index].author],
                affectedIdentifiers: records[index].affected, origin: .thisStore)
            for stream in streams { stream.yield(change) }
        }
        if let change = StoreChange(covering: commits, origin: .thisStore) { post(change) }
        for index in outcomes.indices {
            for completion in waiting[index] { completion(outcomes[index]) }
        }
        catchUpIndexes()
        return true
    }

    /// The result a committed request had, rebuilt from its record.
    private func originalResult(of sequence: UInt64, journal: any JournalStore) throws -> SaveResult {
        var found: SaveResult?
        try journal.forEachRecord(from: sequence) { record in
            let event = try EventCodec.decode(record.payload, schemaVersion: record.schemaVersion)
            found = SaveResult(
                sequence: record.sequence, commitDate: record.commitDate,
                affectedIdentifiers: event.affectedIdentifiers,
                wasAlreadyCommitted: true)
            return false
        }
        guard let found else {
            throw ContactStoreError(.dataAccessError, "record \(sequence) of a committed request cannot be read")
        }
        return found
    }

    // MARK: Access

    /// The client's authorization for contacts.
    public func authorizationStatus(for entityType: EntityType = .contacts) -> AuthorizationStatus {
        currentAccess.status
    }

    /// The client's current access (status and notes entitlement).
    package var currentAccess: ClientAccess { projectionLock.read { access } }

    /// Asks for access: a not-yet-determined client gets the decision of its
    /// ``ClientContext/accessDecision``, recorded in the ledger. Returns true when the client may
    /// reach contacts (fully or limited); throws ``ContactStoreError/Code/authorizationDenied`` otherwise.
    @discardableResult
    public func requestAccess(for entityType: EntityType = .contacts) async throws -> Bool {
        let current = authorizationStatus()
        var decided = current
        if current == .notDetermined {
            decided = client.accessDecision()
            try await record(
                [
                    .setAuthorization(
                        clientIdentifier: client.identifier, status: decided, notesEntitlement: client.notesEntitlement)
                ],
                author: client.identifier)
            setStatus(decided)
        }
        switch decided {
        case .authorized, .limited: return true
        case .notDetermined, .denied, .restricted:
            throw ContactStoreError(.authorizationDenied, "client \(client.identifier) is \(decided)")
        }
    }

    private func setStatus(_ status: AuthorizationStatus) {
        commitLock.lock()
        // Readers read the access under `projectionLock` alone, with the state it applies to.
        projectionLock.write { access.status = status }
        commitLock.unlock()
    }

    /// Grants a limited client these contacts (the contact picker's stand-in), recorded in the ledger.
    public func grantAccess(toContactsWithIdentifiers identifiers: [String]) async throws {
        try await record(
            [.grantAccess(clientIdentifier: client.identifier, contactIdentifiers: identifiers)],
            author: client.identifier)
    }

    /// Takes these contacts away from a limited client, recorded in the ledger.
    public func revokeAccess(toContactsWithIdentifiers identifiers: [String]) async throws {
        try await record(
            [.revokeAccess(clientIdentifier: client.identifier, contactIdentifiers: identifiers)],
            author: client.identifier)
    }

    /// Commits store-level operations (access decisions and grants) as one record, staged like a
    /// save so that saves queued behind it see it; returns after it is on disk.
    private func record(_ operations: [LedgerOperation], author: String) async throws {
        let _: SaveResult = try await withCheckedThrowingContinuation { continuation in
            submitOperations(operations, author: author, requestID: RandomUUID.make()) { continuation.resume(with: $0) }
        }
    }

    /// Queues already-planned store-level operations as one record.
    private func submitOperations(
        _ operations: [LedgerOperation], author: String, requestID: UUID, leading: Bool = false,
        completion: @escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    ) {
        guard case .journal(let journal) = backing else {
            return completion(.failure(ContactStoreError(.storeNotWritable, "the store is read-only")))
        }
        let event = LedgerEvent(operations: operations)
        commitLock.lock()
        if let failure {
            commitLock.unlock()
            return completion(.failure(failure))
        }
        var planned = projectionLock.read {
            var view = StagedView(base: DurableProjection(self), staged: takeStaged())
            view.apply(event, sequence: nextSequence, requestID: requestID)
            return view.detach()
        }
        let error = enqueueLocked(
            event, requestID: requestID, author: author, affected: event.affectedIdentifiers, planned: &planned,
            journal: journal, leading: leading, completion: completion)
        commitLock.unlock()
        if let error { completion(.failure(error)) }
    }

    /// Executes a save request on behalf of another client with full access (replaying a
    /// recording into a scratch store); blocks until the record is on disk.
    @discardableResult
    package func execute(_ request: SaveRequest, onBehalfOf clientIdentifier: String) throws -> SaveResult {
        try wait {
            self.submit(
                request,
                as: SaveClient(
                    identifier: clientIdentifier, access: ClientAccess(status: .authorized, notesEntitlement: true)),
                leading: true, completion: $0)
        }
    }

    /// Commits store-level operations verbatim (replaying a recording); blocks until on disk.
    @discardableResult
    package func commitOperations(_ operations: [LedgerOperation], author: String, requestID: UUID) throws -> SaveResult
    {
        try wait {
            self.submitOperations(operations, author: author, requestID: requestID, leading: true, completion: $0)
        }
    }

    /// Runs a leading submission and blocks the calling thread for its result: the thread writes
    /// the group that holds its record itself when the journal's writer is idle, so a lone
    /// blocking caller pays no thread wake-ups; otherwise the busy writer takes the record.
    ///
    /// Refused on a thread that is finishing a group (an observer of `contactStoreDidChange`):
    /// the save could wait for that very thread, and would never return.
    private func wait(
        _ start: (@escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void) -> Void
    ) throws -> SaveResult {
        if callerIsFinishing {
            throw ContactStoreError(
                .dataAccessError,
                "a blocking save from within a change notification would wait for the thread posting it; "
                    + "save from a task of its own instead")
        }
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<SaveResult>()
        start { result in
            box.set(result)
            done.signal()
        }
        if case .journal(let journal) = backing { journal.writeQueued() }
        done.wait()
        return try box.get()
    }

    // MARK: Refresh and notifications

    /// Reads records another process appended since this read-only store last looked, applies
    /// them, and posts a change for them; returns how many were read.
    @discardableResult
    public func refresh() throws -> Int {
        guard case .reader(let reader) = backing else { return 0 }
        let from = headDigest.sequence + 1
        var applied: [(JournalRecord, LedgerEvent)] = []
        do {
            try reader.forEach(from: from) { record in
                let event = try EventCodec.decode(record.payload, schemaVersion: record.schemaVersion)
                applied.append((record, event))
            }
        } catch let error as StorageError {
            throw ContactStoreError(error)
        }
        guard
            let change = StoreChange(
                covering: applied.map {
                    (sequence: $0.0.sequence, author: $0.0.author, affected: $0.1.affectedIdentifiers)
                },
                origin: .otherProcess)
        else { return 0 }
        projectionLock.write {
            applyLeavingIndexChangesPending {
                for (record, event) in applied { projection.apply(event, record: record) }
            }
        }
        catchUpIndexes()
        for stream in observingStreams() { stream.yield(change) }
        post(change)
        return applied.count
    }

    /// A stream of the changes committed after the call, in order: one per save this store
    /// commits, one per ``refresh()`` that reads records; it ends when the store closes.
    public func changes() -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream<StoreChange>.makeStream(bufferingPolicy: .unbounded)
        let key = RandomUUID.make()
        observerLock.lock()
        observers[key] = continuation
        observerLock.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.observerLock.lock()
            self.observers[key] = nil
            self.observerLock.unlock()
        }
        return stream
    }

    /// The change streams open now.
    private func observingStreams() -> [AsyncStream<StoreChange>.Continuation] {
        observerLock.lock()
        defer { observerLock.unlock() }
        // No array for the common case of no streams: this runs once per group of commits.
        return observers.isEmpty ? [] : Array(observers.values)
    }

    /// Posts `contactStoreDidChange` for `change`.
    private func post(_ change: StoreChange) {
        NotificationCenter.default.post(name: .contactStoreDidChange, object: self, userInfo: change.userInfo)
    }
}

/// One committed change, as observers see it.
public struct StoreChange: Sendable, Hashable {
    /// Where a change came from.
    public enum Origin: Sendable, Hashable {
        /// A save executed through this store.
        case thisStore
        /// Records another process appended, read by ``ContactStore/refresh()``.
        case otherProcess
    }

    /// The journal sequences the change covers.
    public var sequences: ClosedRange<UInt64>
    /// The transaction authors of those records (empty strings for none).
    public var authors: [String]
    /// The contacts, groups and clients affected.
    public var affectedIdentifiers: [String]
    /// Whether it came from this store or from another process.
    public var origin: Origin

    /// The notification's user info: keys ``ContactStoreChangeKey``.
    public var userInfo: [AnyHashable: Any] {
        [
            ContactStoreChangeKey.sequences: [sequences.lowerBound, sequences.upperBound],
            ContactStoreChangeKey.authors: authors,
            ContactStoreChangeKey.affectedIdentifiers: affectedIdentifiers,
            ContactStoreChangeKey.originatedExternally: origin == .otherProcess,
        ]
    }
}

extension StoreChange {
    /// One change for commits given in sequence order: their sequences from the first to the
    /// last, and their authors and affected identifiers each once, in the order they first
    /// appear; nil for no commits.
    init?(
        covering commits: some BidirectionalCollection<(sequence: UInt64, author: String, affected: [String])>,
        origin: Origin
    ) {
        guard let first = commits.first?.sequence, let last = commits.last?.sequence else { return nil }
        var authors: [String] = []
        var affected: [String] = []
        var seenAuthors: Set<String> = []
        var seenAffected: Set<String> = []
        for commit in commits {
            if seenAuthors.insert(commit.author).inserted { authors.append(commit.author) }
            for identifier in commit.affected where seenAffected.insert(identifier).inserted {
                affected.append(identifier)
            }
        }
        self.init(sequences: first...last, authors: authors, affectedIdentifiers: affected, origin: origin)
    }
}

/// Keys of the `contactStoreDidChange` notification's user info.
public enum ContactStoreChangeKey {
    /// `[UInt64]`: the first and last journal sequence of the change.
    public static let sequences = "ContactStoreChangeSequences"
    /// `[String]`: the transaction authors.
    public static let authors = "ContactStoreChangeAuthors"
    /// `[String]`: the affected identifiers.
    public static let affectedIdentifiers = "ContactStoreChangeAffectedIdentifiers"
    /// `Bool`: whether the change came from another process.
    public static let originatedExternally = "ContactStoreChangeOriginatedExternally"
}

extension Notification.Name {
    /// Posted after a store applies committed changes, with ``StoreChange/userInfo``: once per
    /// group of saves made durable by one fdatasync (a lone save is a group of its own), and
    /// once per ``ContactStore/refresh()`` that reads records (decision 0012).
    ///
    /// A save's notification is posted synchronously, before the group's callers return, on the
    /// thread that finishes the group: the journal's writer thread, a blocking caller that wrote
    /// the group, or the store's finishing queue (decision 0013). An observer should hand work
    /// on rather than save from there: the blocking `execute(_:)` could wait for the very thread
    /// it runs on, and throws ``ContactStoreError/Code/dataAccessError`` instead. Reading the
    /// store, and saving from a task of its own (`Task { try await store.execute(request) }`), are
    /// safe.
    public static let contactStoreDidChange = Notification.Name("ContactStoreDidChange")
}

extension Date {
    /// A date from microseconds since the Unix epoch.
    package init(microseconds: Int64) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}

extension LedgerEvent {
    /// The identifiers of the contacts, groups and clients the event touches, in order.
    package var affectedIdentifiers: [String] {
        var result: [String] = []
        func add(_ identifier: String) { if !result.contains(identifier) { result.append(identifier) } }
        for operation in operations {
            switch operation {
            case .addContact(let identifier, _, _, _), .updateContact(let identifier, _, _, _),
                .deleteContact(let identifier, _, _, _, _), .addGroup(let identifier, _, _),
                .updateGroup(let identifier, _, _), .deleteGroup(let identifier, _, _, _, _, _),
                .addContainer(let identifier, _, _, _), .setAuthorization(let identifier, _, _):
                add(identifier)
            case .addMember(let contact, let group), .removeMember(let contact, let group):
                add(group)
                add(contact)
            case .addSubgroup(let child, let parent), .removeSubgroup(let child, let parent):
                add(parent)
                add(child)
            case .grantAccess(let client, let contacts), .revokeAccess(let client, let contacts):
                add(client)
                contacts.forEach(add)
            }
        }
        return result
    }
}

/// A result handed from a completion to a blocked caller.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    // Thread-safety: `set` happens before the semaphore signal and `get` after the wait.
    private var result: Result<Value, ContactStoreError>?
    func set(_ value: Result<Value, ContactStoreError>) { result = value }
    func get() throws(ContactStoreError) -> Value { try result!.get() }
}

extension ContactStore {
    /// The store's state as the base of a planner's ``StagedView``, read in place where it
    /// lives. Valid while the store is alive and its projection may be read: planning holds the
    /// commit lock and the projection's read lock.
    ///
    /// Each read goes to the stored properties it needs (`projection.pointee.contacts`), never
    /// through an instance method of `Projection` (`projection.pointee.contact(_:)`): a release
    /// build copies the whole projection out of the pointer for a method call, retaining and
    /// releasing every buffer it holds, which was a contact lookup's largest cost (Performance.md,
    /// item 59); a stored property costs the retains of its own buffers at most.
    fileprivate struct DurableProjection: LedgerStateReading {
        private let projection: UnsafePointer<Projection>

        init(_ store: ContactStore) { projection = UnsafePointer(store.projectionStorage) }

        var defaultContainer: Container { projection.pointee.defaultContainer }
        func contact(_ identifier: String) -> ContactState? {
            guard let slot = projection.pointee.contacts.slot(of: identifier) else { return nil }
            return Projection.state(
                at: slot, in: projection.pointee.contacts,
                containerIdentifiers: projection.pointee.containerIdentifiers, creators: projection.pointee.creators)
        }
        func group(_ identifier: String) -> GroupState? { projection.pointee.groupsByIdentifier[identifier] }
        func container(_ identifier: String) -> Container? { projection.pointee.containers[identifier] }
        func groups(containing contactIdentifier: String) -> [String] {
            Projection.groups(containing: contactIdentifier, in: projection.pointee.groupsByIdentifier)
        }
        func access(of client: String) -> ClientAccess? { projection.pointee.accessByClient[client] }
        func grants(of client: String) -> Set<String> { projection.pointee.grantsByClient[client] ?? [] }
        func sequence(ofRequest requestID: UUID) -> UInt64? { projection.pointee.requests[requestID] }
    }
}
