import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A ledger a hostile limited client is let loose on: a granted contact, an ungranted one, an
/// ungranted one deleted, a granted one deleted, the client's own contact, groups holding both
/// kinds, and owner changes after the client's history token.
struct AdversaryLedger {
    static let client = "adversary-app"
    static let limited = ClientContext(identifier: client, authorization: .limited)

    let directory = StoreDirectory()
    let granted: MutableContact
    let hidden: MutableContact
    let deletedHidden: MutableContact
    let deletedGranted: MutableContact
    let own: MutableContact
    let team: MutableGroup
    let otherTeam: MutableGroup
    /// The client's change-history token before the owner's later changes.
    let token: Data
    /// The sequence the token stands for.
    let tokenSequence: UInt64
    /// The owner's later request that touched only the hidden contact.
    let hiddenUpdateRequest: UUID

    /// What must never reach the client: the ungranted contacts' identifiers and values, and
    /// every note (the client lacks the notes entitlement).
    var secrets: [String] {
        [
            hidden.identifier, deletedHidden.identifier, "Hiddenperson", "Secretson", "SecretCorp",
            "hidden.secret@example.com", "415 555 0142", "Vanished", "Secretname", "vanished.secret@example.com",
            "Secret Agent", "private note", "changed note",
        ]
    }

    init() async throws {
        var granted = makeContact(
            given: "Grace", family: "Granted", emails: [(Label.work, "grace@granted.example")])
        granted.note = "granted private note"
        var hidden = makeContact(
            given: "Hiddenperson", family: "Secretson", organization: "SecretCorp",
            phones: [(Label.phoneNumberMobile, "+1 415 555 0142")], emails: [(Label.home, "hidden.secret@example.com")])
        hidden.note = "hidden private note"
        let deletedHidden = makeContact(
            given: "Vanished", family: "Secretname", emails: [(Label.home, "vanished.secret@example.com")])
        let deletedGranted = makeContact(given: "Gone", family: "Granted")
        let team = MutableGroup(name: "Team")
        let otherTeam = MutableGroup(name: "Other team")
        self.granted = granted
        self.hidden = hidden
        self.deletedHidden = deletedHidden
        self.deletedGranted = deletedGranted
        self.team = team
        self.otherTeam = otherTeam

        var owner = try ContactStore(ledgerAt: directory.ledger, client: .owner())
        var request = SaveRequest(transactionAuthor: "owner")
        for contact in [granted, hidden, deletedHidden, deletedGranted] {
            request.add(contact, toContainerWithIdentifier: nil)
        }
        request.add(team, toContainerWithIdentifier: nil)
        request.add(otherTeam, toContainerWithIdentifier: nil)
        request.addMember(granted.copy(), to: team.copy())
        request.addMember(hidden.copy(), to: team.copy())
        try await owner.execute(request)
        try await owner.setAuthorization(.limited, forClient: Self.client)
        try await owner.grantAccess(
            toContactsWithIdentifiers: [granted.identifier, deletedGranted.identifier], toClient: Self.client)
        owner.close()

        let client = try ContactStore(ledgerAt: directory.ledger, client: Self.limited)
        own = makeContact(given: "Own", family: "Creation")
        try add([own], to: client, author: "app")
        token = client.currentHistoryToken
        tokenSequence = client.headDigest.sequence
        client.close()

        owner = try ContactStore(ledgerAt: directory.ledger, client: .owner())
        let every = ContactKey.allCases as [any KeyDescriptor]
        var changed = try owner.unifiedContact(withIdentifier: hidden.identifier, keysToFetch: every).mutableCopy()
        changed.jobTitle = "Secret Agent"
        request = SaveRequest(transactionAuthor: "owner")
        request.update(changed)
        hiddenUpdateRequest = request.requestIdentifier
        try await owner.execute(request)
        var renoted = try owner.unifiedContact(withIdentifier: granted.identifier, keysToFetch: every).mutableCopy()
        renoted.note = "granted changed note"
        request = SaveRequest(transactionAuthor: "owner")
        request.update(renoted)
        request.addMember(hidden.copy(), to: otherTeam.copy())
        request.delete(
            try owner.unifiedContact(withIdentifier: deletedHidden.identifier, keysToFetch: every).mutableCopy())
        try await owner.execute(request)
        request = SaveRequest(transactionAuthor: "owner")
        request.delete(
            try owner.unifiedContact(withIdentifier: deletedGranted.identifier, keysToFetch: every).mutableCopy())
        try await owner.execute(request)
        owner.close()
    }

