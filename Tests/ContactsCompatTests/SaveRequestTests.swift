import ContactsCompat
import Foundation
import Testing

@Suite("CNSaveRequest executed by CNContactStore, with the framework's errors")
struct SaveRequestTests {
    @Test("Add, update and delete a contact; a saved contact shows what was saved")
    func addUpdateDelete() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let ada = person("Ada", "Lovelace")
            try add([ada], to: store)
            let fetched = try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: nameKeys)
            let copy = try #require(fetched.mutableCopy() as? CNMutableContact)
            copy.givenName = "Augusta Ada"
            let update = CNSaveRequest()
            update.update(copy)
            try store.execute(update)
            #expect(
                try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: nameKeys).givenName
                    == "Augusta Ada")
            #expect(copy.givenName == "Augusta Ada" && !copy.isKeyAvailable(CNContactNoteKey))
            let delete = CNSaveRequest()
            delete.delete(copy)
            try store.execute(delete)
            #expect { try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: nameKeys) } throws: {
                code($0) == .recordDoesNotExist
            }
        }
    }

    @Test("Updating or deleting a missing contact is recordDoesNotExist (200) naming the object")
    func missingRecord() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        replay.run {
            let store = CNContactStore()
            let ghost = person("No", "One")
            for make in [{ (r: CNSaveRequest) in r.update(ghost) }, { (r: CNSaveRequest) in r.delete(ghost) }] {
                let request = CNSaveRequest()
                make(request)
                #expect { try store.execute(request) } throws: { error in
                    guard let error = error as? CNError else { return false }
                    return error.code == .recordDoesNotExist && error.affectedRecords?.first === ghost
                        && error.affectedRecordIdentifiers == [ghost.identifier]
                        && (error as NSError).userInfo[CNErrorUserInfoAffectedRecordsKey] != nil
                }
            }
        }
    }

    @Test("Executing the same request twice is insertedRecordAlreadyExists (201) the second time")
    func executeTwice() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let request = CNSaveRequest()
            request.add(person("Ada", "Lovelace"), toContainerWithIdentifier: nil)
            try store.execute(request)
            #expect { try store.execute(request) } throws: { code($0) == .insertedRecordAlreadyExists }
            #expect(
                try store.unifiedContacts(
                    matching: CNContact.predicateForContacts(matchingName: "Ada"), keysToFetch: nameKeys
                ).count == 1)
        }
        #expect(
            try replay.issuedRequests().map(\.outcome) == [
                .committed(sequence: 1), .failed(.insertedRecordAlreadyExists),
            ])
    }

    @Test("A contact from another store's ledger is, in this one, a record that does not exist")
    func contactFromAnotherStore() async throws {
        let first = try await ContactsReplay()
        let second = try await ContactsReplay()
        defer {
            first.close()
            second.close()
        }
        let ada = person("Ada", "Lovelace")
        try first.run { try add([ada], to: CNContactStore()) }
        let fetched = try first.run {
            try CNContactStore().unifiedContact(withIdentifier: ada.identifier, keysToFetch: nameKeys)
        }
        let copy = try #require(fetched.mutableCopy() as? CNMutableContact)
        copy.givenName = "Augusta"
        let request = CNSaveRequest()
        request.update(copy)
        second.run {
            #expect { try CNContactStore().execute(request) } throws: { code($0) == .recordDoesNotExist }
        }
    }

    @Test("Within a request, deleting an added contact cancels both; the last membership call wins")
    func requestRules() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let ada = person("Ada", "Lovelace")
            let temporary = person("Temporary", "Person")
            let group = CNMutableGroup()
            group.name = "Friends"
            let request = CNSaveRequest()
            request.add(ada, toContainerWithIdentifier: nil)
            request.add(temporary, toContainerWithIdentifier: nil)
            request.delete(temporary)
            request.add(group, toContainerWithIdentifier: nil)
            request.addMember(ada, to: group)
            request.removeMember(ada, from: group)
            request.addMember(ada, to: group)
            try store.execute(request)
            let all = try store.unifiedContacts(
                matching: CNContact.predicateForContacts(withIdentifiers: [ada.identifier, temporary.identifier]),
                keysToFetch: nameKeys)
            #expect(all.map(\.identifier) == [ada.identifier])
            let members = try store.unifiedContacts(
                matching: CNContact.predicateForContactsInGroup(withIdentifier: group.identifier), keysToFetch: nameKeys
            )
            #expect(members.count == 1)
            group.name = "Best friends"
            let rename = CNSaveRequest()
            rename.update(group)
            try store.execute(rename)
            let deleteGroup = CNSaveRequest()
            deleteGroup.delete(group)
            try store.execute(deleteGroup)
            #expect(try store.groups(matching: nil).isEmpty)
            #expect(try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: nameKeys).givenName == "Ada")
        }
    }

    @Test("A validation error carries the key path: a birthday without a day")
    func validation() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        replay.run {
            let contact = person("Ada", "Lovelace")
            contact.birthday = DateComponents(month: 12)
            let request = CNSaveRequest()
            request.add(contact, toContainerWithIdentifier: nil)
            #expect { try CNContactStore().execute(request) } throws: { error in
                guard let error = error as? CNError else { return false }
                let paths = (error.keyPaths ?? []) + (error.validationErrors ?? []).flatMap { $0.keyPaths ?? [] }
                return [.validationConfigurationError, .validationMultipleErrors].contains(error.code)
                    && paths.contains { $0.hasPrefix("birthday") }
            }
        }
    }

    @Test("CNError bridges to NSError with the framework's domain, codes and keys")
    func errorBridging() {
        let error = CNError(.recordDoesNotExist, "gone", affectedRecordIdentifiers: ["x"], keyPaths: ["givenName"])
        let bridged = error as NSError
        #expect(bridged.domain == "CNErrorDomain")
        #expect(bridged.code == 200)
        #expect(bridged.userInfo[CNErrorUserInfoKeyPathsKey] as? [String] == ["givenName"])
        #expect(bridged.userInfo[CNErrorUserInfoAffectedRecordIdentifiersKey] as? [String] == ["x"])
        #expect(CNError.Code.insertedRecordAlreadyExists.rawValue == 201)
        #expect(CNError.Code.predicateInvalid.rawValue == 400)
        #expect(CNError.Code.policyViolation.rawValue == 500)
        #expect(CNError.Code.authorizationDenied.rawValue == 100)
        #expect(CNError.Code.vCardMalformed.rawValue == 700)
    }
}
