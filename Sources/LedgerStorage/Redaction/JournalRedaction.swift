import Foundation

/// One record to redact: what is to stand in it for its payload.
public struct RedactionRequest: Sendable, Hashable {
    /// The record's sequence.
    public var sequence: UInt64
    /// The SHA-256 of the record's payload as it was read (``JournalRecord/payload``), so that a
    /// record changed since it was read is refused rather than overwritten.
    public var expectedPayloadDigest: SHA256Digest
    /// What is left of the payload after the redaction, in ``payloadSchemaVersion``.
    public var remaining: [UInt8]
    /// The schema version ``remaining`` is encoded in.
    public var payloadSchemaVersion: UInt16
    /// Why the record is redacted.
    public var reason: String

    /// Creates a request.
    public init(
        sequence: UInt64, expectedPayloadDigest: SHA256Digest, remaining: [UInt8], payloadSchemaVersion: UInt16,
        reason: String
    ) {
        self.sequence = sequence
        self.expectedPayloadDigest = expectedPayloadDigest
        self.remaining = remaining
        self.payloadSchemaVersion = payloadSchemaVersion
        self.reason = reason
    }
}

/// Replacing recorded payloads by their redacted form, in place, under the writer lock.
///
/// Each segment that holds a record to redact is written anew beside itself (`NAME.tmp`), fsynced,
/// renamed over the old one, and the journal directory fsynced: a crash at any step leaves the old
/// segment or the new one, never a mix. Every record keeps its envelope and author, and its chain
/// hash is checked to be unchanged before the rename, so heads recorded anywhere still verify.
/// Snapshots are caches that may hold redacted values: every file of the snapshot directory is
/// removed afterwards, once `HEAD` records the journal's head, so the durable floor stays.
public enum JournalRedaction {
    /// Redacts the records `requests` name in the ledger at `path`, waiting up to `lockWaitSeconds`
    /// for the writer lock. The ledger must be closed by its writers (the lock is taken here) and
    /// its journal must check out to its end.
    public static func apply(
        _ requests: [RedactionRequest], ledgerAt path: String, fileSystem: any FileSystem = SystemFileSystem(),
        lockWaitSeconds: Double = 0
    ) throws(StorageError) {
        let reader = try JournalReader(at: path, fileSystem: fileSystem)
        let paths = reader.paths
        let lock = try Journal.acquireLock(paths, fileSystem: fileSystem, waitSeconds: lockWaitSeconds)
        defer {
            try? fileSystem.unlock(lock)
            try? fileSystem.close(lock)
        }
        let verified = try reader.verify()
        guard verified.tail == .clean else {
            throw StorageError.invalidArgument("the journal ends in a torn record: open the ledger to recover it first")
        }
        for request in requests where request.sequence == 0 || request.sequence > verified.head.sequence {
            throw StorageError.invalidArgument("record \(request.sequence) does not exist")
        }
        try DurableHeads.writeMarker(verified.head, paths, reader.identity, fileSystem: fileSystem)
        let starts = try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
        let bySegment = Dictionary(grouping: requests) { request in starts.last { $0 <= request.sequence } ?? 1 }
        for (first, inSegment) in bySegment.sorted(by: { $0.key < $1.key }) {
            let byRecord = Dictionary(inSegment.map { ($0.sequence, $0) }) { _, last in last }
            try rewriteSegment(paths.segment(firstSequence: first), byRecord, paths: paths, fileSystem: fileSystem)
        }
        try removeSnapshots(paths, fileSystem: fileSystem)
        _ = try reader.verify(against: verified.head)
    }

    /// Throws unless every record can hold a redacted form: it exists and lies in a segment of the
    /// current format (a format version 1 segment cannot). Run before a redaction is recorded, so
    /// that one that cannot be written is refused before anything is saved.
    public static func checkRedactable(
        _ sequences: [UInt64], ledgerAt path: String, fileSystem: any FileSystem = SystemFileSystem()
    ) throws(StorageError) {
        let paths = LedgerPaths(root: path)
        let starts = try LedgerDirectory.segmentSequences(paths, fileSystem: fileSystem)
        for first in Set(sequences.compactMap { sequence in starts.last { $0 <= sequence } }) {
            let segment = paths.segment(firstSequence: first)
            let file = try fileSystem.open(segment, .readOnly)
            defer { try? fileSystem.close(file) }
            let bytes = try fileSystem.read(file, count: SegmentHeader.encodedBytes, at: 0)
            let header: SegmentHeader
            switch SegmentHeader.decode(bytes) {
            case .success(let decoded): header = decoded
            case .failure(let failure):
                throw StorageError.corruption(
                    location: LedgerLocation(file: paths.relative(segment), offset: 0), reason: failure.reason)
            }
            guard header.formatVersion != 1 else {
                throw StorageError.invalidArgument(
                    "\(paths.relative(segment)) is a format version 1 segment, which cannot hold a redacted record")
            }
        }
    }

