import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

@Suite("The on-disk format, its limits and its permissions")
struct FormatTests {
    static let goldenLedgerID = UUID(uuidString: "6F1C4B2E-9A3D-4E5F-8B7A-1C2D3E4F5A6B")!
    static let goldenCreated: Int64 = 1_780_000_000_000_000
    static let goldenEntries = [
        JournalEntry(
            requestID: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, author: "golden", schemaVersion: 1,
            payload: Array("first payload".utf8)),
        JournalEntry(
            requestID: UUID(uuidString: "00000000-0000-4000-8000-000000000002")!, author: "", schemaVersion: 1,
            payload: []),
        JournalEntry(
            requestID: UUID(uuidString: "00000000-0000-4000-8000-000000000003")!, author: "Zoë ✍︎", schemaVersion: 7,
            payload: Array(0...255)),
    ]

    /// Writes the golden ledger's content with fixed ids and a fixed clock.
    static func writeGolden(at path: String) throws {
        try LedgerDirectory.create(at: path, ledgerID: goldenLedgerID, createdMicroseconds: goldenCreated)
        let clock = ClockScript([goldenCreated + 1, goldenCreated + 2, goldenCreated + 2])
        let journal = try Journal.open(at: path, options: JournalOptions(lockWaitSeconds: 2, clock: { clock.next() }))
        for entry in goldenEntries { _ = try journal.appendAndWait(entry) }
        journal.close()
    }

    /// The golden ledger of a format version: `ledger-v1` was written by format version 1 and is
    /// only read; `ledger-v2` is what this build writes.
    static func goldenDirectory(version: Int) -> String {
        Bundle.module.path(forResource: "Golden", ofType: nil)! + "/ledger-v\(version)"
    }

    /// A copy of the golden ledger of a format version in `directory`, with a ledger's modes: the
    /// checked-in files have git's, which an open refuses.
    static func goldenCopy(version: Int, in directory: TemporaryDirectory) throws -> String {
        let copy = directory.child("golden-v\(version)")
        try copyLedger(goldenDirectory(version: version), to: copy)
        return copy
    }

