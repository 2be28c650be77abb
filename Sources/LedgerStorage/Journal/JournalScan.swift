import Foundation

/// How a scan of the journal ended.
public enum JournalTail: Sendable, Hashable {
    /// The last segment ended exactly after a complete record (or its header), or only zeros
    /// follow it there (space the writer filled ahead of its records).
    case clean
    /// The last segment ends in an incomplete or checksum-failing record with nothing valid after
    /// it; `droppedBytes` counts the bytes from `location` to the last one that is not zero.
    case tornRecord(location: LedgerLocation, droppedBytes: Int64, reason: String)
    /// The last segment's header was never completely written (a crash while rolling to a new segment).
    case tornSegmentHeader(file: String, bytes: Int64)
}

/// Walks the journal's segments in order, checking every frame, sequence number and chain link,
/// and applies the recovery decision table's rules to whatever it finds:
///
/// | what the scan finds | result |
/// |---|---|
/// | clean end of the last segment: its end, or only zeros from there on (space filled ahead) | `tail = .clean` |
/// | zeros after the last record of a segment that is not the last | throws `.corruption` (file, offset) |
/// | a bad record at the very end of the last segment, nothing valid after it | `tail = .tornRecord` |
/// | a last segment no longer than a header, header not valid, named after the expected sequence | `tail = .tornSegmentHeader` |
/// | a bad record anywhere else, or followed by a valid record | throws `.corruption` (file, offset) |
/// | a gap or repeat in sequence numbers, a broken chain, a foreign segment | throws `.corruption` (file, offset) |
/// | a first segment not named 1, or not after the zero hash (when the scan starts there) | throws `.corruption` |
///
/// A scan that starts at the journal's first segment checks the whole journal: the first segment
/// must start at sequence 1 after the zero hash, so a deleted first segment is caught. A scan
/// that starts later (from a sequence a later segment holds) trusts that segment's header and
/// checks nothing before it. When the segment to start at is the last one and it does not begin
/// with a whole record that checks out (empty after a roll, torn while rolling, only zeros after
/// its header, or a torn first record), the scan starts one segment earlier, so that its header
/// is checked against the chain and the last commit time is known.
///
/// Every segment is read in chunks (``chunkBytes``, or a whole record where one is larger) into
/// one reused buffer, the last one too: an open then holds a chunk of the journal at a time, not a
/// whole segment beside the state it is building. Where the last segment's records end in zeros
/// (the space a writer fills ahead of them), the zeros are checked a chunk at a time to the end
/// of the file. Anything else in a chunked segment other than a whole frame within the file
/// (zeros before more data, a short or implausible length, a checksum that fails) has the segment
/// read whole and judged as above from the same place, so both ways give the same records, tails
/// and errors; only a damaged or torn segment is ever held whole.
///
/// The scan never modifies anything; ``Journal/open(at:options:replayFrom:onRecord:)`` acts on the tail.
struct JournalScan {
    /// The bytes a segment is read in at a time: a buffer this size stays in the caches while its
    /// records are checked and copied, where a whole segment would go through memory several
    /// times and fault in fresh pages, and a reader handing records on to another thread does
    /// not stop for the time it takes to read a whole segment.
    static let defaultChunkBytes = 1 << 20

    package let paths: LedgerPaths
    package let identity: LedgerIdentity
    package let fileSystem: any FileSystem
    let sequences: [UInt64]
    let deliverFrom: UInt64
    /// The heads recorded as durable outside the journal, read before it.
    let durable: DurableHeads
    /// The first entry of `durable` not yet passed by the scan.
    private var durableIndex = 0

    /// The bytes a segment is read in at a time.
    let chunkBytes: Int

