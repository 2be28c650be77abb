import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Contact keys and key sets")
struct ContactKeyTests {
    @Test("Raw values are the framework's key strings, in the framework's order, then the package's own")
    func rawValues() {
        #expect(
            ContactKey.allCases.map(\.rawValue) == [
                "identifier", "contactType", "namePrefix", "givenName", "middleName",
                "familyName", "previousFamilyName", "nameSuffix", "nickname",
                "phoneticGivenName", "phoneticMiddleName", "phoneticFamilyName",
                "organizationName", "phoneticOrganizationName", "departmentName", "jobTitle",
                "note", "birthday", "nonGregorianBirthday", "dates", "phoneNumbers",
                "emailAddresses", "postalAddresses", "urlAddresses", "contactRelations",
                "socialProfiles", "instantMessageAddresses", "imageData", "thumbnailImageData",
                "imageDataAvailable", "vCardExtensions",
            ])
    }

    @Test("Every key has its own bit below 64")
    func bits() {
        let indexes = ContactKey.allCases.map(\.bitIndex)
        #expect(Set(indexes).count == ContactKey.allCases.count)
        #expect(indexes.allSatisfy { (0..<64).contains($0) })
        #expect(ContactKeySet.all.count == ContactKey.allCases.count)
        #expect(ContactKeySet.all.keys == ContactKey.allCases)
        #expect(ContactKeySet.image.keys == [.imageData, .thumbnailImageData, .imageDataAvailable])
    }

    @Test("A key set holds exactly the keys put in it", arguments: ContactKey.allCases)
    func singleKey(key: ContactKey) {
        var set = ContactKeySet(key)
        #expect(set.contains(key))
        #expect(set.count == 1)
        #expect(set.keys == [key])
        #expect(ContactKey.allCases.filter(set.contains) == [key])
        set.remove(key)
        #expect(set.isEmpty)
        set.insert(key)
        #expect(set == key.contactKeys)
    }

    @Test("Key sets combine like sets and ignore bits that name no key")
    func algebra() {
        let names = ContactKeySet([.givenName, .familyName])
        let contact = ContactKeySet([.familyName, .emailAddresses])
        #expect(names.union(contact) == ContactKeySet([.givenName, .familyName, .emailAddresses]))
        #expect(names.intersection(contact) == ContactKeySet(.familyName))
        #expect(names.subtracting(contact) == ContactKeySet(.givenName))
        #expect(names.isSubset(of: .all))
        #expect(ContactKeySet(rawValue: .max) == .all)
        #expect(names.description == "[givenName, familyName]")
    }

    @Test("Descriptors of every kind add up to one key set")
    func descriptors() {
        let descriptors: [any KeyDescriptor] = [
            ContactKey.note, ContactKeySet([.givenName, .note]),
            ContactFormatter.descriptorForRequiredKeys(for: .fullName),
        ]
        let set = ContactKeySet(descriptors: descriptors)
        #expect(set.contains(.note))
        #expect(set.contains(.organizationName))
        #expect(set.count == 8)
    }

    @Test("Only the identifier and the derived image keys are read-only")
    func writable() {
        #expect(
            ContactKeySet.all.subtracting(.writable)
                == ContactKeySet([.identifier, .thumbnailImageData, .imageDataAvailable]))
    }
}
