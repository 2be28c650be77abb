import ContactsCompat
import ContactsLedger
import Foundation
import Testing

/// The built `contacts-ledger` binary, found beside the test bundle: another process to commit
/// to a ledger with.
func toolPath() throws -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("contacts-ledger").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    throw CNError(.dataAccessError, "contacts-ledger is not built near \(CommandLine.arguments[0])")
}

/// The user info of the `CNContactStoreDidChange` notifications whose affected identifiers
/// include one wanted, as they arrive.
func didChangeNotifications(mentioning identifier: String) -> (AsyncStream<[String: Sendable]>, any NSObjectProtocol) {
    let (stream, continuation) = AsyncStream<[String: Sendable]>.makeStream()
    let token = NotificationCenter.default.addObserver(forName: .CNContactStoreDidChange, object: nil, queue: nil) {
        note in
        let info = note.userInfo ?? [:]
        let external = info[CNNotificationOriginationExternally] as? Bool
        let saved = info[CNNotificationSaveIdentifiersKey] as? [String]
        let affected = info[ContactStoreChangeKey.affectedIdentifiers] as? [String] ?? []
        guard affected.contains(identifier) else { return }
        var sendable: [String: Sendable] = [:]
        if let external { sendable[CNNotificationOriginationExternally] = external }
        if let saved { sendable[CNNotificationSaveIdentifiersKey] = saved }
        continuation.yield(sendable)
    }
    return (stream, token)
}

@Suite("CNContactStoreDidChange for this app's saves and other processes' commits", .timeLimit(.minutes(1)))
struct NotificationTests {
    @Test("A save posts CNContactStoreDidChange naming the saved contact")
    func ownSave() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        let ada = person("Ada", "Lovelace")
        let (stream, token) = didChangeNotifications(mentioning: ada.identifier)
        defer { NotificationCenter.default.removeObserver(token) }
        try replay.run { try add([ada], to: CNContactStore()) }
        var iterator = stream.makeAsyncIterator()
        let info = try #require(await iterator.next())
        #expect(info[CNNotificationSaveIdentifiersKey] as? [String] == [ada.identifier])
        #expect(info[CNNotificationOriginationExternally] == nil)
    }

    @Test("A burst of saves is posted in order, every saved contact named once")
    func burstOfSaves() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        let people = (0..<40).map { person("Person\($0)", "Burst") }
        let last = try #require(people.last)
        let (stream, continuation) = AsyncStream<[String]>.makeStream()
        let token = NotificationCenter.default.addObserver(forName: .CNContactStoreDidChange, object: nil, queue: nil) {
            note in
            continuation.yield(note.userInfo?[CNNotificationSaveIdentifiersKey] as? [String] ?? [])
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try replay.run {
            let store = CNContactStore()
            for contact in people { try add([contact], to: store) }
        }
        // Other tests save at the same time; their contacts are left out.
        let ours = Set(people.map(\.identifier))
        var named: [String] = []
        for await identifiers in stream {
            named += identifiers.filter(ours.contains)
            if named.contains(last.identifier) { break }
        }
        #expect(named == people.map(\.identifier))
    }

    @Test("A commit by another process, the command-line tool, is read and posted as external")
    func otherProcess() async throws {
        let folder = TestFolder()
        _ = try await recordTwoPeople(in: folder)
        let replay = try await ContactsReplay(opening: .ledger(at: folder.path, readOnly: true))
        defer { replay.close() }
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        let token = NotificationCenter.default.addObserver(forName: .CNContactStoreDidChange, object: nil, queue: nil) {
            note in
            if note.userInfo?[CNNotificationOriginationExternally] as? Bool == true { continuation.yield(true) }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: try toolPath())
        tool.arguments = ["--ledger", folder.path, "add", "--given", "Katherine", "--family", "Johnson"]
        tool.standardOutput = FileHandle.nullDevice
        try tool.run()
        tool.waitUntilExit()
        #expect(tool.terminationStatus == 0)
        let predicate = CNContact.predicateForContacts(matchingName: "Katherine Johnson")
        var found: [CNContact] = []
        for await _ in stream {
            found = try replay.run { try CNContactStore().unifiedContacts(matching: predicate, keysToFetch: nameKeys) }
            if !found.isEmpty { break }
        }
        #expect(found.map(\.familyName) == ["Johnson"])
    }

    @Test("A commit by another writer of the ledger folder is read and posted as external")
    func externalCommit() async throws {
        let folder = TestFolder()
        _ = try await recordTwoPeople(in: folder)
        let replay = try await ContactsReplay(opening: .ledger(at: folder.path, readOnly: true))
        defer { replay.close() }
        let writer = try ContactStore(ledgerAt: folder.path, client: .fullAccess("another-process"))
        defer { writer.close() }
        var katherine = MutableContact()
        katherine.givenName = "Katherine"
        let (stream, token) = didChangeNotifications(mentioning: katherine.identifier)
        defer { NotificationCenter.default.removeObserver(token) }
        var request = SaveRequest()
        request.add(katherine, toContainerWithIdentifier: nil)
        try await writer.execute(request)
        var iterator = stream.makeAsyncIterator()
        let info = try #require(await iterator.next())
        #expect(info[CNNotificationOriginationExternally] as? Bool == true)
        let seen = try replay.run {
            try CNContactStore().unifiedContact(withIdentifier: katherine.identifier, keysToFetch: nameKeys)
        }
        #expect(seen.givenName == "Katherine")
    }
}