    private(set) var segmentIndex: Int
    /// The current segment's bytes from `windowStart` on: a chunk of it (`chunked`), or all of
    /// them once something other than a whole frame was found.
    private var bytes: [UInt8] = []
    private var loaded = false
    private var hasLoadedAny = false
    /// Where the next record starts in `bytes`.
    private var offset = 0
    /// The offset in the segment's file of `bytes[0]`: 0 unless the segment is read in chunks.
    private var windowStart = 0
    /// The open segment being read in chunks, if it is.
    private var chunked: OpenSegment?
    /// The offset in the segment's file of the next record (`offset` in `bytes`).
    private var fileOffset: Int { windowStart + offset }
    /// The sequence number the next record must carry.
    private(set) var expectedSequence: UInt64 = 1
    /// The chain hash of the last record checked (or of the record before the first segment scanned).
    private(set) var previousHash: SHA256Digest = .zero
    /// The commit time of the last record checked.
    private(set) var lastCommitMicroseconds: Int64 = .min
    /// The format version of the segment being scanned (or last scanned): how its records are framed.
    private(set) var segmentFormatVersion: UInt16 = SegmentHeader.currentFormatVersion
    /// How the scan ended; nil until `next()` has returned nil.
    private(set) var tail: JournalTail?
    /// Where the journal's valid data ends, once `next()` has returned nil: the last segment and
    /// the offset after its last good record (or the start of a torn header); nil without segments.
    private(set) var endLocation: LedgerLocation?

    /// Prepares a scan that returns the records from `sequence` on, checking from the start of
    /// the segment that holds it; `chunkBytes` is for tests.
    init(
        paths: LedgerPaths, identity: LedgerIdentity, fileSystem: any FileSystem, from sequence: UInt64 = 1,
        chunkBytes: Int = Self.defaultChunkBytes
    ) throws(StorageError) {
        precondition(chunkBytes > 0, "chunks of no bytes")
        self.paths = paths
        self.identity = identity
        self.fileSystem = fileSystem
        self.chunkBytes = chunkBytes
        durable = try DurableHeads.load(paths, identity, fileSystem: fileSystem)
        let sequences = try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
        self.sequences = sequences
        self.deliverFrom = max(1, sequence)
        var start = sequences.lastIndex(where: { $0 <= max(1, sequence) }) ?? 0
        if start > 0 && start == sequences.count - 1 {
            let last = try OpenSegment(paths.segment(firstSequence: sequences[start]), fileSystem: fileSystem)
            // No whole first record (only its header, zeros after it, or a torn first record): the
            // segment before it tells the chain and the last commit time.
            var whole = false
            if last.size > SegmentHeader.encodedBytes {
                whole = try Self.beginsWithWholeRecord(last, fileSystem: fileSystem)
            }
            if !whole { start -= 1 }
        }
        self.segmentIndex = start
    }

    /// Whether a segment longer than its header starts with a valid header and a whole first
    /// record that checks out (its frame, not yet its place in the chain); reads only that much.
    private static func beginsWithWholeRecord(
        _ segment: OpenSegment, fileSystem: any FileSystem
    ) throws(StorageError) -> Bool {
        func read(_ count: Int) throws(StorageError) -> [UInt8] {
            try fileSystem.read(segment.file, count: count, at: 0)
        }
        let frameStart = SegmentHeader.encodedBytes
        let start = try read(frameStart + RecordFrame.frameHeaderBytes)
        guard start.count == frameStart + RecordFrame.frameHeaderBytes,
            case .success(let header) = SegmentHeader.decode(start)
        else { return false }
        let frameEnd =
            Int64(frameStart + RecordFrame.frameHeaderBytes) + Int64(RecordFrame.readUInt32(start, frameStart))
        guard frameEnd <= Int64(segment.size) else { return false }
        let bytes = try read(Int(frameEnd))
        guard case .frame = RecordFrame.parse(bytes, at: frameStart, formatVersion: header.formatVersion) else {
            return false
        }
        return true
    }

    /// The path of the segment being scanned and its name relative to the ledger (as locations
    /// name it), made once per segment rather than for each record, where making them would be a
    /// noticeable part of reading and checking one.
    private var segmentNames: (index: Int, path: String, relative: String)?

    /// The path and relative name of the segment being scanned, if any.
    private mutating func currentSegmentNames() -> (path: String, relative: String)? {
        guard segmentIndex < sequences.count else { return nil }
        if let segmentNames, segmentNames.index == segmentIndex { return (segmentNames.path, segmentNames.relative) }
        let path = paths.segment(firstSequence: sequences[segmentIndex])
        let relative = paths.relative(path)
        segmentNames = (segmentIndex, path, relative)
        return (path, relative)
    }

    /// The first sequence of the segment being scanned, if any.
    var currentSegmentFirstSequence: UInt64? { segmentIndex < sequences.count ? sequences[segmentIndex] : nil }

    var isLastSegment: Bool { segmentIndex == sequences.count - 1 }

    private func corruption(_ path: String, _ offset: Int, _ reason: String) -> StorageError {
        .corruption(location: LedgerLocation(file: paths.relative(path), offset: Int64(offset)), reason: reason)
    }

