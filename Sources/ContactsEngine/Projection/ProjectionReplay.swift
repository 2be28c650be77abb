import ContactsModel
import Dispatch
import Foundation
import LedgerStorage

/// Replays records into a projection on two threads: the caller reads and checks records
/// (``add(_:)``) and hands them on in batches to a thread of the replay's own, which applies them
/// in order. Decoding a batch goes to whichever thread has time for it: the caller decodes the
/// batches it hands on while the applying thread still has one queued, and hands a batch on
/// undecoded, for the applying thread to decode, when the queue is empty. Reading, decoding and
/// applying a record cost about the same, so neither thread waits long for the other; when the
/// caller's thread would wait for room in the queue, it backs the contact arena's room with
/// memory ahead of the applying thread instead (``warmArena()``).
///
/// Decoding gets no thread of its own: three threads on two cores would wait on each other,
/// leaving the cores idle at times, and even the applying thread, the busiest of them.
///
/// A replay that starts from no contacts (decision 0009) builds the indexes once at the end, in
/// bulk (``Projection/buildIndexes()``), instead of keeping them up to date record by record;
/// and it keeps each added contact as the bytes its record holds (the Contact message the store
/// would encode for it) and merges updates into those bytes, so the values in a record are only
/// checked, not decoded. The result is the projection a sequential replay gives: one thread
/// applies every record, in sequence order, and the indexes answer every query alike.
package final class ProjectionReplay: @unchecked Sendable {
    // Thread-safety: `filling`, `warming`, `warmed` and `warmedBytes` belong to the caller's
    // thread. `batches` is a thread-safe queue. `failure`, `spent` and `arena` are guarded by
    // `lock`. `projection` belongs to the applying thread until it returns, and to the caller
    // after `finish()` has waited for that (`applying`).
    private static let batchRecords = 128
    /// A batch is handed on once its payloads reach this many bytes, whatever its records: an
    /// import writes records of a thousand contacts (about 280 KB), and batches of 128 of those
    /// would let the decoding run far ahead of the applying, which would then finish alone while
    /// a core stood idle.
    private static let batchBytesMax = 64 << 10
    private static let batchesQueuedMax = 4
    /// How far past the arena's filled part, as the applying thread published it after its last
    /// batch, the caller's thread backs the arena's room with memory (``warmArena()``), and how
    /// much it backs at a time: four batches of imported contacts (about 280 KB a record) are
    /// queued at most.
    private static let warmAhead = 4 << 20
    private static let warmChunk = 256 << 10

    /// A batch of records as the applying thread takes it.
    private enum Batch {
        /// Records to decode before applying.
        case read([JournalRecord])
        /// Records decoded by the caller's thread.
        case decoded([(ReplayOperations, JournalRecord)])
    }

    /// Whether added contacts are kept as their records' bytes (the indexes are deferred).
    private let keepsAddsEncoded: Bool
    private var filling: [JournalRecord] = []
    private var fillingBytes = 0
    private let batches = Handoff<Batch>(capacity: batchesQueuedMax)
    private let lock = NSLock()
    /// The first record, in sequence order, that could not be decoded (by either thread); nothing
    /// after it is applied.
    private var failure: (sequence: UInt64, error: ContactStoreError)?
    /// Applied batches, handed back so that the caller's thread, which allocated most of their
    /// strings and arrays, also frees them: freeing them on the applying thread cost it about a
    /// tenth of its time (reference counting, and glibc's frees of another thread's allocations).
    private var spent: [[(ReplayOperations, JournalRecord)]] = []
    /// Where the contact arena's room lies in memory and how much of it the applying thread has
    /// filled, as it was after the last batch it applied; nil until one is applied or when the
    /// arena is not backed ahead (a replay onto a projection with contacts).
    private var arena: (address: UInt, count: Int, capacity: Int)?
    /// Whether the caller's thread backs the arena's room ahead of the applying thread while it
    /// waits for room in the queue (``warmArena()``); cleared for good when the system does not
    /// know the advice.
    private var warming: Bool
    /// How far the caller's thread has backed the arena's room, the room's address then, and
    /// whether backing it was refused (it is tried again only at another address).
    private var warmed: (address: UInt, end: UInt, refused: Bool) = (0, 0, false)
    /// The layer that advises the system about memory (``FileSystem/populateForWriting(_:)``).
    private let fileSystem: any FileSystem
    /// For tests: the bytes of arena room the caller's thread backed.
    private(set) var warmedBytes = 0
    /// The applying thread, which ``finish()`` waits for; set once it starts.
    private var applying: BackgroundWork<Void>?
    /// Whether the caller's thread has closed the queue and waited for the applying thread
    /// (``finish()``, or ``add(_:)`` after a failure).
    private var finished = false
    private var projection: Projection
    /// For tests: whether the caller's thread decodes the batch that starts at a sequence,
    /// instead of deciding by the queue.
    private let decodesOnCaller: (@Sendable (_ firstSequence: UInt64) -> Bool)?
    /// For tests: called on the applying thread before it decodes a batch.
    private let applyingWillDecode: (@Sendable () -> Void)?

    /// Starts the applying thread on `projection`. A projection without contacts (a replay from
    /// the start) leaves its indexes to be built in bulk when the replay finishes, and reserves
    /// room for `journalBytes` bytes of contacts (the size of the segments to replay, about what
    /// their contacts take, within a bound), so that its arena is not copied each time it
    /// doubles; `journalBytes` is only asked for then. For tests, `decodesOnCaller` chooses the
    /// thread that decodes each batch, and `applyingWillDecode` can hold the applying thread
    /// before it decodes one.
    package init(
        _ projection: Projection, journalBytes: @autoclosure () -> Int = 0,
        fileSystem: any FileSystem = SystemFileSystem(),
        decodesOnCaller: (@Sendable (_ firstSequence: UInt64) -> Bool)? = nil,
        applyingWillDecode: (@Sendable () -> Void)? = nil
    ) {
        self.projection = projection
        self.fileSystem = fileSystem
        self.decodesOnCaller = decodesOnCaller
        self.applyingWillDecode = applyingWillDecode
        keepsAddsEncoded = projection.contactCount == 0
        warming = keepsAddsEncoded
        if keepsAddsEncoded {
            self.projection.deferIndexes()
            self.projection.contacts.reserveArena(journalBytes())
        }
        filling.reserveCapacity(Self.batchRecords)
        applying = BackgroundWork(named: "replay apply") { [self] in apply() }
    }

    /// Queues a record for decoding and applying; waits while the queue is full. Throws the
    /// error of a record queued earlier that could not be decoded.
    package func add(_ record: JournalRecord) throws(ContactStoreError) {
        if hasFailure { throw firstFailure() }
        filling.append(record)
        fillingBytes += record.payload.count
        if filling.count >= Self.batchRecords || fillingBytes >= Self.batchBytesMax { hand() }
    }

    /// Waits for every queued record to be applied and returns the projection, with the indexes
    /// this replay deferred (a replay from no contacts) built unless `buildingIndexes` is false
    /// (they are then left for ``Projection/buildDeferredIndexes()``); a projection restored from
    /// a snapshot keeps its indexes deferred either way (decision 0034), for the store to build
    /// when a read wants them. Throws the error of the first record that could not be decoded. Calling
    /// it again returns (or throws) the same without waiting.
    package func finish(buildingIndexes: Bool = true) throws(ContactStoreError) -> Projection {
        if !finished && !filling.isEmpty { hand() }
        waitForApplying()
        if let failure = lock.withLock({ failure }) { throw failure.error }
        if buildingIndexes && keepsAddsEncoded && projection.indexesDeferred {
            do throws(Projection.IndexBuildFailure) {
                try projection.buildIndexes()
            } catch {
                // Every contact was checked (added) or merged (updated) during the replay.
                preconditionFailure("\(error)")
            }
        }
        return projection
    }

    /// Whether a record that cannot be decoded has been found, by either thread.
    var hasFailure: Bool { lock.withLock { failure != nil } }

    /// Closes the queue and waits for the applying thread to take everything in it, once.
    private func waitForApplying() {
        guard !finished else { return }
        finished = true
        batches.close()
        _ = applying?.wait()
    }

    /// The error of the first record, in sequence order, that could not be decoded, once one is
    /// known: the applying thread may still be decoding a batch read before the one where the
    /// caller's thread found it, so it is waited for first.
    private func firstFailure() -> ContactStoreError {
        waitForApplying()
        guard let failure = lock.withLock({ failure }) else { preconditionFailure("no record failed to decode") }
        return failure.error
    }

    /// Hands the filled batch on: decoded here while the applying thread has a batch queued,
    /// else as it was read, for that thread to decode.
    private func hand() {
        let batch = filling
        filling = []
        fillingBytes = 0
        filling.reserveCapacity(Self.batchRecords)
        let used = lock.withLock {
            let used = spent
            spent = []
            return used
        }
        _ = consume used  // freed here, on the thread that decoded most of them
        guard decodesOnCaller?(batch[0].sequence) ?? (batches.count > 0) else {
            put(.read(batch))
            return
        }
        let operations = decode(batch)
        // The records before a failing one are applied, as a sequential replay applies them.
        if !operations.isEmpty { put(.decoded(operations)) }
    }

    /// Queues a batch; while the queue is full, backs the arena's room ahead of the applying
    /// thread instead of waiting, as long as there is room to back.
    private func put(_ batch: Batch) {
        while warming {
            if batches.tryPut(batch) { return }
            if !warmArena() { break }
        }
        batches.put(batch)
    }

    /// Backs the next chunk of the contact arena's room, up to ``warmAhead`` bytes past its filled
    /// part, with memory (``FileSystem/populateForWriting(_:)``, which faults the pages in as a
    /// write would and changes no byte); false when there is nothing to back.
    ///
    /// The applying thread is the busier of the two in a replay's record phase, and most of its
    /// time went to the page faults of the arena's fresh memory (on a VM, each also a fault in the
    /// hypervisor), while the caller's thread waited for room in the queue. Only whole pages past
    /// the filled part are backed. The extent is the one published after the last batch applied:
    /// should the arena have moved since (it outgrew its room, or was compacted), the old address
    /// may be advised once more, which changes no byte; a refusal (a range no longer mapped)
    /// stops the backing until another address is published, and an advice the system does not
    /// know (EINVAL, before Linux 5.14) stops it for the replay.
    private func warmArena() -> Bool {
        guard let arena = lock.withLock({ arena }), arena.address != 0 else { return false }
        if warmed.address != arena.address { warmed = (arena.address, 0, false) }
        guard !warmed.refused else { return false }
        let page = UInt(Self.pageSize)
        let filled = (arena.address + UInt(arena.count) + page - 1) & ~(page - 1)
        let limit = (arena.address + UInt(min(arena.capacity, arena.count + Self.warmAhead))) & ~(page - 1)
        let start = max(filled, warmed.end)
        guard start < limit, let base = UnsafeMutableRawPointer(bitPattern: start) else { return false }
        let length = min(UInt(Self.warmChunk), limit - start)
        do {
            try fileSystem.populateForWriting(UnsafeMutableRawBufferPointer(start: base, count: Int(length)))
        } catch {
            if case .system(_, _, EINVAL) = error { warming = false }
            warmed.refused = true
            return false
        }
        warmed.end = start + length
        warmedBytes += Int(length)
        return true
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Decodes a batch up to its first record that cannot be decoded, whose error it records.
    private func decode(_ batch: [JournalRecord]) -> [(ReplayOperations, JournalRecord)] {
        var operations: [(ReplayOperations, JournalRecord)] = []
        operations.reserveCapacity(batch.count)
        for record in batch {
            do throws(ContactStoreError) {
                operations.append(
                    (try Projection.decodeForReplay(record, keepingAddsEncoded: keepsAddsEncoded), record))
            } catch {
                lock.withLock {
                    if failure == nil || record.sequence < failure!.sequence { failure = (record.sequence, error) }
                }
                break
            }
        }
        return operations
    }

    /// The applying thread: applies batches in order, decoding those handed on undecoded, until
    /// the records end; after a record that cannot be decoded it only drains the queue, so
    /// that the caller never waits.
    private func apply() {
        var scratch = ReplayScratch()
        var stopped = false
        while let batch = batches.take() {
            if stopped { continue }
            let operations: [(ReplayOperations, JournalRecord)]
            switch batch {
            case .decoded(let decoded): operations = decoded
            case .read(let records):
                applyingWillDecode?()
                operations = decode(records)
                stopped = operations.count < records.count
            }
            projection.apply(operations, scratch: &scratch)
            let extent = keepsAddsEncoded ? projection.contacts.arenaExtent : nil
            lock.withLock {
                spent.append(operations)
                arena = extent
            }
        }
    }
}

/// A bounded queue from one thread to another: ``put(_:)`` waits while it is full, ``take()``
/// while it is empty, and returns nil once it is closed and empty.
final class Handoff<Element>: @unchecked Sendable {
    // Thread-safety: every stored property is guarded by `condition`.
    private let condition = NSCondition()
    private let capacity: Int
    private var elements: [Element] = []
    private var closed = false

    /// A queue that holds at most `capacity` elements.
    init(capacity: Int) { self.capacity = capacity }

    /// Adds an element unless the queue is full; whether it was added.
    func tryPut(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard elements.count < capacity else { return false }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// Adds an element, waiting while the queue is full.
    func put(_ element: Element) {
        condition.lock()
        while elements.count >= capacity { condition.wait() }
        elements.append(element)
        condition.broadcast()
        condition.unlock()
    }

    /// Removes the oldest element, waiting while the queue is empty; nil once it is closed and empty.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !closed { condition.wait() }
        return removeOldestLocked()
    }

    /// Removes the oldest element without waiting; nil when the queue is empty.
    func poll() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return removeOldestLocked()
    }

    /// Removes the oldest element, if any, and wakes a thread waiting for room; call holding
    /// `condition`.
    private func removeOldestLocked() -> Element? {
        if elements.isEmpty { return nil }
        condition.broadcast()
        return elements.removeFirst()
    }

    /// The elements queued and not yet taken.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return elements.count
    }

    /// Says that nothing more will be put.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// What the applying thread of a replay reuses from record to record.
