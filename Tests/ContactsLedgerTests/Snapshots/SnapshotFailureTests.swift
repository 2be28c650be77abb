import Foundation
import LedgerStorage
import LedgerStorageTesting
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A snapshot or `HEAD` that cannot be written (a full disk, a failing device) is a cache or a
/// floor that stays where it was: it never fails a save, a close or a recovery, and never leaves
/// a part-written file behind (decisions 0018 and 0019).
@Suite("Snapshots and HEAD on a failing disk")
struct SnapshotFailureTests {
    /// The effects a failing write can have: refused outright, or torn after 30 bytes (less than any
    /// file it is aimed at).
    static let failures: [FaultInjectingFileSystem.Effect] = [.fail(errno: ENOSPC), .tearWrite(keepBytes: 30)]

    /// The names of the temporary files left in a ledger's directory and `snapshots/`.
    private func temporaryFiles(_ ledger: String) -> [String] {
        [ledger, ledger + "/snapshots"].flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".tmp") }
        }
    }

    /// Adds `count` contacts, one save request each.
    private func addContacts(_ store: ContactStore, _ count: Int, from first: Int = 0) throws {
        for index in first..<first + count {
            var request = SaveRequest(transactionAuthor: "writer")
            request.add(makeContact(given: "Given\(index)", family: "Family"), toContainerWithIdentifier: nil)
            try store.execute(request)
        }
    }

    @Test("A snapshot write that fails leaves no temporary file and fails no save", arguments: failures)
    func failedSnapshotLeavesNothing(_ effect: FaultInjectingFileSystem.Effect) throws {
        let directory = StoreDirectory()
        let faults = FaultInjectingFileSystem()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"), fileSystem: faults)
        try addContacts(store, 5)
        faults.inject(.init(.write, pathContains: ".snap.tmp", effect: effect))
        #expect(throws: ContactStoreError.self) { try store.writeSnapshot() }
        #expect(temporaryFiles(directory.ledger).isEmpty)
        #expect(snapshotFiles(directory.ledger).isEmpty)
        try addContacts(store, 2, from: 5)
        store.close()
        let reopened = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess())
        #expect(try reopened.unifiedContacts(matching: .matchingName("Family"), keysToFetch: []).count == 7)
    }

    @Test("A HEAD that cannot be written at close leaves the older one and no temporary file", arguments: failures)
    func failedMarkerAtClose(_ effect: FaultInjectingFileSystem.Effect) throws {
        let directory = StoreDirectory()
        let faults = FaultInjectingFileSystem()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"), fileSystem: faults)
        try addContacts(store, 3)
        faults.inject(.init(.write, pathContains: "HEAD.tmp", effect: effect))
        store.close()
        #expect(temporaryFiles(directory.ledger).isEmpty)
        let marker = try HeadMarker.decode(
            Array(try Data(contentsOf: URL(fileURLWithPath: LedgerPaths(root: directory.ledger).headMarker)))
        ).get()
        #expect(marker.head.sequence == 0, "the open's marker, of the empty ledger, is left")
        // The records are durable all the same, and the next open records them.
        let reopened = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        #expect(try reopened.unifiedContacts(matching: .matchingName("Family"), keysToFetch: []).count == 3)
        reopened.close()
    }

    @Test("recover on a disk too full for a snapshot rebuilds the projections and reports it", arguments: failures)
    func recoverWithoutSnapshot(_ effect: FaultInjectingFileSystem.Effect) throws {
        let directory = StoreDirectory()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        try addContacts(store, 4)
        store.close()
        let faults = FaultInjectingFileSystem()
        faults.inject(.init(.write, pathContains: ".snap.tmp", effect: effect))
        let recovery = try LedgerAuditor.recover(ledgerAt: directory.ledger, fileSystem: faults)
        #expect(recovery.contacts == 4)
        #expect(recovery.snapshotSequence == nil)
        #expect(recovery.snapshotFailure?.contains("write") == true, "\(String(describing: recovery.snapshotFailure))")
        #expect(temporaryFiles(directory.ledger).isEmpty)
        #expect(snapshotFiles(directory.ledger).isEmpty)
    }
}

/// A crash at any step of writing a snapshot (format 8, one kept) leaves a ledger that opens to
/// the state of its journal, from the new snapshot, the old one or none.
@Suite("Snapshot writing under crashes")
struct SnapshotCrashTests {
    static let steps: [FaultInjectingFileSystem.Operation] = [
        .write, .synchronize, .synchronizeData, .rename, .remove, .synchronizeDirectory,
    ]

    /// A ledger with a snapshot at an earlier head and records after it; returns its head.
    private func template(_ ledger: String) throws -> HeadDigest {
        let store = try ContactStore(ledgerAt: ledger, client: .fullAccess("writer"))
        defer { store.close() }
        try SnapshotHistory.write(into: store, seed: 81, requests: 30)
        try store.writeSnapshot()
        try SnapshotHistory.write(into: store, seed: 82, requests: 15)
        return store.headDigest
    }

    @Test(
        "A crash at every write, sync, rename and removal of a snapshot write leaves a ledger that opens whole",
        arguments: steps)
    func crashAtEveryStep(step: FaultInjectingFileSystem.Operation) throws {
        let seed =
            ProcessInfo.processInfo.environment["LEDGER_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max)
        print("snapshot crash before \(step): seed \(seed) (set LEDGER_TEST_SEED=\(seed) to reproduce)")
        let directory = StoreDirectory()
        let original = directory.path + "/template"
        let head = try template(original)
        let expected = try fullReplay(of: original)
        let identity = try LedgerDirectory.identity(at: original)
        let counted = directory.path + "/count"
        try copyLedger(original, to: counted)
        let counter = FaultInjectingFileSystem()
        try ProjectionSnapshots.write(
            expected, paths: LedgerPaths(root: counted), identity: identity, fileSystem: counter)
        #expect(snapshotFiles(counted).count == 1, "the earlier snapshot was removed")
        let calls = counter.callCount(step)
        #expect(calls > 0 || step == .synchronizeData, "a snapshot write makes no \(step) call")
        for index in 0..<calls {
            for mode in [FaultInjectingFileSystem.CrashMode.loseAllUnsynced, .keepRandomPrefix] {
                let ledger = directory.path + "/l-\(index)-\(mode)"
                try copyLedger(original, to: ledger)
                let faults = FaultInjectingFileSystem()
                faults.inject(.init(step, skip: index, effect: .fail(errno: EIO)))
                try? ProjectionSnapshots.write(
                    expected, paths: LedgerPaths(root: ledger), identity: identity, fileSystem: faults)
                let kept = faults.simulateCrash(seed: seed &+ UInt64(index), mode: mode)
                let context = "\(step) \(index) \(mode): \(kept)"
                let reader = try ContactStore(readingLedgerAt: ledger, client: .fullAccess())
                #expect(reader.headDigest == head, "\(context)")
                expectSameState(reader.withProjection { $0 }, expected)
                reader.close()
                let writer = try ContactStore(ledgerAt: ledger, client: .fullAccess("writer"))
                #expect(writer.headDigest == head, "\(context)")
                writer.close()
            }
        }
    }
}
