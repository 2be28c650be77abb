import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// A scan reads the segments before the last in chunks; these check that it finds what a
/// segment read whole gives, whatever the chunk size, and fails the same way on damage.
@Suite("Reading segments in chunks")
struct ChunkedScanTests {
    /// Chunk sizes from one byte (every frame read piece by piece) to more than a segment.
    static let chunkSizes = [1, 7, 100, 1_000, JournalScan.defaultChunkBytes]

    /// A ledger of several segments of records of uneven sizes, some larger than the smaller
    /// chunks, at `ledger` in a directory of its own (kept while the test holds it); returns the
    /// payload of each record, by sequence from 1.
    private func unevenLedger(
        _ test: String, ledger: String = "ledger"
    ) throws -> (directory: TemporaryDirectory, path: String, payloads: [[UInt8]]) {
        let directory = TemporaryDirectory(test)
        let path = directory.child(ledger)
        var random = SplitMix64(seed: testSeed("chunked scan, \(test)"))
        let payloads = try writeUnevenLedger(at: path, count: 60, payloadBytesMax: 1_500, random: &random)
        return (directory, path, payloads)
    }

    /// A segment before the last of a ledger made by ``unevenLedger(_:ledger:)``: its path, its
    /// name as errors give it, and where its records start.
    private func middleSegment(of ledger: String) throws -> (path: String, name: String, offsets: [Int]) {
        let path = try segmentPaths(ledger)[3]
        return (path, journalName(path), recordOffsets(inSegment: path))
    }

    /// A segment's name as locations give it.
    private func journalName(_ segment: String) -> String { "journal/" + (segment as NSString).lastPathComponent }

    private func scan(
        _ path: String, chunkBytes: Int, fileSystem: any FileSystem = SystemFileSystem()
    ) throws(StorageError) -> JournalScan {
        let paths = LedgerPaths(root: path)
        let identity = try LedgerDirectory.identity(at: path, fileSystem: fileSystem)
        return try JournalScan(paths: paths, identity: identity, fileSystem: fileSystem, chunkBytes: chunkBytes)
    }

    /// Reads every record and how the scan ended, or the error it threw.
    private func outcome(_ path: String, chunkBytes: Int) -> Result<ScanOutcome, StorageError> {
        do throws(StorageError) {
            var scan = try scan(path, chunkBytes: chunkBytes)
            var records: [JournalRecord] = []
            while let record = try scan.next() { records.append(record) }
            return .success(
                ScanOutcome(records: records, tail: scan.tail, end: scan.endLocation, next: scan.expectedSequence))
        } catch {
            return .failure(error)
        }
    }

    @Test("Every chunk size gives each record, where it lies, and the end a whole read gives")
    func recordsMatch() throws {
        let (directory, ledger, payloads) = try unevenLedger("records")
        defer { withExtendedLifetime(directory) {} }
        let segments = try segmentPaths(ledger)
        #expect(segments.count >= 10)
        // Where each record lies, read from the files independently of the scan.
        var locations: [LedgerLocation] = []
        for segment in segments {
            locations += recordOffsets(inSegment: segment).map {
                LedgerLocation(file: journalName(segment), offset: Int64($0))
            }
        }
        #expect(locations.count == payloads.count)
        let last = try #require(segments.last)
        let end = LedgerLocation(file: journalName(last), offset: Int64(bytes(of: last).count))
        // The verifier (default chunks) checks the chain; every chunk size ends at its head.
        let verified = try JournalReader(at: ledger).verify()
        #expect(verified.head.sequence == UInt64(payloads.count))
        for chunkBytes in Self.chunkSizes {
            let scanned = try outcome(ledger, chunkBytes: chunkBytes).get()
            #expect(scanned.records.map(\.sequence) == Array(1...UInt64(payloads.count)), "chunks of \(chunkBytes)")
            #expect(scanned.records.map(\.payload) == payloads, "chunks of \(chunkBytes)")
            #expect(scanned.records.map(\.location) == locations, "chunks of \(chunkBytes)")
            #expect(scanned.tail == .clean && scanned.end == end, "chunks of \(chunkBytes)")
            #expect(scanned.next == UInt64(payloads.count) + 1, "chunks of \(chunkBytes)")
            #expect(scanned.records.last?.hash == verified.head.hash, "chunks of \(chunkBytes)")
        }
    }