    /// Ends the scan with `tail`, unless the journal ends below a head recorded as durable (records
    /// that were acknowledged are missing), or `HEAD` does not check out (the floor it recorded is
    /// unknown, so no end can be shown to be above it): both are corruption.
    private mutating func end(_ tail: JournalTail, at location: LedgerLocation?) throws(StorageError) {
        let head = expectedSequence - 1
        let place = location ?? LedgerLocation(file: paths.relative(paths.journal), offset: 0)
        if let recorded = durable.highest, recorded.head.sequence > head {
            let what =
                switch tail {
                case .clean: "the journal ends at sequence \(head)"
                case .tornRecord(_, _, let reason): "the record after sequence \(head) is damaged (\(reason))"
                case .tornSegmentHeader: "the segment after sequence \(head) has a damaged header"
                }
            throw StorageError.corruption(
                location: place,
                reason:
                    "\(what), but \(recorded.source) records sequence \(recorded.head.sequence) as durable: "
                    + "records \(head + 1) through \(recorded.head.sequence) were acknowledged and are lost")
        }
        if let unreadable = durable.unreadableMarker {
            throw StorageError.corruption(
                location: LedgerLocation(file: "HEAD", offset: 0),
                reason:
                    "\(unreadable): the head it recorded as durable is unknown, so the journal's end at sequence "
                    + "\(head) cannot be shown to lose nothing acknowledged")
        }
        self.tail = tail
        endLocation = location
    }

    /// Checks a record against the heads recorded as durable at its sequence.
    private mutating func checkDurable(_ record: JournalRecord, path: String, offset: Int) throws(StorageError) {
        while durableIndex < durable.entries.count, durable.entries[durableIndex].head.sequence <= record.sequence {
            let recorded = durable.entries[durableIndex]
            durableIndex += 1
            guard recorded.head.sequence == record.sequence, recorded.head.hash != record.hash else { continue }
            throw corruption(
                path, offset,
                "record \(record.sequence) has chain hash \(record.hash.hex), but \(recorded.source) recorded "
                    + "\(recorded.head.hash.hex): it or a record before it was altered")
        }
    }

    /// Loads the current segment and checks its header; returns false when the scan is over.
    private mutating func loadSegment() throws(StorageError) -> Bool {
        guard segmentIndex < sequences.count else {
            try end(.clean, at: nil)
            return false
        }
        let named = sequences[segmentIndex]
        let path = paths.segment(firstSequence: named)
        // Whether the segments before this one have been checked (or there are none): only then
        // is the expected sequence and previous hash known, rather than taken from this header.
        let continuesChecked = hasLoadedAny || segmentIndex == 0
        if !hasLoadedAny && segmentIndex == 0 && named != 1 {
            throw corruption(
                path, 0, "the journal's first segment starts at sequence \(named), not 1: earlier segments are missing")
        }
        try readSegmentStart(path)
        switch SegmentHeader.decode(bytes) {
        case .failure(let failure):
            try endAtTornHeader(failure, path: path, named: named, continuesChecked: continuesChecked)
            return false
        case .success(let header):
            try takeHeader(header, path: path, named: named, continuesChecked: continuesChecked)
        }
        offset = SegmentHeader.encodedBytes
        loaded = true
        hasLoadedAny = true
        return true
    }

    /// Reads a segment's header into a window that later chunks of it follow.
    private mutating func readSegmentStart(_ path: String) throws(StorageError) {
        windowStart = 0
        offset = 0
        chunked = nil
        let segment = try OpenSegment(path, fileSystem: fileSystem)
        chunked = segment
        bytes.removeAll(keepingCapacity: true)
        try refill(segment, toHold: SegmentHeader.encodedBytes)
    }

    /// The bytes of the segment being scanned: its size when it was opened for reading in chunks,
    /// else what was read of it.
    private var segmentBytes: Int { chunked?.size ?? bytes.count }

