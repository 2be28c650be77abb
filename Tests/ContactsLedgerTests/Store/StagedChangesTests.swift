import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The effects of queued requests stay visible to planning until the last queued change to each
/// object has been applied (Architecture.md, the commit path, step 1).
@Suite("Staged changes")
struct StagedChangesTests {
    @Test("A staged contact stays until every queued change that wrote it is released, then goes")
    func releaseCountsQueuedChanges() {
        let base = Projection(ledgerID: UUID())
        let state = Self.state("Ada", in: base)
        // Two queued requests wrote the contact.
        var first = StagedView(base: base, staged: StagedChanges())
        first.putContact("c1", state)
        let (afterFirst, firstUndo) = first.detach()
        var second = StagedView(base: base, staged: afterFirst)
        second.putContact("c1", Self.state("Grace", in: base))
        var (staged, secondUndo) = second.detach()
        staged.release(firstUndo)
        #expect(StagedView(base: base, staged: staged).contact("c1")?.values.givenName == "Grace")
        #expect(!staged.isEmpty)
        staged.release(secondUndo)
        #expect(StagedView(base: base, staged: staged).contact("c1") == nil)
        #expect(staged.isEmpty)
        // Once released, a staged deletion no longer hides the durable contact.
        var durable = base
        durable.putContact("c2", state)
        var deleting = StagedView(base: durable, staged: StagedChanges())
        deleting.putContact("c2", nil)
        var (deleted, deletion) = deleting.detach()
        #expect(StagedView(base: durable, staged: deleted).contact("c2") == nil)
        deleted.release(deletion)
        #expect(StagedView(base: durable, staged: deleted).contact("c2")?.values.givenName == "Ada")
        #expect(deleted.isEmpty)
    }

    @Test("A request written twice to one key and rolled back leaves the entry and count it found")
    func rollBackRestoresEntryAndCount() {
        let base = Projection(ledgerID: UUID())
        var queued = StagedView(base: base, staged: StagedChanges())
        queued.putContact("c1", Self.state("Ada", in: base))
        let (afterQueued, queuedUndo) = queued.detach()
        // A second request writes the same contact twice, and a new one, then is not queued.
        var failing = StagedView(base: base, staged: afterQueued)
        failing.putContact("c1", Self.state("Grace", in: base))
        failing.putContact("c1", Self.state("Hopper", in: base))
        failing.putContact("c3", Self.state("Lovelace", in: base))
        failing.putRequest(UUID(), sequence: 7)
        #expect(failing.contact("c1")?.values.givenName == "Hopper")
        var (staged, failedUndo) = failing.detach()
        failedUndo.rollBack(&staged)
        let view = StagedView(base: base, staged: staged)
        #expect(view.contact("c1")?.values.givenName == "Ada")
        #expect(view.contact("c3") == nil)
        // The first request's single count is all that remains: one release empties it.
        staged.release(queuedUndo)
        #expect(staged.isEmpty)
    }

    private static func state(_ givenName: String, in base: Projection) -> ContactState {
        var values = ContactValues()
        values.givenName = givenName
        return ContactState(
            values: values, containerIdentifier: base.defaultContainer.identifier, createdBy: "w", revision: 1)
    }
}
