import Foundation

/// Reads a ledger's journal without taking the writer's lock, checking every record as it goes.
///
/// A reader may run while a writer appends: a record the writer has not finished shows up as a
/// torn tail, which the reader treats as the end (``JournalCursor/tail``) and never modifies.
/// Damage anywhere else stops the reader with ``StorageError/corruption(location:reason:)``.
public struct JournalReader: Sendable {
    /// The ledger's paths.
    public let paths: LedgerPaths
    /// The ledger's identity.
    public let identity: LedgerIdentity
    /// The file layer used for every read.
    public let fileSystem: any FileSystem

    /// Opens the ledger at `path` for reading.
    ///
    /// Records are bounded only by the format, never by a configured ``JournalLimits/recordBytesMax``,
    /// so a reader accepts every valid record whatever limit the writer used.
    public init(at path: String, fileSystem: any FileSystem = SystemFileSystem()) throws(StorageError) {
        paths = LedgerPaths(root: path)
        self.fileSystem = fileSystem
        identity = try LedgerDirectory.identity(at: path, fileSystem: fileSystem)
    }

    /// A cursor over the records from `sequence` on, checking the chain from the start of the segment that holds it.
    ///
    /// From sequence 1 the whole journal is checked, including that its first segment starts at
    /// sequence 1. From a later sequence, segments before the one holding it are not read, and
    /// that segment's header is taken on trust (unless it is an empty last segment, when the scan
    /// starts one segment earlier).
    public func records(from sequence: UInt64 = 1) throws(StorageError) -> JournalCursor {
        JournalCursor(scan: try JournalScan(paths: paths, identity: identity, fileSystem: fileSystem, from: sequence))
    }

    /// Calls `body` with every record from `sequence` on, in order.
    public func forEach(
        from sequence: UInt64 = 1, _ body: (JournalRecord) throws -> Void
    ) throws {
        var cursor = try records(from: sequence)
        while let record = try cursor.next() { try body(record) }
    }

    /// Reads the whole journal from sequence 1, checking every record, and returns its head.
    ///
    /// When `expected` is given, the record at its sequence must carry its hash (and a digest of
    /// sequence 0, the empty journal, must carry the zero hash); otherwise this throws a
    /// digest mismatch, because something up to that point was altered or the digest is another
    /// ledger's; a journal that ends before it is a corruption error, because records were lost.
    public func verify(against expected: HeadDigest? = nil) throws(StorageError) -> VerifiedJournal {
        var cursor = try records(from: 1)
        var head = HeadDigest.empty
        var count = 0
        var matched = expected == nil || expected?.sequence == 0
        while let record = try cursor.next() {
            head = HeadDigest(sequence: record.sequence, hash: record.hash)
            count += 1
            if let expected, record.sequence == expected.sequence {
                guard record.hash == expected.hash else {
                    throw StorageError.digestMismatch(
                        sequence: record.sequence, expected: expected.hash.hex, found: record.hash.hex)
                }
                matched = true
            }
        }
        let end = cursor.endLocation ?? LedgerLocation(file: paths.relative(paths.journal), offset: 0)
        if let expected, expected.sequence == 0, expected.hash != .zero {
            // Sequence 0, the empty journal, always has the zero hash.
            throw StorageError.digestMismatch(sequence: 0, expected: expected.hash.hex, found: SHA256Digest.zero.hex)
        }
        if let expected, !matched {
            throw StorageError.corruption(
                location: end,
                reason:
                    "the journal ends at sequence \(head.sequence), before the saved digest's sequence \(expected.sequence)"
            )
        }
        return VerifiedJournal(head: head, records: count, tail: cursor.tail ?? .clean)
    }

    /// The head digest, checking the last two segments: the last one's header is checked against
    /// the chain of the one before, so an empty or torn last segment cannot vouch for a head.
    public func head() throws(StorageError) -> HeadDigest {
        let sequences = try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
        var cursor = try records(from: sequences.count >= 2 ? sequences[sequences.count - 2] : 1)
        while try cursor.next() != nil {}
        return cursor.head
    }

    /// The first sequence of each segment file, in order: a reader looking for a recent record
    /// reads the newest segments first.
    public func segmentStarts() throws(StorageError) -> [UInt64] {
        try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
    }

    /// The chain hash of the record with this sequence number, or nil if there is none.
    public func hash(at sequence: UInt64) throws(StorageError) -> SHA256Digest? {
        if sequence == 0 { return .zero }
        var cursor = try records(from: sequence)
        guard let record = try cursor.next(), record.sequence == sequence else { return nil }
        return record.hash
    }
}

/// What ``JournalReader/verify(against:)`` found: the head, how many records, and how the journal ends.
public struct VerifiedJournal: Sendable, Hashable {
    /// The last valid record's sequence and hash.
    public var head: HeadDigest
    /// How many records were checked.
    public var records: Int
    /// Whether the journal ends cleanly or in a torn record a writer would truncate.
    public var tail: JournalTail
}

/// An iterator over journal records that throws on corruption.
///
/// While it reads a segment before the last, it holds that segment's file open (it reads it in
/// chunks); the file is closed when the cursor moves past it or is dropped.
public struct JournalCursor {
    private var scan: JournalScan

    init(scan: JournalScan) { self.scan = scan }

    /// The next record, or nil at the end of the journal.
    public mutating func next() throws(StorageError) -> JournalRecord? { try scan.next() }

    /// How the journal ended, once `next()` has returned nil.
    public var tail: JournalTail? { scan.tail }

    /// Where the journal's valid data ended, once `next()` has returned nil.
    var endLocation: LedgerLocation? { scan.endLocation }

    /// The last record checked (or the record before the first segment scanned): once `next()`
    /// has returned nil, the head.
    var head: HeadDigest { HeadDigest(sequence: scan.expectedSequence - 1, hash: scan.previousHash) }
}