    /// Judges a header that does not decode: a crash while rolling leaves a short, invalid
    /// header in a new last segment named after the record that was to go in it, which ends the
    /// scan; anything else is damage, and throws.
    private mutating func endAtTornHeader(
        _ failure: DecodeFailure, path: String, named: UInt64, continuesChecked: Bool
    ) throws(StorageError) {
        if isLastSegment && segmentBytes <= SegmentHeader.encodedBytes && continuesChecked
            && named == expectedSequence
        {
            try end(
                .tornSegmentHeader(file: paths.relative(path), bytes: Int64(segmentBytes)),
                at: LedgerLocation(file: paths.relative(path), offset: 0))
            return
        }
        if continuesChecked && named != expectedSequence {
            throw corruption(
                path, 0,
                "segment named for sequence \(named) where \(expectedSequence) was expected; \(failure.reason)")
        }
        throw corruption(path, 0, failure.reason)
    }

    /// Checks a decoded header against the ledger, the file's name and the chain so far, or, when
    /// the segments before it are not read, takes the chain from it.
    private mutating func takeHeader(
        _ header: SegmentHeader, path: String, named: UInt64, continuesChecked: Bool
    ) throws(StorageError) {
        segmentFormatVersion = header.formatVersion
        guard header.ledgerID == identity.ledgerID else {
            throw corruption(path, 0, "segment belongs to ledger \(header.ledgerID), not \(identity.ledgerID)")
        }
        guard header.firstSequence == named else {
            throw corruption(path, 0, "header says first sequence \(header.firstSequence), file name says \(named)")
        }
        guard continuesChecked else {
            // Segments before this one are not read: take the chain from here on trust.
            expectedSequence = header.firstSequence
            previousHash = header.previousHash
            return
        }
        guard header.firstSequence == expectedSequence else {
            throw corruption(
                path, 0, "segment starts at sequence \(header.firstSequence) where \(expectedSequence) was expected")
        }
        guard header.previousHash == previousHash else {
            throw corruption(
                path, 0,
                hasLoadedAny ? "chain broken at segment boundary" : "the first segment's previous hash is not zero")
        }
    }

    /// The next record at or after the starting sequence, or nil at the end (see `tail`).
    mutating func next() throws(StorageError) -> JournalRecord? {
        while true {
            if tail != nil { return nil }
            if !loaded {
                guard try loadSegment() else {
                    return nil
                }
            }
            guard let (path, relativePath) = currentSegmentNames() else { return nil }
            if let segment = chunked, fileOffset < segment.size, try !windowHoldsFrame(segment) {
                if isLastSegment, try restIsZeroFill(segment) {
                    try end(.clean, at: LedgerLocation(file: relativePath, offset: Int64(fileOffset)))
                    return nil
                }
                try readWholeSegment(path)
            }
            if offset < bytes.count && RecordFrame.isZeroFill(bytes, from: offset) {
                // The zeros the writer puts ahead of its records (decision 0011): the end of the
                // last segment. A full segment is cut back to its last record before the next
                // one is created, so zeros in any other segment are damage.
                guard isLastSegment else {
                    throw corruption(
                        path, offset, "the segment ends in zeros after its last record, but it is not the last segment")
                }
                try end(.clean, at: LedgerLocation(file: relativePath, offset: Int64(offset)))
                return nil
            }
            if offset == bytes.count {
                if isLastSegment {
                    try end(.clean, at: LedgerLocation(file: relativePath, offset: Int64(fileOffset)))
                    return nil
                }
                segmentIndex += 1
                loaded = false
                chunked = nil
                bytes.removeAll(keepingCapacity: true)  // the next segment is read into it
                continue
            }
            switch RecordFrame.parse(bytes, at: offset, formatVersion: segmentFormatVersion) {
            case .bad(let reason):
                guard try readAgainAfterBadFrame(reason, path: path, relativePath: relativePath) else { return nil }
            case .frame(let bodyStart, let bodyLength):
                let record = try checkedRecord(
                    bodyStart: bodyStart, bodyLength: bodyLength, path: path, relativePath: relativePath)
                if record.sequence >= deliverFrom { return record }
            }
        }
    }

    /// Judges a frame that does not check out. True when the segment was read again and the scan
    /// goes on: whole, from a window of chunks, or with bytes a racing writer had not yet copied.
    /// Otherwise the bad frame is the last segment's torn tail, which ends the scan, or damage,
    /// which throws.
    private mutating func readAgainAfterBadFrame(
        _ reason: String, path: String, relativePath: String
    ) throws(StorageError) -> Bool {
        if chunked != nil {
            try readWholeSegment(path)
            return true
        }
        guard isLastSegment else { throw corruption(path, offset, reason) }
        if let later = laterValidFrame(after: offset) {
            // A reader racing the writer can see a later page of a group before an earlier one
            // (the writer fills space ahead, so the file's size does not bound what is read);
            // only bytes that stay the same are damage.
            if try rereadChanged(path, through: later) { return true }
            throw corruption(
                path, offset, "\(reason); a valid record follows at offset \(later), so this is not a torn tail")
        }
        let location = LedgerLocation(file: relativePath, offset: Int64(offset))
        try end(
            .tornRecord(
                location: location, droppedBytes: Int64(RecordFrame.nonZeroExtent(bytes, from: offset)),
                reason: reason),
            at: location)
        return false
    }

