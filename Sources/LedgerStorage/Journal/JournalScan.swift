import Foundation

/// How a scan of the journal ended.
public enum JournalTail: Sendable, Hashable {
    /// The last segment ended exactly after a complete record (or its header).
    case clean
    /// The last segment ends in an incomplete or checksum-failing record with nothing valid after it.
    case tornRecord(location: LedgerLocation, droppedBytes: Int64, reason: String)
    /// The last segment's header was never completely written (a crash while rolling to a new segment).
    case tornSegmentHeader(file: String, bytes: Int64)
}

/// Walks the journal's segments in order, checking every frame, sequence number and chain link,
/// and applies the recovery decision table's rules to whatever it finds:
///
/// | what the scan finds | result |
/// |---|---|
/// | clean end of the last segment | `tail = .clean` |
/// | a bad record at the very end of the last segment, nothing valid after it | `tail = .tornRecord` |
/// | a last segment shorter than its header, header not valid | `tail = .tornSegmentHeader` |
/// | a bad record anywhere else, or followed by a valid record | throws `.corruption` (file, offset) |
/// | a gap or repeat in sequence numbers, a broken chain, a foreign segment | throws `.corruption` (file, offset) |
///
/// The scan never modifies anything; ``Journal/open(at:options:onRecord:)`` acts on the tail.
struct JournalScan {
    let paths: LedgerPaths
    let identity: LedgerIdentity
    let fileSystem: any FileSystem
    let recordBytesMax: Int
    let sequences: [UInt64]
    let deliverFrom: UInt64

    private(set) var segmentIndex: Int
    private var bytes: [UInt8] = []
    private var loaded = false
    private var hasLoadedAny = false
    private(set) var offset = 0
    /// The sequence number the next record must carry.
    private(set) var expectedSequence: UInt64 = 1
    /// The chain hash of the last record checked (or of the record before the first segment scanned).
    private(set) var previousHash: SHA256Digest = .zero
    /// The commit time of the last record checked.
    private(set) var lastCommitMicroseconds: Int64 = .min
    /// How the scan ended; nil until `next()` has returned nil.
    private(set) var tail: JournalTail?

    /// Prepares a scan that returns the records from `sequence` on, checking from the start of
    /// the segment that holds it.
    init(
        paths: LedgerPaths, identity: LedgerIdentity, fileSystem: any FileSystem, recordBytesMax: Int,
        from sequence: UInt64 = 1
    ) throws(StorageError) {
        self.paths = paths
        self.identity = identity
        self.fileSystem = fileSystem
        self.recordBytesMax = recordBytesMax
        self.sequences = try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
        self.deliverFrom = sequence
        self.segmentIndex = max(0, (sequences.lastIndex(where: { $0 <= sequence }) ?? 0))
    }

    /// The path of the segment being scanned (or last scanned).
    var currentSegmentPath: String? {
        segmentIndex < sequences.count ? paths.segment(firstSequence: sequences[segmentIndex]) : nil
    }

    /// The first sequence of the segment being scanned, if any.
    var currentSegmentFirstSequence: UInt64? { segmentIndex < sequences.count ? sequences[segmentIndex] : nil }

    var isLastSegment: Bool { segmentIndex == sequences.count - 1 }

    private func corruption(_ path: String, _ offset: Int, _ reason: String) -> StorageError {
        .corruption(location: LedgerLocation(file: paths.relative(path), offset: Int64(offset)), reason: reason)
    }

    /// Loads the current segment and checks its header; returns false when the scan is over.
    private mutating func loadSegment(first: Bool) throws(StorageError) -> Bool {
        guard segmentIndex < sequences.count else {
            tail = .clean
            return false
        }
        let named = sequences[segmentIndex]
        let path = paths.segment(firstSequence: named)
        bytes = try fileSystem.readAll(path)
        switch SegmentHeader.decode(bytes) {
        case .failure(let failure):
            if isLastSegment && bytes.count <= SegmentHeader.encodedBytes {
                tail = .tornSegmentHeader(file: paths.relative(path), bytes: Int64(bytes.count))
                return false
            }
            throw corruption(path, 0, failure.reason)
        case .success(let header):
            guard header.ledgerID == identity.ledgerID else {
                throw corruption(path, 0, "segment belongs to ledger \(header.ledgerID), not \(identity.ledgerID)")
            }
            guard header.firstSequence == named else {
                throw corruption(path, 0, "header says first sequence \(header.firstSequence), file name says \(named)")
            }
            if first {
                expectedSequence = header.firstSequence
                previousHash = header.previousHash
            } else {
                guard header.firstSequence == expectedSequence else {
                    throw corruption(
                        path, 0,
                        "segment starts at sequence \(header.firstSequence) where \(expectedSequence) was expected")
                }
                guard header.previousHash == previousHash else {
                    throw corruption(path, 0, "chain broken at segment boundary")
                }
            }
        }
        offset = SegmentHeader.encodedBytes
        loaded = true
        hasLoadedAny = true
        return true
    }

