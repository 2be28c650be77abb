import Foundation

/// Where each ledger whose writer failed in this process last had its journal durable.
///
/// After a failed write or fsync, the kernel may have marked the pages clean without writing
/// them (PostgreSQL's "fsyncgate"): the bytes are still in the page cache, so a later scan reads
/// them as valid records, but they may not be on disk, and an fsync through a new descriptor
/// will not report it. So when a writer fails, it records the last position it had made durable
/// (a segment and an offset), and the next ``Journal/open(at:options:replayFrom:onRecord:)`` of
/// the same ledger in this process cuts the journal back to that position (removing later
/// segments, truncating, fsyncing the segment and the directory) before it scans.
///
/// The record lives only as long as the process: a process that starts after another one's
/// writer failed cannot know, and the journal's checks (a hole reads as a bad record) are then
/// the only defence. Once such a process has opened the journal and recorded a head above the
/// failed writer's (decision 0018), the record no longer applies: cutting back would remove what
/// that writer acknowledged. Ledgers are keyed by their canonical path, so two spellings of one
/// directory find the same record.
package final class FailedWriterRegistry: @unchecked Sendable {
    // Thread-safety: `positions` is guarded by `lock`.

    /// The position a failed writer had made durable.
    struct Position: Sendable, Hashable {
        /// The ledger it belongs to, so that a record never applies to another ledger made at the same path.
        var ledgerID: UUID
        /// The first sequence number (the name) of the segment the writer was appending to.
        var segmentFirstSequence: UInt64
        /// The segment's durable length.
        var offset: Int64
        /// The sequence of the last record the writer had made durable.
        var durableSequence: UInt64
    }

    /// The registry of this process.
    package static let shared = FailedWriterRegistry()

    private let lock = NSLock()
    private var positions: [String: Position] = [:]

    /// Records a failed writer's durable position, keeping an earlier one if the ledger already has one.
    func record(root: String, _ position: Position) {
        lock.lock()
        defer { lock.unlock() }
        let key = canonicalPath(root)
        if let existing = positions[key], existing.ledgerID == position.ledgerID { return }
        positions[key] = position
    }

    /// The recorded position for the ledger at `root`, if any.
    func position(root: String) -> Position? {
        lock.lock()
        defer { lock.unlock() }
        return positions[canonicalPath(root)]
    }

    /// Forgets the record for the ledger at `root` (once the journal has been cut back to it).
    func forget(root: String) {
        lock.lock()
        defer { lock.unlock() }
        positions[canonicalPath(root)] = nil
    }

    /// Forgets the records of every ledger that is, or contains, one of these canonical paths.
    package func forget(underAny paths: Set<String>) {
        lock.lock()
        defer { lock.unlock() }
        for key in positions.keys where paths.contains(where: { $0 == key || $0.hasPrefix(key + "/") }) {
            positions[key] = nil
        }
    }
}

/// What open removed because a writer of the same ledger failed earlier in this process.
public struct WriterFailureRollback: Sendable, Hashable {
    /// The last position the failed writer had made durable; the journal now ends there.
    public var location: LedgerLocation
    /// Bytes cut from the end of that segment: written by the failed writer, never acknowledged
    /// (counted to the last byte that is not zero; the zeros filled ahead of records are cut too).
    public var droppedBytes: Int64
    /// Later segments removed, named relative to the ledger directory.
    public var removedSegments: [String]
}

extension Journal {
    /// Cuts the journal back to the position a writer that failed in this process had made
    /// durable, if there is one: removes later segments, truncates the segment, fsyncs it and
    /// the journal directory. The record is forgotten only once all of that succeeded.
    static func rollBackFailedWriter(
        _ paths: LedgerPaths, _ identity: LedgerIdentity, _ fileSystem: any FileSystem
    ) throws(StorageError) -> WriterFailureRollback? {
        let registry = FailedWriterRegistry.shared
        guard let position = registry.position(root: paths.root) else { return nil }
        // A head recorded as durable above the failed writer's means another writer has opened
        // since and built on what it found: cutting back would cut records it acknowledged.
        let recorded = try DurableHeads.load(paths, identity, fileSystem: fileSystem).highest?.head.sequence ?? 0
        guard position.ledgerID == identity.ledgerID, recorded <= position.durableSequence else {
            registry.forget(root: paths.root)
            return nil
        }
        var removed: [String] = []
        for first in try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
        where first > position.segmentFirstSequence {
            let path = paths.segment(firstSequence: first)
            try fileSystem.remove(path)
            removed.append(paths.relative(path))
        }
        let path = paths.segment(firstSequence: position.segmentFirstSequence)
        var dropped: Int64 = 0
        if fileSystem.exists(path) {
            let file = try fileSystem.open(path, .readWrite)
            do {
                let size = try fileSystem.size(of: file)
                if size > position.offset {
                    // Counted up to the last byte that is not zero: the zeros the writer filled
                    // ahead of its records are cut too, but they held nothing.
                    let cut = try fileSystem.read(file, count: Int(size - position.offset), at: position.offset)
                    dropped = Int64(RecordFrame.nonZeroExtent(cut, from: 0))
                    try fileSystem.truncate(file, to: position.offset)
                }
                try fileSystem.synchronize(file)
            } catch {
                try? fileSystem.close(file)
                throw error
            }
            try? fileSystem.close(file)
        }
        try fileSystem.synchronizeDirectory(paths.journal)
        registry.forget(root: paths.root)
        return WriterFailureRollback(
            location: LedgerLocation(file: paths.relative(path), offset: position.offset), droppedBytes: dropped,
            removedSegments: removed)
    }

    /// Forgets that a writer of the ledger at `path` failed in this process, as if the process had
    /// since exited; tests use it to reach the recovery a new process would do.
    static func forgetFailedWriter(at path: String) {
        FailedWriterRegistry.shared.forget(root: LedgerPaths(root: path).root)
    }
}