    /// An output as text with every value it holds written out: contacts, audit entries,
    /// revisions, differences and history events through their JSON forms.
    static func rendered(_ output: Any) -> String {
        switch output {
        case let entries as [AuditEntry]: return entries.map { AuditJSON.value(for: $0).description }.joined()
        case let revisions as [ContactRevision]: return revisions.map { AuditJSON.value(for: $0).description }.joined()
        case let diff as LedgerDiff: return AuditJSON.value(for: diff).description
        case let events as [ChangeHistoryEvent]:
            return events.map { event in
                switch event {
                case .addContact(let contact, _), .updateContact(let contact):
                    return "\(event) " + ContactJSON.value(for: contact).description
                default: return "\(event)"
                }
            }.joined(separator: "\n")
        default: return String(describing: output)
        }
    }

    /// Fails the test if `output` shows anything of the secrets.
    func expectNothingLeaks(_ output: Any, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = Self.rendered(output)
        for secret in secrets {
            #expect(!text.contains(secret), "\(what) shows \(secret)", sourceLocation: sourceLocation)
        }
    }

    /// Fails the test unless `output` shows the secrets: the owner's control, which shows that the
    /// outputs checked would carry them.
    func expectSecretsShown(_ output: Any, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = Self.rendered(output)
        #expect(text.contains(hidden.identifier), sourceLocation: sourceLocation)
        #expect(text.contains("Secretson"), sourceLocation: sourceLocation)
    }
}

