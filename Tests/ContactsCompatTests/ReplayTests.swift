import ContactsCompat
import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@Suite("ContactsReplay: what CNContactStore() opens, and the requests the code issued")
struct ReplayTests {
    @Test("A copy through a sequence shows the recording as it was then, and never touches it")
    func copyThroughPoint() async throws {
        let folder = TestFolder()
        let people = try await recordTwoPeople(in: folder)
        let later = try await ContactsReplay(opening: .ledger(at: folder.path))
        try later.run { try add([person("Alan", "Turing")], to: CNContactStore()) }
        later.close()
        let before = try folderContents(folder.path)
        let replay = try await ContactsReplay(opening: .copy(ofLedgerAt: folder.path, through: .sequence(1)))
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            var seen: [String] = []
            try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: nameKeys)) { contact, _ in
                seen.append(contact.identifier)
            }
            #expect(Set(seen) == [people.ada, people.grace])
            try add([person("Katherine", "Johnson")], to: store)
        }
        #expect(try folderContents(folder.path) == before)
    }

    @Test("Replays run in parallel each see their own ledger")
    func isolation() async throws {
        let first = try await ContactsReplay()
        let second = try await ContactsReplay()
        defer {
            first.close()
            second.close()
        }
        try first.run { try add([person("Only", "First")], to: CNContactStore()) }
        let seen = try second.run {
            try CNContactStore().unifiedContacts(
                matching: CNContact.predicateForContacts(matchingName: "Only"), keysToFetch: nameKeys)
        }
        #expect(seen.isEmpty)
        #expect(try first.requestLines().count == 1)
        #expect(try second.requestLines().isEmpty)
    }

    @Test("install() makes a replay current for stores made on any thread, until uninstall()")
    func installed() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        replay.install()
        let ada = person("Ada", "Lovelace")
        try await Task.detached { try add([ada], to: CNContactStore()) }.value
        replay.uninstall()
        #expect(
            try replay.run {
                try CNContactStore().unifiedContact(withIdentifier: ada.identifier, keysToFetch: nameKeys)
            }.givenName == "Ada")
    }

    @Test("The issued requests list author, changes and outcome, failed ones included, and compare with a golden")
    func issuedRequests() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let ada = person("Ada", "Lovelace")
            try add([ada], to: store, author: "com.example.app")
            let group = CNMutableGroup()
            group.name = "Friends"
            let request = CNSaveRequest()
            request.add(group, toContainerWithIdentifier: nil)
            request.addMember(ada, to: group)
            try store.execute(request)
            let ghost = CNSaveRequest()
            ghost.transactionAuthor = "com.example.app"
            ghost.delete(person("Nobody", "Here"))
            #expect(throws: CNError.self) { try store.execute(ghost) }
        }
        let requests = try replay.issuedRequests()
        #expect(requests.map(\.author) == ["com.example.app", nil, "com.example.app"])
        #expect(requests.map(\.outcome).last == .failed(.recordDoesNotExist))
        #expect(requests.first?.changes.contains { if case .addContact = $0 { true } else { false } } == true)
        let golden = [
            "com.example.app: add contact \"Ada Lovelace\" -> committed",
            "-: add group \"Friends\"; add member \"Ada Lovelace\" to group \"Friends\" -> committed",
            "com.example.app: delete contact \"Nobody Here\" -> failed recordDoesNotExist (200)",
        ]
        let lines = try replay.requestLines()
        #expect(lines == golden)
        #expect(try replay.differences(fromGolden: golden) == [])
        var changed = golden
        changed[1] = "-: add group \"Friends\" -> committed"
        #expect(
            try replay.differences(fromGolden: changed) == [
                "#2 - -: add group \"Friends\" -> committed",
                "#2 + -: add group \"Friends\"; add member \"Ada Lovelace\" to group \"Friends\" -> committed",
            ])
    }

    @Test("The audit library reads an in-memory store's records")
    func auditEntriesOfAStore() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run { try add([person("Ada", "Lovelace")], to: CNContactStore(), author: "someone") }
        let entries = try replay.store.auditEntries()
        #expect(entries.map(\.author) == ["someone"])
        #expect(entries.map(\.sequence) == [1])
    }
}

@Suite("The guide shows the example that swift test compiles and runs")
struct GuideTests {
    /// The package's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(
        "Each file of the example appears whole in the guide",
        arguments: [
            "Examples/ContactManager/Sources/ContactManager/ContactManager.swift",
            "Examples/ContactManager/Tests/ContactManagerTests/ContactManagerTests.swift",
            "Examples/ContactManager/Package.swift",
        ])
    func exampleInGuide(path: String) throws {
        let guide = try String(
            contentsOf: Self.root.appendingPathComponent("Documentation/Testing-with-ContactsCompat.md"),
            encoding: .utf8)
        let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        #expect(guide.contains("```swift\n" + file.trimmingCharacters(in: .newlines) + "\n```"))
    }
}

@Suite("Fetch results with their history token, and copies as of a time")
struct FetchResultTests {
    @Test("enumeratorForContact(fetchRequest:) gives the contacts and the token of the state they were read from")
    func contactEnumerator() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            try add([person("Ada", "Lovelace"), person("Grace", "Hopper")], to: store)
            let request = CNContactFetchRequest(keysToFetch: nameKeys)
            request.sortOrder = .givenName
            request.unifyResults = false
            let result = try store.enumeratorForContact(fetchRequest: request)
            var names: [String] = []
            while let contact = result.value.nextObject() as? CNContact { names.append(contact.givenName) }
            #expect(names == ["Ada", "Grace"])
            #expect(result.currentHistoryToken == store.currentHistoryToken)
        }
    }

    @Test("A copy as of a time shows the records committed by then")
    func copyAsOfTime() async throws {
        let folder = TestFolder()
        let people = try await recordTwoPeople(in: folder)
        let cut = Date()
        try await Task.sleep(for: .milliseconds(20))
        let later = try await ContactsReplay(opening: .ledger(at: folder.path))
        try later.run { try add([person("Alan", "Turing")], to: CNContactStore()) }
        later.close()
        let replay = try await ContactsReplay(opening: .copy(ofLedgerAt: folder.path, through: .time(cut)))
        defer { replay.close() }
        var seen: [String] = []
        try replay.run {
            try CNContactStore().enumerateContacts(with: CNContactFetchRequest(keysToFetch: nameKeys)) { contact, _ in
                seen.append(contact.identifier)
            }
        }
        #expect(Set(seen) == [people.ada, people.grace])
    }
}
