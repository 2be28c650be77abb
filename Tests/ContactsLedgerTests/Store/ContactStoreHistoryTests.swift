import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Contact store: change history, notifications, reopening")
struct ContactStoreHistoryTests {
    @Test("Change history with tokens, coalescing and author exclusion")
    func changeHistory() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)

        // Without a token: drop everything, then every contact.
        let initial = try store.changeHistory(ChangeHistoryFetchRequest())
        #expect(initial.events.first == .dropEverything)
        #expect(initial.events.count == 5)

        let token = store.currentHistoryToken
        #expect(initial.currentHistoryToken == token)
        var rename = sample.ada.copy().mutableCopy()
        rename.givenName = "Augusta"
        var request = SaveRequest(transactionAuthor: "editor")
        request.update(rename)
        try store.execute(request)
        let added = makeContact(given: "New", family: "Comer")
        try add([added], to: store, author: "importer")
        var again = try store.unifiedContact(withIdentifier: added.identifier, keysToFetch: listKeys).mutableCopy()
        again.familyName = "Comer-Later"
        request = SaveRequest(transactionAuthor: "editor")
        request.update(again)
        try store.execute(request)
        request = SaveRequest(transactionAuthor: "cleaner")
        request.delete(sample.kenji)
        try store.execute(request)
        let shortLived = makeContact(given: "Short", family: "Lived")
        try add([shortLived], to: store, author: "importer")
        request = SaveRequest(transactionAuthor: "importer")
        request.delete(shortLived)
        try store.execute(request)

        let history = try store.changeHistory(
            ChangeHistoryFetchRequest(
                startingToken: token, additionalContactKeyDescriptors: [ContactKey.givenName, ContactKey.familyName]))
        #expect(history.events.count == 3)
        guard case .updateContact(let updated) = history.events[0] else {
            Issue.record("expected an update first, got \(history.events)")
            return
        }
        #expect(updated.identifier == sample.ada.identifier)
        #expect(updated.givenName == "Augusta")
        guard case .addContact(let new, _) = history.events[1] else {
            Issue.record("expected an add, got \(history.events)")
            return
        }
        #expect(new.familyName == "Comer-Later", "an add and a later update coalesce into one add of the current state")
        #expect(history.events[2] == .deleteContact(identifier: sample.kenji.identifier))

        let withoutEditor = try store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: token, excludedTransactionAuthors: ["editor", "cleaner"]))
        #expect(withoutEditor.events.count == 1)
        if case .addContact(let contact, _) = withoutEditor.events.first {
            #expect(contact.identifier == added.identifier)
        } else {
            Issue.record("expected only the importer's add, got \(withoutEditor.events)")
        }

        let nothing = try store.changeHistory(ChangeHistoryFetchRequest(startingToken: history.currentHistoryToken))
        #expect(nothing.events.isEmpty)
    }

    @Test("Group changes are returned only when asked for")
    func groupHistory() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let token = store.currentHistoryToken
        let group = MutableGroup(name: "Club")
        var request = SaveRequest()
        request.add(group, toContainerWithIdentifier: nil)
        request.addMember(sample.grace.copy(), to: group.copy())
        try store.execute(request)
        #expect(try store.changeHistory(ChangeHistoryFetchRequest(startingToken: token)).events.isEmpty)
        let events = try store.changeHistory(ChangeHistoryFetchRequest(startingToken: token, includeGroupChanges: true))
            .events
        #expect(
            events == [
                .addGroup(group.copy(), containerIdentifier: store.defaultContainerIdentifier()),
                .addMember(contactIdentifier: sample.grace.identifier, groupIdentifier: group.identifier),
            ])
    }

    @Test("A token from another ledger, or a malformed one, is refused")
    func foreignToken() throws {
        let first = ContactStore.inMemory()
        let second = ContactStore.inMemory()
        #expect {
            try second.changeHistory(ChangeHistoryFetchRequest(startingToken: first.currentHistoryToken))
        } throws: {
            ($0 as? ContactStoreError)?.code == .changeHistoryInvalidAnchor
        }
        #expect { try second.changeHistory(ChangeHistoryFetchRequest(startingToken: Data([1, 2, 3]))) } throws: {
            ($0 as? ContactStoreError)?.code == .changeHistoryInvalidAnchor
        }
    }

    @Test("Each commit posts contactStoreDidChange and yields on the change stream")
    func notifications() async throws {
        let store = ContactStore.inMemory()
        let log = NotificationLog(store)
        let stream = store.changes()
        let contact = makeContact(given: "Notified", family: "Person")
        var request = SaveRequest(transactionAuthor: "tester")
        request.add(contact, toContainerWithIdentifier: nil)
        let result = try await store.execute(request)
        var iterator = stream.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change.sequences == result.sequence...result.sequence)
        #expect(change.authors == ["tester"])
        #expect(change.affectedIdentifiers == [contact.identifier])
        #expect(change.origin == .thisStore)
        #expect(log.count == 1)
    }

    @Test("A read-only store sees another writer's appends when it refreshes, marked as external")
    func refreshSeesOtherWriter() async throws {
        let directory = StoreDirectory()
        let writer = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        let stream = reader.changes()
        let contact = makeContact(given: "Fresh", family: "Entry")
        try add([contact], to: writer, author: "writer")
        #expect(try reader.unifiedContacts(matching: .matchingName("fresh"), keysToFetch: listKeys).isEmpty)
        #expect(try reader.refresh() == 1)
        #expect(
            identifiers(try reader.unifiedContacts(matching: .matchingName("fresh"), keysToFetch: listKeys)) == [
                contact.identifier
            ])
        var iterator = stream.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change.origin == .otherProcess)
        #expect(change.affectedIdentifiers == [contact.identifier])
        writer.close()
        reader.close()
    }

    @Test("Closing and reopening yields the same contacts, indexes and history")
    func reopen() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess())
        let sample = try seedSampleContacts(store)
        let token = store.currentHistoryToken
        var update = sample.jose.copy().mutableCopy()
        update.jobTitle = "Chef"
        var request = SaveRequest(transactionAuthor: "editor")
        request.update(update)
        try store.execute(request)
        request = SaveRequest()
        request.delete(sample.kenji)
        try store.execute(request)
        let queries: [ContactPredicate] = [
            .matchingName("gr ho"), .matchingEmailAddress("JOSE@example.com"),
            .matching(PhoneNumber(stringValue: "0044 20 7946 0958")),
        ]
        let before = try queries.map { identifiers(try store.unifiedContacts(matching: $0, keysToFetch: listKeys)) }
        let contactsBefore = try store.unifiedContacts(
            matching: .inContainer(withIdentifier: store.defaultContainerIdentifier()), keysToFetch: detailKeys)
        let historyBefore = try store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: token, additionalContactKeyDescriptors: detailKeys))
        let head = store.headDigest
        store.close()

        let reopened = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess())
        defer { reopened.close() }
        #expect(reopened.headDigest == head)
        #expect(
            try queries.map { identifiers(try reopened.unifiedContacts(matching: $0, keysToFetch: listKeys)) } == before
        )
        let contactsAfter = try reopened.unifiedContacts(
            matching: .inContainer(withIdentifier: reopened.defaultContainerIdentifier()), keysToFetch: detailKeys)
        #expect(Set(contactsAfter) == Set(contactsBefore))
        let historyAfter = try reopened.changeHistory(
            ChangeHistoryFetchRequest(startingToken: token, additionalContactKeyDescriptors: detailKeys))
        #expect(historyAfter.events == historyBefore.events)
        #expect(before[0] == [sample.grace.identifier])
        #expect(before[2] == [sample.ada.identifier], "the 00-prefixed form finds the +-prefixed number")
    }

    @Test("An in-memory store can start from a recorded ledger and never touches the recording")
    func inMemoryFromRecording() throws {
        let directory = StoreDirectory()
        let recorder = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess())
        let sample = try seedSampleContacts(recorder)
        let afterSeed = recorder.headDigest.sequence
        var request = SaveRequest()
        request.delete(sample.ada)
        try recorder.execute(request)
        recorder.close()
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.ledger).sorted()
        let bytesBefore = files.map { FileManager.default.contents(atPath: directory.ledger + "/" + $0) }

        let scratch = try ContactStore.inMemory(copyingLedgerAt: directory.ledger, through: .sequence(afterSeed))
        #expect(
            identifiers(try scratch.unifiedContacts(matching: .matchingName("ada"), keysToFetch: listKeys)) == [
                sample.ada.identifier
            ])
        request = SaveRequest()
        request.delete(sample.grace)
        try scratch.execute(request)
        let full = try ContactStore.inMemory(copyingLedgerAt: directory.ledger)
        #expect(try full.unifiedContacts(matching: .matchingName("ada"), keysToFetch: listKeys).isEmpty)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: directory.ledger).sorted() == files)
        #expect(files.map { FileManager.default.contents(atPath: directory.ledger + "/" + $0) } == bytesBefore)
    }

    @Test("A point-in-time view shows the ledger as it was")
    func pointInTime() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess())
        let sample = try seedSampleContacts(store)
        let before = store.headDigest.sequence
        var request = SaveRequest()
        request.delete(sample.ada)
        try store.execute(request)
        store.close()
        let past = try ContactStore(readingLedgerAt: directory.ledger, asOf: .sequence(before), client: .fullAccess())
        #expect(
            try past.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: listKeys).givenName == "Ada")
        #expect(past.headDigest.sequence == before)
        var write = SaveRequest()
        write.add(makeContact(given: "X", family: "Y"), toContainerWithIdentifier: nil)
        #expect { try past.execute(write) } throws: { ($0 as? ContactStoreError)?.code == .storeNotWritable }
    }
}