@Suite("A limited client cannot see around its access")
struct AccessAdversaryTests {
    /// Every fetch the store offers, with the identifiers it returned.
    static func everyFetch(_ store: ContactStore, _ ledger: AdversaryLedger) throws -> [String: [String]] {
        let keys = ContactKey.allCases.filter { $0 != .note } as [any KeyDescriptor]
        let container = store.defaultContainerIdentifier()
        let predicates: [String: ContactPredicate] = [
            "name": .matchingName("Secretson"), "name prefix": .matchingName("hidden"),
            "email": .matchingEmailAddress("hidden.secret@example.com"),
            "phone": .matching(PhoneNumber(stringValue: "+1 415 555 0142")),
            "identifiers": .withIdentifiers([
                ledger.hidden.identifier, ledger.deletedHidden.identifier, ledger.granted.identifier,
            ]),
            "group": .inGroup(withIdentifier: ledger.team.identifier),
            "other group": .inGroup(withIdentifier: ledger.otherTeam.identifier),
            "container": .inContainer(withIdentifier: container),
        ]
        var results: [String: [String]] = [:]
        for (name, predicate) in predicates {
            let found = try store.unifiedContacts(matching: predicate, keysToFetch: keys)
            results[name] = found.map { "\($0.identifier) \($0.givenName) \($0.familyName) \($0.jobTitle)" }.sorted()
        }
        let everyone = #Predicate<Contact> { _ in true }
        results["custom"] = try store.unifiedContacts(matching: .custom(everyone), keysToFetch: keys).map(\.identifier)
            .sorted()
        let secretFamily = #Predicate<Contact> { $0.familyName == "Secretson" || $0.familyName == "Secretname" }
        results["custom by family name"] = try store.unifiedContacts(matching: .custom(secretFamily), keysToFetch: keys)
            .map(\.identifier)
        var enumerated: [String] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: keys)) { contact, _ in
            enumerated.append(contact.identifier)
        }
        results["enumerate"] = enumerated.sorted()
        results["containers of hidden"] = try store.containers(matching: .ofContact(ledger.hidden.identifier))
            .map(\.identifier)
        return results
    }

    @Test("Every fetch, predicate and enumeration returns only granted and own contacts, and nothing of the rest")
    func fetches() async throws {
        let ledger = try await AdversaryLedger()
        let store = try ContactStore(ledgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        defer { store.close() }
        let results = try Self.everyFetch(store, ledger)
        ledger.expectNothingLeaks(results, "fetches")
        #expect(Set(results["enumerate"]!) == [ledger.granted.identifier, ledger.own.identifier])
        #expect(Set(results["custom"]!) == [ledger.granted.identifier, ledger.own.identifier])
        #expect(results["custom by family name"]!.isEmpty)
        #expect(results["group"]!.map { String($0.prefix(36)) } == [ledger.granted.identifier])
        #expect(results["identifiers"]!.map { String($0.prefix(36)) } == [ledger.granted.identifier])
        #expect(results["other group"]!.isEmpty && results["name"]!.isEmpty && results["phone"]!.isEmpty)
        #expect(results["containers of hidden"]!.isEmpty)

        let owner = try ContactStore(readingLedgerAt: ledger.directory.ledger, client: .owner())
        ledger.expectSecretsShown(try Self.everyFetch(owner, ledger))
    }

    /// An error's code and text with the identifier it names replaced, so that the errors for two
    /// identifiers compare.
    static func shape(_ body: () throws -> Void, naming identifier: String) -> String {
        do {
            try body()
            return "no error"
        } catch let error as ContactStoreError {
            let text = "\(error.code) \(error.description) \(error.affectedIdentifiers)"
            return text.replacingOccurrences(of: identifier, with: "ID")
        } catch {
            return "\(error)".replacingOccurrences(of: identifier, with: "ID")
        }
    }

    @Test("An ungranted contact fails every read and write exactly as a missing one does")
    func errorsMatchMissing() async throws {
        let ledger = try await AdversaryLedger()
        let store = try ContactStore(ledgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        defer { store.close() }
        let missing = UUID().uuidString
        let attempts: [(String, (String) throws -> Void)] = [
            ("fetch", { _ = try store.unifiedContact(withIdentifier: $0, keysToFetch: listKeys) }),
            (
                "update",
                { identifier in
                    var contact = MutableContact(
                        identifier: identifier, values: ContactValues(), availableKeys: ContactKeySet(.givenName),
                        base: ContactValues())
                    contact.givenName = "Probe"
                    var request = SaveRequest()
                    request.update(contact)
                    try store.execute(request)
                }
            ),
            (
                "delete",
                { identifier in
                    var request = SaveRequest()
                    request.delete(
                        MutableContact(identifier: identifier, values: ContactValues(), availableKeys: [], base: nil))
                    try store.execute(request)
                }
            ),
            (
                "add member",
                { identifier in
                    var request = SaveRequest()
                    request.addMember(
                        Contact(identifier: identifier, values: ContactValues(), availableKeys: []),
                        to: ledger.team.copy())
                    try store.execute(request)
                }
            ),
        ]
        let head = store.headDigest
        for (name, attempt) in attempts {
            for identifier in [ledger.hidden.identifier, ledger.deletedHidden.identifier] {
                let hiddenShape = Self.shape({ try attempt(identifier) }, naming: identifier)
                let missingShape = Self.shape({ try attempt(missing) }, naming: missing)
                #expect(hiddenShape == missingShape, "\(name)")
                #expect(hiddenShape.contains("recordDoesNotExist"), "\(name): \(hiddenShape)")
            }
        }
        #expect(store.headDigest == head)
    }

    @Test("Change history from the start and from a token shows only what the client sees, deletes included")
    func changeHistory() async throws {
        let ledger = try await AdversaryLedger()
        let store = try ContactStore(readingLedgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        let keys = [ContactKey.givenName, ContactKey.familyName, ContactKey.jobTitle] as [any KeyDescriptor]
        let whole = try store.changeHistory(
            ChangeHistoryFetchRequest(additionalContactKeyDescriptors: keys, includeGroupChanges: true))
        ledger.expectNothingLeaks(whole.events, "history from nothing")
        let added = whole.events.compactMap { event -> String? in
            if case .addContact(let contact, _) = event { return contact.identifier }
            return nil
        }
        #expect(Set(added) == [ledger.granted.identifier, ledger.own.identifier])

        let since = try store.changeHistory(
            ChangeHistoryFetchRequest(
                startingToken: ledger.token, additionalContactKeyDescriptors: keys, includeGroupChanges: true))
        ledger.expectNothingLeaks(since.events, "history from a token")
        // The granted contact's only change was its note, which this client may not see; the
        // granted contact deleted since is reported; the hidden ones are not.
        #expect(since.events == [.deleteContact(identifier: ledger.deletedGranted.identifier)])

        let owner = try ContactStore(readingLedgerAt: ledger.directory.ledger, client: .owner())
        let control = try owner.changeHistory(
            ChangeHistoryFetchRequest(
                startingToken: ledger.token, additionalContactKeyDescriptors: keys, includeGroupChanges: true))
        ledger.expectSecretsShown(control.events)
    }

    @Test("Notifications of other processes' commits name only what the client sees, and count nothing else")
    func notifications() async throws {
        let ledger = try await AdversaryLedger()
        let store = try ContactStore(
            readingLedgerAt: ledger.directory.ledger, asOf: nil, client: AdversaryLedger.limited)
        let owner = try ContactStore(ledgerAt: ledger.directory.ledger, client: .owner())
        var request = SaveRequest(transactionAuthor: "secret-author")
        var hidden = try owner.unifiedContact(withIdentifier: ledger.hidden.identifier, keysToFetch: listKeys)
            .mutableCopy()
        hidden.givenName = "Hiddenperson Renamed"
        request.update(hidden)
        try await owner.execute(request)
        var granted = try owner.unifiedContact(withIdentifier: ledger.granted.identifier, keysToFetch: listKeys)
            .mutableCopy()
        granted.familyName = "Granted-Changed"
        request = SaveRequest(transactionAuthor: "owner")
        request.update(granted)
        try await owner.execute(request)
        owner.close()

        let received = Locked<[[AnyHashable: Any]]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: .contactStoreDidChange, object: store, queue: nil
        ) { note in received.withLock { $0.append(note.userInfo ?? [:]) } }
        defer { NotificationCenter.default.removeObserver(observer) }
        let count = try store.refresh()
        #expect(count == 1)
        let infos = received.withLock { $0 }
        #expect(infos.count == 1)
        let info = try #require(infos.first)
        #expect(info[ContactStoreChangeKey.affectedIdentifiers] as? [String] == [ledger.granted.identifier])
        #expect(info[ContactStoreChangeKey.authors] as? [String] == ["owner"])
        ledger.expectNothingLeaks(infos.map { $0.description }, "notifications")

        // A change that touches nothing the client sees is not posted at all.
        let again = try ContactStore(ledgerAt: ledger.directory.ledger, client: .owner())
        var renamed = try again.unifiedContact(withIdentifier: ledger.hidden.identifier, keysToFetch: listKeys)
            .mutableCopy()
        renamed.givenName = "Hiddenperson Again"
        request = SaveRequest(transactionAuthor: "secret-author")
        request.update(renamed)
        try await again.execute(request)
        again.close()
        #expect(try store.refresh() == 0)
        #expect(received.withLock { $0.count } == 1)
    }

    @Test("The result of another client's request names nothing the client does not see")
    func requestResults() async throws {
        let ledger = try await AdversaryLedger()
        let store = try ContactStore(readingLedgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        let result = try #require(try store.result(ofRequest: ledger.hiddenUpdateRequest))
        #expect(result.affectedIdentifiers.isEmpty)
        let owner = try ContactStore(readingLedgerAt: ledger.directory.ledger, client: .owner())
        #expect(
            try owner.result(ofRequest: ledger.hiddenUpdateRequest)?.affectedIdentifiers == [ledger.hidden.identifier])
    }

    @Test("Export, point-in-time views and in-memory copies hold only what the client sees, without notes")
    func exportsAndViews() async throws {
        let ledger = try await AdversaryLedger()
        let store = try ContactStore(readingLedgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        let vCards = String(decoding: try store.exportVCards(), as: UTF8.self)
        ledger.expectNothingLeaks(vCards, "vCard export")
        #expect(vCards.contains("Grace"))
        #expect(throws: ContactStoreError.self) { try store.exportVCards(identifiers: [ledger.hidden.identifier]) }

        let past = try ContactStore(
            readingLedgerAt: ledger.directory.ledger, asOf: .sequence(ledger.tokenSequence),
            client: AdversaryLedger.limited)
        let pastResults = try Self.everyFetch(past, ledger)
        ledger.expectNothingLeaks(pastResults, "a point-in-time view")
        #expect(
            Set(pastResults["enumerate"]!) == [
                ledger.granted.identifier, ledger.deletedGranted.identifier, ledger.own.identifier,
            ])

        let copy = try ContactStore.inMemory(copyingLedgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        let copyResults = try Self.everyFetch(copy, ledger)
        ledger.expectNothingLeaks(copyResults, "an in-memory copy")
        #expect(Set(copyResults["enumerate"]!) == [ledger.granted.identifier, ledger.own.identifier])
    }

    @Test("The audit library given the client shows only its contacts, without notes, and refuses whole reads")
    func audit() async throws {
        let ledger = try await AdversaryLedger()
        let auditor = try LedgerAuditor(ledgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        let entries = try auditor.entries()
        ledger.expectNothingLeaks(entries, "the audit log")
        #expect(entries.contains { $0.affectedIdentifiers.contains(ledger.granted.identifier) })
        #expect(try auditor.entries(matching: AuditFilter(identifier: ledger.hidden.identifier)).isEmpty)
        #expect(try auditor.revisions(ofContact: ledger.hidden.identifier).isEmpty)
        let grantedRevisions = try auditor.revisions(ofContact: ledger.granted.identifier)
        ledger.expectNothingLeaks(grantedRevisions, "revisions")
        #expect(grantedRevisions.count == 1)
        let diff = try auditor.diff(from: .sequence(0), to: .sequence(try auditor.reader.head().sequence))
        ledger.expectNothingLeaks(diff, "a difference")
        #expect(Set(diff.added.map(\.identifier)) == [ledger.granted.identifier, ledger.own.identifier])
        for refused in [
            { _ = try auditor.verify() }, { _ = try auditor.replayCheck() },
            { _ = try auditor.restore(to: ledger.directory.path + "/restored", at: .sequence(1)) },
        ] as [() throws -> Void] {
            #expect { try refused() } throws: { ($0 as? ContactStoreError)?.code == .authorizationDenied }
        }

        let owner = try LedgerAuditor(ledgerAt: ledger.directory.ledger, client: .owner())
        ledger.expectSecretsShown(try owner.entries())
        #expect(throws: ContactStoreError.self) {
            try LedgerAuditor(
                ledgerAt: ledger.directory.ledger,
                client: ClientContext(identifier: "denied-app", authorization: .denied))
        }
    }

    @Test("A limited client cannot grant, decide, rename or delete groups, or write the note; nothing is written")
    func writesRefused() async throws {
        let ledger = try await AdversaryLedger()
        let store = try ContactStore(ledgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        defer { store.close() }
        let head = store.headDigest
        let code = { (error: any Error) in (error as? ContactStoreError)?.code }
        await #expect {
            try await store.grantAccess(
                toContactsWithIdentifiers: [ledger.hidden.identifier], toClient: AdversaryLedger.client)
        } throws: { code($0) == .authorizationDenied }
        await #expect {
            try await store.revokeAccess(toContactsWithIdentifiers: [ledger.granted.identifier], fromClient: "other")
        } throws: { code($0) == .authorizationDenied }
        await #expect {
            try await store.setAuthorization(.authorized, forClient: AdversaryLedger.client)
        } throws: { code($0) == .authorizationDenied }
        #expect { try store.clientAccessRecords() } throws: { code($0) == .authorizationDenied }
        var renamed = ledger.team
        renamed.name = "Renamed"
        var request = SaveRequest()
        request.update(renamed)
        #expect { try store.execute(request) } throws: { code($0) == .authorizationDenied }
        request = SaveRequest()
        request.delete(ledger.team)
        #expect { try store.execute(request) } throws: { code($0) == .authorizationDenied }
        var noted = try store.unifiedContact(withIdentifier: ledger.granted.identifier, keysToFetch: listKeys)
            .mutableCopy()
        noted.givenName = "Grace"
        let withNote = MutableContact(
            identifier: noted.identifier, values: ContactValues(), availableKeys: ContactKeySet(.note),
            base: ContactValues())
        var writesNote = withNote
        writesNote.note = "written by the client"
        request = SaveRequest()
        request.update(writesNote)
        #expect { try store.execute(request) } throws: { code($0) == .unauthorizedKeys }
        #expect(throws: ContactStoreError.self) {
            try store.unifiedContact(withIdentifier: ledger.granted.identifier, keysToFetch: [ContactKey.note])
        }
        #expect(store.headDigest == head)

        // A granted contact the client may update, and a group membership of its own contact.
        var granted = try store.unifiedContact(
            withIdentifier: ledger.granted.identifier, keysToFetch: [ContactKey.jobTitle]
        ).mutableCopy()
        granted.jobTitle = "Admiral"
        request = SaveRequest()
        request.update(granted)
        request.addMember(ledger.own.copy(), to: ledger.team.copy())
        try await store.execute(request)
    }

    @Test("Undo by a limited client treats what it may not see as never there, and writes nothing")
    func undo() async throws {
        let ledger = try await AdversaryLedger()
        let store = try ContactStore(ledgerAt: ledger.directory.ledger, client: AdversaryLedger.limited)
        defer { store.close() }
        let undo = LedgerUndo(store: store)
        let head = store.headDigest
        let missing = UUID().uuidString
        let dryRun = UndoOptions(dryRun: true)
        for identifier in [ledger.deletedHidden.identifier, ledger.hidden.identifier] {
            let hiddenShape = Self.shape(
                { _ = try undo.undelete(contactWithIdentifier: identifier, options: dryRun) }, naming: identifier)
            let missingShape = Self.shape(
                { _ = try undo.undelete(contactWithIdentifier: missing, options: dryRun) }, naming: missing)
            #expect(hiddenShape == missingShape)
            ledger.expectNothingLeaks(hiddenShape, "an undelete's refusal")
        }
        // The owner's records after the token: two touched hidden contacts and are refused; the
        // last deleted a granted contact, and its revert may be planned. No answer shows a secret.
        var refused: [UInt64] = []
        for sequence in (ledger.tokenSequence + 1)...head.sequence {
            do {
                let planned = try undo.revert(record: sequence, options: dryRun)
                ledger.expectNothingLeaks("\(planned)", "a revert's plan")
            } catch {
                refused.append(sequence)
                ledger.expectNothingLeaks("\(error)", "a revert's refusal")
            }
        }
        #expect(refused == [ledger.tokenSequence + 1, ledger.tokenSequence + 2])
        #expect(store.headDigest == head)
        // The client's own record can be reverted.
        let own = try undo.revert(record: ledger.tokenSequence)
        #expect(own.save != nil)
    }

    @Test("A client's request for access is recorded and waits for the owner, who answers it")
    func requestsWaitForTheOwner() async throws {
        let ledger = try await AdversaryLedger()
        let asking = ClientContext(
            identifier: "asking-app", authorization: .notDetermined, accessDecision: { .notDetermined })
        var store = try ContactStore(ledgerAt: ledger.directory.ledger, client: asking)
        await #expect { try await store.requestAccess(for: .contacts) } throws: {
            ($0 as? ContactStoreError)?.code == .authorizationDenied
        }
        #expect(store.authorizationStatus() == .notDetermined)
        store.close()

        let watching = try ContactStore(readingLedgerAt: ledger.directory.ledger, client: asking)
        #expect(watching.authorizationStatus() == .notDetermined)
        let owner = try ContactStore(ledgerAt: ledger.directory.ledger, client: .owner("person"))
        let waiting = try owner.clientAccessRecords().first { $0.clientIdentifier == "asking-app" }
        #expect(waiting?.status == .notDetermined)
        try await owner.setAuthorization(.limited, forClient: "asking-app")
        try await owner.grantAccess(toContactsWithIdentifiers: [ledger.granted.identifier], toClient: "asking-app")
        owner.close()

        // A read-only store of the asking client picks the answer up when it refreshes.
        #expect(try watching.refresh() == 2)
        #expect(watching.authorizationStatus() == .limited)
        store = try ContactStore(ledgerAt: ledger.directory.ledger, client: asking)
        #expect(store.authorizationStatus() == .limited)
        #expect(try store.unifiedContacts(matching: .matchingName("Grace"), keysToFetch: listKeys).count == 1)
        store.close()

        let log = try LedgerAuditor(ledgerAt: ledger.directory.ledger).entries()
        let access = log.flatMap { entry in
            entry.changes.compactMap { change -> String? in
                switch change {
                case .requestAccess(let client, _): return "\(entry.author) requests \(client)"
                case .setAuthorization(let client, let status, _): return "\(entry.author) decides \(client) \(status)"
                case .grantAccess(let client, _): return "\(entry.author) grants \(client)"
                default: return nil
                }
            }
        }
        #expect(
            access.suffix(3) == [
                "asking-app requests asking-app", "person decides asking-app limited", "person grants asking-app",
            ])
    }
}