struct ReplayScratch {
    /// A buffer for merged updates.
    var bytes: [UInt8] = []
    /// The hashes of the identifiers that a batch's adds, updates and deletes look up, in order.
    var hashes: [UInt32] = []
    /// The container of the last added contact whose container was given as UUID bytes.
    var container: (bytes: UUIDBytes, index: UInt16)?
}

/// An operation as a replay applies it: an added contact of a current-schema record as where its
/// Contact message lies in the record's payload, with its identifiers as the record holds them
/// (a UUID's 16 bytes rather than a string), anything else decoded.
enum ReplayOperation {
    /// A contact added; its values are the Contact message at `contact` in the payload.
    case add(
        identifier: DecodedIdentifier, containerIdentifier: DecodedIdentifier, createdBy: String, contact: Range<Int>)
    /// A contact updated; the new values of `keys` are the Contact message at `new` in the payload.
    case update(identifier: DecodedIdentifier, keys: ContactKeySet, new: Range<Int>)
    /// Any other operation (boxed: a ``LedgerOperation`` is close to two kilobytes).
    indirect case other(LedgerOperation)
}

/// The operations of one record, as a replay applies them.
struct ReplayOperations: DecodedOperations {
    /// The operations, in the record's order.
    private(set) var operations: [ReplayOperation] = []

