import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// The last segment is read in chunks like the others: these check that every chunk size finds
/// the records, the clean end, the torn tail or the damage a segment read whole gives, and that
/// a clean last segment is never held whole.
@Suite("Reading the last segment in chunks")
struct ChunkedLastSegmentTests {
    /// Chunk sizes from one byte (every frame read piece by piece, each crossing chunks) to more
    /// than a segment (the segment in one chunk, as a whole read holds it).
    static let chunkSizes = [1, 7, 100, 1_000, JournalScan.defaultChunkBytes]

    /// A ledger of a few segments of records of uneven sizes in a directory of its own (kept
    /// while the test holds it); returns the payloads by sequence from 1 and the last segment,
    /// with where its records start.
    private func ledger(
        _ test: String
    ) throws -> (directory: TemporaryDirectory, path: String, payloads: [[UInt8]], last: String, offsets: [Int]) {
        let directory = TemporaryDirectory(test)
        let path = directory.child("ledger")
        var random = SplitMix64(seed: testSeed("chunked last segment, \(test)"))
        // Small records after them until the last segment holds three, so that damage can have
        // records after it.
        let payloads = try writeUnevenLedger(at: path, count: 24, payloadBytesMax: 900, random: &random) {
            recordOffsets(inSegment: try #require(try segmentPaths(path).last)).count < 3
        }
        let last = try #require(try segmentPaths(path).last)
        return (directory, path, payloads, last, recordOffsets(inSegment: last))
    }

    /// How many zeros end `bytes`.
    private func trailingZeros(_ bytes: [UInt8]) -> Int { bytes.reversed().prefix { $0 == 0 }.count }

    /// The last segment's name as locations give it.
    private func name(_ segment: String) -> String { "journal/" + (segment as NSString).lastPathComponent }

    /// Reads every record and how the scan ended, or the error it threw.
    private func outcome(
        _ path: String, chunkBytes: Int, fileSystem: any FileSystem = SystemFileSystem()
    ) -> Result<LastSegmentOutcome, StorageError> {
        do throws(StorageError) {
            let identity = try LedgerDirectory.identity(at: path, fileSystem: fileSystem)
            var scan = try JournalScan(
                paths: LedgerPaths(root: path), identity: identity, fileSystem: fileSystem, chunkBytes: chunkBytes)
            var records: [JournalRecord] = []
            while let record = try scan.next() { records.append(record) }
            return .success(LastSegmentOutcome(records: records, tail: scan.tail, end: scan.endLocation))
        } catch {
            return .failure(error)
        }
    }

    /// The outcome of every chunk size, checked to be one and the same; nil (with an issue) if not.
    private func sameOutcome(_ path: String, _ label: String) -> Result<LastSegmentOutcome, StorageError>? {
        let outcomes = Self.chunkSizes.map { outcome(path, chunkBytes: $0) }
        for (chunkBytes, other) in zip(Self.chunkSizes, outcomes) where other != outcomes[0] {
            Issue.record("\(label): chunks of \(chunkBytes) gave \(other), whole gave \(outcomes[0])")
            return nil
        }
        return outcomes.first
    }

    @Test("Zeros filled ahead of the records end the last segment where its records end")
    func zerosAhead() throws {
        let (directory, path, payloads, last, _) = try ledger("zeros")
        defer { withExtendedLifetime(directory) {} }
        let records = bytes(of: last)
        let end = LedgerLocation(file: name(last), offset: Int64(records.count))
        for zeros in [0, 3, 5_000] {
            overwrite(last, with: records + [UInt8](repeating: 0, count: zeros))
            let scanned = try #require(sameOutcome(path, "\(zeros) zeros")).get()
            #expect(scanned.records.map(\.payload) == payloads, "\(zeros) zeros")
            #expect(scanned.tail == .clean && scanned.end == end, "\(zeros) zeros: \(String(describing: scanned.end))")
        }
    }

    /// A record torn as a crash tears the one being written after the last acknowledged one: the
    /// first `count` bytes of a frame like the segment's last, its last byte not zero.
    private func tornRecord(_ records: [UInt8], lastAt lastRecord: Int, bytes count: Int) -> [UInt8] {
        var torn = Array(records[lastRecord..<(lastRecord + count)])
        torn[count - 1] = 0x7E
        return torn
    }

    @Test("A torn record after the last is the same torn tail whatever the chunks")
    func tornTail() throws {
        let (directory, path, payloads, last, offsets) = try ledger("torn")
        defer { withExtendedLifetime(directory) {} }
        let records = bytes(of: last)
        let lastRecord = try #require(offsets.last)
        let cut = tornRecord(records, lastAt: lastRecord, bytes: 30)
        // A whole frame whose checksum fails.
        var flipped = Array(records[lastRecord...])
        flipped[RecordFrame.frameHeaderBytes + 1] ^= 0x40
        var stray = [UInt8](repeating: 0, count: 2_500)
        stray[2_000] = 0x11
        // Each tear after the records, and the bytes from there on that are not zero.
        let tears: [(label: String, bytes: [UInt8], dropped: Int)] = [
            ("cut in its body", cut, 30),
            ("cut, then zeros", cut + [UInt8](repeating: 0, count: 4_000), 30),
            ("a flipped byte", flipped, flipped.count - trailingZeros(flipped)),
            ("a stray byte after zeros", stray, 2_001),
        ]
        let at = LedgerLocation(file: name(last), offset: Int64(records.count))
        for (label, torn, dropped) in tears {
            overwrite(last, with: records + torn)
            let scanned = try #require(sameOutcome(path, label)).get()
            #expect(scanned.records.map(\.payload) == payloads, "\(label)")
            guard case .tornRecord(let location, let droppedBytes, _) = scanned.tail else {
                Issue.record("\(label): not a torn tail: \(String(describing: scanned.tail))")
                continue
            }
            #expect(location == at && droppedBytes == Int64(dropped) && scanned.end == at, "\(label)")
        }
    }

    @Test("Damage with a valid record after it in the last segment is the same corruption whatever the chunks")
    func damageBeforeValidRecord() throws {
        let (directory, path, _, last, offsets) = try ledger("damage")
        defer { withExtendedLifetime(directory) {} }
        #expect(offsets.count >= 3)
        var damaged = bytes(of: last)
        damaged[offsets[0] + RecordFrame.frameHeaderBytes + 2] ^= 0x5A
        overwrite(last, with: damaged)
        guard case .failure(.corruption(let location, let reason)) = try #require(sameOutcome(path, "damage")) else {
            Issue.record("damage before a valid record was not corruption")
            return
        }
        #expect(location == LedgerLocation(file: name(last), offset: Int64(offsets[0])))
        #expect(reason.contains("valid record follows"), "\(reason)")
    }

