import Foundation
import LedgerStorage
import Synchronization
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The whole projection as a value, revisions aside: every contact's values, container and
/// creator, and every group's name, container, members, subgroups and parents.
struct ProjectionImage: Equatable, CustomStringConvertible {
    struct ContactImage: Equatable {
        var values: ContactValues
        var container: String
        var createdBy: String
    }

    struct GroupImage: Equatable {
        var name: String
        var container: String
        var members: Set<String>
        var subgroups: Set<String>
        var parents: Set<String>
    }

    var contacts: [String: ContactImage] = [:]
    var groups: [String: GroupImage] = [:]

    init(_ store: ContactStore) {
        store.readState { projection, _ in
            for slot in projection.occupiedSlots {
                guard let owner = projection.owner(at: slot), let state = projection.contact(owner.identifier) else {
                    continue
                }
                contacts[owner.identifier] = ContactImage(
                    values: state.values, container: state.containerIdentifier, createdBy: state.createdBy)
            }
            for identifier in projection.groupIdentifiers {
                guard let group = projection.group(identifier) else { continue }
                groups[identifier] = GroupImage(
                    name: group.name, container: group.containerIdentifier, members: group.members,
                    subgroups: group.subgroups, parents: group.parents)
            }
        }
    }

    var description: String { "\(contacts.count) contacts, groups \(groups)" }
}

/// A store with the sample contacts, Ada and Grace in a group "Club", Grace and Kenji in "Team".
private func sampleStore(
    _ directory: StoreDirectory
) throws -> (
    store: ContactStore,
    sample: (ada: MutableContact, jose: MutableContact, grace: MutableContact, kenji: MutableContact), club: Group,
    team: Group
) {
    let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("tester"))
    let sample = try seedSampleContacts(store)
    let club = MutableGroup(name: "Club")
    let team = MutableGroup(name: "Team")
    var request = SaveRequest(transactionAuthor: "organizer")
    request.add(club, toContainerWithIdentifier: nil)
    request.add(team, toContainerWithIdentifier: nil)
    request.addMember(sample.ada.copy(), to: club.copy())
    request.addMember(sample.grace.copy(), to: club.copy())
    request.addMember(sample.grace.copy(), to: team.copy())
    request.addMember(sample.kenji.copy(), to: team.copy())
    try store.execute(request)
    return (store, sample, club.copy(), team.copy())
}

/// A fetched contact, ready to change.
private func fetched(_ identifier: String, _ store: ContactStore) throws -> MutableContact {
    try store.unifiedContact(withIdentifier: identifier, keysToFetch: ContactKey.allCases).mutableCopy()
}

/// Saves one request and returns its sequence.
@discardableResult
private func save(
    _ store: ContactStore, author: String = "editor", _ build: (inout SaveRequest) throws -> Void
)
    throws -> UInt64
{
    var request = SaveRequest(transactionAuthor: author)
    try build(&request)
    return try store.execute(request).sequence
}

