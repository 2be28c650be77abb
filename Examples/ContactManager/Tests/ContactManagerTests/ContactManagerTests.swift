// The guide's test: the contact manager runs against a copy of a recorded ledger, and the test
// asserts on the save requests it issued.
import ContactsCompat
import Foundation
import Testing

#if canImport(ContactManager)
    import ContactManager
#endif

@Suite("The guide's ContactManager, tested against a recorded ledger")
struct ContactManagerTests {
    /// Records a small address book in a new folder, through the framework's API, and returns
    /// the folder and the identifiers of the people in it.
    static func record() async throws -> (path: String, ada: String, grace: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)").path
        let recorder = try await ContactsReplay(opening: .ledger(at: path))
        defer { recorder.close() }
        return try recorder.run {
            let store = CNContactStore()
            let request = CNSaveRequest()
            request.transactionAuthor = "recorder"
            let people = [("Ada", "Lovelace"), ("Grace", "Hopper")].map { given, family in
                let contact = CNMutableContact()
                contact.givenName = given
                contact.familyName = family
                request.add(contact, toContainerWithIdentifier: nil)
                return contact.identifier
            }
            try store.execute(request)
            return (path, people[0], people[1])
        }
    }

    @Test("It fetches, adds, updates and deletes, and issues exactly the expected requests")
    func issuesTheExpectedRequests() async throws {
        let recording = try await Self.record()
        defer { try? FileManager.default.removeItem(atPath: recording.path) }
        let replay = try await ContactsReplay(
            opening: .copy(ofLedgerAt: recording.path), authorization: .notDetermined(answer: .authorized))
        defer { replay.close() }

        try await replay.run {
            let manager = ContactManager()
            #expect(try await manager.requestAccess())
            try manager.reload()
            #expect(manager.names == ["Grace Hopper", "Ada Lovelace"])
            try manager.add(givenName: "Alan", familyName: "Turing", mobile: "+44 20 7946 0000")
            try manager.rename(recording.grace, givenName: "Amazing Grace")
            try manager.delete(recording.ada)
            try manager.reload()
            #expect(manager.names == ["Amazing Grace Hopper", "Alan Turing"])
        }

        #expect(
            try replay.requestLines() == [
                "com.example.contactmanager: add contact \"Alan Turing\" -> committed",
                "com.example.contactmanager: update contact \"Amazing Grace Hopper\" (givenName) -> committed",
                "com.example.contactmanager: delete contact \"Ada Lovelace\" -> committed",
            ])
    }

    @Test("It reloads its list when another part of the app saves", .timeLimit(.minutes(1)))
    func reloadsOnChange() async throws {
        let replay = try await ContactsReplay(opening: .empty)
        defer { replay.close() }
        let manager = replay.run { ContactManager() }
        let (changes, continuation) = AsyncStream<Void>.makeStream()
        manager.reloadOnChange { continuation.yield() }
        try replay.run {
            let contact = CNMutableContact()
            contact.givenName = "Katherine"
            contact.familyName = "Johnson"
            let request = CNSaveRequest()
            request.add(contact, toContainerWithIdentifier: nil)
            try CNContactStore().execute(request)
        }
        for await _ in changes where manager.names.contains("Katherine Johnson") { break }
        #expect(manager.names == ["Katherine Johnson"])
    }
}
