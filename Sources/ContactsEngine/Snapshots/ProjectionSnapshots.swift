import ContactsModel
import Dispatch
import Foundation
import LedgerStorage

/// Finds, checks, loads and writes snapshots of a ledger's ``Projection`` (decision 0006).
///
/// A snapshot is a cache: it is used only when `SnapshotStore` finds its checksum, digest and
/// ledger id sound, the journal's record at its sequence carries its chain hash, and its state
/// decodes; a snapshot damaged in itself is passed over, and the caller replays the journal from
/// the start. Deleting `snapshots/` only costs that replay. A snapshot that checks out but that
/// the journal disagrees with is not passed over: it records a head as durable, so every scan
/// of the journal reports the disagreement as corruption (decision 0018).
package enum ProjectionSnapshots {
    /// A projection restored from a snapshot, and why newer snapshots were passed over.
    package struct Loaded {
        /// The state as of ``head``.
        package var projection: Projection
        /// The sequence and chain hash the snapshot covers.
        package var head: HeadDigest { projection.head }
        /// Newer snapshots that were not used, each with the reason.
        package var rejected: [String]
    }

    /// What a search for a usable snapshot found.
    package struct Search {
        /// The projection of the newest usable snapshot, if any.
        package var loaded: Loaded?
        /// Every snapshot passed over, with the reason (for diagnostics and tests).
        package var rejected: [String]
    }

    /// The newest usable snapshot of the ledger at `path` (at or before `last`, when given).
    ///
    /// Without `last`, this is the snapshot `SnapshotStore.latestUsable` accepts; its state must
    /// also decode, or the journal is used. With `last` (a point-in-time view), the newest
    /// snapshot at or before it that checks out is used. Never throws: a snapshot that cannot
    /// be used is a reason to replay, not an error, and a journal that disagrees with one that
    /// checks out is reported by that replay's scan.
    package static func load(
        ledgerAt path: String, reader: JournalReader, through last: UInt64? = nil,
        defaultCountryCode: String = ContactsUserDefaults.shared.countryCode
    ) -> Search {
        let store = SnapshotStore(paths: reader.paths, identity: reader.identity, fileSystem: reader.fileSystem)
        var rejected: [String] = []
        let snapshot: Snapshot?
        if let last {
            snapshot = newestUsable(store, reader: reader, through: last, rejected: &rejected)
        } else {
            do {
                let found = try store.latestUsable(reader: reader)
                rejected = found.rejected
                snapshot = found.snapshot
            } catch {
                rejected.append("snapshots cannot be used: \(error)")
                snapshot = nil
            }
        }
        guard let snapshot else { return Search(loaded: nil, rejected: rejected) }
        do {
            let projection = try Projection(
                snapshot: snapshot, ledgerID: reader.identity.ledgerID,
                head: HeadDigest(sequence: snapshot.sequence, hash: snapshot.hash),
                defaultCountryCode: defaultCountryCode)
            return Search(loaded: Loaded(projection: projection, rejected: rejected), rejected: rejected)
        } catch {
            rejected.append("snapshot \(snapshot.sequence): its state cannot be used: \(error)")
            return Search(loaded: nil, rejected: rejected)
        }
    }

    /// Offers the projection of each snapshot that checks out on its own (CRC, state digest,
    /// ledger id) and whose state decodes, newest first (at or before `last`, when given), to
    /// `use`, until `use` returns true; returns whether one was used.
    ///
    /// `use` must check the snapshot against the journal: that the record at the projection's
    /// head sequence carries its hash. Opening stores do that in the scan that replays the
    /// records after it (reading from that record rather than the one after), so the segment
    /// that holds it is read once, not once to check and again to replay.
    package static func withNewest(
        paths: LedgerPaths, identity: LedgerIdentity, fileSystem: any FileSystem, through last: UInt64? = nil,
        defaultCountryCode: String = ContactsUserDefaults.shared.countryCode,
        _ use: (consuming Projection) throws -> Bool
    ) rethrows -> Bool {
        let store = SnapshotStore(paths: paths, identity: identity, fileSystem: fileSystem)
        guard var sequences = try? store.sequences() else { return false }
        var tried: Set<UInt64> = []
        // Twice at most: one snapshot is kept, so a writer that replaces it while this runs
        // removes the one listed; the listing taken again names its replacement.
        for _ in 0..<2 {
            for sequence in sequences.reversed()
            where sequence > 0 && sequence <= (last ?? .max) && tried.insert(sequence).inserted {
                // The state's checksum is checked while the state is restored (Projection(snapshot:)).
                guard case .success(let snapshot) = store.read(sequence: sequence, checkingState: false),
                    let projection = try? Projection(
                        snapshot: snapshot, ledgerID: identity.ledgerID,
                        head: HeadDigest(sequence: snapshot.sequence, hash: snapshot.hash),
                        defaultCountryCode: defaultCountryCode)
                else { continue }
                // Handed over, not shared: a replay onto it then appends to its arrays in place
                // instead of copying them (a million contacts' arena is hundreds of megabytes).
                if try use(consume projection) { return true }
            }
            guard let again = try? store.sequences(), again != sequences else { return false }
            sequences = again
        }
        return false
    }

    /// The newest snapshot at or before `last` whose hash matches the journal's.
    private static func newestUsable(
        _ store: SnapshotStore, reader: JournalReader, through last: UInt64, rejected: inout [String]
    ) -> Snapshot? {
        guard let sequences = try? store.sequences() else { return nil }
        for sequence in sequences.reversed() where sequence <= last && sequence > 0 {
            switch store.read(sequence: sequence) {
            case .failure(let failure):
                rejected.append("snapshot \(sequence): \(failure.reason)")
            case .success(let snapshot):
                guard let hash = try? reader.hash(at: sequence), hash == snapshot.hash else {
                    rejected.append("snapshot \(sequence): its chain hash does not match the journal")
                    continue
                }
                return snapshot
            }
        }
        return nil
    }

    /// Writes a snapshot of `projection` into the ledger at `paths` atomically, keeping only it
    /// (``SnapshotStore/keptCount``); returns after it is on disk. An empty ledger (sequence 0)
    /// gets none.
    package static func write(
        _ projection: Projection, paths: LedgerPaths, identity: LedgerIdentity,
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws(StorageError) {
        guard projection.head.sequence > 0 else { return }
        let store = SnapshotStore(paths: paths, identity: identity, fileSystem: fileSystem)
        try store.write(
            sequence: projection.head.sequence, hash: projection.head.hash,
            stateCapacity: projection.snapshotStateCapacity
        ) { projection.encodeSnapshotState(appendingTo: &$0) }
    }
}

/// Decides when a writing store snapshots its projection, and writes snapshots off the commit path.
///
/// The policy (decision 0006): a snapshot is due when at least
/// `max(`` eventsBetweenSnapshotsMin ``, contacts / `` contactsPerEventBetweenSnapshots ``)` operations
/// have been applied since the last one, so a small ledger is snapshotted every ten thousand
/// operations and a large one after an eighth of its size has changed; replay after a snapshot is
/// then bounded, and writing snapshots costs a bounded share of the work that made them due.
/// The commit path only copies the projection (a copy-on-write value) and hands it to a
/// background queue, which encodes and writes it; at most one write is in flight.
package final class ProjectionSnapshotter: @unchecked Sendable {
    // Thread-safety: `lastSequence`, `operationsSince`, `bytesSince`, `inFlight` and `lastFailure`
    // are guarded by `lock`; `queue` is serial, so writes never overlap.

    /// The fewest operations between two automatic snapshots.
    static let eventsBetweenSnapshotsMin = 10_000
    /// A large projection is snapshotted after contacts / this many operations.
    static let contactsPerEventBetweenSnapshots = 8

    package let paths: LedgerPaths
    package let identity: LedgerIdentity
    package let fileSystem: any FileSystem
    private let queue = DispatchQueue(label: "ContactsLedger snapshot writer", qos: .utility)
    private let lock = NSLock()
    private var lastSequence: UInt64
    private var operationsSince = 0
    /// The payload bytes of the records after the newest snapshot: what an open replays.
    private var bytesSince: Int
    private var inFlight = false
    private var lastFailure: StorageError?

    /// A snapshotter for a ledger whose newest snapshot, the one its projection was restored
    /// from, is at `sequence` (nil when the projection was replayed from the start), and whose
    /// records after it hold `payloadBytesSince` bytes of payload (replayed on every open).
    package init(
        paths: LedgerPaths, identity: LedgerIdentity, fileSystem: any FileSystem, newestSnapshot sequence: UInt64?,
        payloadBytesSince: Int
    ) {
        self.paths = paths
        self.identity = identity
        self.fileSystem = fileSystem
        lastSequence = sequence ?? 0
        bytesSince = payloadBytesSince
    }

    /// The error of the last snapshot write that failed, if the last one failed.
    var failure: StorageError? {
        lock.lock()
        defer { lock.unlock() }
        return lastFailure
    }

    /// Called after committed records are applied, with their operations and payload bytes, how
    /// many contacts there are now and the projection that includes them, made only when a write
    /// is due; starts a background write when one is due. Cheap: counters, and rarely a copy.
    package func applied(operations: Int, payloadBytes: Int, contacts: Int, projection make: () -> Projection) {
        lock.lock()
        operationsSince += operations
        bytesSince += payloadBytes
        guard !inFlight, operationsSince >= Self.due(contacts: contacts) else {
            lock.unlock()
            return
        }
        inFlight = true
        let counted = (operations: operationsSince, bytes: bytesSince)
        operationsSince = 0
        bytesSince = 0
        lock.unlock()
        let copy = make()
        queue.async { _ = self.write(copy, counted: counted) }
    }

    /// How many operations since the last snapshot make the next one due.
    static func due(contacts: Int) -> Int {
        max(Self.eventsBetweenSnapshotsMin, contacts / Self.contactsPerEventBetweenSnapshots)
    }

    /// The fewest payload bytes after the newest snapshot that make one due at close.
    static let closeBytesMin = 16 * 1024
    /// At close a snapshot is due once the records after the newest one hold this share of its size.
    static let closeSnapshotShare = 32

    /// Whether a snapshot is due at close, with `bytesSince` payload bytes of records after the
    /// newest one and a snapshot of `snapshotBytes`. Every open replays those records, and a
    /// replayed byte costs far more than a restored one, so the rewrite of the whole snapshot is
    /// spread over the opens that a thirty-second of its size of records would slow down
    /// (decision 0019 has the measurements).
    static func isDueAtClose(bytesSince: Int, snapshotBytes: Int) -> Bool {
        bytesSince >= max(closeBytesMin, snapshotBytes / closeSnapshotShare)
    }

    /// Waits for a background write, then writes a snapshot of `projection` if one is due, and
    /// returns after it is on disk; returns whether it wrote one.
    ///
    /// One is due by the background's count of operations, or by the bytes of records after
    /// the newest snapshot, which every open replays and which short-lived writers (one command,
    /// one record each) add to a little at a time (``isDueAtClose(bytesSince:snapshotBytes:)``).
    /// A store that added little writes none, so that closing costs only the journal's own
    /// syncs (decision 0019).
    @discardableResult
    package func writeFinal(_ projection: Projection) -> Bool {
        queue.sync {}
        lock.lock()
        let isDue =
            (operationsSince > 0 && operationsSince >= Self.due(contacts: projection.contactCount))
            || Self.isDueAtClose(bytesSince: bytesSince, snapshotBytes: projection.snapshotStateCapacity)
        lock.unlock()
        guard isDue, projection.head.sequence > lastSequence else { return false }
        return queue.sync { write(projection, counted: (0, 0)) }
    }

    /// Waits until no background write is running.
    package func waitForWrites() { queue.sync {} }

    /// Writes a snapshot of `projection`; returns whether it is on disk. A write that fails gives
    /// back the operations and bytes it was counted for, so that the next one is due as soon.
    private func write(_ projection: Projection, counted: (operations: Int, bytes: Int)) -> Bool {
        var failure: StorageError?
        do throws(StorageError) {
            try ProjectionSnapshots.write(projection, paths: paths, identity: identity, fileSystem: fileSystem)
        } catch {
            failure = error
        }
        lock.lock()
        inFlight = false
        lastFailure = failure
        if failure == nil {
            lastSequence = projection.head.sequence
        } else {
            operationsSince += counted.operations
            bytesSince += counted.bytes
        }
        lock.unlock()
        return failure == nil
    }
}