    @Test("Damage in a segment before the last is the same error at the same place, whatever the chunks")
    func damageMatches() throws {
        let (directory, pristine, _) = try unevenLedger("damage", ledger: "pristine")
        let (middle, name, offsets) = try middleSegment(of: pristine)
        #expect(offsets.count >= 2)
        let original = bytes(of: middle)
        let second = offsets[1]
        let lastBodyByte = second + RecordFrame.frameHeaderBytes + Int(RecordFrame.readUInt32(original, second)) - 1

        // Each damage, and the place and words its error must name.
        var damages: [(label: String, damage: ([UInt8]) -> [UInt8], offset: Int, says: String)] = []
        damages.append(
            (
                "a flipped payload byte",
                {
                    var b = $0; b[lastBodyByte] ^= 0x5A; return b
                }, second, "checksum"
            ))
        damages.append(("a cut segment", { Array($0[..<(second + 20)]) }, second, "incomplete record"))
        damages.append(
            ("zeros after a record", { $0[..<second] + Array(repeating: 0, count: $0.count - second) }, second, "zeros")
        )
        damages.append(
            (
                "a length past the file",
                {
                    var b = $0; b[second + 3] = 0x7F; return b
                }, second, "incomplete record"
            ))
        damages.append(
            (
                "a length below the envelope",
                {
                    var b = $0; b[second] = 3; b[second + 1] = 0; return b
                }, second, "implausible"
            ))
        // A whole, valid frame where another belongs: the segment's first record again in the
        // second's place. Its frame checks out, so the chunked reading judges it itself.
        let firstFrame = Array(original[offsets[0]..<second])
        damages.append(("a record repeated", { $0[..<second] + firstFrame + $0[second...] }, second, "was expected"))
        for (label, damage, offset, says) in damages {
            let ledger = directory.child("damaged-\(damages.firstIndex { $0.label == label }!)")
            try FileManager.default.copyItem(atPath: pristine, toPath: ledger)
            overwrite(ledger + "/" + name, with: damage(original))
            var errors: [StorageError] = []
            for chunkBytes in Self.chunkSizes {
                guard case .failure(let error) = outcome(ledger, chunkBytes: chunkBytes) else {
                    Issue.record("\(label): chunks of \(chunkBytes) read a damaged segment without an error")
                    continue
                }
                errors.append(error)
            }
            #expect(Set(errors).count == 1, "\(label): \(errors)")
            guard case .corruption(let location, let reason) = errors.first else {
                Issue.record("\(label): not a corruption error: \(errors)")
                continue
            }
            #expect(location == LedgerLocation(file: name, offset: Int64(offset)), "\(label): \(location)")
            #expect(reason.contains(says), "\(label): \(reason)")
        }
    }

    @Test("A scan left midway in a chunked segment closes it, and a failed chunk read is an error")
    func descriptorsAndReadErrors() throws {
        let (directory, ledger, payloads) = try unevenLedger("files")
        defer { withExtendedLifetime(directory) {} }
        let faults = FaultInjectingFileSystem()
        do {
            var scan = try scan(ledger, chunkBytes: 100, fileSystem: faults)
            for _ in 0..<3 { _ = try scan.next() }
            withExtendedLifetime(scan) { #expect(faults.openFileCount == 1) }
        }
        #expect(faults.openFileCount == 0)
        #expect(faults.refusedCloseCalls.isEmpty)

        // The fifth read of the first segment fails: the scan throws that error and keeps
        // nothing open, and a new scan reads every record.
        faults.inject(.init(.read, pathContains: "journal/", skip: 4, effect: .fail(errno: EIO)))
        do {
            var scan = try scan(ledger, chunkBytes: 100, fileSystem: faults)
            #expect {
                while try scan.next() != nil {}
            } throws: { error in
                guard case .system(_, _, let errno) = error as? StorageError else { return false }
                return errno == EIO
            }
        }
        #expect(faults.openFileCount == 0)
        var again = try scan(ledger, chunkBytes: 100, fileSystem: faults)
        var payloadsRead: [[UInt8]] = []
        while let record = try again.next() { payloadsRead.append(record.payload) }
        #expect(payloadsRead == payloads)
    }

    @Test("A segment that cannot be read whole after a bad frame can be tried again from the same place")
    func wholeReadRetried() throws {
        let (directory, ledger, _) = try unevenLedger("retry")
        defer { withExtendedLifetime(directory) {} }
        let (middle, name, offsets) = try middleSegment(of: ledger)
        var damaged = bytes(of: middle)
        damaged[offsets[1] + RecordFrame.frameHeaderBytes] ^= 0x01
        overwrite(middle, with: damaged)

        // The segment's first open is its chunked reading's; the second, the whole read after the
        // bad frame, fails once.
        let faults = FaultInjectingFileSystem()
        faults.inject(.init(.open, pathContains: name, skip: 1, effect: .fail(errno: EMFILE)))
        var scan = try scan(ledger, chunkBytes: 100, fileSystem: faults)
        var failures: [StorageError] = []
        for _ in 0..<3 {
            do throws(StorageError) {
                while try scan.next() != nil {}
            } catch {
                failures.append(error)
            }
        }
        guard failures.count == 3, case .system(_, _, let errno) = failures[0] else {
            Issue.record("the whole read did not fail first: \(failures)")
            return
        }
        #expect(errno == EMFILE)
        // Tried again, the scan judges the bad frame where it lies in the file, every time.
        let expected = LedgerLocation(file: name, offset: Int64(offsets[1]))
        for failure in failures.dropFirst() {
            guard case .corruption(let location, let reason) = failure else {
                Issue.record("not a corruption error: \(failure)")
                continue
            }
            #expect(location == expected && reason.contains("checksum"), "\(location): \(reason)")
        }
    }
}

/// What a scan read to its end.
private struct ScanOutcome {
    var records: [JournalRecord]
    var tail: JournalTail?
    var end: LedgerLocation?
    var next: UInt64
}