    /// The values of added, updated and deleted contacts are checked, not decoded: the
    /// projection stores (or merges) the bytes of the new ones and needs none of the old.
    typealias Values = CheckedValues

    var count: Int { operations.count }

    mutating func append(_ operation: consuming LedgerOperation) {
        operations.append(.other(operation))
    }

    /// Keeps the added contact as its bytes; its values were only checked.
    mutating func appendAdd(
        identifier: DecodedIdentifier, containerIdentifier: DecodedIdentifier, createdBy: String,
        values: consuming CheckedValues, contact: Range<Int>
    ) {
        operations.append(
            .add(
                identifier: identifier, containerIdentifier: containerIdentifier, createdBy: createdBy, contact: contact
            ))
    }

    /// Keeps the update's new values as their bytes; its values were only checked.
    mutating func appendUpdate(
        identifier: DecodedIdentifier, keys: ContactKeySet, old: consuming CheckedValues,
        new: consuming CheckedValues, newContact: Range<Int>
    ) {
        operations.append(.update(identifier: identifier, keys: keys, new: newContact))
    }
}

extension Projection {
    /// Decodes a record's payload for a replay, with an error naming the record: with
    /// `keepingAddsEncoded`, a current-schema record's added contacts as their bytes.
    static func decodeForReplay(
        _ record: JournalRecord, keepingAddsEncoded: Bool
    ) throws(ContactStoreError) -> ReplayOperations {
        var operations = ReplayOperations()
        do throws(EventDecodingError) {
            if keepingAddsEncoded && record.payloadSchemaVersion == EventCodec.currentSchemaVersion {
                try EventCodec.decodeCurrent(record.payload, into: &operations)
            } else {
                for operation in try EventCodec.decode(record.payload, schemaVersion: record.payloadSchemaVersion)
                    .operations
                {
                    operations.append(operation)
                }
            }
        } catch {
            throw ContactStoreError(
                .dataAccessError, "record \(record.sequence) at \(record.location) cannot be decoded: \(error)")
        }
        return operations
    }

