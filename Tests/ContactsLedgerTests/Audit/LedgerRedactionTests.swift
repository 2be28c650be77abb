import Foundation
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The values of the contact the tests erase, each of which must leave every file of the ledger.
private let erasedValues = ["Zebulon", "Quixotic", "Zebby", "zeb@quix.example", "2025550147", "xyzzy secret"]

/// Every file under a directory, with its bytes.
private func filesBytes(_ root: String) throws -> [(String, Data)] {
    try FileManager.default.subpathsOfDirectory(atPath: root).compactMap { name in
        var isDirectory: ObjCBool = false
        let path = root + "/" + name
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return nil
        }
        return (name, try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// A ledger where Zebulon is added with Alice in one request, joins a group, is linked to Alice,
/// is updated, and Alice is updated; the store is closed. Returns the identifiers and every head
/// digest the ledger had, as a user would have written them down.
private func erasureLedger(
    _ directory: StoreDirectory
) throws -> (zeb: String, alice: String, heads: [HeadDigest]) {
    let store = try ContactStore(ledgerAt: directory.ledger, client: .owner("tester"))
    defer { store.close() }
    var zeb = makeContact(given: "Zebulon", family: "Quixotic", phones: [(Label.phoneNumberMobile, "+1 202 555 0147")])
    zeb.emailAddresses = [LabeledValue(label: Label.home, value: "zeb@quix.example")]
    zeb.note = "xyzzy secret"
    let alice = makeContact(given: "Alice", family: "Keeper", emails: [(Label.work, "alice@keep.example")])
    var heads: [HeadDigest] = []
    try add([zeb, alice], to: store)
    heads.append(store.headDigest)
    let group = MutableGroup(name: "Club")
    var request = SaveRequest()
    request.add(group, toContainerWithIdentifier: nil)
    request.addMember(zeb.copy(), to: group.copy())
    try store.execute(request)
    try store.link([zeb.identifier, alice.identifier])
    var update = try store.unifiedContact(withIdentifier: zeb.identifier, keysToFetch: ContactKey.allCases)
        .mutableCopy()
    update.nickname = "Zebby"
    request = SaveRequest()
    request.update(update)
    try store.execute(request)
    heads.append(store.headDigest)
    var other = try store.unifiedContact(withIdentifier: alice.identifier, keysToFetch: ContactKey.allCases)
        .mutableCopy()
    other.jobTitle = "Keeper of keys"
    request = SaveRequest()
    request.update(other)
    try store.execute(request)
    try store.writeSnapshot()
    heads.append(store.headDigest)
    return (zeb.identifier, alice.identifier, heads)
}

@Suite("Redaction and erasure through the library")
struct LedgerRedactionTests {
    @Test("Erase leaves none of the contact's values in any file, and every saved digest still verifies")
    func eraseLeavesNothing() throws {
        let directory = StoreDirectory()
        let (zeb, alice, heads) = try erasureLedger(directory)
        #expect(try filesBytes(directory.ledger).contains { $0.1.range(of: Data("Zebulon".utf8)) != nil })
        let outcome = try LedgerRedaction.erase(
            ledgerAt: directory.ledger, contactIdentifier: zeb, reason: "erasure request 7", client: .owner("tester"))
        #expect(outcome.deletedAt == heads[2].sequence + 1)
        // Record 2 (the group and its member) and 3 (the link) hold identifiers only.
        #expect(outcome.redactedSequences == [1, 4, outcome.deletedAt!])
        #expect(outcome.recordedAt == outcome.deletedAt! + 1)
        for (name, bytes) in try filesBytes(directory.ledger) {
            for value in erasedValues {
                #expect(bytes.range(of: Data(value.utf8)) == nil, "\(name) still holds \(value)")
            }
        }
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        for head in heads { #expect(try auditor.verify(against: head).head == outcome.head) }
        let verified = try auditor.verify()
        #expect(
            verified.redacted == [
                1: "erasure request 7", 4: "erasure request 7", outcome.deletedAt!: "erasure request 7",
            ])
        #expect(verified.contacts == 1)

        // Alice, whose add shared a record with Zebulon's, is whole; Zebulon is gone and unlinked.
        let store = try ContactStore(ledgerAt: directory.ledger, client: .owner("tester"))
        defer { store.close() }
        let kept = try store.unifiedContact(withIdentifier: alice, keysToFetch: ContactKey.allCases)
        #expect(kept.givenName == "Alice" && kept.jobTitle == "Keeper of keys")
        #expect(kept.emailAddresses.map(\.value) == ["alice@keep.example"])
        #expect(throws: ContactStoreError.self) { try store.unifiedContact(withIdentifier: zeb, keysToFetch: []) }
        #expect(try store.linkedContactIdentifiers(of: alice).isEmpty)
        let replay = try auditor.replayCheck()
        #expect(replay.firstDivergence == nil, "\(String(describing: replay.firstDivergence))")
    }

    @Test("The log, revisions and the recorded erasure show [redacted] with the reason and no values")
    func historyShowsRedaction() throws {
        let directory = StoreDirectory()
        let (zeb, _, _) = try erasureLedger(directory)
        let outcome = try LedgerRedaction.erase(
            ledgerAt: directory.ledger, contactIdentifier: zeb, reason: "asked to be forgotten", client: .owner("o"))
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        let revisions = try auditor.revisions(ofContact: zeb)
        #expect(revisions.map(\.kind) == [.created, .updated, .deleted])
        #expect(revisions.allSatisfy { $0.changes.isEmpty && $0.redactionReason == "asked to be forgotten" })
        let entries = try auditor.entries()
        #expect(entries[0].redactionReason == "asked to be forgotten")
        #expect(entries[0].changes.contains(.redacted(contactIdentifier: zeb, kind: .created)))
        let recorded = try #require(entries.last)
        #expect(recorded.sequence == outcome.recordedAt)
        #expect(
            recorded.changes.first
                == .redaction(
                    RedactionReference(
                        sequence: 1, contactIdentifier: zeb, reason: "asked to be forgotten", erased: true)))
        #expect(try auditor.redactedContacts(through: 1) == [zeb: "asked to be forgotten"])
        // Restore to a point before the erasure was recorded carries the redaction over.
        let restored = try auditor.restore(to: directory.path + "/restored", at: .sequence(2))
        let copy = try LedgerAuditor(ledgerAt: directory.path + "/restored").verify(against: restored.digest)
        #expect(copy.redacted[1]?.hasPrefix("asked to be forgotten") == true)
    }

    @Test("A redacted record rewritten afterwards to hold other bytes fails verify, though its chain holds")
    func remainingPayloadIsVouched() throws {
        let directory = StoreDirectory()
        let (zeb, _, _) = try erasureLedger(directory)
        _ = try LedgerRedaction.erase(
            ledgerAt: directory.ledger, contactIdentifier: zeb, reason: "r", client: .owner("o"))
        var cursor = try JournalReader(at: directory.ledger).records()
        let first = try #require(try cursor.next())
        // Someone with the files drops Alice's add from what the redaction left: a valid event.
        try JournalRedaction.apply(
            [
                RedactionRequest(
                    sequence: 1, expectedPayloadDigest: SHA256.hash(first.payload), remaining: [],
                    payloadSchemaVersion: 2, reason: "r")
            ], ledgerAt: directory.ledger)
        #expect(throws: LedgerInconsistency.self) { try LedgerAuditor(ledgerAt: directory.ledger).verify() }
    }

    @Test("A live contact's current revision is refused; once updated, its superseded revisions can be redacted")
    func supersededOnly() throws {
        let directory = StoreDirectory()
        let (_, alice, _) = try erasureLedger(directory)
        #expect(throws: RedactionError.self) {
            try LedgerRedaction.redact(
                ledgerAt: directory.ledger, sequence: 1, contactIdentifier: alice, reason: "r", client: .owner("o"))
        }
        let store = try ContactStore(ledgerAt: directory.ledger, client: .owner("o"))
        var update = try store.unifiedContact(withIdentifier: alice, keysToFetch: ContactKey.allCases).mutableCopy()
        update.givenName = "Alicia"
        update.familyName = "Warden"
        update.emailAddresses = [LabeledValue(label: Label.work, value: "alicia@keep.example")]
        var request = SaveRequest()
        request.update(update)
        try store.execute(request)
        let before = ProjectionImage(store)
        store.close()
        let outcome = try LedgerRedaction.redact(
            ledgerAt: directory.ledger, sequence: 1, contactIdentifier: alice, reason: "old address",
            client: .owner("o"))
        #expect(outcome.redactedSequences == [1])
        let reopened = try ContactStore(ledgerAt: directory.ledger, client: .owner("o"))
        defer { reopened.close() }
        #expect(ProjectionImage(reopened).contacts[alice] == before.contacts[alice])
        // The record holds no value of hers; the update that superseded it still holds the old ones.
        var cursor = try JournalReader(at: directory.ledger).records()
        let redacted = try #require(try cursor.next())
        #expect(redacted.redaction?.reason == "old address")
        #expect(!PayloadSearch.mentions(redacted.payload, [Array("alice@keep.example".utf8), Array("Keeper".utf8)]))
        #expect(try LedgerAuditor(ledgerAt: directory.ledger).verify().redacted[1] == "old address")
    }

    @Test("Refused with nothing written: a client that is not the owner, no reason, no such record or contact")
    func refusals() throws {
        let directory = StoreDirectory()
        let (zeb, _, heads) = try erasureLedger(directory)
        let files = try filesBytes(directory.ledger).map(\.1)
        #expect(throws: ContactStoreError.self) {
            try LedgerRedaction.erase(
                ledgerAt: directory.ledger, contactIdentifier: zeb, reason: "r", client: .fullAccess("app"))
        }
        #expect(throws: RedactionError(.invalidReason, "a redaction needs a reason (--reason TEXT)")) {
            try LedgerRedaction.erase(
                ledgerAt: directory.ledger, contactIdentifier: zeb, reason: " ", client: .owner("o"))
        }
        #expect(throws: RedactionError.self) {
            try LedgerRedaction.redact(
                ledgerAt: directory.ledger, sequence: 99, contactIdentifier: nil, reason: "r", client: .owner("o"))
        }
        #expect(throws: RedactionError.self) {
            try LedgerRedaction.erase(
                ledgerAt: directory.ledger, contactIdentifier: UUID().uuidString, reason: "r", client: .owner("o"))
        }
        #expect(try filesBytes(directory.ledger).map(\.1) == files)
        #expect(try JournalReader(at: directory.ledger).head() == heads.last)
    }

    @Test("The redaction operation and its stand-ins encode and decode to themselves")
    func codecRoundTrip() throws {
        let event = LedgerEvent(operations: [
            .redaction(
                RedactionNote(
                    sequence: 7, contactIdentifier: "C", reason: "why", erased: true,
                    remainingDigest: SHA256.hash([1, 2]))),
            .redacted(
                RedactedOperation(kind: .addContact, contactIdentifier: "C", containerIdentifier: "K", createdBy: "me")),
            .redacted(RedactedOperation(kind: .deleteContact, contactIdentifier: "C")),
        ])
        let bytes = EventCodec.encode(event)
        #expect(try EventCodec.decode(bytes, schemaVersion: EventCodec.currentSchemaVersion) == event)
        #expect(!RecordRedaction.isRedactedForm(bytes))
    }
}
