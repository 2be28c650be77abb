import Foundation
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A ledger with a known history: seeded contacts, an update, a group, a delete.
private func recordedLedger(
    _ directory: StoreDirectory
) throws -> (
    sample: (ada: MutableContact, jose: MutableContact, grace: MutableContact, kenji: MutableContact),
    beforeDeletes: UInt64
) {
    let store = try ContactStore(
        ledgerAt: directory.ledger, client: .fullAccess("tester"))
    defer { store.close() }
    let sample = try seedSampleContacts(store)
    var ada = sample.ada.copy().mutableCopy()
    ada.jobTitle = "Countess"
    ada.phoneNumbers.append(LabeledValue(label: Label.work, value: PhoneNumber(stringValue: "+44 20 0000 0000")))
    var request = SaveRequest(transactionAuthor: "editor")
    request.update(ada)
    try store.execute(request)
    let club = MutableGroup(name: "Club")
    request = SaveRequest(transactionAuthor: "editor")
    request.add(club, toContainerWithIdentifier: nil)
    request.addMember(sample.grace.copy(), to: club.copy())
    try store.execute(request)
    let beforeDeletes = store.headDigest.sequence
    request = SaveRequest(transactionAuthor: "cleaner")
    request.delete(sample.kenji)
    try store.execute(request)
    return (sample, beforeDeletes)
}

/// Appends a raw event to a ledger, with a valid frame and chain, as a buggy or hostile writer might.
private func appendRaw(_ event: LedgerEvent, to ledger: String, author: String = "forger") throws {
    let journal = try Journal.open(at: ledger)
    defer { journal.close() }
    _ = try journal.appendAndWait(
        JournalEntry(author: author, schemaVersion: EventCodec.currentSchemaVersion, payload: EventCodec.encode(event)))
}

