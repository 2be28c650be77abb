import ContactsEngine
import ContactsInterchange
import ContactsModel
import Dispatch
import Foundation
import LedgerStorage
import Synchronization

/// The store's engine room: it owns the projection and every lock, plans save requests, hands
/// their records to the journal, finishes each durable group (applies it, notifies, answers the
/// callers), and serves reads against one state. ``ContactStore`` is its public face.
///
/// The lock order and what each lock guards are written at the top of the class; every other
/// file of the pipeline follows them.
package final class CommitPipeline: @unchecked Sendable {
    // Thread-safety: `cell.projection` is guarded by `projectionLock` (readers share it; applying
    // a record takes it exclusively); `cell.indexes` and `pendingIndexChanges` by `indexLock`, taken
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
    enum Backing {
        case journal(any JournalStore)
        case reader(JournalReader)
        case frozen(JournalReader)
    }

    let backing: Backing
    /// The object the change notifications name: the ``ContactStore`` over this pipeline. Set
    /// once, before the pipeline is shared.
    package weak var notificationObject: AnyObject?
    /// The ledger's identity.
    package let identity: LedgerIdentity
    /// The client this store serves.
    package let client: ClientContext
    let projectionLock = ReadWriteLock()
    /// The state and its search indexes, each at an address that never changes, so that
    /// planning and reads borrow them in place (``ProjectionCell``): a copy per request would
    /// retain and release every buffer they hold, under the commit lock, on cache lines that
    /// the finishing thread writes. `cell.projection` is the state without its search indexes,
    /// which `cell.indexes` holds as of the records applied before `pendingIndexChanges`.
    let cell: ProjectionCell
    let indexLock = ReadWriteLock()
    /// Index changes of applied records, in order, that `cell.indexes` does not have yet: a finish
    /// records them, answers its callers, and then applies them (``catchUpIndexes()``), unless a
    /// reader that needed the indexes did first.
    var pendingIndexChanges: [SearchIndexes.Change] = []
    let commitLock = NSLock()
    var staged = StagedChanges()
    var nextSequence: UInt64
    var failure: ContactStoreError?
    var access: ClientAccess
    var pendingRequests: [UUID: [@Sendable (Result<SaveResult, ContactStoreError>) -> Void]] = [:]
    /// Records the journal has completed whose group has not been finished yet (see ``finishGroup(waitingForTurn:)``).
    var completed: [CompletedRecord] = []
    let completedLock = NSLock()
    /// Held while a group is finished, so that groups are finished one at a time and in order,
    /// whichever thread finishes them (see ``groupCompleted()``). Recursive, so that an observer
    /// that closes the store from within a finish does not wait for itself.
    let finishLock = NSRecursiveLock()
    /// How many finishes the thread holding `finishLock` is inside (more than one when an observer
    /// of a finish leads a save of its own); guarded by `finishLock`.
    var finishDepth = 0
    /// The sequence of the last record queued in the journal. The journal's writer reads it after
    /// a group to see whether records wait behind it.
    let enqueuedThrough = Atomic<UInt64>(0)
    /// Finishes a group while the journal writes the records queued behind it.
    let finisher = DispatchQueue(label: "contacts-ledger.finish-group")
    let observerLock = NSLock()
    var observers: [UUID: AsyncStream<StoreChange>.Continuation] = [:]
    /// Writes snapshots of the projection for a store that writes a ledger directory; nil otherwise.
    let snapshotter: ProjectionSnapshotter?
    /// Asynchronous save requests waiting for the thread that plans them (see ``planSubmissions()``).
    var submissions: [Submission] = []
    /// Whether a thread is planning `submissions`.
    var planning = false
    let submissionLock = NSLock()
    /// The default container's identifier (the ledger's id; it never changes).
    let defaultContainerID: String
    /// Whether a search has been answered by a scan while the indexes were deferred
    /// (``readStateForSearch(scanning:_:)``), or one is scanning: the next one builds them.
    let searchedByScan = Atomic<Bool>(false)

    init(
        backing: Backing, identity: LedgerIdentity, projection: Projection, client: ClientContext,
        snapshotter: ProjectionSnapshotter? = nil
    ) {
        self.backing = backing
        self.identity = identity
        cell = ProjectionCell(projection)
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

    /// Waits for queued saves, writes a snapshot of the projection if enough was committed since
    /// the newest one for it to pay (a cache, see decisions 0006 and 0019), and releases the
    /// ledger; the store accepts no saves afterwards.
    package func close() {
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
                snapshotter.writeFinal(projectionLock.read { projectionForSnapshot() })
            }
        }
        observerLock.lock()
        let streams = observers.values
        observers = [:]
        observerLock.unlock()
        for stream in streams { stream.finish() }
    }

    /// Whether the journal failed closed (a write or fsync error).
    var journalFailed: Bool {
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
        let current = projectionLock.read { projectionForSnapshot() }
        do {
            try ProjectionSnapshots.write(
                current, paths: snapshotter.paths, identity: snapshotter.identity, fileSystem: snapshotter.fileSystem)
        } catch {
            throw ContactStoreError(error)
        }
    }

    /// The head digest of the state this store shows.
    package var headDigest: HeadDigest { projectionLock.read { cell.projection.head } }

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

    /// The first sequence of each segment of the journal, in order (`[1]` for one kept in one piece).
    package func segmentStarts() throws -> [UInt64] {
        do {
            switch backing {
            case .journal(let journal): return try journal.segmentStarts()
            case .reader(let reader), .frozen(let reader): return try reader.segmentStarts()
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
    func projectionWithIndexes() -> Projection {
        var whole = cell.projection
        whole.indexes = cell.indexes
        return whole
    }

    /// A copy of the projection for a snapshot, which holds no search indexes (decision 0034):
    /// taken without building or catching them up; call holding `projectionLock`.
    func projectionForSnapshot() -> Projection { cell.projection }

    /// Applies records to the projection with `apply`, leaving their index changes pending
    /// (decision 0014); call holding `projectionLock` for writing. While the indexes are still
    /// deferred (a read-only open, or an open from a snapshot), the records change only the
    /// contacts: the first search's scan, and the build that comes with the second search or with
    /// a non-search read that wants the indexes, read them as they are then.
    func applyLeavingIndexChangesPending(_ apply: () -> Void) {
        if cell.hasDeferredIndexes { return apply() }
        cell.projection.recordIndexChanges()
        apply()
        let changes = cell.projection.takeIndexChanges()
        indexLock.write { pendingIndexChanges.append(contentsOf: changes) }
    }

    /// Reads the state (whose own indexes are empty) and its search indexes, brought up to it,
    /// under the read locks. Both are read where they lie (``ProjectionCell/read(_:)``).
    ///
    /// A read that does not look at the indexes says so with `usingIndexes: false`: it is given
    /// empty ones and waits neither for the indexes to catch up with the last save (a fetch by
    /// identifier right after a save) nor, in a read-only store, for their build (a read that
    /// uses them builds them here, except a search, which goes through
    /// ``readStateForSearch(scanning:_:)``), so that `show` or `export` never pays for a search
    /// it does not make.
    package func readState<R>(
        usingIndexes: Bool = true, _ body: (borrowing Projection, borrowing SearchIndexes) throws -> R
    ) rethrows -> R {
        if usingIndexes { buildDeferredIndexes() }
        return try projectionLock.read {
            guard usingIndexes else { return try cell.readProjection(with: Self.unusedIndexes, body) }
            return try readWithIndexes(body)
        }
    }

    /// Reads the state and its indexes, brought up to it, under the index lock; call holding
    /// `projectionLock` for reading, with the indexes built.
    private func readWithIndexes<R>(
        _ body: (borrowing Projection, borrowing SearchIndexes) throws -> R
    ) rethrows -> R {
        catchUpIndexes()
        return try indexLock.read { try cell.read(body) }
    }

    /// Reads the state for a search by name, email address or phone number (decision 0037): as
    /// ``readState(usingIndexes:_:)`` does with the indexes, except while they are still deferred
    /// (a read-only open, or an open from a snapshot). Then the store's first search that
    /// `scans` (one that can match a contact) is given the state with its indexes deferred, for
    /// the search to scan the contacts (``Projection/slots(matchingName:from:)``), and builds
    /// nothing; a search that matches nothing whatever the contacts are is answered the same way
    /// without counting; every later search builds them. A one-shot search then costs a walk of
    /// the contacts rather than a build of every index, and a store that goes on searching has
    /// the indexes from its second search on.
    package func readStateForSearch<R>(
        scanning scans: (borrowing Projection) -> Bool,
        _ body: (borrowing Projection, borrowing SearchIndexes) throws -> R
    ) rethrows -> R {
        let answered: R? = try projectionLock.read {
            // Built indexes are read under this hold of the lock, as ``readState(usingIndexes:_:)``
            // would read them after taking it twice more.
            guard cell.hasDeferredIndexes else { return try readWithIndexes(body) }
            return try cell.readProjection(with: Self.unusedIndexes) { projection, indexes in
                try scanUnlessScanned(projection, indexes, scans: scans, body)
            }
        }
        if let answered { return answered }
        return try readState(body)
    }

    /// Answers a search from the state with its indexes deferred, or nil when the store has
    /// scanned already and the indexes are to be built. The scan is taken with an atomic
    /// exchange, so that of two first searches at once one scans and the other builds, and given
    /// back when the search throws (a client that may not read, an invalid predicate): a search
    /// that answered nothing leaves the scan to the next one.
    private func scanUnlessScanned<R>(
        _ projection: borrowing Projection, _ indexes: borrowing SearchIndexes,
        scans: (borrowing Projection) -> Bool, _ body: (borrowing Projection, borrowing SearchIndexes) throws -> R
    ) rethrows -> R? {
        guard scans(projection) else { return try body(projection, indexes) }
        guard !searchedByScan.exchange(true, ordering: .relaxed) else { return nil }
        var answered = false
        defer { if !answered { searchedByScan.store(false, ordering: .relaxed) } }
        let answer = try body(projection, indexes)
        answered = true
        return answer
    }

    /// Reads the state as ``readStateForSearch(scanning:_:)`` does for a search, and without the
    /// indexes otherwise, with the client's access as of that state.
    func readStateAndAccess<R>(
        searching: Bool, scanning scans: (borrowing Projection) -> Bool,
        _ body: (borrowing Projection, borrowing SearchIndexes, ClientAccess) throws -> R
    ) rethrows -> R {
        guard searching else { return try readStateAndAccess(usingIndexes: false, body) }
        return try readStateForSearch(scanning: scans) { projection, indexes in try body(projection, indexes, access) }
    }

    /// The empty indexes a read that does not use them is given, so that it neither waits for
    /// the index lock nor sees indexes another thread is changing.
    private static let unusedIndexes = SearchIndexes(defaultCountryCode: "")

    /// Reads the state as ``readState(usingIndexes:_:)`` does, with the client's access as of
    /// that state, so that the access checks, the grants and the contacts a read returns agree.
    func readStateAndAccess<R>(
        usingIndexes: Bool = true, _ body: (borrowing Projection, borrowing SearchIndexes, ClientAccess) throws -> R
    ) rethrows -> R {
        try readState(usingIndexes: usingIndexes) { projection, indexes in try body(projection, indexes, access) }
    }

    /// Builds the indexes a read-only open left deferred, for a read that uses them (a search
    /// after the first, or any other read that wants them), and hands
    /// them to the cell, which keeps them apart from the projection.
    private func buildDeferredIndexes() {
        guard projectionLock.read({ cell.hasDeferredIndexes }) else { return }
        projectionLock.write {
            guard cell.hasDeferredIndexes else { return }
            cell.projection.buildDeferredIndexes()
            indexLock.write {
                let empty = SearchIndexes(defaultCountryCode: cell.projection.indexes.defaultCountryCode)
                cell.indexes = cell.projection.indexes
                cell.projection.indexes = empty
            }
        }
    }

    /// Applies the pending index changes, if any: the indexes then match the state. Called by a
    /// finish after it answered its callers, and by any reader before it reads the indexes; a
    /// reader holds `projectionLock`, so no finish adds changes meanwhile.
    func catchUpIndexes() {
        if indexLock.read({ pendingIndexChanges.isEmpty }) { return }
        indexLock.write {
            guard !pendingIndexChanges.isEmpty else { return }
            cell.indexes.apply(pendingIndexChanges)
            pendingIndexChanges.removeAll(keepingCapacity: true)
            if cell.read({ _, indexes in indexes.needsPreparation }) { cell.indexes.prepareForQueries() }
        }
    }
}

/// A result handed from a completion to a blocked caller.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    // Thread-safety: `set` happens before the semaphore signal and `get` after the wait.
    private var result: Result<Value, ContactStoreError>?
    func set(_ value: Result<Value, ContactStoreError>) { result = value }
    func get() throws(ContactStoreError) -> Value { try result!.get() }
}
