import ContactsCompat
import Foundation
import Testing

@Suite("Fetching through CNContactStore: predicates, keys, requests, groups and containers")
struct FetchTests {
    @Test("Each contact predicate selects what the framework documents")
    func predicates() async throws {
        let folder = TestFolder()
        let people = try await recordTwoPeople(in: folder)
        let replay = try await ContactsReplay(opening: .copy(ofLedgerAt: folder.path))
        defer { replay.close() }
        try replay.run { () throws in
            let store = CNContactStore()
            let ids = { (predicate: NSPredicate) in
                try store.unifiedContacts(matching: predicate, keysToFetch: nameKeys).map(\.identifier)
            }
            #expect(try ids(CNContact.predicateForContacts(matchingName: "ada love")) == [people.ada])
            #expect(try ids(CNContact.predicateForContacts(matchingName: "nobody")) == [])
            #expect(
                try ids(CNContact.predicateForContacts(matchingEmailAddress: "GRACE@example.com")) == [people.grace])
            #expect(
                try ids(CNContact.predicateForContacts(matching: CNPhoneNumber(stringValue: "+44 20 7946 0001")))
                    == [people.ada])
            #expect(
                try Set(ids(CNContact.predicateForContacts(withIdentifiers: [people.ada, people.grace]))).count == 2)
            let container = store.defaultContainerIdentifier()
            #expect(try ids(CNContact.predicateForContactsInContainer(withIdentifier: container)).count == 2)
        }
    }

    @Test("A predicate that is not one of CNContact's is refused with predicateInvalid (400)")
    func foreignPredicates() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        replay.run {
            let store = CNContactStore()
            for predicate in [
                NSPredicate(value: true), CNGroup.predicateForGroups(withIdentifiers: []),
                CNContainer.predicateForContainers(withIdentifiers: []),
            ] {
                #expect { try store.unifiedContacts(matching: predicate, keysToFetch: nameKeys) } throws: {
                    code($0) == .predicateInvalid
                }
            }
            #expect { try store.groups(matching: NSPredicate(value: true)) } throws: { code($0) == .predicateInvalid }
            #expect { try store.containers(matching: CNContact.predicateForContacts(matchingName: "a")) } throws: {
                code($0) == .predicateInvalid
            }
            let request = CNContactFetchRequest(keysToFetch: nameKeys)
            request.predicate = NSPredicate(value: false)
            #expect { try store.enumerateContacts(with: request) { _, _ in } } throws: { code($0) == .predicateInvalid }
        }
    }

    @Test("An unknown key string is refused with unauthorizedKeys (102), naming the key")
    func unknownKey() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        replay.run {
            #expect {
                try CNContactStore().unifiedContacts(
                    matching: CNContact.predicateForContacts(matchingName: "a"), keysToFetch: ["shoeSize" as NSString])
            } throws: { error in
                code(error) == .unauthorizedKeys && (error as? CNError)?.keyPaths == ["shoeSize"]
            }
        }
    }

    @Test("The note needs the notes entitlement: without it, fetching it fails with unauthorizedKeys (102)")
    func noteEntitlement() async throws {
        for entitled in [false, true] {
            let replay = try await ContactsReplay(notesEntitlement: entitled)
            defer { replay.close() }
            try replay.run {
                let store = CNContactStore()
                let ada = person("Ada", "Lovelace")
                ada.note = entitled ? "first programmer" : ""
                try add([ada], to: store)
                let fetch = {
                    try store.unifiedContact(
                        withIdentifier: ada.identifier, keysToFetch: [CNContactNoteKey as NSString])
                }
                if entitled {
                    #expect(try fetch().note == "first programmer")
                } else {
                    #expect { try fetch() } throws: { code($0) == .unauthorizedKeys }
                }
            }
        }
    }

    @Test("A missing identifier is recordDoesNotExist (200); an empty match is an empty array")
    func missing() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            #expect { try store.unifiedContact(withIdentifier: "no-such-contact", keysToFetch: nameKeys) } throws: {
                code($0) == .recordDoesNotExist
            }
            do {
                _ = try store.unifiedContact(withIdentifier: "no-such-contact", keysToFetch: nameKeys)
            } catch CNError.recordDoesNotExist {
                // The framework's catch pattern matches.
            }
            #expect(
                try store.unifiedContacts(
                    matching: CNContact.predicateForContacts(matchingName: "x"), keysToFetch: nameKeys
                ).isEmpty)
        }
    }

    @Test("enumerateContacts sorts, stops when asked, gives mutable objects when asked, and never calls for no match")
    func enumerate() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            try add([person("Grace", "Hopper"), person("Ada", "Lovelace"), person("Alan", "Turing")], to: store)
            let request = CNContactFetchRequest(keysToFetch: nameKeys)
            request.sortOrder = .givenName
            var names: [String] = []
            try store.enumerateContacts(with: request) { contact, _ in names.append(contact.givenName) }
            #expect(names == ["Ada", "Alan", "Grace"])
            request.sortOrder = .familyName
            names = []
            try store.enumerateContacts(with: request) { contact, stop in
                names.append(contact.familyName)
                if names.count == 2 { stop.pointee = true }
            }
            #expect(names == ["Hopper", "Lovelace"])
            request.mutableObjects = true
            var mutable = true
            try store.enumerateContacts(with: request) { contact, _ in mutable = mutable && contact is CNMutableContact
            }
            #expect(mutable)
            request.predicate = CNContact.predicateForContacts(matchingName: "nobody")
            var called = false
            try store.enumerateContacts(with: request) { _, _ in called = true }
            #expect(!called)
        }
    }

    @Test("groups(matching:) and containers(matching:) answer the framework's predicates")
    func groupsAndContainers() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let ada = person("Ada", "Lovelace")
            let group = CNMutableGroup()
            group.name = "Mathematicians"
            let request = CNSaveRequest()
            request.add(ada, toContainerWithIdentifier: nil)
            request.add(group, toContainerWithIdentifier: nil)
            request.addMember(ada, to: group)
            try store.execute(request)
            let container = store.defaultContainerIdentifier()
            #expect(try store.groups(matching: nil).map(\.name) == ["Mathematicians"])
            #expect(
                try store.groups(matching: CNGroup.predicateForGroups(withIdentifiers: [group.identifier])).count == 1)
            #expect(
                try store.groups(matching: CNGroup.predicateForGroupsInContainer(withIdentifier: container)).count == 1)
            #expect(try store.containers(matching: nil).map(\.identifier) == [container])
            let ofContact = try store.containers(
                matching: CNContainer.predicateForContainerOfContact(withIdentifier: ada.identifier))
            #expect(ofContact.map(\.identifier) == [container])
            #expect(
                try store.containers(
                    matching: CNContainer.predicateForContainerOfGroup(withIdentifier: group.identifier)
                )
                .count == 1)
            let members = try store.unifiedContacts(
                matching: CNContact.predicateForContactsInGroup(withIdentifier: group.identifier), keysToFetch: nameKeys
            )
            #expect(members.map(\.identifier) == [ada.identifier])
        }
    }
}