@Suite("Ledger auditor: log, history, verify, diff, restore, replay, recover, salvage")
struct LedgerAuditorTests {
    @Test("The audit log filters by contact, author, sequence and time")
    func auditLog() throws {
        let directory = StoreDirectory()
        let (sample, _) = try recordedLedger(directory)
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        let all = try auditor.entries()
        #expect(all.map(\.sequence) == [1, 2, 3, 4])
        #expect(all.map(\.author) == ["seed", "editor", "editor", "cleaner"])
        #expect(
            try auditor.entries(matching: AuditFilter(identifier: sample.ada.identifier)).map(\.sequence) == [1, 2])
        #expect(try auditor.entries(matching: AuditFilter(author: "editor")).map(\.sequence) == [2, 3])
        #expect(try auditor.entries(matching: AuditFilter(fromSequence: 2, toSequence: 3)).map(\.sequence) == [2, 3])
        let third = all[2].commitDate
        #expect(try auditor.entries(matching: AuditFilter(since: third)).map(\.sequence).first == 3)
        #expect(try auditor.entries(matching: AuditFilter(until: all[0].commitDate)).map(\.sequence) == [1])
        guard case .updateContact(let identifier, let changes) = all[1].changes.first else {
            Issue.record("expected an update, got \(all[1].changes)")
            return
        }
        #expect(identifier == sample.ada.identifier)
        #expect(changes.map(\.key) == [.jobTitle, .phoneNumbers])
        #expect(changes[0].oldValue.jobTitle == "")
        #expect(changes[0].newValue.jobTitle == "Countess")
        guard case .deleteContact(let last) = all[3].changes.first else {
            Issue.record("expected a delete, got \(all[3].changes)")
            return
        }
        #expect(last.givenName == "Kenji")
    }

    @Test("One contact's revisions with who, when and per-property old and new values")
    func revisions() throws {
        let directory = StoreDirectory()
        let (sample, _) = try recordedLedger(directory)
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        let ada = try auditor.revisions(ofContact: sample.ada.identifier)
        #expect(ada.map(\.kind) == [.created, .updated])
        #expect(ada[0].author == "seed")
        #expect(ada[0].changes.map(\.key).contains(.givenName))
        #expect(ada[1].changes.first { $0.key == .jobTitle }?.newValue.jobTitle == "Countess")
        let kenji = try auditor.revisions(ofContact: sample.kenji.identifier)
        #expect(kenji.map(\.kind) == [.created, .deleted])
        #expect(kenji[1].changes.first { $0.key == .organizationName }?.oldValue.organizationName == "Sato Trading")
    }

    @Test("Verify checks the chain, the saved digest and that replay reproduces every recorded effect")
    func verify() throws {
        let directory = StoreDirectory()
        let (sample, _) = try recordedLedger(directory)
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        let verified = try auditor.verify()
        #expect(verified.records == 4)
        #expect(verified.contacts == 3)
        #expect(try auditor.verify(against: verified.head).head == verified.head)

        // A record whose frame and chain are fine but whose effect replay does not reproduce.
        var old = ContactValues()
        old.jobTitle = "Not what it was"
        var new = ContactValues()
        new.jobTitle = "Forged"
        try appendRaw(
            LedgerEvent(operations: [
                .updateContact(identifier: sample.ada.identifier, keys: [.jobTitle], old: old, new: new)
            ]),
            to: directory.ledger)
        let error = #expect(throws: LedgerInconsistency.self) { try LedgerAuditor(ledgerAt: directory.ledger).verify() }
        #expect(error?.sequence == 5)
        #expect(error?.reason.contains("jobTitle") == true)
    }

    @Test("Diff lists the contacts added, changed per property, and deleted between two points")
    func diff() throws {
        let directory = StoreDirectory()
        let (sample, _) = try recordedLedger(directory)
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        let forward = try auditor.diff(from: .sequence(1), to: .sequence(4))
        #expect(forward.added.isEmpty)
        #expect(forward.deleted.map(\.identifier) == [sample.kenji.identifier])
        #expect(forward.changed.map(\.identifier) == [sample.ada.identifier])
        #expect(forward.changed.first?.changes.map(\.key) == [.jobTitle, .phoneNumbers])
        let backward = try auditor.diff(from: .sequence(4), to: .sequence(1))
        #expect(backward.added.map(\.identifier) == [sample.kenji.identifier])
        #expect(backward.deleted.isEmpty)
        let fromEmpty = try auditor.diff(from: .sequence(0), to: .sequence(1))
        #expect(fromEmpty.added.count == 4)
    }

    @Test(
        "Restore: the new ledger's digest equals the source's at that sequence; the source is byte-for-byte unchanged")
    func restore() throws {
        let directory = StoreDirectory()
        let (sample, beforeDeletes) = try recordedLedger(directory)
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.ledger).sorted()
        let before = files.map { FileManager.default.contents(atPath: directory.ledger + "/" + $0) }
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        let expected = HeadDigest(
            sequence: beforeDeletes, hash: try #require(try auditor.reader.hash(at: beforeDeletes)))

        let dry = try auditor.restore(to: directory.path + "/dry", at: .sequence(beforeDeletes), dryRun: true)
        #expect(dry.dryRun)
        #expect(dry.differenceFromCurrent.added.map(\.identifier) == [sample.kenji.identifier])
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/dry"))

        let restored = try auditor.restore(to: directory.path + "/restored", at: .sequence(beforeDeletes))
        #expect(restored.digest == expected)
        #expect(try JournalReader(at: directory.path + "/restored").verify().head == expected)
        let view = try ContactStore(readingLedgerAt: directory.path + "/restored", client: .fullAccess())
        #expect(
            try view.unifiedContact(withIdentifier: sample.kenji.identifier, keysToFetch: listKeys).givenName == "Kenji"
        )
        #expect(try FileManager.default.subpathsOfDirectory(atPath: directory.ledger).sorted() == files)
        #expect(files.map { FileManager.default.contents(atPath: directory.ledger + "/" + $0) } == before)

        // By time: the last record at or before the time.
        let entries = try auditor.entries()
        let byTime = try auditor.restore(to: directory.path + "/by-time", at: .time(entries[1].commitDate))
        #expect(byTime.sequence >= 2)

        // An existing, non-empty directory is refused.
        #expect(throws: StorageError.alreadyExists(path: directory.path + "/restored")) {
            try auditor.restore(to: directory.path + "/restored", at: .sequence(1))
        }
    }

    @Test("Replay check re-executes every request against a scratch store and finds a divergence")
    func replayCheck() throws {
        let directory = StoreDirectory()
        _ = try recordedLedger(directory)
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.ledger).sorted()
        let before = files.map { FileManager.default.contents(atPath: directory.ledger + "/" + $0) }
        let clean = try LedgerAuditor(ledgerAt: directory.ledger).replayCheck()
        #expect(clean.recordsMatched == 4)
        #expect(clean.firstDivergence == nil)
        let onDisk = try LedgerAuditor(ledgerAt: directory.ledger).replayCheck(
            scratchDirectory: directory.path + "/scratch")
        #expect(onDisk.recordsMatched == 4)
        #expect(
            try ContactStore(readingLedgerAt: directory.path + "/scratch", client: .fullAccess()).headDigest.sequence
                == 4)
        #expect(files.map { FileManager.default.contents(atPath: directory.ledger + "/" + $0) } == before)

        // A recorded add whose values the store would refuse: re-execution diverges.
        var invalid = ContactValues()
        invalid.givenName = "Impossible"
        invalid.birthday = DateComponents(month: 13, day: 40)
        try appendRaw(
            LedgerEvent(operations: [
                .addContact(
                    identifier: "forged",
                    containerIdentifier: try LedgerAuditor(ledgerAt: directory.ledger).identity.ledgerID.uuidString,
                    createdBy: "x", values: invalid)
            ]), to: directory.ledger)
        let diverged = try LedgerAuditor(ledgerAt: directory.ledger).replayCheck()
        #expect(diverged.recordsMatched == 4)
        #expect(diverged.firstDivergence?.sequence == 5)
    }

    @Test("Recover truncates a torn tail and reports it; salvage copies what precedes damage")
    func recoverAndSalvage() throws {
        let directory = StoreDirectory()
        _ = try recordedLedger(directory)
        let segment = directory.ledger + "/journal/00000000000000000001.seg"
        var bytes = Array(FileManager.default.contents(atPath: segment)!)
        let clean = bytes.count
        bytes += [0x40, 0, 0, 0, 1, 2, 3]
        // Written in place, as damage would be: the segment keeps its mode (0600), which an open requires.
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
        let recovered = try LedgerAuditor.recover(ledgerAt: directory.ledger)
        #expect(recovered.storage.truncatedBytes == 7)
        #expect(recovered.contacts == 3)
        #expect(recovered.snapshotSequence == 4)
        #expect(
            FileManager.default.fileExists(
                atPath: directory.ledger + "/snapshots/" + SnapshotStore.fileName(sequence: 4)))
        #expect(FileManager.default.contents(atPath: segment)!.count == clean)

        // Damage in the middle: salvage copies the records before it.
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        let hashAt2 = try #require(try auditor.reader.hash(at: 2))
        let offsets = try auditor.entries().map { _ in 0 }
        #expect(offsets.count == 4)
        var damaged = Array(FileManager.default.contents(atPath: segment)!)
        var cursor = try auditor.reader.records(from: 3)
        let third = try #require(try cursor.next())
        damaged[Int(third.location.offset) + 20] ^= 0xFF
        try Data(damaged).write(to: URL(fileURLWithPath: segment))
        #expect(throws: StorageError.self) { try LedgerAuditor.recover(ledgerAt: directory.ledger) }
        let salvage = try LedgerAuditor.salvage(ledgerAt: directory.ledger, to: directory.path + "/salvaged")
        #expect(salvage.recordsCopied == 2)
        #expect(salvage.head == HeadDigest(sequence: 2, hash: hashAt2))
        #expect(salvage.damage?.contains("journal/00000000000000000001.seg") == true)
        #expect(FileManager.default.fileExists(atPath: salvage.reportPath))
        #expect(
            Array(FileManager.default.contents(atPath: segment)!) == damaged, "salvage never edits the damaged ledger")
    }
}
