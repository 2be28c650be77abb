import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Collects the notifications a store posts.
final class NotificationLog: @unchecked Sendable {
    // Thread-safety: guarded by `lock`.
    private let lock = NSLock()
    private var changes: [[String]] = []
    private var token: NSObjectProtocol?

    init(_ store: ContactStore) {
        token = NotificationCenter.default.addObserver(forName: .contactStoreDidChange, object: store, queue: nil) {
            [self] note in
            let affected = note.userInfo?[ContactStoreChangeKey.affectedIdentifiers] as? [String] ?? []
            lock.lock()
            changes.append(affected)
            lock.unlock()
        }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return changes.count
    }

    deinit { if let token { NotificationCenter.default.removeObserver(token) } }
}

@Suite("Contact store: save rules")
struct SaveRuleTests {
    @Test("A failed save changes nothing and posts nothing")
    func failedSaveChangesNothing() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let log = NotificationLog(store)
        let head = store.headDigest
        var bad = makeContact(given: "Valid", family: "Person")
        bad.birthday = DateComponents(month: 2, day: 30)
        var request = SaveRequest()
        request.add(makeContact(given: "Would", family: "Be"), toContainerWithIdentifier: nil)
        request.add(bad, toContainerWithIdentifier: nil)
        var ada = sample.ada.copy().mutableCopy()
        ada.givenName = "Changed"
        request.update(ada)
        let error = #expect(throws: ContactStoreError.self) { try store.execute(request) }
        #expect(error?.code == .validationConfigurationError)
        #expect(error?.keyPaths == ["birthday"])
        #expect(error?.affectedIdentifiers == [bad.identifier])
        #expect(store.headDigest == head)
        #expect(try store.unifiedContacts(matching: .matchingName("would"), keysToFetch: listKeys).isEmpty)
        #expect(
            try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: listKeys).givenName == "Ada")
        #expect(log.count == 0)
    }

    @Test("A retried request id applies once and returns the original outcome")
    func retriedRequestAppliesOnce() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        var request = SaveRequest(transactionAuthor: "sync")
        request.delete(sample.grace.copy().mutableCopy())
        let first = try store.execute(request)
        let head = store.headDigest
        let second = try store.execute(request)
        #expect(second.sequence == first.sequence)
        #expect(second.affectedIdentifiers == first.affectedIdentifiers)
        #expect(second.wasAlreadyCommitted)
        #expect(!first.wasAlreadyCommitted)
        #expect(store.headDigest == head, "a retry appends nothing")
    }

    @Test("An update from a stale copy merges untouched properties and refuses a changed one")
    func staleWrites() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let keys: [any KeyDescriptor] = [ContactKey.givenName, ContactKey.jobTitle, ContactKey.departmentName]
        var first = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: keys).mutableCopy()
        var second = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: keys).mutableCopy()
        var third = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: keys).mutableCopy()
        first.jobTitle = "Countess"
        var request = SaveRequest()
        request.update(first)
        try store.execute(request)

        // A different property: merges.
        second.departmentName = "Mathematics"
        request = SaveRequest()
        request.update(second)
        try store.execute(request)
        let merged = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: keys)
        #expect(merged.jobTitle == "Countess")
        #expect(merged.departmentName == "Mathematics")

        // The same property: refused, naming it.
        third.jobTitle = "Programmer"
        request = SaveRequest()
        request.update(third)
        let error = #expect(throws: ContactStoreError.self) { try store.execute(request) }
        #expect(error?.code == .recordChangedSinceFetch)
        #expect(error?.keyPaths == ["jobTitle"])
        #expect(
            try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: keys).jobTitle == "Countess")

        // Last writer wins only when asked for.
        request.conflictPolicy = .lastWriterWins
        try store.execute(request)
        #expect(
            try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: keys).jobTitle == "Programmer")
    }

    @Test("refuseIfChanged refuses an update or delete after any change, even to other properties")
    func strictRevision() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let keys: [any KeyDescriptor] = [ContactKey.givenName, ContactKey.jobTitle, ContactKey.departmentName]
        let stale = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: keys).mutableCopy()
        var other = stale
        other.departmentName = "Mathematics"
        var request = SaveRequest()
        request.update(other)
        try store.execute(request)
        var mine = stale
        mine.jobTitle = "Countess"
        for build in [{ (request: inout SaveRequest) in request.update(mine) }, { $0.delete(stale) }] {
            request = SaveRequest()
            request.conflictPolicy = .refuseIfChanged
            build(&request)
            let error = #expect(throws: ContactStoreError.self) { try store.execute(request) }
            #expect(error?.code == .recordChangedSinceFetch)
        }
        let now = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: keys)
        #expect(now.jobTitle != "Countess")
        var fresh = now.mutableCopy()
        fresh.jobTitle = "Countess"
        request = SaveRequest()
        request.conflictPolicy = .refuseIfChanged
        request.update(fresh)
        try store.execute(request)
    }

    @Test("A delete from a stale copy is refused")
    func staleDelete() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let stale = try store.unifiedContact(withIdentifier: sample.jose.identifier, keysToFetch: listKeys)
            .mutableCopy()
        var rename = stale
        rename.givenName = "Pepe"
        var request = SaveRequest()
        request.update(rename)
        try store.execute(request)
        request = SaveRequest()
        request.delete(stale)
        #expect { try store.execute(request) } throws: { ($0 as? ContactStoreError)?.code == .recordChangedSinceFetch }
    }

    @Test("A partial contact saves only the keys it holds and never clobbers the others")
    func partialContacts() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        var partial = try store.unifiedContact(
            withIdentifier: sample.grace.identifier, keysToFetch: [ContactKey.givenName]
        ).mutableCopy()
        #expect(!partial.isKeyAvailable(.phoneNumbers))
        partial.givenName = "Amazing Grace"
        var request = SaveRequest()
        request.update(partial)
        try store.execute(request)
        let full = try store.unifiedContact(withIdentifier: sample.grace.identifier, keysToFetch: detailKeys)
        #expect(full.givenName == "Amazing Grace")
        #expect(full.phoneNumbers.map(\.value.stringValue) == ["+1 415 555 0199"])
        #expect(full.emailAddresses.map(\.value) == ["grace@navy.example"])
        #expect(full.birthday == DateComponents(year: 1906, month: 12, day: 9))
    }

    @Test("Reading a key that was not fetched stops the program, naming the key")
    func unfetchedKeyTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = ContactStore.inMemory()
            let contact = makeContact(given: "A", family: "B")
            _ = try? add([contact], to: store)
            let fetched = try? store.unifiedContact(
                withIdentifier: contact.identifier, keysToFetch: [ContactKey.givenName])
            _ = fetched?.familyName
        }
    }

    @Test("In-request rules: delete cancels an add, add overrides a delete, last membership call wins")
    func inRequestRules() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let temporary = makeContact(given: "Temporary", family: "Person")
        let group = MutableGroup(name: "Team")
        var request = SaveRequest()
        request.add(temporary, toContainerWithIdentifier: nil)
        request.delete(temporary)
        request.add(group, toContainerWithIdentifier: nil)
        request.addMember(sample.ada.copy(), to: group.copy())
        request.removeMember(sample.ada.copy(), from: group.copy())
        request.addMember(sample.jose.copy(), to: group.copy())
        var renamedBeforeAdd = group
        renamedBeforeAdd.name = "Team A"
        request.update(renamedBeforeAdd)
        let result = try store.execute(request)
        #expect(!result.affectedIdentifiers.contains(temporary.identifier))
        #expect(try store.unifiedContacts(matching: .matchingName("temporary"), keysToFetch: listKeys).isEmpty)
        #expect(try store.groups().map(\.name) == ["Team A"])
        #expect(
            identifiers(
                try store.unifiedContacts(matching: .inGroup(withIdentifier: group.identifier), keysToFetch: listKeys))
                == [sample.jose.identifier])

        // Deleting an existing contact and adding it back in the same request: the add wins and
        // finds the contact already there.
        var again = SaveRequest()
        again.delete(sample.kenji)
        again.add(sample.kenji, toContainerWithIdentifier: nil)
        #expect { try store.execute(again) } throws: {
            ($0 as? ContactStoreError)?.code == .insertedRecordAlreadyExists
        }

        // Updating or deleting what does not exist names it.
        var missing = SaveRequest()
        missing.update(makeContact(given: "Nobody", family: "Here"))
        #expect { try store.execute(missing) } throws: {
            guard let error = $0 as? ContactStoreError else { return false }
            return error.code == .recordDoesNotExist && error.affectedIdentifiers.count == 1
        }
    }

    @Test("Subgroups: a cycle is refused")
    func subgroupCycle() throws {
        let store = ContactStore.inMemory()
        let outer = MutableGroup(name: "Outer")
        let inner = MutableGroup(name: "Inner")
        var request = SaveRequest()
        request.add(outer, toContainerWithIdentifier: nil)
        request.add(inner, toContainerWithIdentifier: nil)
        request.addSubgroup(inner.copy(), to: outer.copy())
        try store.execute(request)
        #expect(try store.groups(matching: .subgroupsOfGroup(outer.identifier)).map(\.name) == ["Inner"])
        var cycle = SaveRequest()
        cycle.addSubgroup(outer.copy(), to: inner.copy())
        #expect { try store.execute(cycle) } throws: { ($0 as? ContactStoreError)?.code == .containmentCycle }
    }
}

