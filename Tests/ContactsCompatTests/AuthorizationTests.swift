import ContactsCompat
import Foundation
import Testing

@Suite("Authorization as the replay sets it: statuses, requestAccess, limited access")
struct AuthorizationTests {
    @Test(
        "authorizationStatus(for:) reports the replay's status",
        arguments: [
            (ContactsReplay.Authorization.authorized, CNAuthorizationStatus.authorized), (.denied, .denied),
            (.restricted, .restricted), (.notDetermined(answer: .authorized), .notDetermined),
            (.limited(grantedIdentifiers: []), .limited),
        ])
    func status(authorization: ContactsReplay.Authorization, expected: CNAuthorizationStatus) async throws {
        let replay = try await ContactsReplay(authorization: authorization)
        defer { replay.close() }
        #expect(replay.run { CNContactStore.authorizationStatus(for: .contacts) } == expected)
    }

    @Test("Denied, restricted and undecided apps get authorizationDenied (100) from fetches and saves")
    func deniedFails() async throws {
        for authorization in [ContactsReplay.Authorization.denied, .restricted, .notDetermined(answer: .denied)] {
            let replay = try await ContactsReplay(authorization: authorization)
            defer { replay.close() }
            replay.run {
                let store = CNContactStore()
                #expect {
                    try store.unifiedContacts(
                        matching: CNContact.predicateForContacts(matchingName: "a"), keysToFetch: nameKeys)
                } throws: { code($0) == .authorizationDenied }
                #expect { try add([person("Ada", "Lovelace")], to: store) } throws: { code($0) == .authorizationDenied }
            }
        }
    }

    @Test("requestAccess gets the scripted answer, then the recorded decision")
    func requestAccess() async throws {
        let granting = try await ContactsReplay(authorization: .notDetermined(answer: .authorized))
        defer { granting.close() }
        try await granting.run {
            #expect(try await CNContactStore().requestAccess(for: .contacts))
            #expect(CNContactStore.authorizationStatus(for: .contacts) == .authorized)
            try add([person("Ada", "Lovelace")], to: CNContactStore())
        }
        let refusing = try await ContactsReplay(authorization: .notDetermined(answer: .denied))
        defer { refusing.close() }
        await refusing.run {
            await #expect { try await CNContactStore().requestAccess(for: .contacts) } throws: {
                code($0) == .authorizationDenied
            }
            #expect(CNContactStore.authorizationStatus(for: .contacts) == .denied)
        }
    }

    @Test("The completion-handler form answers on another thread with the grant and no error")
    func requestAccessCompletion() async throws {
        let replay = try await ContactsReplay(authorization: .notDetermined(answer: .authorized))
        defer { replay.close() }
        let store = replay.run { CNContactStore() }
        let (granted, failed) = await withCheckedContinuation { continuation in
            store.requestAccess(for: .contacts) { granted, error in
                continuation.resume(returning: (granted, error != nil))
            }
        }
        #expect(granted && !failed)
    }

    @Test("A limited app sees the contacts granted to it and those it creates, and no others")
    func limited() async throws {
        let folder = TestFolder()
        let people = try await recordTwoPeople(in: folder)
        let recordingBefore = try folderContents(folder.path)
        let replay = try await ContactsReplay(
            opening: .copy(ofLedgerAt: folder.path), authorization: .limited(grantedIdentifiers: [people.ada]))
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let own = person("Own", "Contact")
            try add([own], to: store)
            var seen: [String] = []
            try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: nameKeys)) { contact, _ in
                seen.append(contact.identifier)
            }
            #expect(Set(seen) == [people.ada, own.identifier])
            #expect { try store.unifiedContact(withIdentifier: people.grace, keysToFetch: nameKeys) } throws: {
                code($0) == .recordDoesNotExist
            }
        }
        #expect(try folderContents(folder.path) == recordingBefore)
    }

    @Test("Granting contacts in an empty ledger is refused with a message that names the contact")
    func grantInEmptyLedger() async throws {
        await #expect {
            _ = try await ContactsReplay(authorization: .limited(grantedIdentifiers: ["someone"]))
        } throws: { error in
            code(error) == .recordDoesNotExist && "\(error)".contains("someone")
        }
    }
}
