import ContactsCompat
import Foundation
import Testing

@Suite("Reading a key that was not fetched stops the program, naming the key")
struct PartialContactTests {
    @Test("A fetched contact without the family name stops the program when it is read")
    func unfetchedKeyTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try await savedAdaFetchedWithGivenName().familyName
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("CNPropertyNotFetchedException"))
        #expect(message.contains("familyName"))
    }

    @Test("A mutable copy of a partial contact stops the program when an unfetched key is set")
    func unfetchedKeySetTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let copy = try await savedAdaFetchedWithGivenName().mutableCopy() as? CNMutableContact
            copy?.jobTitle = "Analyst"
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("jobTitle"))
    }

    @Test("The fetched keys are available, and the identifier always is")
    func fetchedKeysAvailable() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let ada = person("Ada", "Lovelace")
            try add([ada], to: store)
            let fetched = try store.unifiedContact(
                withIdentifier: ada.identifier, keysToFetch: [CNContactGivenNameKey as NSString])
            #expect(fetched.isKeyAvailable(CNContactGivenNameKey))
            #expect(fetched.isKeyAvailable(CNContactIdentifierKey))
            #expect(!fetched.isKeyAvailable(CNContactFamilyNameKey))
            #expect(!fetched.areKeysAvailable(nameKeys))
            #expect(fetched.givenName == "Ada")
        }
    }
}

/// Saves Ada Lovelace in a new replay and fetches her with the given name alone (for an exit
/// test, whose body captures nothing).
func savedAdaFetchedWithGivenName() async throws -> CNContact {
    let replay = try await ContactsReplay()
    return try replay.run {
        let store = CNContactStore()
        let ada = person("Ada", "Lovelace")
        try add([ada], to: store)
        return try store.unifiedContact(
            withIdentifier: ada.identifier, keysToFetch: [CNContactGivenNameKey as NSString])
    }
}