    /// Decodes the CRC-checked frame at `offset` and checks its sequence, chain link and commit
    /// time against the records before it; moves past it.
    private mutating func checkedRecord(
        bodyStart: Int, bodyLength: Int, path: String, relativePath: String
    ) throws(StorageError) -> JournalRecord {
        let fileOffset = windowStart + offset
        guard
            let sequence = RecordFrame.peekSequence(
                bytes, bodyStart: bodyStart, limit: bodyStart + bodyLength, formatVersion: segmentFormatVersion)
        else {
            throw corruption(path, fileOffset, "the record's sequence number is malformed")
        }
        guard sequence == expectedSequence else {
            throw corruption(path, fileOffset, "sequence \(sequence) where \(expectedSequence) was expected")
        }
        let location = LedgerLocation(file: relativePath, offset: Int64(fileOffset))
        let record: JournalRecord
        switch RecordFrame.decodeBody(
            bytes, bodyStart: bodyStart, bodyLength: bodyLength, previousHash: previousHash, location: location,
            formatVersion: segmentFormatVersion)
        {
        case .failure(let failure): throw corruption(path, fileOffset, failure.reason)
        case .success(let decoded): record = decoded
        }
        try checkDurable(record, path: path, offset: fileOffset)
        guard record.commitMicroseconds >= lastCommitMicroseconds else {
            throw corruption(
                path, fileOffset, "commit time of sequence \(sequence) is earlier than the previous record's")
        }
        expectedSequence = sequence + 1
        previousHash = record.hash
        lastCommitMicroseconds = record.commitMicroseconds
        offset = bodyStart + bodyLength
        return record
    }

    /// With a segment read in chunks: makes the window hold the whole frame at `offset`, reading
    /// on as far as its length says. False when that length cannot be a frame that fits in the
    /// file (zeros, an implausible or short length, a file shorter than its size said): the
    /// caller then reads the segment whole and judges it as a whole segment is judged.
    private mutating func windowHoldsFrame(_ segment: OpenSegment) throws(StorageError) -> Bool {
        let header = RecordFrame.frameHeaderBytes
        if bytes.count - offset < header { try refill(segment, toHold: header) }
        guard bytes.count - offset >= header else { return false }
        let frame = header + Int(RecordFrame.readUInt32(bytes, offset))
        guard frame - header >= RecordFrame.envelopeFixedBytes(formatVersion: segmentFormatVersion),
            windowStart + offset + frame <= segment.size
        else { return false }
        if bytes.count - offset < frame { try refill(segment, toHold: frame) }
        return bytes.count - offset >= frame
    }

    /// Drops the bytes before `offset` from the window and reads on, so that it holds at least
    /// `needed` bytes from `offset` (and a chunk, where the segment has that many left); fewer
    /// only where the file ends first.
    private mutating func refill(_ segment: OpenSegment, toHold needed: Int) throws(StorageError) {
        if offset > 0 {
            bytes.removeFirst(offset)
            windowStart += offset
            offset = 0
        }
        let held = bytes.count
        let wanted = min(max(needed, chunkBytes), segment.size - windowStart)
        guard wanted > held else { return }
        bytes.append(contentsOf: repeatElement(0, count: wanted - held))
        let read = try fileSystem.read(segment.file, into: &bytes, from: held, at: Int64(windowStart + held))
        bytes.removeLast(wanted - held - read)
    }

