import Foundation
import Testing

@testable import ContactsLedger

/// The effects of queued requests stay visible to planning until the last queued change to each
/// object has been applied (DESIGN.md, the commit path, step 1).
@Suite("Staged changes")
struct StagedChangesTests {
    @Test("A staged contact stays until every queued change that touched it is released, then goes")
    func releaseCountsQueuedChanges() {
        let base = Projection(ledgerID: UUID())
        var view = StagedView(base: base, staged: StagedChanges())
        var values = ContactValues()
        values.givenName = "Ada"
        let state = ContactState(
            values: values, containerIdentifier: base.defaultContainer.identifier, createdBy: "w", revision: 1)
        view.putContact("c1", state)
        let touched = view.touched
        var (staged, _) = view.detach()
        // Two queued requests touched the contact.
        staged.retain(touched)
        staged.retain(touched)
        staged.release(touched)
        #expect(StagedView(base: base, staged: staged).contact("c1")?.values.givenName == "Ada")
        #expect(!staged.isEmpty)
        staged.release(touched)
        #expect(StagedView(base: base, staged: staged).contact("c1") == nil)
        #expect(staged.isEmpty)
        // Releasing a key nothing retains drops its entry too: the durable state shows again.
        var durable = base
        durable.putContact("c2", state)
        var deleting = StagedView(base: durable, staged: StagedChanges())
        deleting.putContact("c2", nil)
        let deleted = deleting.touched
        var (unretained, _) = deleting.detach()
        #expect(StagedView(base: durable, staged: unretained).contact("c2") == nil)
        unretained.release(deleted)
        #expect(StagedView(base: durable, staged: unretained).contact("c2")?.values.givenName == "Ada")
        #expect(unretained.isEmpty)
    }
}
