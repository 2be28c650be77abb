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
    /// The largest record body accepted as plausible.
    public let recordBytesMax: Int

    /// Opens the ledger at `path` for reading.
    public init(
        at path: String, fileSystem: any FileSystem = SystemFileSystem(),
        recordBytesMax: Int = JournalLimits.standard.recordBytesMax
    ) throws(StorageError) {
        paths = LedgerPaths(root: path)
        self.fileSystem = fileSystem
        self.recordBytesMax = recordBytesMax
        identity = try LedgerDirectory.identity(at: path, fileSystem: fileSystem)
    }

    /// A cursor over the records from `sequence` on, checking the chain from the start of the segment that holds it.
    public func records(from sequence: UInt64 = 1) throws(StorageError) -> JournalCursor {
        JournalCursor(
            scan: try JournalScan(
                paths: paths, identity: identity, fileSystem: fileSystem, recordBytesMax: recordBytesMax,
                from: sequence))
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
    /// When `expected` is given, the record at its sequence must carry its hash; otherwise
    /// this throws a corruption error, because something up to that point was altered.
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
                    throw StorageError.corruption(
                        location: record.location,
                        reason:
                            "record \(record.sequence) has hash \(record.hash.hex), the saved digest says \(expected.hash.hex)"
                    )
                }
                matched = true
            }
        }
        if let expected, !matched {
            throw StorageError.corruption(
                location: LedgerLocation(file: "journal", offset: 0),
                reason:
                    "the journal ends at sequence \(head.sequence), before the saved digest's sequence \(expected.sequence)"
            )
        }
        return VerifiedJournal(head: head, records: count, tail: cursor.tail ?? .clean)
    }

    /// The head digest, checking the segment that holds it.
    public func head() throws(StorageError) -> HeadDigest {
        let sequences = try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
        var cursor = try records(from: sequences.last ?? 1)
        var head = HeadDigest.empty
        while let record = try cursor.next() { head = HeadDigest(sequence: record.sequence, hash: record.hash) }
        if head.sequence == 0, let first = sequences.last, first > 1 {
            // The last segment is empty (just rolled): its header carries the previous head.
            let bytes = try fileSystem.readAll(paths.segment(firstSequence: first))
            if case .success(let header) = SegmentHeader.decode(bytes) {
                head = HeadDigest(sequence: header.firstSequence - 1, hash: header.previousHash)
            }
        }
        return head
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
public struct JournalCursor {
    private var scan: JournalScan

    init(scan: JournalScan) { self.scan = scan }

    /// The next record, or nil at the end of the journal.
    public mutating func next() throws(StorageError) -> JournalRecord? { try scan.next() }

    /// How the journal ended, once `next()` has returned nil.
    public var tail: JournalTail? { scan.tail }
}
