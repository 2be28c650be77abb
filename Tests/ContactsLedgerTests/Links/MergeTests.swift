import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Calls `body`, which must throw a store error with `code`, and returns the error.
@discardableResult
func expectStoreError(
    _ code: ContactStoreError.Code, mentioning text: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> ContactStoreError? {
    do {
        try body()
        Issue.record("expected a \(code) error, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as ContactStoreError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let text { #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation) }
        return error
    } catch {
        Issue.record("expected a store error, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Every value of a contact, read back from a store.
func allValues(_ identifier: String, in store: ContactStore) throws -> ContactValues {
    try store.unifiedContact(withIdentifier: identifier, keysToFetch: [ContactKeySet.all]).values
}

@Suite("Merging contacts")
struct MergeTests {
    /// Two records of one person and a group for each, in a store whose region is gb.
    struct Sample {
        let store = ContactStore.inMemory(client: .fullAccess("test", region: "gb"))
        let first: MutableContact
        let second: MutableContact
        let firstGroup = MutableGroup(name: "Analysts")
        let secondGroup = MutableGroup(name: "Nobility")

        init() throws {
            var first = makeContact(
                given: "Ada", family: "Lovelace", phones: [(Label.phoneNumberMobile, "+44 20 7946 0958")],
                emails: [(Label.home, "ada@example.com")])
            first.jobTitle = "Countess"
            first.note = "Met at the exhibition."
            var second = makeContact(
                given: "Adá", family: "LOVELACE", phones: [(Label.home, "020 7946 0958")],
                emails: [(Label.work, "ADA@Example.com"), (Label.work, "ada@analytical.org")],
                birthday: DateComponents(year: 1815, month: 12, day: 10))
            second.jobTitle = "Mathematician"
            second.note = "Wrote the first program."
            self.first = first
            self.second = second
            var request = SaveRequest()
            request.add(first, toContainerWithIdentifier: nil)
            request.add(second, toContainerWithIdentifier: nil)
            request.add(firstGroup, toContainerWithIdentifier: nil)
            request.add(secondGroup, toContainerWithIdentifier: nil)
            request.addMember(first.copy(), to: Group(identifier: firstGroup.identifier, name: firstGroup.name))
            request.addMember(second.copy(), to: Group(identifier: secondGroup.identifier, name: secondGroup.name))
            try store.execute(request)
        }
    }

    @Test("A merge unions labeled values, keeps the kept contact's single values and notes the others'")
    func mergedValues() throws {
        let sample = try Sample()
        let (plan, _) = try sample.store.merge([sample.first.identifier, sample.second.identifier])
        #expect(plan.keptIdentifier == sample.second.identifier, "the contact with more values is kept")
        let kept = try sample.store.unifiedContact(
            withIdentifier: sample.second.identifier, keysToFetch: [ContactKeySet.all])
        #expect(kept.phoneNumbers.map(\.value.stringValue) == ["020 7946 0958"])
        #expect(kept.emailAddresses.map(\.value) == ["ADA@Example.com", "ada@analytical.org"])
        #expect(kept.jobTitle == "Mathematician")
        #expect(kept.givenName == "Adá")
        #expect(
            kept.note == """
                Wrote the first program.

                Merged from Ada Lovelace (\(sample.first.identifier)):
                Job title: Countess
                Note: Met at the exhibition.
                """)
        let groups = try sample.store.groups().filter { group in
            try sample.store.unifiedContacts(matching: .inGroup(withIdentifier: group.identifier), keysToFetch: [])
                .contains { $0.identifier == sample.second.identifier }
        }
        #expect(Set(groups.map(\.name)) == ["Analysts", "Nobility"])
        expectStoreError(.recordDoesNotExist) { _ = try allValues(sample.first.identifier, in: sample.store) }
    }

    @Test("The merge record holds the kept contact's old values and each deleted contact's last values and groups")
    func recordHoldsEverything() throws {
        let sample = try Sample()
        let keptBefore = try allValues(sample.first.identifier, in: sample.store)
        let deletedBefore = try allValues(sample.second.identifier, in: sample.store)
        let (plan, result) = try sample.store.merge(
            [sample.first.identifier, sample.second.identifier], keeping: sample.first.identifier,
            transactionAuthor: "merger")
        var event: LedgerEvent?
        try sample.store.forEachRecord(from: result.sequence) { record in
            event = try EventCodec.decode(record.payload, schemaVersion: record.schemaVersion)
            #expect(record.author == "merger")
            return false
        }
        let operations = try #require(event).operations
        #expect(operations.count == 3, "one update, one membership, one delete: \(operations)")
        guard case .updateContact(let identifier, let keys, let old, let new) = operations[0] else {
            Issue.record("the first operation is \(operations[0])")
            return
        }
        #expect(identifier == sample.first.identifier)
        #expect(keys == ContactKeySet([.note, .birthday, .emailAddresses]))
        for key in keys.keys {
            #expect(old.hasSameValue(as: keptBefore, for: key), "old \(key)")
            #expect(new.hasSameValue(as: plan.merged.values, for: key), "new \(key)")
        }
        #expect(
            operations[1]
                == .addMember(
                    contactIdentifier: sample.first.identifier, groupIdentifier: sample.secondGroup.identifier))
        guard case .deleteContact(let deleted, _, _, let groups, let last) = operations[2] else {
            Issue.record("the last operation is \(operations[2])")
            return
        }
        #expect(deleted == sample.second.identifier)
        #expect(groups == [sample.secondGroup.identifier])
        #expect(last == deletedBefore)
    }

    @Test("Reverting a merge restores every contact exactly, values, identifiers and groups")
    func mergeThenRevert() throws {
        let sample = try Sample()
        let third = makeContact(
            given: "Augusta Ada", family: "King", phones: [(Label.work, "+44 20 7946 0999")],
            emails: [(Label.home, "ada@example.com")])
        try add([third], to: sample.store)
        let before = ProjectionImage(sample.store)
        let (plan, result) = try sample.store.merge(
            [sample.first.identifier, sample.second.identifier, third.identifier], transactionAuthor: "merger")
        #expect(plan.deletedIdentifiers.count == 2)
        #expect(ProjectionImage(sample.store) != before)
        let outcome = try LedgerUndo(store: sample.store).revert(
            record: result.sequence, options: UndoOptions(author: "undoer"))
        #expect(outcome.skipped.isEmpty)
        #expect(ProjectionImage(sample.store) == before)
    }

    @Test("Merges of a contact with itself, of a missing contact and of fewer than two are refused, writing nothing")
    func refusals() throws {
        let sample = try Sample()
        let head = sample.store.headDigest
        let (first, second) = (sample.first.identifier, sample.second.identifier)
        expectStoreError(.recordIdentifierInvalid, mentioning: "cannot be merged with itself") {
            try sample.store.merge([first, first])
        }
        expectStoreError(.recordDoesNotExist, mentioning: "contact NOPE does not exist") {
            try sample.store.merge([first, "NOPE"])
        }
        expectStoreError(.recordIdentifierInvalid, mentioning: "at least two contacts, got 1") {
            try sample.store.merge([first])
        }
        expectStoreError(.recordIdentifierInvalid, mentioning: "at least two contacts, got 0") {
            try sample.store.merge([])
        }
        expectStoreError(.recordIdentifierInvalid, mentioning: "is not one of the contacts merged") {
            try sample.store.merge([first, second], keeping: "OTHER")
        }
        #expect(sample.store.headDigest == head)
        #expect(try allValues(first, in: sample.store).givenName == "Ada")
    }

    @Test("A client without the notes entitlement cannot merge")
    func notesEntitlement() throws {
        let store = ContactStore.inMemory(client: ClientContext(identifier: "app", authorization: .authorized))
        let contacts = try add(
            [makeContact(given: "A", family: "B"), makeContact(given: "A", family: "B")], to: store)
        let head = store.headDigest
        expectStoreError(.unauthorizedKeys, mentioning: "notes entitlement") {
            try store.merge(contacts.map(\.identifier))
        }
        #expect(store.headDigest == head)
    }

    @Test("Without --keep the contact with the most values is kept, the first of equals")
    func defaultKept() throws {
        let store = ContactStore.inMemory()
        let contacts = try add(
            [
                makeContact(given: "A", family: "B"), makeContact(given: "A", family: "B", organization: "C"),
                makeContact(given: "A", family: "B", organization: "D"),
            ], to: store)
        let plan = try store.planMerge(contacts.map(\.identifier))
        #expect(plan.keptIdentifier == contacts[1].identifier)
        #expect(plan.deletedIdentifiers == [contacts[0].identifier, contacts[2].identifier])
        #expect(plan.merged.note == "Merged from A B (\(contacts[2].identifier)):\nCompany: D")
    }
}