@Suite("Contact store: access")
struct AccessTests {
    @Test(
        "Denied and restricted clients get authorization errors",
        arguments: [AuthorizationStatus.denied, .restricted, .notDetermined])
    func refused(status: AuthorizationStatus) throws {
        let store = ContactStore.inMemory(client: ClientContext(identifier: "app", authorization: status))
        #expect { try store.unifiedContacts(matching: .matchingName("a"), keysToFetch: listKeys) } throws: {
            ($0 as? ContactStoreError)?.code == .authorizationDenied
        }
        var request = SaveRequest()
        request.add(makeContact(given: "A", family: "B"), toContainerWithIdentifier: nil)
        #expect { try store.execute(request) } throws: { ($0 as? ContactStoreError)?.code == .authorizationDenied }
        #expect(throws: ContactStoreError.self) { try store.groups() }
    }

    @Test("A full-access client sees and changes everything")
    func full() throws {
        let store = ContactStore.inMemory(client: ClientContext(identifier: "app", authorization: .authorized))
        _ = try seedSampleContacts(store)
        #expect(
            try store.unifiedContacts(
                matching: .inContainer(withIdentifier: store.defaultContainerIdentifier()), keysToFetch: listKeys
            ).count == 4)
    }

    @Test("A limited client sees and changes only its granted contacts and those it created; grants are owner events")
    func limited() async throws {
        let directory = StoreDirectory()
        var owner = try ContactStore(ledgerAt: directory.ledger, client: .owner("admin"))
        let sample = try seedSampleContacts(owner)
        owner.close()

        let limitedClient = ClientContext(identifier: "limited-app", authorization: .limited)
        var store = try ContactStore(ledgerAt: directory.ledger, client: limitedClient)
        #expect(try store.unifiedContacts(matching: .matchingName("a"), keysToFetch: listKeys).isEmpty)
        // The client cannot widen its own access.
        await #expect {
            try await store.grantAccess(toContactsWithIdentifiers: [sample.ada.identifier], toClient: "limited-app")
        } throws: {
            ($0 as? ContactStoreError)?.code == .authorizationDenied
        }
        store.close()
        owner = try ContactStore(ledgerAt: directory.ledger, client: .owner("admin"))
        try await owner.grantAccess(toContactsWithIdentifiers: [sample.ada.identifier], toClient: "limited-app")
        owner.close()

        store = try ContactStore(ledgerAt: directory.ledger, client: limitedClient)
        let own = makeContact(given: "Own", family: "Contact")
        try add([own], to: store)
        var visible: [String] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: listKeys)) { contact, _ in
            visible.append(contact.identifier)
        }
        #expect(Set(visible) == [sample.ada.identifier, own.identifier])
        #expect { try store.unifiedContact(withIdentifier: sample.grace.identifier, keysToFetch: listKeys) } throws: {
            ($0 as? ContactStoreError)?.code == .recordDoesNotExist
        }
        var request = SaveRequest()
        request.delete(sample.grace)
        #expect { try store.execute(request) } throws: { ($0 as? ContactStoreError)?.code == .recordDoesNotExist }
        var ada = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: listKeys).mutableCopy()
        ada.givenName = "Augusta Ada"
        request = SaveRequest()
        request.update(ada)
        try await store.execute(request)
        store.close()
        owner = try ContactStore(ledgerAt: directory.ledger, client: .owner("admin"))
        try await owner.revokeAccess(toContactsWithIdentifiers: [sample.ada.identifier], fromClient: "limited-app")
        owner.close()
        store = try ContactStore(ledgerAt: directory.ledger, client: limitedClient)
        #expect(throws: ContactStoreError.self) {
            try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: listKeys)
        }
        store.close()

        // The audit trail shows the grant and the revocation, each by the owner.
        var grants: [(String, LedgerOperation)] = []
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess())
        try reader.forEachCommittedEvent(after: 0, through: reader.headDigest.sequence) { record, event in
            grants += event.operations.filter {
                if case .grantAccess = $0 { return true }
                if case .revokeAccess = $0 { return true }
                return false
            }.map { (record.author, $0) }
        }
        #expect(grants.map(\.0) == ["admin", "admin"])
        #expect(
            grants.map(\.1) == [
                .grantAccess(clientIdentifier: "limited-app", contactIdentifiers: [sample.ada.identifier]),
                .revokeAccess(clientIdentifier: "limited-app", contactIdentifiers: [sample.ada.identifier]),
            ])
    }

    @Test("An access decision is recorded and remembered when the ledger is reopened")
    func decisionRemembered() async throws {
        let directory = StoreDirectory()
        let context = ClientContext(identifier: "app", authorization: .notDetermined, accessDecision: { .authorized })
        let first = try ContactStore(ledgerAt: directory.ledger, client: context)
        #expect(try await first.requestAccess(for: .contacts))
        first.close()
        let second = try ContactStore(
            ledgerAt: directory.ledger, client: ClientContext(identifier: "app", authorization: .notDetermined))
        #expect(second.authorizationStatus() == .authorized)
        second.close()
        let denied = ContactStore.inMemory(client: ClientContext(identifier: "x", authorization: .notDetermined))
        await #expect(throws: ContactStoreError.self) { try await denied.requestAccess(for: .contacts) }
        #expect(denied.authorizationStatus() == .denied)
    }

    @Test("The note needs the notes entitlement, for reading and for writing")
    func notesEntitlement() throws {
        let directory = StoreDirectory()
        let entitled = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("entitled"))
        var contact = makeContact(given: "Note", family: "Holder")
        contact.note = "private"
        try add([contact], to: entitled)
        #expect(
            try entitled.unifiedContact(withIdentifier: contact.identifier, keysToFetch: [ContactKey.note]).note
                == "private")
        entitled.close()

        let plain = try ContactStore(
            ledgerAt: directory.ledger, client: ClientContext(identifier: "plain", authorization: .authorized))
        let read = #expect(throws: ContactStoreError.self) {
            try plain.unifiedContact(withIdentifier: contact.identifier, keysToFetch: [ContactKey.note])
        }
        #expect(read?.code == .unauthorizedKeys)
        #expect(read?.keyPaths == ["note"])
        var other = makeContact(given: "Another", family: "One")
        other.note = "hello"
        var request = SaveRequest()
        request.add(other, toContainerWithIdentifier: nil)
        #expect { try plain.execute(request) } throws: { ($0 as? ContactStoreError)?.code == .unauthorizedKeys }
        // Without the note key, everything else works, and the note is never clobbered.
        var fetched = try plain.unifiedContact(withIdentifier: contact.identifier, keysToFetch: detailKeys)
            .mutableCopy()
        fetched.jobTitle = "Keeper"
        request = SaveRequest()
        request.update(fetched)
        try plain.execute(request)
        plain.close()
        let check = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess())
        #expect(
            try check.unifiedContact(
                withIdentifier: contact.identifier, keysToFetch: [ContactKey.note, ContactKey.jobTitle]
            ).note == "private")
    }
}