    /// The next record at or after the starting sequence, or nil at the end (see `tail`).
    mutating func next() throws(StorageError) -> JournalRecord? {
        while true {
            if tail != nil { return nil }
            if !loaded {
                guard try loadSegment(first: !hasLoadedAny) else {
                    return nil
                }
            }
            guard let path = currentSegmentPath else { return nil }
            if offset == bytes.count {
                if isLastSegment {
                    tail = .clean
                    return nil
                }
                segmentIndex += 1
                loaded = false
                bytes = []
                continue
            }
            switch RecordFrame.parse(bytes, at: offset, recordBytesMax: recordBytesMax) {
            case .bad(let reason):
                guard isLastSegment else { throw corruption(path, offset, reason) }
                if let later = laterValidFrame(after: offset) {
                    throw corruption(
                        path, offset, "\(reason); a valid record follows at offset \(later), so this is not a torn tail"
                    )
                }
                tail = .tornRecord(
                    location: LedgerLocation(file: paths.relative(path), offset: Int64(offset)),
                    droppedBytes: Int64(bytes.count - offset), reason: reason)
                return nil
            case .frame(let bodyStart, let bodyLength):
                let sequence = RecordFrame.peekSequence(bytes, bodyStart: bodyStart)
                guard sequence == expectedSequence else {
                    throw corruption(path, offset, "sequence \(sequence) where \(expectedSequence) was expected")
                }
                let location = LedgerLocation(file: paths.relative(path), offset: Int64(offset))
                let record: JournalRecord
                switch RecordFrame.decodeBody(
                    bytes, bodyStart: bodyStart, bodyLength: bodyLength, previousHash: previousHash, location: location)
                {
                case .failure(let failure): throw corruption(path, offset, failure.reason)
                case .success(let decoded): record = decoded
                }
                guard record.commitMicroseconds >= lastCommitMicroseconds else {
                    throw corruption(
                        path, offset, "commit time of sequence \(sequence) is earlier than the previous record's")
                }
                expectedSequence = sequence + 1
                previousHash = record.hash
                lastCommitMicroseconds = record.commitMicroseconds
                offset = bodyStart + bodyLength
                if sequence >= deliverFrom { return record }
            }
        }
    }

    /// Looks past a bad record for any frame that checks out and continues the sequence.
    ///
    /// A torn write leaves nothing valid behind the tear; a valid record after a bad one means
    /// bytes in the middle of durable data changed, which must never be truncated away.
    private func laterValidFrame(after bad: Int) -> Int? {
        let minimum = RecordFrame.frameHeaderBytes + RecordFrame.envelopeFixedBytes
        guard bytes.count - bad > minimum else { return nil }
        let highestPlausible = expectedSequence + UInt64(bytes.count / minimum) + 1
        var candidate = bad + 1
        while candidate + minimum <= bytes.count {
            defer { candidate += 1 }
            let length = Int(RecordFrame.readUInt32(bytes, candidate))
            guard length >= RecordFrame.envelopeFixedBytes, length <= recordBytesMax,
                candidate + RecordFrame.frameHeaderBytes + length <= bytes.count
            else { continue }
            let sequence = RecordFrame.peekSequence(bytes, bodyStart: candidate + RecordFrame.frameHeaderBytes)
            guard sequence >= expectedSequence, sequence <= highestPlausible else { continue }
            if case .frame = RecordFrame.parse(bytes, at: candidate, recordBytesMax: recordBytesMax) {
                return candidate
            }
        }
        return nil
    }
}