    @Test("This build writes the golden journal of the current format byte for byte")
    func writesGolden() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try Self.writeGolden(at: ledger)
        if let update = ProcessInfo.processInfo.environment["LEDGER_UPDATE_GOLDEN"] {
            try? FileManager.default.removeItem(atPath: update)
            try FileManager.default.copyItem(atPath: ledger, toPath: update)
        }
        #expect(SegmentHeader.currentFormatVersion == 2)
        for file in ["LEDGER", "journal/00000000000000000001.seg"] {
            let golden = bytes(of: Self.goldenDirectory(version: 2) + "/" + file)
            #expect(!golden.isEmpty, "golden \(file) is missing")
            #expect(
                bytes(of: ledger + "/" + file) == golden, "\(file) differs from the golden copy: the format changed")
        }
    }

    @Test("This build reads the golden journal of every format version back exactly", arguments: [1, 2])
    func readsGolden(version: Int) throws {
        let directory = TemporaryDirectory()
        let path = try Self.goldenCopy(version: version, in: directory)
        let reader = try JournalReader(at: path)
        #expect(reader.identity.ledgerID == Self.goldenLedgerID)
        #expect(reader.identity.createdMicroseconds == Self.goldenCreated)
        var records: [JournalRecord] = []
        try reader.forEach { records.append($0) }
        #expect(records.count == 3)
        for (record, entry) in zip(records, Self.goldenEntries) {
            #expect(record.requestID == entry.requestID)
            #expect(record.author == entry.author)
            #expect(record.schemaVersion == entry.schemaVersion)
            #expect(record.payload == entry.payload)
            #expect(record.payloadDigest == SHA256.hash(entry.payload))
        }
        #expect(
            records.map(\.commitMicroseconds) == [
                Self.goldenCreated + 1, Self.goldenCreated + 2, Self.goldenCreated + 2,
            ])
        // Version 1 stored the payload digest and the chain hash in a 104-byte envelope; version 2
        // stores neither, and its sequence, schema version and author length are varints: 27
        // bytes for these records (one-byte sequences, schema versions and author lengths).
        let envelope = version == 1 ? 104 : 27
        let first: Int64 = 72
        let second: Int64 = first + 8 + Int64(envelope) + 6 + 13
        let third: Int64 = second + 8 + Int64(envelope)
        let offsets: [Int64] = records.map { $0.location.offset }
        #expect(offsets == [first, second, third])
        // The chain, recomputed here from its definition in LogFormat.md.
        var previous = SHA256Digest.zero
        let segment = bytes(of: path + "/journal/00000000000000000001.seg")
        for record in records {
            let body = Int(record.location.offset) + 8
            let authorLength = record.author.utf8.count
            // The canonical envelope: version 1's first 40 bytes, built here from the record.
            var canonical = ByteWriter()
            canonical.write(record.sequence)
            canonical.write(record.commitMicroseconds)
            canonical.write(record.requestID)
            canonical.write(record.schemaVersion)
            canonical.write(UInt16(authorLength))
            canonical.write(UInt32(record.payload.count))
            if version == 1 { #expect(canonical.bytes == Array(segment[body..<body + 40])) }
            var hasher = SHA256()
            hasher.update(previous)
            hasher.update(canonical.bytes)
            hasher.update(SHA256.hash(record.payload))
            hasher.update(Array(segment[body + envelope..<body + envelope + authorLength]))
            let expected = hasher.finalize()
            #expect(record.hash == expected)
            if version == 1 {
                // Version 1 stored both digests after the common 40 bytes.
                #expect(Array(segment[body + 40..<body + 72]) == Array(SHA256.hash(record.payload).bytes))
                #expect(Array(segment[body + 72..<body + 104]) == Array(expected.bytes))
            }
            previous = expected
        }
    }

    @Test("The chain does not depend on the format: both golden ledgers end at the same head digest")
    func sameChainInEveryFormat() throws {
        let directory = TemporaryDirectory()
        let heads = try [1, 2].map { try JournalReader(at: Self.goldenCopy(version: $0, in: directory)).head() }
        #expect(heads[0] == heads[1])
        #expect(heads[0].sequence == 3)
    }

    @Test("A ledger of format version 1 opens for writing; new records go to a new segment of the current format")
    func upgradesOnAppend() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try copyLedger(Self.goldenDirectory(version: 1), to: ledger)
        let oldSegment = bytes(of: ledger + "/journal/00000000000000000001.seg")
        let oldHead = try JournalReader(at: ledger).head()
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        let receipt = try journal.appendAndWait(
            JournalEntry(author: "upgrade", schemaVersion: 1, payload: Array("after the upgrade".utf8)))
        journal.close()
        #expect(receipt.sequence == 4)
        // The version 1 segment is untouched, and the record went into segment 4, of version 2.
        #expect(bytes(of: ledger + "/journal/00000000000000000001.seg") == oldSegment)
        let newSegment = bytes(of: ledger + "/journal/00000000000000000004.seg")
        guard case .success(let header) = SegmentHeader.decode(newSegment) else {
            Issue.record("segment 4 has no valid header")
            return
        }
        #expect(header.formatVersion == 2)
        #expect(header.previousHash == oldHead.hash)
        #expect(newSegment.count == SegmentHeader.encodedBytes + 8 + 27 + 7 + 17)
        let reader = try JournalReader(at: ledger)
        var records: [JournalRecord] = []
        try reader.forEach { records.append($0) }
        #expect(records.map(\.sequence) == [1, 2, 3, 4])
        #expect(try reader.head() == HeadDigest(sequence: 4, hash: receipt.hash))
        #expect(try reader.verify(against: oldHead).records == 4)
    }

    @Test("A format 1 ledger whose last segment holds no record gets that segment made anew in the current format")
    func upgradesEmptyLastSegment() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try copyLedger(Self.goldenDirectory(version: 1), to: ledger)
        let oldHead = try JournalReader(at: ledger).head()
        // A writer of format 1 that rolled and stopped: segment 4, a version 1 header and nothing else.
        let empty = SegmentHeader(
            ledgerID: Self.goldenLedgerID, firstSequence: 4, previousHash: oldHead.hash, formatVersion: 1)
        let path = ledger + "/journal/" + SegmentHeader.fileName(firstSequence: 4)
        overwrite(path, with: empty.encoded())
        #expect(try JournalReader(at: ledger).head() == oldHead)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        let receipt = try journal.appendAndWait(
            JournalEntry(author: "upgrade", schemaVersion: 1, payload: Array("after the upgrade".utf8)))
        journal.close()
        #expect(receipt.sequence == 4)
        guard case .success(let header) = SegmentHeader.decode(bytes(of: path)) else {
            Issue.record("segment 4 has no valid header")
            return
        }
        #expect(header.formatVersion == 2)
        #expect(header.previousHash == oldHead.hash)
        #expect(try JournalReader(at: ledger).verify(against: oldHead).records == 4)
    }

    @Test("A version 1 last segment that ends in zeros is cut back to its records before the next segment starts")
    func upgradesSegmentEndingInZeros() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try copyLedger(Self.goldenDirectory(version: 1), to: ledger)
        let path = ledger + "/journal/00000000000000000001.seg"
        let oldSegment = bytes(of: path)
        let oldHead = try JournalReader(at: ledger).head()
        // A version 1 writer that died after the file's new size reached the disk, not its last page.
        overwrite(path, with: oldSegment + [UInt8](repeating: 0, count: 4096))
        for _ in 0..<2 {
            let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
            #expect(journal.recovery.tail == .clean)
            _ = try journal.appendAndWait(JournalEntry(author: "upgrade", schemaVersion: 1, payload: [1, 2, 3]))
            journal.close()
        }
        #expect(bytes(of: path) == oldSegment)
        #expect(try JournalReader(at: ledger).verify(against: oldHead).records == 5)
    }

    @Test("Files are created 0600 and directories 0700")
    func permissions() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 30, limits: smallLimits, payloadBytes: 300)
        let reader = try JournalReader(at: ledger)
        try SnapshotStore(paths: reader.paths, identity: reader.identity).write(
            sequence: 30, hash: try reader.head().hash, state: [1, 2, 3])
        let manager = FileManager.default
        func mode(_ path: String) throws -> Int {
            (try manager.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        for directoryPath in [ledger, ledger + "/journal", ledger + "/snapshots"] {
            #expect(try mode(directoryPath) == 0o700, "\(directoryPath)")
        }
        var files = ["LEDGER", "LOCK"]
        files += try manager.contentsOfDirectory(atPath: ledger + "/journal").map { "journal/" + $0 }
        files += try manager.contentsOfDirectory(atPath: ledger + "/snapshots").map { "snapshots/" + $0 }
        #expect(files.count > 4)
        for file in files { #expect(try mode(ledger + "/" + file) == 0o600, "\(file)") }
    }

    @Test("Segments roll at the size limit and records read across them, from any sequence")
    func segmentsRoll() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 50, limits: smallLimits, payloadBytes: 250)
        let segments = try segmentPaths(ledger)
        #expect(segments.count > 3)
        for segment in segments { #expect(bytes(of: segment).count <= smallLimits.segmentBytesMax) }
        let reader = try JournalReader(at: ledger)
        for start in [1, 2, 17, 33, 50, 51] as [UInt64] {
            var cursor = try reader.records(from: start)
            var sequences: [UInt64] = []
            while let record = try cursor.next() { sequences.append(record.sequence) }
            #expect(sequences == Array(start..<51))
        }
        #expect(try reader.head() == HeadDigest(sequence: 50, hash: receipts[49].hash))
        #expect(try reader.hash(at: 17) == receipts[16].hash)
    }

    @Test("An author over 1,024 bytes and a record over the limit are refused before anything is written")
    func limits() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
        defer { journal.close() }
        var longAuthor = entry(1)
        longAuthor.author = String(repeating: "a", count: RecordFrame.authorBytesMax + 1)
        #expect(throws: StorageError.limitExceeded(what: "author bytes", limit: 1024, actual: 1025)) {
            try journal.appendAndWait(longAuthor)
        }
        var atLimit = entry(1)
        atLimit.author = String(repeating: "a", count: RecordFrame.authorBytesMax)
        atLimit.payload = []
        atLimit.payload = [UInt8](
            repeating: 7,
            count: smallLimits.recordBytesMax - RecordFrame.envelopeBytesMax - RecordFrame.authorBytesMax)
        #expect(try journal.appendAndWait(atLimit).sequence == 1)
        atLimit.payload.append(0)
        #expect(throws: StorageError.self) { try journal.appendAndWait(atLimit) }
        #expect(journal.writerFailure == nil, "a refused entry must not fail the writer")
        #expect(try journal.appendAndWait(entry(2)).sequence == 2)
        #expect(throws: StorageError.self) {
            try JournalLimits(segmentBytesMax: 1000, recordBytesMax: 2048, groupRecordsMax: 1, groupBytesMax: 4096)
                .validate()
        }
        // The largest envelope (39 bytes) and the longest author must fit: 39 + 1,024.
        #expect(throws: StorageError.invalidArgument("recordBytesMax must be at least 1063")) {
            try JournalLimits(
                segmentBytesMax: 1 << 20, recordBytesMax: 1_062, groupRecordsMax: 1, groupBytesMax: 1 << 20
            )
            .validate()
        }
        #expect(
            throws: StorageError.invalidArgument(
                "recordBytesMax must be at most 4294967295, the largest length a frame can hold")
        ) {
            try JournalLimits(
                segmentBytesMax: .max, recordBytesMax: Int(UInt32.max) + 1, groupRecordsMax: 1, groupBytesMax: .max
            ).validate()
        }
    }

    @Test(
        "statistics.dataSyncs counts every sync the writer makes: one per group, four more per roll, three at close"
    )
    func statisticsCountEverySync() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let faults = FaultInjectingFileSystem()
        let journal = try Journal.open(
            at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults, limits: smallLimits))
        func syncCalls() -> Int {
            faults.callCount(.synchronizeData) + faults.callCount(.synchronize)
                + faults.callCount(.synchronizeDirectory)
        }
        let atOpen = syncCalls()
        let count = 3 * recordsPerSegment(smallLimits, payloadBytes: 200) + 1
        for number in 1...count { _ = try journal.appendAndWait(entry(number, payloadBytes: 200)) }
        journal.close()
        let statistics = journal.statistics
        let rolls = try segmentPaths(ledger).count - 1
        #expect(rolls == 3)
        #expect(statistics.records == count)
        #expect(statistics.groups == count)
        // A roll cuts the zeros off the full segment (fsync), writes the new header (fsync),
        // syncs the directory, and makes the zeros the new segment's first frames go into
        // durable (fdatasync); close cuts the zeros off the last segment and records the head in
        // HEAD (the file and the directory).
        #expect(statistics.dataSyncs == count + 4 * rolls + 3)
        #expect(statistics.dataSyncs == syncCalls() - atOpen, "every sync call the writer made is counted")
    }

    @Test("A directory that is not a ledger, or a damaged identity file, is named in the error")
    func identityErrors() throws {
        let directory = TemporaryDirectory()
        #expect(throws: StorageError.notALedger(path: directory.child("none"), reason: "no such directory")) {
            try JournalReader(at: directory.child("none"))
        }
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        #expect(throws: StorageError.alreadyExists(path: ledger)) { try LedgerDirectory.create(at: ledger) }
        var identity = bytes(of: ledger + "/LEDGER")
        identity[20] ^= 1
        overwrite(ledger + "/LEDGER", with: identity)
        #expect(throws: StorageError.notALedger(path: ledger, reason: "LEDGER file: checksum mismatch")) {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        }
    }

    @Test("Head digests print and parse as SEQUENCE:HASH")
    func headDigestText() throws {
        let digest = HeadDigest(sequence: 42, hash: SHA256.hash(Array("x".utf8)))
        #expect(HeadDigest(parsing: digest.description) == digest)
        #expect(HeadDigest(parsing: "42 " + digest.hash.hex) == digest)
        #expect(HeadDigest(parsing: "42:zz") == nil)
        #expect(HeadDigest(parsing: "x:" + digest.hash.hex) == nil)
    }
}
