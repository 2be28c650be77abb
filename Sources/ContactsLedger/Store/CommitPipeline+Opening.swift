import ContactsEngine
import ContactsInterchange
import ContactsModel
import Dispatch
import Foundation
import LedgerStorage
import Synchronization

/// Opening a ledger: from its newest usable snapshot and the records after it, read-only, as of
/// a point, or in memory.
extension CommitPipeline {
    /// Opens (creating it if `create` is true and nothing is there) the ledger at `path` as its
    /// single writer: restores the projections from the newest snapshot that checks out against
    /// the journal and replays the records after it, or replays the whole journal when there is
    /// no usable snapshot. Snapshots are written on ``close()`` and in the background as the
    /// ledger grows (decision 0006).
    package convenience init(
        ledgerAt path: String, client: ClientContext, create: Bool = true, lockWaitSeconds: Double = 0,
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws {
        if create && !fileSystem.exists(LedgerPaths(root: path).identity) {
            do { try LedgerDirectory.create(at: path, fileSystem: fileSystem) } catch { throw ContactStoreError(error) }
        }
        let options = JournalOptions(lockWaitSeconds: lockWaitSeconds, fileSystem: fileSystem)
        var opened: (journal: Journal, projection: Projection?, bytes: Int, loadedAt: HeadDigest?)?
        if let identity = try? LedgerDirectory.identity(at: path, fileSystem: fileSystem) {
            _ = try ProjectionSnapshots.withNewest(
                paths: LedgerPaths(root: path), identity: identity, fileSystem: fileSystem,
                defaultCountryCode: client.region
            ) { start in
                let head = start.head
                guard
                    let (journal, projection, bytes) = try Self.openJournal(
                        at: path, options: options, from: consume start, region: client.region)
                else { return false }
                opened = (journal, projection, bytes, head)
                return true
            }
        }
        if opened == nil {
            guard
                let (journal, projection, bytes) = try Self.openJournal(
                    at: path, options: options, from: nil, region: client.region)
            else {
                preconditionFailure("a replay from the start has no snapshot to disagree with")
            }
            opened = (journal, projection, bytes, nil)
        }
        guard let (journal, replayed, bytes, loadedAt) = opened else {
            preconditionFailure("the journal was opened above")
        }
        var projection = replayed ?? Projection(ledgerID: journal.identity.ledgerID, defaultCountryCode: client.region)
        projection.prepareForQueries()
        let snapshotter = ProjectionSnapshotter(
            paths: journal.paths, identity: journal.identity, fileSystem: fileSystem,
            newestSnapshot: loadedAt?.sequence, payloadBytesSince: bytes)
        self.init(
            backing: .journal(journal), identity: journal.identity, projection: projection, client: client,
            snapshotter: snapshotter)
    }

    /// A snapshot whose record in the journal has another chain hash.
    struct SnapshotMismatch: Error {}

    /// Opens the journal for writing and replays into the projection: from `start` (a snapshot's
    /// projection) the records after it, else every record. With a start, the scan begins at the
    /// snapshot's own record, which must carry the snapshot's chain hash. The scan itself reports
    /// a journal that disagrees with, or ends before, a snapshot listed when it began (decision
    /// 0018); this returns nil, with the journal closed, for one it did not list (written or
    /// pruned meanwhile by a writer in another process before the lock was taken). Otherwise returns the journal, the projection (nil when there
    /// was neither a start nor a record) and the payload bytes of the records replayed.
    static func openJournal(
        at path: String, options: JournalOptions, from start: consuming Projection?, region: String
    ) throws -> (Journal, Projection?, Int)? {
        // Created at the first record to apply, so that a store opened at its head starts no thread.
        var replay: ProjectionReplay?
        let startHead = start?.head
        // Handed to the replay rather than shared with it, so that its saves do not copy the arena.
        var pending = consume start
        var matched = startHead == nil
        var payloadBytes = 0
        let journal: Journal
        do {
            journal = try Journal.open(at: path, options: options, replayFrom: startHead?.sequence ?? 1) {
                record in
                if let startHead, record.sequence == startHead.sequence {
                    guard record.hash == startHead.hash else { throw SnapshotMismatch() }
                    matched = true
                    return
                }
                if replay == nil {
                    replay = ProjectionReplay(
                        try pending.take()
                            ?? Projection(
                                ledgerID: LedgerDirectory.identity(at: path, fileSystem: options.fileSystem).ledgerID,
                                defaultCountryCode: region),
                        journalBytes: LedgerDirectory.segmentBytes(
                            LedgerPaths(root: path), from: record.sequence, fileSystem: options.fileSystem),
                        fileSystem: options.fileSystem)
                }
                payloadBytes += record.payload.count
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
            return (journal, try replay?.finish() ?? pending, payloadBytes)
        } catch {
            journal.close()
            throw error
        }
    }

    /// Opens the ledger at `path` read-only, without the writer lock: ``refresh()`` reads what
    /// the writer appends later. With `asOf`, the store shows the ledger as it was at that point
    /// and never changes.
    package convenience init(readingLedgerAt path: String, asOf point: LedgerPoint? = nil, client: ClientContext) throws
    {
        let reader: JournalReader
        do { reader = try JournalReader(at: path) } catch { throw ContactStoreError(error) }
        let last = try Self.lastSequence(reader, through: point)
        var restored: Projection?
        _ = try ProjectionSnapshots.withNewest(
            paths: reader.paths, identity: reader.identity, fileSystem: reader.fileSystem, through: last,
            defaultCountryCode: client.region
        ) { start in
            var candidate = consume start
            guard try Self.replay(reader, into: &candidate, through: last) else { return false }
            restored = consume candidate
            return true
        }
        var projection = restored ?? Projection(ledgerID: reader.identity.ledgerID, defaultCountryCode: client.region)
        // Without a snapshot the indexes are left deferred: the first search scans, and the second
        // search, or a non-search read that wants them, builds them.
        if restored == nil { _ = try Self.replay(reader, into: &projection, through: last, buildingIndexes: false) }
        projection.prepareForQueries()
        self.init(
            backing: point == nil ? .reader(reader) : .frozen(reader), identity: reader.identity,
            projection: projection,
            client: client)
    }

    /// Creates a store over an empty in-memory journal: the same code as a file ledger, no files.
    package static func inMemory(client: ClientContext = .fullAccess()) -> CommitPipeline {
        let journal = InMemoryJournal()
        return CommitPipeline(
            backing: .journal(journal), identity: journal.identity,
            projection: Projection(ledgerID: journal.identity.ledgerID, defaultCountryCode: client.region),
            client: client)
    }

    /// Creates an in-memory store that starts from a recorded ledger (all of it, or through a
    /// point); nothing the store does touches the recording.
    package static func inMemory(
        copyingLedgerAt path: String, through point: LedgerPoint? = nil, client: ClientContext = .fullAccess()
    )
        throws -> CommitPipeline
    {
        do {
            let reader = try JournalReader(at: path)
            let last = try Self.lastSequence(reader, through: point)
            let journal = try InMemoryJournal(copying: reader, through: last)
            var restored: Projection?
            _ = ProjectionSnapshots.withNewest(
                paths: reader.paths, identity: reader.identity, fileSystem: reader.fileSystem, through: last,
                defaultCountryCode: client.region
            ) { start in
                // The copy holds the records; the snapshot's own must carry its hash.
                let head = start.head
                var matches = false
                try? journal.forEachRecord(from: head.sequence) { record in
                    matches = record.sequence == head.sequence && record.hash == head.hash
                    return false
                }
                if matches { restored = consume start }
                return matches
            }
            // Taken out of `restored`, so that the replay appends to its arrays without copying them.
            var projection =
                restored.take() ?? Projection(ledgerID: reader.identity.ledgerID, defaultCountryCode: client.region)
            let from = projection.head.sequence + 1
            let replay = ProjectionReplay(
                consume projection,
                journalBytes: LedgerDirectory.segmentBytes(reader.paths, from: from, fileSystem: reader.fileSystem),
                fileSystem: reader.fileSystem)
            do {
                try journal.forEachRecord(from: from) { record in
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
            return CommitPipeline(
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
    static func replay(
        _ reader: JournalReader, into projection: inout Projection, through last: UInt64?,
        buildingIndexes: Bool = true
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
            // Taken out of `projection` rather than shared with it, so that the replay appends
            // to the arrays in place; a replay that fails leaves `projection` unused.
            var taken = Projection(
                ledgerID: projection.ledgerID, defaultCountryCode: projection.indexes.defaultCountryCode)
            swap(&taken, &projection)
            replay = ProjectionReplay(
                consume taken,
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
        projection = try replay.finish(buildingIndexes: buildingIndexes)
        return true
    }
}
