import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// The rows of the recovery table that a head recorded as durable outside the journal decides:
/// the `HEAD` marker and the snapshots (decision 0018). Damage to a record at or below such a
/// head is corruption, never a torn write to truncate.
@Suite("Recovery: heads recorded as durable")
struct DurableHeadTests {
    /// Expects `body` to throw a corruption error whose reason contains `reason`.
    private func expectCorruption(_ reason: String, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: {
            guard case .corruption(_, let found) = $0 as? StorageError else { return false }
            return found.contains(reason)
        }
    }

    /// Opens the ledger for writing and closes it again.
    private func openAndClose(_ ledger: String, limits: JournalLimits = .standard) throws {
        try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: limits)).close()
    }

    /// The marker's head, read as recovery reads it.
    private func marker(_ ledger: String) throws -> HeadDigest? {
        let identity = try LedgerDirectory.identity(at: ledger)
        let read = try DurableHeads.readMarker(LedgerPaths(root: ledger), identity, fileSystem: SystemFileSystem())
        guard case .success(let marker)? = read else { return nil }
        return marker.head
    }

    @Test("Closing and opening record the durable head in HEAD")
    func markerFollowsTheHead() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 3)
        #expect(try marker(ledger) == HeadDigest(sequence: 3, hash: receipts[2].hash))
        // A writer that never closed leaves the marker behind its records; the next open moves it.
        try FileManager.default.removeItem(atPath: LedgerPaths(root: ledger).headMarker)
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        #expect(try marker(ledger) == HeadDigest(sequence: 3, hash: receipts[2].hash))
        let fourth = try journal.appendAndWait(entry(4))
        journal.close()
        #expect(try marker(ledger) == HeadDigest(sequence: 4, hash: fourth.hash))
        #expect(try HeadMarker.decode(bytes(of: LedgerPaths(root: ledger).headMarker)).get().head.sequence == 4)
    }

    @Test("One flipped bit in the last record of a closed journal is corruption; nothing is truncated")
    func flippedBitInDurableLastRecord() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        let segment = try #require(try segmentPaths(ledger).last)
        var data = bytes(of: segment)
        data[data.count - 3] ^= 0x10
        overwrite(segment, with: data)
        expectCorruption("HEAD records sequence 5 as durable") { try openAndClose(ledger) }
        expectCorruption("records 5 through 5 were acknowledged and are lost") {
            _ = try JournalReader(at: ledger).verify()
        }
        #expect(bytes(of: segment) == data, "the damaged record is kept for salvage")
    }

    @Test("A journal cut at a record boundary below HEAD is corruption, by open, verify and head()")
    func cutAtRecordBoundary() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        let segment = try #require(try segmentPaths(ledger).last)
        let offsets = recordOffsets(inSegment: segment)
        let cut = Array(bytes(of: segment).prefix(offsets[4]))
        overwrite(segment, with: cut)
        expectCorruption("the journal ends at sequence 4, but HEAD records sequence 5") { try openAndClose(ledger) }
        expectCorruption("the journal ends at sequence 4") { _ = try JournalReader(at: ledger).verify() }
        expectCorruption("the journal ends at sequence 4") { _ = try JournalReader(at: ledger).head() }
        #expect(bytes(of: segment) == cut)
    }

    @Test("A deleted last segment is corruption, not a clean, shorter ledger")
    func deletedLastSegment() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 60, limits: smallLimits, payloadBytes: 200)
        let segments = try segmentPaths(ledger)
        #expect(segments.count >= 3)
        try FileManager.default.removeItem(atPath: try #require(segments.last))
        expectCorruption("HEAD records sequence 60 as durable") { try openAndClose(ledger, limits: smallLimits) }
        #expect(try segmentPaths(ledger).count == segments.count - 1, "open made no segment in its place")
    }

    @Test("A last segment cut back to part of its header, below HEAD, is corruption, not a crash while rolling")
    func lastSegmentCutToATornHeader() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 60, limits: smallLimits, payloadBytes: 200)
        let last = try #require(try segmentPaths(ledger).last)
        let cut = Array(bytes(of: last).prefix(40))
        overwrite(last, with: cut)
        expectCorruption("has a damaged header, but HEAD records sequence 60 as durable") {
            try openAndClose(ledger, limits: smallLimits)
        }
        #expect(bytes(of: last) == cut, "the segment was neither removed nor made anew")
    }

    @Test("A torn record above HEAD is still a torn write: truncated, and appends go on")
    func tornAboveMarker() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 5)
        let segment = try #require(try segmentPaths(ledger).last)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(entry(6), sequence: 6, commitMicroseconds: 0, previousHash: .zero, into: &encoder)
        overwrite(segment, with: bytes(of: segment) + encoder.bytes.prefix(encoder.count / 2))
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        #expect(journal.recovery.truncatedBytes == Int64(encoder.count / 2))
        #expect(try journal.appendAndWait(entry(6)).sequence == 6)
        journal.close()
        #expect(try readAll(ledger).map(\.sequence) == Array(1...6))
    }

    @Test(
        "A record edited with a fresh CRC is caught by a later snapshot, or by HEAD",
        arguments: ["snapshot", "HEAD"])
    func forgedRecordCaught(by recorder: String) throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 6)
        let paths = LedgerPaths(root: ledger)
        let identity = try LedgerDirectory.identity(at: ledger)
        let store = SnapshotStore(paths: paths, identity: identity)
        if recorder == "snapshot" {
            try store.write(sequence: 5, hash: receipts[4].hash, state: Array("state".utf8))
            try FileManager.default.removeItem(atPath: paths.headMarker)
        }
        let segment = try #require(try segmentPaths(ledger).last)
        let forged = forgeRecord(3, inSegment: segment)
        // Without the recorded heads the journal verifies: the forgery checks out on its own.
        let copy = try journalOnlyCopy(ledger, into: directory.child("copy"))
        let alone = try JournalReader(at: copy)
        #expect(try alone.verify().head.sequence == 6)
        let caught =
            recorder == "snapshot"
            ? "record 5 has chain hash \(try #require(try alone.hash(at: 5)).hex), but snapshots/"
                + SnapshotStore.fileName(sequence: 5) + " recorded \(receipts[4].hash.hex)"
            : "record 6 has chain hash \(try #require(try alone.hash(at: 6)).hex), but HEAD recorded "
                + receipts[5].hash.hex
        expectCorruption(caught) { try openAndClose(ledger) }
        expectCorruption(caught) { _ = try JournalReader(at: ledger).verify() }
        if recorder == "snapshot" {
            expectCorruption(caught) { _ = try store.latestUsable(reader: JournalReader(at: ledger)) }
        }
        #expect(bytes(of: segment) == forged)
    }

    /// Copies a ledger's identity and journal, without its recorded heads, to `copy`.
    private func journalOnlyCopy(_ ledger: String, into copy: String) throws -> String {
        try FileManager.default.createDirectory(
            atPath: copy, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for name in ["LEDGER", "journal"] {
            try FileManager.default.copyItem(atPath: ledger + "/" + name, toPath: copy + "/" + name)
        }
        return copy
    }

    @Test("A journal that ends below a snapshot's sequence is corruption, with or without HEAD")
    func endsBelowSnapshot() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let receipts = try makeLedger(at: ledger, count: 5)
        let paths = LedgerPaths(root: ledger)
        try SnapshotStore(paths: paths, identity: try LedgerDirectory.identity(at: ledger)).write(
            sequence: 5, hash: receipts[4].hash, state: Array("state".utf8))
        try FileManager.default.removeItem(atPath: paths.headMarker)
        let segment = try #require(try segmentPaths(ledger).last)
        var data = bytes(of: segment)
        data[data.count - 3] ^= 0x10
        overwrite(segment, with: data)
        let snapshot = "snapshots/" + SnapshotStore.fileName(sequence: 5)
        expectCorruption("\(snapshot) records sequence 5 as durable") { try openAndClose(ledger) }
        expectCorruption("\(snapshot) records sequence 5 as durable") { _ = try JournalReader(at: ledger).verify() }
        // Without the snapshot nothing says record 5 was durable: a torn write, as before.
        try FileManager.default.removeItem(atPath: paths.snapshots + "/" + SnapshotStore.fileName(sequence: 5))
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { journal.close() }
        #expect(journal.recovery.head.sequence == 4)
    }

    @Test("A HEAD that does not check out is corruption, torn tail or not, and salvage copies every record")
    func unreadableMarker() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 3)
        let markerPath = LedgerPaths(root: ledger).headMarker
        var damaged = bytes(of: markerPath)
        damaged[30] ^= 0x01
        overwrite(markerPath, with: damaged)
        // A journal cut back to a record boundary would look just like this one: clean.
        expectCorruption("HEAD checksum mismatch: the head it recorded as durable is unknown") {
            try openAndClose(ledger)
        }
        let segment = try #require(try segmentPaths(ledger).last)
        var encoder = ByteWriter()
        _ = RecordFrame.encode(entry(4), sequence: 4, commitMicroseconds: 0, previousHash: .zero, into: &encoder)
        let torn = bytes(of: segment) + encoder.bytes.prefix(encoder.count / 2)
        overwrite(segment, with: torn)
        expectCorruption("HEAD checksum mismatch") { try openAndClose(ledger) }
        expectCorruption("HEAD checksum mismatch") { _ = try JournalReader(at: ledger).verify() }
        #expect(bytes(of: segment) == torn)
        #expect(bytes(of: markerPath) == damaged, "the damaged marker is not overwritten")
        var cursor = try JournalReader(at: ledger).records(from: 1)
        var sequences: [UInt64] = []
        #expect(throws: StorageError.self) {
            while let record = try cursor.next() { sequences.append(record.sequence) }
        }
        #expect(sequences == [1, 2, 3], "every record is read before the damage is reported, for salvage")
    }

    @Test("A writer that failed in this process does not cut back what a writer in another process acknowledged")
    func rollbackYieldsToALaterWriter() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 3)
        let faults = FaultInjectingFileSystem()
        let failing = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: faults))
        faults.inject(.init(.synchronizeData, effect: .fail(errno: EIO)))
        #expect(throws: StorageError.self) { try failing.appendAndWait(entry(4)) }
        failing.close()
        // Another process opens (recording the head it finds), appends, and is killed.
        let child = try ChildProcess(try builtProduct("ledger-storage-child"), ["append", ledger])
        #expect(child.waitForLine { $0.hasPrefix("ACK 7 ") })
        child.kill()
        let acknowledged = child.lines.compactMap { line -> UInt64? in
            let fields = line.split(separator: " ")
            return fields.first == "ACK" ? UInt64(fields[1]) : nil
        }
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { journal.close() }
        #expect(journal.recovery.writerFailureRollback == nil)
        #expect(journal.recovery.head.sequence >= (acknowledged.max() ?? .max))
    }

    @Test("A marker of another ledger is not trusted, and a torn tail beside it is refused")
    func markerOfAnotherLedger() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let other = directory.child("o")
        try makeLedger(at: ledger, count: 2)
        try makeLedger(at: other, count: 9)
        overwrite(LedgerPaths(root: ledger).headMarker, with: bytes(of: LedgerPaths(root: other).headMarker))
        let segment = try #require(try segmentPaths(ledger).last)
        overwrite(segment, with: bytes(of: segment) + [1, 2, 3])
        expectCorruption("HEAD belongs to ledger") { try openAndClose(ledger) }
    }

    /// Changes one payload byte of record `sequence` in a segment and recomputes its frame's CRC,
    /// as someone editing the journal would; returns the segment's new bytes.
    private func forgeRecord(_ sequence: Int, inSegment segment: String) -> [UInt8] {
        var data = bytes(of: segment)
        let frame = recordOffsets(inSegment: segment)[sequence - 1]
        let length = Int(RecordFrame.readUInt32(data, frame))
        let body = frame + RecordFrame.frameHeaderBytes
        data[body + length - 1] ^= 0x01
        let crc = CRC32C.checksum(Array(data[frame..<frame + 4]) + Array(data[body..<body + length]))
        let masked = CRC32C.mask(crc)
        for index in 0..<4 { data[frame + 4 + index] = UInt8(truncatingIfNeeded: masked >> (8 * index)) }
        overwrite(segment, with: data)
        return data
    }
}
