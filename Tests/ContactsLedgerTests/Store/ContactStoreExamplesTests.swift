import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The non-UI operations of the examples, each through the public API.
@Suite("Contact store: the examples' operations")
struct ContactStoreExamplesTests {
    @Test("Request and check access")
    func requestAccess() async throws {
        let store = ContactStore.inMemory(
            client: ClientContext(identifier: "app", authorization: .notDetermined, accessDecision: { .authorized }))
        #expect(store.authorizationStatus(for: .contacts) == .notDetermined)
        #expect(throws: ContactStoreError.self) {
            try store.unifiedContacts(matching: .matchingName("a"), keysToFetch: listKeys)
        }
        #expect(try await store.requestAccess(for: .contacts))
        #expect(store.authorizationStatus(for: .contacts) == .authorized)
        #expect(try store.unifiedContacts(matching: .matchingName("a"), keysToFetch: listKeys).isEmpty)
    }

    @Test("Fetch all with list keys and the user-default sort order")
    func fetchAllSorted() throws {
        let store = ContactStore.inMemory()
        _ = try seedSampleContacts(store)
        var names: [String] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: listKeys, sortOrder: .userDefault)) {
            contact, _ in
            names.append(contact.familyName)
        }
        // The default user sort order is by family name.
        #expect(ContactsUserDefaults.shared.sortOrder == .familyName)
        #expect(names == ["Hopper", "Lovelace", "Núñez", "Sato"])
        var given: [String] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: listKeys, sortOrder: .givenName)) {
            contact, _ in
            given.append(contact.givenName)
        }
        #expect(given == ["Ada", "Grace", "José", "Kenji"])
        var first: [String] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: listKeys, sortOrder: .givenName)) {
            contact, stop in
            first.append(contact.givenName)
            stop = first.count == 2
        }
        #expect(first == ["Ada", "Grace"])
    }

    @Test("Search by name, email and phone")
    func search() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        #expect(
            identifiers(try store.unifiedContacts(matching: .matchingName("jose nu"), keysToFetch: listKeys)) == [
                sample.jose.identifier
            ])
        #expect(
            identifiers(
                try store.unifiedContacts(matching: .matchingEmailAddress("ada@example.ORG"), keysToFetch: listKeys))
                == [sample.ada.identifier])
        #expect(
            identifiers(
                try store.unifiedContacts(
                    matching: .matching(PhoneNumber(stringValue: "+1 (415) 555-0100")), keysToFetch: listKeys)) == [
                    sample.jose.identifier
                ])
        #expect(try store.unifiedContacts(matching: .matchingName("nobody"), keysToFetch: listKeys).isEmpty)
    }

    @Test("Fetch one by identifier with detail keys")
    func fetchOne() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let grace = try store.unifiedContact(withIdentifier: sample.grace.identifier, keysToFetch: detailKeys)
        #expect(grace.givenName == "Grace")
        #expect(grace.organizationName == "US Navy")
        #expect(grace.phoneNumbers.map(\.value.stringValue) == ["+1 415 555 0199"])
        #expect(grace.birthday == DateComponents(year: 1906, month: 12, day: 9))
        #expect(grace.isKeyAvailable(.phoneNumbers))
        #expect(!grace.isKeyAvailable(.note))
        #expect {
            try store.unifiedContact(withIdentifier: "no-such-contact", keysToFetch: detailKeys)
        } throws: { ($0 as? ContactStoreError)?.code == .recordDoesNotExist }
    }

    @Test("Fetch by group and by container")
    func fetchByGroupAndContainer() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let friends = MutableGroup(name: "Friends")
        var request = SaveRequest()
        request.add(friends, toContainerWithIdentifier: nil)
        request.addMember(sample.ada.copy(), to: friends.copy())
        request.addMember(sample.kenji.copy(), to: friends.copy())
        try store.execute(request)
        let members = try store.unifiedContacts(
            matching: .inGroup(withIdentifier: friends.identifier), keysToFetch: listKeys)
        #expect(Set(identifiers(members)) == [sample.ada.identifier, sample.kenji.identifier])
        let container = store.defaultContainerIdentifier()
        #expect(
            try store.unifiedContacts(matching: .inContainer(withIdentifier: container), keysToFetch: listKeys).count
                == 4)
        #expect(try store.groups().map(\.name) == ["Friends"])
        #expect(try store.containers().map(\.identifier) == [container])
        #expect(try store.containers(matching: .ofContact(sample.ada.identifier)).map(\.identifier) == [container])
    }

    @Test("Create a contact with phones, emails, organization, job title, birthday and image")
    func create() throws {
        let store = ContactStore.inMemory()
        var contact = makeContact(
            given: "Katherine", family: "Johnson", organization: "NASA",
            phones: [(Label.phoneNumberMobile, "+1 757 555 0101"), (Label.work, "757-555-0102")],
            emails: [(Label.work, "katherine@nasa.example"), (Label.home, "kj@example.net")],
            birthday: DateComponents(year: 1918, month: 8, day: 26))
        contact.jobTitle = "Mathematician"
        contact.imageData = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
        var request = SaveRequest()
        request.add(contact, toContainerWithIdentifier: nil)
        let result = try store.execute(request)
        #expect(result.affectedIdentifiers == [contact.identifier])
        let fetched = try store.unifiedContact(
            withIdentifier: contact.identifier, keysToFetch: ContactKey.allCases.filter { $0 != .note })
        #expect(fetched.jobTitle == "Mathematician")
        #expect(fetched.phoneNumbers == contact.phoneNumbers)
        #expect(fetched.emailAddresses == contact.emailAddresses)
        #expect(fetched.imageData == contact.imageData)
        #expect(fetched.imageDataAvailable)
        #expect(fetched.thumbnailImageData == contact.imageData)
        #expect(fetched.birthday == contact.birthday)
    }

    @Test("Update via a mutable copy, add a phone number, delete")
    func updateAddPhoneDelete() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        var kenji = try store.unifiedContact(
            withIdentifier: sample.kenji.identifier, keysToFetch: [ContactKey.jobTitle, ContactKey.phoneNumbers]
        ).mutableCopy()
        kenji.jobTitle = "Founder"
        kenji.phoneNumbers.append(
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "090-1234-5678")))
        var update = SaveRequest()
        update.update(kenji)
        try store.execute(update)
        let updated = try store.unifiedContact(withIdentifier: kenji.identifier, keysToFetch: detailKeys)
        #expect(updated.jobTitle == "Founder")
        #expect(updated.phoneNumbers.map(\.value.stringValue) == ["090-1234-5678"])
        #expect(updated.familyName == "Sato", "keys the update did not hold are untouched")
        #expect(updated.organizationName == "Sato Trading")

        var delete = SaveRequest()
        delete.delete(updated.mutableCopy())
        try store.execute(delete)
        #expect(throws: ContactStoreError.self) {
            try store.unifiedContact(withIdentifier: kenji.identifier, keysToFetch: listKeys)
        }
        #expect(try store.unifiedContacts(matching: .matchingName("kenji"), keysToFetch: listKeys).isEmpty)
    }
}