    /// Applies a batch of records' operations as ``decodeForReplay(_:keepingAddsEncoded:)`` gave
    /// them; `scratch` is what one applying thread reuses from batch to batch.
    ///
    /// The identifiers that adds, updates and deletes look up are hashed first, so that each lookup can
    /// ask for the memory of the ones a few places after it (``ContactTable/prefetch(hash:stage:)``):
    /// a million lookups in a table far bigger than the caches each waited for its bucket, and
    /// an update also for the contact's record and bytes, one after another.
    mutating func apply(_ batch: [(ReplayOperations, JournalRecord)], scratch: inout ReplayScratch) {
        scratch.hashes.removeAll(keepingCapacity: true)
        for (operations, _) in batch {
            for operation in operations.operations {
                switch operation {
                case .add(let identifier, _, _, _), .update(let identifier, _, _):
                    scratch.hashes.append(identifier.withTableKey(\.hash))
                case .other(.deleteContact(let identifier, _, _, _, _)):
                    scratch.hashes.append(ContactTable.withKey(identifier, \.hash))
                case .other: break
                }
            }
        }
        var lookups = 0
        for (operations, record) in batch {
            apply(operations, record: record, scratch: &scratch, lookups: &lookups)
        }
    }

    /// Applies a record's operations; `lookups` counts the adds, updates and deletes of the batch
    /// applied so far, whose identifiers' hashes are in `scratch.hashes` with those of the rest.
    private mutating func apply(
        _ operations: ReplayOperations, record: JournalRecord, scratch: inout ReplayScratch, lookups: inout Int
    ) {
        for operation in operations.operations {
            switch operation {
            case .add(let identifier, let containerIdentifier, let createdBy, let contact):
                let hash = prefetchAhead(&lookups, scratch.hashes)
                record.payload.withUnsafeBufferPointer { payload in
                    putEncodedContact(
                        identifier, hash: hash, encoded: UnsafeBufferPointer(rebasing: payload[contact]),
                        container: container(containerIdentifier, &scratch), createdBy: createdBy,
                        revision: record.sequence)
                }
            case .update(let identifier, let keys, let new):
                let hash = prefetchAhead(&lookups, scratch.hashes)
                record.payload.withUnsafeBufferPointer { payload in
                    updateEncodedContact(
                        identifier, hash: hash, keys: keys, new: UnsafeBufferPointer(rebasing: payload[new]),
                        revision: record.sequence, scratch: &scratch.bytes)
                }
            case .other(let operation):
                // A delete looks its contact up too: its place in the hashes keeps the memory of
                // the lookups after it asked for in time.
                if case .deleteContact = operation { _ = prefetchAhead(&lookups, scratch.hashes) }
                apply(operation, sequence: record.sequence)
            }
        }
        putRequest(record.requestID, sequence: record.sequence)
        head = HeadDigest(sequence: record.sequence, hash: record.hash)
        lastCommitMicroseconds = record.commitMicroseconds
    }