/// Checks that an undo is refused with `code` and that nothing was written.
private func expectRefusal(
    _ code: UndoError.Code, _ store: ContactStore, _ body: () throws -> UndoOutcome,
    sourceLocation: SourceLocation = #_sourceLocation
) -> UndoError? {
    let head = store.headDigest
    do {
        _ = try body()
        Issue.record("expected a refusal (\(code)), the undo was saved", sourceLocation: sourceLocation)
        return nil
    } catch let error as UndoError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(store.headDigest == head, "the head moved on a refusal", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected an UndoError (\(code)), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite("Undo: undelete, revert and restore-contact as new requests")
struct LedgerUndoTests {
    @Test("Delete then undelete brings back the identifier, values, creator and groups exactly")
    func deleteThenUndelete() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        let before = ProjectionImage(store)
        let grace = sample.grace.identifier
        let deleted = try save(store, author: "cleaner") { $0.delete(try fetched(grace, store)) }
        #expect(ProjectionImage(store) != before)
        let outcome = try LedgerUndo(store: store).undelete(
            contactWithIdentifier: grace, options: UndoOptions(author: "restorer"))
        #expect(ProjectionImage(store) == before)
        #expect(outcome.undoes == UndoReference(kind: .undelete, sequence: deleted))
        #expect(outcome.skipped.isEmpty)
        let save = try #require(outcome.save)
        let entry = try #require(try LedgerAuditor(ledgerAt: directory.ledger).entries().last)
        #expect(entry.sequence == save.sequence)
        #expect(entry.author == "restorer")
        #expect(entry.undoes == UndoReference(kind: .undelete, sequence: deleted))
        #expect(entry.changes.first == .undo(UndoReference(kind: .undelete, sequence: deleted)))
        let revisions = try LedgerAuditor(ledgerAt: directory.ledger).revisions(ofContact: grace)
        #expect(revisions.last?.kind == .created)
        #expect(revisions.last?.undoes == UndoReference(kind: .undelete, sequence: deleted))
    }

    @Test("Undelete as of a point brings back the values and groups of that point")
    func undeleteAsOf() throws {
        let directory = StoreDirectory()
        let (store, sample, club, _) = try sampleStore(directory)
        defer { store.close() }
        let ada = sample.ada.identifier
        let point = store.headDigest.sequence
        let atPoint = ProjectionImage(store)
        try save(store) { request in
            var contact = try fetched(ada, store)
            contact.jobTitle = "Countess"
            contact.givenName = "Augusta"
            request.update(contact)
        }
        try save(store) { $0.removeMember(sample.ada.copy(), from: club) }
        let deleted = try save(store) { $0.delete(try fetched(ada, store)) }
        let outcome = try LedgerUndo(store: store).undelete(contactWithIdentifier: ada, asOf: .sequence(point))
        #expect(outcome.undoes.sequence == deleted)
        #expect(ProjectionImage(store).contacts[ada] == atPoint.contacts[ada])
        #expect(store.readState { projection, _ in projection.groups(containing: ada) } == [club.identifier])
    }

    @Test("Update then revert restores exactly the properties the update changed")
    func updateThenRevert() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        let before = ProjectionImage(store)
        let updated = try save(store) { request in
            var contact = try fetched(sample.jose.identifier, store)
            contact.familyName = "Nunez"
            contact.note = "met at the fair"
            contact.phoneNumbers = []
            request.update(contact)
        }
        let outcome = try LedgerUndo(store: store).revert(record: updated)
        #expect(ProjectionImage(store) == before)
        guard case .updateContact(_, let changes) = outcome.changes.last else {
            Issue.record("expected an update, got \(outcome.changes)")
            return
        }
        #expect(Set(changes.map(\.key)) == [.familyName, .note, .phoneNumbers])
    }

    @Test("Restore-contact then revert; a revert of a revert")
    func restoreThenRevertAndRevertOfRevert() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        let kenji = sample.kenji.identifier
        let point = store.headDigest.sequence
        let atPoint = ProjectionImage(store)
        for title in ["Clerk", "Manager"] {
            try save(store) { request in
                var contact = try fetched(kenji, store)
                contact.jobTitle = title
                contact.nickname = title.lowercased()
                request.update(contact)
            }
        }
        let beforeRestore = ProjectionImage(store)
        let undo = LedgerUndo(store: store)
        let restored = try undo.restoreContact(withIdentifier: kenji, to: .sequence(point))
        #expect(ProjectionImage(store) == atPoint)
        #expect(restored.undoes == UndoReference(kind: .restore, sequence: point))
        let restoreSequence = try #require(restored.save).sequence
        let reverted = try #require(try undo.revert(record: restoreSequence).save)
        #expect(ProjectionImage(store) == beforeRestore)
        _ = try undo.revert(record: reverted.sequence)
        #expect(ProjectionImage(store) == atPoint)
    }

    @Test("Add then revert deletes the contact; reverting that brings it back")
    func addThenRevert() throws {
        let directory = StoreDirectory()
        let (store, _, club, _) = try sampleStore(directory)
        defer { store.close() }
        let before = ProjectionImage(store)
        let added = makeContact(given: "Alan", family: "Turing")
        let sequence = try save(store) { request in
            request.add(added, toContainerWithIdentifier: nil)
            request.addMember(added.copy(), to: club)
        }
        let afterAdd = ProjectionImage(store)
        let undo = LedgerUndo(store: store)
        let reverted = try undo.revert(record: sequence)
        #expect(ProjectionImage(store) == before)
        let revertSequence = try #require(reverted.save).sequence
        _ = try undo.revert(record: revertSequence)
        #expect(ProjectionImage(store) == afterAdd)
    }

    @Test("A request that updates one contact, deletes two and adds memberships reverts exactly")
    func mergeLikeRequestReverts() throws {
        let directory = StoreDirectory()
        let (store, sample, club, team) = try sampleStore(directory)
        defer { store.close() }
        let before = ProjectionImage(store)
        let merged = try save(store, author: "merger") { request in
            var kept = try fetched(sample.ada.identifier, store)
            kept.organizationName = "Navy and Engines"
            kept.emailAddresses.append(LabeledValue(label: Label.work, value: "grace@navy.example"))
            request.update(kept)
            request.delete(try fetched(sample.grace.identifier, store))
            request.delete(try fetched(sample.kenji.identifier, store))
            request.addMember(kept.copy(), to: team)
            request.addMember(sample.jose.copy(), to: club)
        }
        let outcome = try LedgerUndo(store: store).revert(record: merged, options: UndoOptions(author: "undoer"))
        #expect(ProjectionImage(store) == before)
        #expect(outcome.skipped.isEmpty)
        let log = try LedgerAuditor(ledgerAt: directory.ledger).entries()
        #expect(log.last?.undoes == UndoReference(kind: .revert, sequence: merged))
        #expect(log.last?.author == "undoer")
    }

    @Test("A deleted group is restored with its members; a group gone since is skipped, not fatal")
    func groupsOnUndo() throws {
        let directory = StoreDirectory()
        let (store, sample, club, team) = try sampleStore(directory)
        defer { store.close() }
        let before = ProjectionImage(store)
        let groupDeleted = try save(store) { $0.delete(MutableGroup(identifier: club.identifier, name: club.name)) }
        _ = try LedgerUndo(store: store).revert(record: groupDeleted)
        #expect(ProjectionImage(store) == before)
        let kenjiDeleted = try save(store) { $0.delete(try fetched(sample.kenji.identifier, store)) }
        try save(store) { $0.delete(MutableGroup(identifier: team.identifier, name: team.name)) }
        let outcome = try LedgerUndo(store: store).undelete(contactWithIdentifier: sample.kenji.identifier)
        #expect(outcome.undoes.sequence == kenjiDeleted)
        #expect(outcome.skipped.map(\.identifier) == [team.identifier])
        #expect(ProjectionImage(store).contacts[sample.kenji.identifier] == before.contacts[sample.kenji.identifier])
    }

    @Test("Undelete of a live contact, and of an identifier that never existed, is refused")
    func undeleteRefusals() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        let undo = LedgerUndo(store: store)
        let live = expectRefusal(.contactExists, store) {
            try undo.undelete(contactWithIdentifier: sample.ada.identifier)
        }
        #expect(live?.message.contains(sample.ada.identifier) == true)
        let never = UUID().uuidString
        let missing = expectRefusal(.notDeleted, store) { try undo.undelete(contactWithIdentifier: never) }
        #expect(missing?.message.contains("never existed") == true)
        let deleted = try save(store) { $0.delete(try fetched(sample.jose.identifier, store)) }
        _ = expectRefusal(.notAtPoint, store) {
            try undo.undelete(contactWithIdentifier: sample.jose.identifier, asOf: .sequence(deleted))
        }
        _ = expectRefusal(.pointOutOfRange, store) {
            try undo.undelete(contactWithIdentifier: sample.jose.identifier, asOf: .sequence(deleted + 5))
        }
    }

    @Test("A revert of properties changed since is refused naming each conflict; --only-unchanged reverts the rest")
    func revertConflicts() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        let grace = sample.grace.identifier
        let updated = try save(store) { request in
            var contact = try fetched(grace, store)
            contact.jobTitle = "Rear Admiral"
            contact.nickname = "Amazing Grace"
            request.update(contact)
        }
        try save(store) { request in
            var contact = try fetched(grace, store)
            contact.jobTitle = "Commodore"
            request.update(contact)
        }
        let undo = LedgerUndo(store: store)
        let refused = expectRefusal(.conflict, store) { try undo.revert(record: updated) }
        #expect(
            refused?.conflicts
                == [
                    UndoConflict(
                        identifier: grace, property: "jobTitle", recorded: "Rear Admiral", current: "Commodore")
                ])
        #expect(refused?.message.contains("jobTitle") == true)
        let partial = try undo.revert(record: updated, options: UndoOptions(onlyUnchanged: true))
        let now = try fetched(grace, store)
        #expect(now.jobTitle == "Commodore")
        #expect(now.nickname == "")
        #expect(partial.skipped.map(\.identifier) == [grace])
        guard case .updateContact(_, let changes) = partial.changes.last else {
            Issue.record("expected an update, got \(partial.changes)")
            return
        }
        #expect(changes.map(\.key) == [.nickname])
    }

    @Test("A revert past the head, of a non-contact record, or of an update of a contact deleted since is refused")
    func revertRefusals() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        let undo = LedgerUndo(store: store)
        _ = expectRefusal(.pointOutOfRange, store) { try undo.revert(record: store.headDigest.sequence + 1) }
        _ = expectRefusal(.pointOutOfRange, store) { try undo.revert(record: 0) }
        let authorization = try store.commitOperations(
            [.setAuthorization(clientIdentifier: "app", status: .limited, notesEntitlement: false)], author: "admin",
            requestID: UUID()
        ).sequence
        let notContacts = expectRefusal(.notRevertible, store) { try undo.revert(record: authorization) }
        #expect(notContacts?.message.contains("authorization") == true)
        let updated = try save(store) { request in
            var contact = try fetched(sample.jose.identifier, store)
            contact.nickname = "Pepe"
            request.update(contact)
        }
        try save(store) { $0.delete(try fetched(sample.jose.identifier, store)) }
        let missing = expectRefusal(.contactMissing, store) { try undo.revert(record: updated) }
        #expect(missing?.message.contains("undelete") == true)
    }

    @Test("A limited client undoes only what it could write; a denied client nothing")
    func access() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        let updated = try save(store) { request in
            var contact = try fetched(sample.grace.identifier, store)
            contact.note = "private"
            request.update(contact)
        }
        try save(store) { $0.delete(try fetched(sample.ada.identifier, store)) }
        store.close()
        let limited = try ContactStore(
            ledgerAt: directory.ledger, client: ClientContext(identifier: "limited-app", authorization: .limited))
        defer { limited.close() }
        let own = makeContact(given: "Alan", family: "Turing")
        try save(limited) { $0.add(own, toContainerWithIdentifier: nil) }
        try save(limited) { $0.delete(own) }
        let undo = LedgerUndo(store: limited)
        let restored = try undo.undelete(contactWithIdentifier: own.identifier)
        #expect(restored.save != nil)
        let head = limited.headDigest
        // A contact the client was never granted is one that never existed (decision 0024).
        let hidden = expectRefusal(.notDeleted, limited) {
            try undo.undelete(contactWithIdentifier: sample.ada.identifier)
        }
        #expect(hidden?.message.contains("never existed") == true)
        let foreign = expectRefusal(.notRevertible, limited) { try undo.revert(record: updated) }
        #expect(foreign?.message.contains("private") == false)
        #expect(limited.headDigest == head)
        let denied = ContactStore.inMemory(client: ClientContext(identifier: "nope", authorization: .denied))
        defer { denied.close() }
        do {
            _ = try LedgerUndo(store: denied).undelete(contactWithIdentifier: own.identifier)
            Issue.record("a denied client undid something")
        } catch let error as ContactStoreError {
            #expect(error.code == .authorizationDenied)
        }
    }

    @Test("A dry run plans against the current state and writes nothing")
    func dryRunWritesNothing() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        let deleted = try save(store) { $0.delete(try fetched(sample.kenji.identifier, store)) }
        let head = store.headDigest
        let image = ProjectionImage(store)
        let undo = LedgerUndo(store: store)
        let planned = try undo.undelete(
            contactWithIdentifier: sample.kenji.identifier, options: UndoOptions(dryRun: true))
        #expect(planned.dryRun)
        #expect(planned.save == nil)
        #expect(planned.changes.count == 3)
        let reverted = try undo.revert(record: deleted, options: UndoOptions(dryRun: true))
        #expect(reverted.changes.dropFirst() == planned.changes.dropFirst())
        #expect(store.headDigest == head)
        #expect(ProjectionImage(store) == image)
    }

    @Test("Restore-contact refuses a contact that is gone, unchanged since the point, or not there at it")
    func restoreRefusals() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        let undo = LedgerUndo(store: store)
        let head = store.headDigest.sequence
        _ = expectRefusal(.nothingToUndo, store) {
            try undo.restoreContact(withIdentifier: sample.ada.identifier, to: .sequence(head))
        }
        let added = makeContact(given: "Alan", family: "Turing")
        try save(store) { $0.add(added, toContainerWithIdentifier: nil) }
        _ = expectRefusal(.notAtPoint, store) {
            try undo.restoreContact(withIdentifier: added.identifier, to: .sequence(head))
        }
        try save(store) { $0.delete(try fetched(sample.ada.identifier, store)) }
        _ = expectRefusal(.contactMissing, store) {
            try undo.restoreContact(withIdentifier: sample.ada.identifier, to: .sequence(1))
        }
        _ = expectRefusal(.pointOutOfRange, store) {
            try undo.restoreContact(withIdentifier: added.identifier, to: .sequence(head + 10))
        }
    }

    @Test("A retried undo with the same request id returns the first outcome and appends nothing")
    func retriedUndo() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        defer { store.close() }
        try save(store) { $0.delete(try fetched(sample.ada.identifier, store)) }
        let options = UndoOptions(requestIdentifier: UUID())
        let first = try LedgerUndo(store: store).undelete(
            contactWithIdentifier: sample.ada.identifier, options: options)
        let head = store.headDigest
        let again = try LedgerUndo(store: store).undelete(
            contactWithIdentifier: sample.ada.identifier, options: options)
        #expect(store.headDigest == head)
        #expect(again.save?.wasAlreadyCommitted == true)
        #expect(again.undoes == first.undoes)
        #expect(again.changes == first.changes)
    }

    @Test("A ledger with undo records verifies, and its requests re-execute to the same records")
    func undoRecordsVerifyAndReplay() throws {
        let directory = StoreDirectory()
        let (store, sample, _, _) = try sampleStore(directory)
        let deleted = try save(store) { $0.delete(try fetched(sample.grace.identifier, store)) }
        let undo = LedgerUndo(store: store)
        let undeleted = try #require(try undo.undelete(contactWithIdentifier: sample.grace.identifier).save)
        _ = try undo.revert(record: undeleted.sequence)
        _ = try undo.revert(record: deleted)
        store.close()
        let auditor = try LedgerAuditor(ledgerAt: directory.ledger)
        _ = try auditor.verify()
        let check = try auditor.replayCheck()
        #expect(check.firstDivergence == nil)
        #expect(check.recordsMatched == Int(undeleted.sequence) + 2)
    }

    @Test("The last delete and a time are found from the newest segments back")
    func searchesNewestSegmentsFirst() throws {
        let directory = StoreDirectory()
        try LedgerDirectory.create(at: directory.ledger)
        let identity = try LedgerDirectory.identity(at: directory.ledger)
        let container = identity.ledgerID.uuidString
        let target = makeContact(given: "Old", family: "Friend")
        let limits = JournalLimits(
            segmentBytesMax: 4096, recordBytesMax: 2048, groupRecordsMax: 16, groupBytesMax: 4096)
        let ticks = Clock()
        let journal = try Journal.open(
            at: directory.ledger, options: JournalOptions(limits: limits, clock: { ticks.next() }))
        var events: [LedgerEvent] = [
            LedgerEvent(operations: [
                .addContact(
                    identifier: target.identifier, containerIdentifier: container, createdBy: "t", values: target.values
                )
            ]),
            LedgerEvent(operations: [
                .deleteContact(
                    identifier: target.identifier, containerIdentifier: container, createdBy: "t", groupIdentifiers: [],
                    last: target.values)
            ]),
        ]
        for index in 0..<120 {
            let filler = makeContact(given: "Filler \(index)", family: "Person")
            events.append(
                LedgerEvent(operations: [
                    .addContact(
                        identifier: filler.identifier, containerIdentifier: container, createdBy: "t",
                        values: filler.values)
                ]))
        }
        for event in events {
            _ = try journal.appendAndWait(
                JournalEntry(
                    author: "t", schemaVersion: EventCodec.currentSchemaVersion, payload: EventCodec.encode(event)))
        }
        journal.close()
        let store = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("tester"))
        defer { store.close() }
        #expect(try store.segmentStarts().count > 3)
        let undo = LedgerUndo(store: store)
        let found = try #require(try undo.lastDelete(of: target.identifier))
        #expect(found.sequence == 2)
        #expect(found.last == target.values)
        #expect(try undo.lastDelete(of: UUID().uuidString) == nil)
        #expect(try undo.sequence(at: .time(Date(timeIntervalSince1970: 30.5))) == 30)
        #expect(try undo.sequence(at: .time(Date(timeIntervalSince1970: 0.5))) == 0)
        #expect(try undo.sequence(at: .time(Date(timeIntervalSince1970: 1_000))) == 122)
        let planned = try undo.undelete(contactWithIdentifier: target.identifier, options: UndoOptions(dryRun: true))
        #expect(planned.undoes == UndoReference(kind: .undelete, sequence: 2))
    }
}

/// A clock that gives record N the time N seconds after the epoch.
private final class Clock: Sendable {
    private let now = Mutex<Int64>(0)

    func next() -> Int64 {
        now.withLock { value in
            value += 1_000_000
            return value
        }
    }
}