    /// Whether the segment read in chunks holds only zeros from `offset` to its end: the space the
    /// writer filled ahead of its records, which ends the last segment. The window is checked,
    /// then the rest of the file a chunk at a time, so that a segment filled far ahead is never
    /// held whole; anything but zeros (or a file shorter than it was) leaves the judging to the
    /// segment read whole.
    private func restIsZeroFill(_ segment: OpenSegment) throws(StorageError) -> Bool {
        guard RecordFrame.isZeroFill(bytes, from: offset) else { return false }
        var position = windowStart + bytes.count
        while position < segment.size {
            let wanted = min(chunkBytes, segment.size - position)
            let piece = try fileSystem.read(segment.file, count: wanted, at: Int64(position))
            guard piece.count == wanted, RecordFrame.isZeroFill(piece, from: 0) else { return false }
            position += wanted
        }
        return true
    }

    /// Stops reading the current segment in chunks: reads it whole and goes on from the same
    /// place in it, so that what follows is judged as in a segment read whole. Changes nothing
    /// if the read fails, so that calling ``next()`` again tries it again from the same place.
    private mutating func readWholeSegment(_ path: String) throws(StorageError) {
        var whole: [UInt8] = []
        try fileSystem.readAll(path, into: &whole)
        let position = windowStart + offset
        // The window's bytes before `offset` were checked: read again, they must not differ (as
        // when the segment is read again after a bad frame).
        guard whole.count >= position, whole[windowStart..<position].elementsEqual(bytes[..<offset]) else {
            throw corruption(path, 0, "the segment changed under the scan before offset \(position)")
        }
        bytes = whole
        chunked = nil
        windowStart = 0
        offset = position
    }

    /// Reads the segment again, up to three times a millisecond apart, and takes the new bytes if
    /// those from the current offset to `later` differ from the ones read before (a writer was
    /// copying them). The writer writes each byte of the journal once after its zeros, so this
    /// can succeed only so many times.
    private mutating func rereadChanged(_ path: String, through later: Int) throws(StorageError) -> Bool {
        for _ in 0..<3 {
            usleep(1_000)
            let again = try fileSystem.readAll(path)
            if again.count < later || again[offset..<later] != bytes[offset..<later] {
                guard again.count >= later, again[..<offset] == bytes[..<offset] else {
                    throw corruption(path, 0, "the segment changed under the scan before offset \(offset)")
                }
                bytes = again
                return true
            }
        }
        return false
    }

    /// Looks past a bad record for any frame that checks out and continues the sequence.
    ///
    /// A torn write leaves nothing valid behind the tear; a valid record after a bad one means
    /// bytes in the middle of durable data changed, which must never be truncated away. A
    /// candidate is judged by the same rule as any frame (``RecordFrame/parse(_:at:)``: a length
    /// the format allows that fits in the file, and the CRC), never by the configured limit.
    private func laterValidFrame(after bad: Int) -> Int? {
        let envelope = RecordFrame.envelopeFixedBytes(formatVersion: segmentFormatVersion)
        let minimum = RecordFrame.frameHeaderBytes + envelope
        guard bytes.count - bad > minimum else { return nil }
        let highestPlausible = expectedSequence + UInt64(bytes.count / minimum) + 1
        var candidate = bad + 1
        while candidate + minimum <= bytes.count {
            defer { candidate += 1 }
            let length = Int(RecordFrame.readUInt32(bytes, candidate))
            guard length >= envelope,
                candidate + RecordFrame.frameHeaderBytes + length <= bytes.count
            else { continue }
            let bodyStart = candidate + RecordFrame.frameHeaderBytes
            guard
                let sequence = RecordFrame.peekSequence(
                    bytes, bodyStart: bodyStart, limit: bodyStart + length, formatVersion: segmentFormatVersion),
                sequence >= expectedSequence, sequence <= highestPlausible
            else { continue }
            if case .frame = RecordFrame.parse(bytes, at: candidate, formatVersion: segmentFormatVersion) {
                return candidate
            }
        }
        return nil
    }
}

/// A segment file held open while a scan reads it (in chunks, or the start of the last segment
/// to see whether it begins with a whole record), with the size it had when opened; closed when
/// the scan lets go of it, so a scan abandoned midway or failing leaves no descriptor open.
private final class OpenSegment: Sendable {
    let file: OpenFile
    let size: Int
    private let fileSystem: any FileSystem

    init(_ path: String, fileSystem: any FileSystem) throws(StorageError) {
        let file = try fileSystem.open(path, .readOnly)
        do {
            size = Int(try fileSystem.size(of: file))
        } catch {
            try? fileSystem.close(file)
            throw error
        }
        self.file = file
        self.fileSystem = fileSystem
    }

    deinit { try? fileSystem.close(file) }
}