    /// Updates a contact with new values of `keys` given encoded, as applying an
    /// ``LedgerOperation/updateContact(identifier:keys:old:new:)`` does, by merging the encoded
    /// messages (``ContactCodec/mergeUpdate(current:update:keys:into:)``); only while the
    /// indexes are deferred. A contact that does not exist is left alone, as there.
    mutating func updateEncodedContact(
        _ identifier: DecodedIdentifier, hash: UInt32? = nil, keys: ContactKeySet, new: UnsafeBufferPointer<UInt8>,
        revision: UInt64, scratch: inout [UInt8]
    ) {
        precondition(indexesDeferred, "a contact updated as bytes would leave the indexes stale")
        guard let slot = identifier.withTableKey({ contacts.lookUp($0, hash: hash).slot }),
            let stored = contacts.record(at: slot)
        else { return }
        let merged = contacts.withEncoded(stored) { current in
            ContactCodec.mergeUpdate(current: current, update: new, keys: keys, into: &scratch)
        }
        if !merged {
            var values = contacts.withEncoded(stored) { Self.decodeValues($0, keeping: .all) }
            let update: ContactValues
            do {
                update = try ContactCodec.decode(Array(new)).values
            } catch {
                // The reading thread decoded these bytes before handing them over.
                preconditionFailure("a checked update cannot be decoded: \(error)")
            }
            for key in keys.keys { values.copyValue(for: key, from: update) }
            scratch = ContactCodec.encode(values, keys: .all)
        }
        contacts.replace(
            slot, encoded: scratch, container: stored.container, creator: stored.creator, revision: revision)
    }