    @Test("A last segment with a torn header ends the scan, with a header longer than that it is damage")
    func tornHeader() throws {
        let (directory, path, payloads, last, _) = try ledger("header")
        defer { withExtendedLifetime(directory) {} }
        // A new last segment named for the record after the previous segment's last, torn at 10 bytes.
        let rolled = LedgerPaths(root: path).segment(firstSequence: UInt64(payloads.count) + 1)
        overwrite(rolled, with: Array(bytes(of: last)[..<10]))
        let scanned = try #require(sameOutcome(path, "torn header")).get()
        #expect(scanned.records.count == payloads.count)
        #expect(scanned.tail == .tornSegmentHeader(file: name(rolled), bytes: 10))
        // The same file with a header's worth of bytes and more, its header still not valid: damage.
        overwrite(rolled, with: [UInt8](repeating: 0x33, count: SegmentHeader.encodedBytes + 50))
        guard case .failure(.corruption(let location, _)) = try #require(sameOutcome(path, "bad header")) else {
            Issue.record("a long, invalid last header was not corruption")
            return
        }
        #expect(location == LedgerLocation(file: name(rolled), offset: 0))
    }

    @Test("A clean last segment, zeros ahead included, is read a chunk at a time, never whole")
    func neverWhole() throws {
        let (directory, path, payloads, last, offsets) = try ledger("bounded")
        let lastRecord = try #require(offsets.last)
        defer { withExtendedLifetime(directory) {} }
        let chunkBytes = 256
        let records = bytes(of: last)
        // A chunk grows to hold a record larger than it.
        let largestFrame = zip(offsets, offsets.dropFirst() + [records.count]).map { $1 - $0 }.max() ?? 0
        overwrite(last, with: records + [UInt8](repeating: 0, count: 20 * chunkBytes))
        let faults = FaultInjectingFileSystem()
        let scanned = try outcome(path, chunkBytes: chunkBytes, fileSystem: faults).get()
        #expect(scanned.records.map(\.payload) == payloads && scanned.tail == .clean)
        #expect(faults.largestRead(pathContains: name(last)) <= max(chunkBytes, largestFrame))
        #expect(bytes(of: last).count > 2 * max(chunkBytes, largestFrame))
        // A torn tail is judged on the segment read whole.
        overwrite(last, with: records + tornRecord(records, lastAt: lastRecord, bytes: 30))
        let torn = FaultInjectingFileSystem()
        guard case .tornRecord = try outcome(path, chunkBytes: chunkBytes, fileSystem: torn).get().tail else {
            Issue.record("a cut last record was not a torn tail")
            return
        }
        #expect(torn.largestRead(pathContains: name(last)) == bytes(of: last).count)
    }
}

/// What a scan read to its end.
private struct LastSegmentOutcome: Equatable {
    var records: [JournalRecord]
    var tail: JournalTail?
    var end: LedgerLocation?
}