    /// Writes a segment anew with the requested records in their redacted form, after checking
    /// that every record of the new bytes chains to the same hash as before.
    static func rewriteSegment(
        _ path: String, _ requests: [UInt64: RedactionRequest], paths: LedgerPaths, fileSystem: any FileSystem
    ) throws(StorageError) {
        let bytes = try fileSystem.readAll(path)
        let old = try SegmentFrames(bytes, path: paths.relative(path))
        guard old.header.formatVersion != 1 else {
            throw StorageError.invalidArgument(
                "\(paths.relative(path)) is a format version 1 segment, which cannot hold a redacted record")
        }
        var writer = ByteWriter(capacity: bytes.count)
        writer.write(bytes: bytes[0..<SegmentHeader.encodedBytes])
        var done = Set<UInt64>()
        for frame in old.frames {
            guard let request = requests[frame.record.sequence] else {
                writer.write(bytes: bytes[frame.range])
                continue
            }
            guard SHA256.hash(frame.record.payload) == request.expectedPayloadDigest else {
                throw StorageError.invalidArgument("record \(request.sequence) changed since it was read")
            }
            writer.write(bytes: redactedFrame(frame, bytes, request))
            done.insert(request.sequence)
        }
        if let missing = requests.keys.filter({ !done.contains($0) }).min() {
            throw StorageError.invalidArgument("record \(missing) is not in \(paths.relative(path))")
        }
        let new = try SegmentFrames(writer.bytes, path: paths.relative(path))
        guard new.frames.map(\.record.hash) == old.frames.map(\.record.hash) else {
            throw StorageError.invalidArgument("a redacted \(paths.relative(path)) would not keep its chain")
        }
        try fileSystem.replaceAtomically(path, with: writer.bytes, permissions: LedgerDirectory.filePermissions)
    }

    /// The frame of a record with its payload replaced by the redacted form.
    static func redactedFrame(_ frame: SegmentFrames.Frame, _ bytes: [UInt8], _ request: RedactionRequest) -> [UInt8] {
        let record = frame.record
        let redaction = RecordRedaction(
            reason: request.reason,
            originalPayloadBytes: record.redaction?.originalPayloadBytes ?? record.payload.count,
            originalPayloadDigest: record.payloadDigest, payloadSchemaVersion: request.payloadSchemaVersion)
        var body = Array(bytes[frame.body.lowerBound..<frame.body.lowerBound + frame.envelopeAndAuthorBytes])
        body.append(contentsOf: redaction.encoded(remaining: request.remaining))
        var writer = ByteWriter(capacity: RecordFrame.frameHeaderBytes + body.count)
        writer.write(UInt32(body.count))
        writer.write(UInt32(0))
        writer.write(bytes: body)
        writer.overwrite(RecordFrame.frameChecksum(writer.bytes, frameStart: 0, bodyLength: body.count), at: 4)
        return writer.bytes
    }

    /// Removes every file of the snapshot directory (snapshots and any temporary file beside them).
    static func removeSnapshots(_ paths: LedgerPaths, fileSystem: any FileSystem) throws(StorageError) {
        guard fileSystem.exists(paths.snapshots) else { return }
        let names = try fileSystem.contentsOfDirectory(paths.snapshots)
        for name in names { try fileSystem.remove(paths.snapshots + "/" + name) }
        if !names.isEmpty { try fileSystem.synchronizeDirectory(paths.snapshots) }
    }
}

/// The records of one segment's bytes with where each lies, every one checked as a scan checks it.
struct SegmentFrames {
    /// One record and its bytes.
    struct Frame {
        /// The decoded record.
        var record: JournalRecord
        /// The whole frame, header included.
        var range: Range<Int>
        /// The body.
        var body: Range<Int>
        /// The body's bytes before the payload area.
        var envelopeAndAuthorBytes: Int
    }

    /// The segment's header.
    let header: SegmentHeader
    /// Its records, in order.
    private(set) var frames: [Frame] = []

    /// Reads every record up to the end of the bytes (or zeros to the end); anything else is
    /// corruption, named with `path`.
    init(_ bytes: [UInt8], path: String) throws(StorageError) {
        switch SegmentHeader.decode(bytes) {
        case .success(let header): self.header = header
        case .failure(let failure):
            throw StorageError.corruption(location: LedgerLocation(file: path, offset: 0), reason: failure.reason)
        }
        var offset = SegmentHeader.encodedBytes
        var previous = header.previousHash
        while offset < bytes.count, bytes[offset...].contains(where: { $0 != 0 }) {
            let location = LedgerLocation(file: path, offset: Int64(offset))
            guard
                case .frame(let bodyStart, let bodyLength) = RecordFrame.parse(
                    bytes, at: offset, formatVersion: header.formatVersion)
            else { throw StorageError.corruption(location: location, reason: "a record does not check out") }
            let record: JournalRecord
            switch RecordFrame.decodeBody(
                bytes, bodyStart: bodyStart, bodyLength: bodyLength, previousHash: previous, location: location,
                formatVersion: header.formatVersion)
            {
            case .success(let decoded): record = decoded
            case .failure(let failure): throw StorageError.corruption(location: location, reason: failure.reason)
            }
            let payloadArea = Self.payloadAreaBytes(record)
            frames.append(
                Frame(
                    record: record, range: offset..<bodyStart + bodyLength, body: bodyStart..<bodyStart + bodyLength,
                    envelopeAndAuthorBytes: bodyLength - payloadArea))
            previous = record.hash
            offset = bodyStart + bodyLength
        }
    }

    /// The bytes of a body's payload area: the payload, or the whole redacted form.
    private static func payloadAreaBytes(_ record: JournalRecord) -> Int {
        guard let redaction = record.redaction else { return record.payload.count }
        return redaction.encoded(remaining: record.payload).count
    }
}
