import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// A ledger of five records in two segments (records 1–3, then 4–5) and the head it had.
private func redactionLedger(_ path: String) throws -> (records: [JournalRecord], head: HeadDigest) {
    let limits = JournalLimits(
        segmentBytesMax: SegmentHeader.encodedBytes + 3 * frameBytes(payloadBytes: 400), recordBytesMax: 1_063,
        groupRecordsMax: 16, groupBytesMax: 1 << 20, preallocationBytes: 0)
    let receipts = try makeLedger(at: path, count: 5, limits: limits, payloadBytes: 400)
    let records = try readAll(path)
    #expect(try segmentPaths(path).count == 2)
    return (records, HeadDigest(sequence: 5, hash: receipts[4].hash))
}

/// A request that replaces record `sequence`'s payload with `remaining`.
private func request(
    _ record: JournalRecord, remaining: [UInt8], reason: String = "erased on request"
) -> RedactionRequest {
    RedactionRequest(
        sequence: record.sequence, expectedPayloadDigest: SHA256.hash(record.payload), remaining: remaining,
        payloadSchemaVersion: 2, reason: reason)
}

@Suite("Redaction: payloads replaced in place, the chain kept")
struct RedactionTests {
    @Test("A redacted record keeps its chain hash; every saved digest verifies and the rest reads back as it was")
    func chainKept() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let (records, head) = try redactionLedger(ledger)
        let digestAt2 = HeadDigest(sequence: 2, hash: records[1].hash)
        // Longer and shorter than the original 400 bytes: the segment is written anew either way.
        try JournalRedaction.apply(
            [request(records[1], remaining: Array(repeating: 7, count: 900)), request(records[3], remaining: [])],
            ledgerAt: ledger)
        #expect(try JournalReader(at: ledger).verify(against: head).head == head)
        #expect(try JournalReader(at: ledger).verify(against: digestAt2).head == head)
        let after = try readAll(ledger)
        #expect(after.map(\.hash) == records.map(\.hash))
        #expect(after[1].redaction?.reason == "erased on request")
        #expect(after[1].payload == Array(repeating: 7, count: 900))
        #expect(after[1].payloadDigest == records[1].payloadDigest)
        #expect(after[3].redaction?.originalPayloadBytes == 400)
        #expect(after[3].payload.isEmpty)
        for index in [0, 2, 4] {
            // Records after a longer or shorter one moved; everything else about them is the same.
            var moved = after[index]
            moved.location = records[index].location
            #expect(moved == records[index])
        }
        for index in [1, 3] {
            let segment = bytes(of: ledger + "/" + after[index].location.file)
            #expect(!contains(segment, records[index].payload), "record \(index + 1)'s payload is still on disk")
        }
        // A writer opens it, and its next record chains on.
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        defer { journal.close() }
        #expect(journal.recovery.head == head)
        #expect(try journal.appendAndWait(entry(6)).sequence == 6)
    }

    @Test("A redacted record edited afterwards is damage: its stored digest breaks the chain")
    func forgedDigestIsDamage() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let (records, _) = try redactionLedger(ledger)
        try JournalRedaction.apply([request(records[0], remaining: [1, 2, 3])], ledgerAt: ledger)
        let segment = try #require(try segmentPaths(ledger).first)
        var bytes = bytes(of: segment)
        let offset = try #require(recordOffsets(inSegment: segment).first)
        // The original digest follows the marker and the length: flip one bit, then refresh the CRC.
        let marker = try #require(find(RecordRedaction.marker, in: bytes, from: offset))
        bytes[marker + 12] ^= 1
        let length = Int(RecordFrame.readUInt32(bytes, offset))
        let crc = RecordFrame.frameChecksum(bytes, frameStart: offset, bodyLength: length)
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(offset + 4..<offset + 8, with: $0) }
        overwrite(segment, with: bytes)
        #expect(throws: StorageError.self) { try JournalReader(at: ledger).verify() }
    }

    @Test("A payload with the redacted form's marker is refused on append, so no record reads as redacted by chance")
    func markerRefusedOnAppend() throws {
        let directory = TemporaryDirectory()
        let journal = try createAndOpen(directory.child("l"))
        defer { journal.close() }
        let forged = JournalEntry(author: "a", schemaVersion: 2, payload: RecordRedaction.marker + [0, 0])
        #expect(throws: StorageError.self) { try journal.appendAndWait(forged) }
        #expect(try journal.appendAndWait(entry(1)).sequence == 1)
    }

    @Test("Refused: a record past the head, a record changed since it was read, a ledger held by a writer")
    func refusals() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let (records, _) = try redactionLedger(ledger)
        var missing = request(records[0], remaining: [])
        missing.sequence = 9
        #expect(throws: StorageError.invalidArgument("record 9 does not exist")) {
            try JournalRedaction.apply([missing], ledgerAt: ledger)
        }
        var stale = request(records[0], remaining: [])
        stale.expectedPayloadDigest = SHA256.hash([1])
        #expect(throws: StorageError.invalidArgument("record 1 changed since it was read")) {
            try JournalRedaction.apply([stale], ledgerAt: ledger)
        }
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2))
        #expect(throws: StorageError.locked(path: ledger)) {
            try JournalRedaction.apply([request(records[0], remaining: [])], ledgerAt: ledger)
        }
        journal.close()
        #expect(try readAll(ledger) == records, "a refused redaction changed the journal")
    }

    @Test("A record in a format version 1 segment is refused before anything is written")
    func formatVersion1Refused() throws {
        let directory = TemporaryDirectory()
        let ledger = try FormatTests.goldenCopy(version: 1, in: directory)
        let records = try readAll(ledger)
        let refusal = StorageError.invalidArgument(
            "journal/00000000000000000001.seg is a format version 1 segment, which cannot hold a redacted record")
        #expect(throws: refusal) { try JournalRedaction.checkRedactable([1], ledgerAt: ledger) }
        #expect(throws: refusal) { try JournalRedaction.apply([request(records[0], remaining: [])], ledgerAt: ledger) }
        #expect(try readAll(ledger) == records)
    }

    @Test("A copy carries a redacted record over with the same chain hash and reason")
    func copyCarriesRedaction() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        let (records, head) = try redactionLedger(ledger)
        try JournalRedaction.apply([request(records[2], remaining: [9])], ledgerAt: ledger)
        let copied = try LedgerDirectory.createCopy(
            at: directory.child("copy"), identity: try LedgerDirectory.identity(at: ledger), records: readAll(ledger))
        #expect(copied == head)
        #expect(try readAll(directory.child("copy"))[2].redaction?.reason == "erased on request")
    }

    /// The calls of a redaction that change files: a crash is simulated just before each one.
    static let steps: [FaultInjectingFileSystem.Operation] = [
        .write, .synchronize, .synchronizeData, .rename, .remove, .synchronizeDirectory,
    ]

    @Test(
        "A crash at every write, sync, rename and removal of a redaction leaves each record old or redacted, never a broken chain",
        arguments: steps)
    func crashAtEveryStep(step: FaultInjectingFileSystem.Operation) throws {
        let seed = testSeed("redaction crash before \(step)")
        let directory = TemporaryDirectory()
        let template = directory.child("template")
        let (records, head) = try redactionLedger(template)
        try SnapshotStore(paths: LedgerPaths(root: template), identity: try LedgerDirectory.identity(at: template))
            .write(sequence: 5, hash: head.hash, state: Array("state".utf8))
        let requests = [request(records[1], remaining: [7, 7]), request(records[4], remaining: [8])]
        let counter = FaultInjectingFileSystem()
        try copyLedger(template, to: directory.child("count"))
        try JournalRedaction.apply(requests, ledgerAt: directory.child("count"), fileSystem: counter)
        let calls = counter.callCount(step)
        #expect(step == .synchronizeData || calls > 0, "a redaction makes no \(step) call")
        for index in 0..<calls {
            for mode in [FaultInjectingFileSystem.CrashMode.loseAllUnsynced, .keepRandomPrefix] {
                let ledger = directory.child("l-\(index)-\(mode)")
                try copyLedger(template, to: ledger)
                let faults = FaultInjectingFileSystem()
                faults.inject(.init(step, skip: index, effect: .fail(errno: EIO)))
                _ = try? JournalRedaction.apply(requests, ledgerAt: ledger, fileSystem: faults)
                let kept = faults.simulateCrash(seed: seed &+ UInt64(index), mode: mode)
                try checkOldOrRedacted(ledger, records, head, requests, "\(step) \(index) \(mode): \(kept)")
            }
        }
    }

    /// The journal verifies to `head`, every record is the original or its requested redaction,
    /// and a redaction run again finishes the job.
    private func checkOldOrRedacted(
        _ ledger: String, _ records: [JournalRecord], _ head: HeadDigest, _ requests: [RedactionRequest],
        _ context: String
    ) throws {
        #expect(try JournalReader(at: ledger).verify(against: head).head == head, "\(context)")
        let after = try readAll(ledger)
        let redacted = Dictionary(uniqueKeysWithValues: requests.map { ($0.sequence, $0.remaining) })
        for (old, new) in zip(records, after) {
            #expect(new.hash == old.hash, "\(context)")
            if new.redaction == nil {
                #expect(new.payload == old.payload, "record \(old.sequence), \(context)")
            } else {
                #expect(new.payload == redacted[old.sequence], "record \(old.sequence), \(context)")
            }
        }
        let remaining = requests.filter { request in after[Int(request.sequence) - 1].redaction == nil }
        try JournalRedaction.apply(remaining, ledgerAt: ledger)
        #expect(try readAll(ledger).allSatisfy { $0.redaction != nil || redacted[$0.sequence] == nil }, "\(context)")
        #expect(try SnapshotStore.sequencesIn(ledger).isEmpty, "\(context)")
    }
}

extension SnapshotStore {
    /// The snapshot files of a ledger, for the tests.
    static func sequencesIn(_ ledger: String) throws -> [UInt64] {
        try SnapshotStore(paths: LedgerPaths(root: ledger), identity: LedgerDirectory.identity(at: ledger)).sequences()
    }
}

/// Whether `needle` occurs in `haystack`.
private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    find(needle, in: haystack, from: 0) != nil
}

/// Where `needle` first occurs in `haystack` at or after `start`.
private func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
    return (start...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
}