    /// The hash of the identifier the next add, update or delete looks up, after asking for the memory
    /// that later ones will: the bucket of the one 12 places on, the record that the bucket of
    /// the one 6 places on names, and that record's bytes for the one 3 places on.
    @inline(__always)
    private func prefetchAhead(_ lookups: inout Int, _ hashes: [UInt32]) -> UInt32 {
        let position = lookups
        lookups += 1
        if position + 12 < hashes.count { contacts.prefetch(hash: hashes[position + 12], stage: 0) }
        if position + 6 < hashes.count { contacts.prefetch(hash: hashes[position + 6], stage: 1) }
        if position + 3 < hashes.count { contacts.prefetch(hash: hashes[position + 3], stage: 2) }
        return hashes[position]
    }

    /// The index of an added contact's container: the last one's again when its UUID bytes are
    /// the same, without writing out their text (consecutive contacts mostly share one).
    private mutating func container(_ identifier: DecodedIdentifier, _ scratch: inout ReplayScratch) -> UInt16 {
        switch identifier {
        case .text(let text):
            return containerIndex(text)
        case .uuid(let bytes):
            if let last = scratch.container, last.bytes == bytes { return last.index }
            let index = containerIndex(bytes.text)
            scratch.container = (bytes, index)
            return index
        }
    }

    /// Stores an added contact given as its encoded values, as ``putContact(_:_:)`` stores a
    /// ``ContactState``; only while the indexes are deferred, since it has no values to index.
    private mutating func putEncodedContact(
        _ identifier: DecodedIdentifier, hash: UInt32?, encoded: UnsafeBufferPointer<UInt8>, container: UInt16,
        createdBy: String, revision: UInt64
    ) {
        precondition(indexesDeferred, "a contact stored as bytes would miss the indexes")
        let creator = creatorIndex(createdBy)
        identifier.withTableKey { key in
            let (found, hash) = contacts.lookUp(key, hash: hash)
            if let slot = found {
                contacts.replace(slot, encoded: encoded, container: container, creator: creator, revision: revision)
            } else {
                _ = contacts.insert(
                    key, hash: hash, encoded: encoded, container: container, creator: creator, revision: revision)
            }
        }
    }
}
