import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Partial contacts and key availability")
struct ContactAvailabilityTests {
    @Test("A new mutable contact has a UUID identifier and every key, with empty values")
    func newContact() {
        let contact = MutableContact()
        #expect(UUID(uuidString: contact.identifier) != nil)
        #expect(contact.availableKeys == .all)
        #expect(contact.givenName == "")
        #expect(contact.birthday == nil)
        #expect(contact.phoneNumbers.isEmpty)
        #expect(contact.contactType == .person)
        #expect(contact.imageDataAvailable == false)
        #expect(contact.isNew)
        #expect(contact.revision == 0)
        #expect(MutableContact().identifier != contact.identifier)
    }

    @Test("A fetched contact has only its keys, plus the identifier, and no other values")
    func partialContact() {
        let contact = ModelFixtures.fetched([.givenName, .familyName])
        #expect(contact.isKeyAvailable(.identifier))
        #expect(contact.isKeyAvailable(.givenName))
        #expect(!contact.isKeyAvailable(.note))
        #expect(contact.identifier == "C-1")
        #expect(contact.givenName == "John")
        // The values of keys that were not fetched are not carried at all.
        #expect(contact.values.note == "")
        #expect(contact.values.imageData == nil)
        #expect(contact.availableKeys == ContactKeySet([.identifier, .givenName, .familyName]))
    }

    @Test(
        "areKeysAvailable is true only when every described key is available",
        arguments: [
            ([ContactKey.givenName] as [any KeyDescriptor], true),
            ([ContactKey.identifier], true),
            ([ContactKeySet([.givenName, .familyName])], true),
            ([ContactKey.givenName, ContactKey.note], false),
            ([ContactFormatter.descriptorForRequiredKeysForNameOrder], true),
            ([ContactFormatter.descriptorForRequiredKeys(for: .fullName)], false),
            ([], true),
        ])
    func areKeysAvailable(descriptors: [any KeyDescriptor], expected: Bool) {
        let contact = ModelFixtures.fetched([.givenName, .middleName, .familyName])
        #expect(contact.areKeysAvailable(descriptors) == expected)
        #expect(contact.mutableCopy().areKeysAvailable(descriptors) == expected)
    }

    @Test("The image keys derive the thumbnail and the flag from the image data")
    func imageKeys() {
        let small = ModelFixtures.fetched([.thumbnailImageData, .imageDataAvailable])
        #expect(small.thumbnailImageData == Data([0xFF, 0xD8, 0xFF]))
        #expect(small.imageDataAvailable)
        #expect(!small.isKeyAvailable(.imageData))

        var contact = MutableContact()
        contact.imageData = Data(count: Contact.thumbnailImageDataBytesMax)
        #expect(contact.thumbnailImageData?.count == Contact.thumbnailImageDataBytesMax)
        contact.imageData = Data(count: Contact.thumbnailImageDataBytesMax + 1)
        #expect(contact.thumbnailImageData == nil)
        #expect(contact.imageDataAvailable)
        contact.imageData = nil
        #expect(!contact.imageDataAvailable)
        #expect(contact.thumbnailImageData == nil)
    }

    @Test("Copies keep identifier, keys and revision; a mutable copy starts from the values")
    func copies() {
        let contact = ModelFixtures.fetched([.givenName, .note], revision: 42)
        var mutable = contact.mutableCopy()
        #expect(mutable.identifier == contact.identifier)
        #expect(mutable.availableKeys == contact.availableKeys)
        #expect(mutable.revision == 42)
        #expect(mutable.base == contact.values)
        #expect(!mutable.isNew)
        mutable.note = "Changed."
        let copy = mutable.copy()
        #expect(copy.identifier == contact.identifier)
        #expect(copy.availableKeys == contact.availableKeys)
        #expect(copy.revision == 42)
        #expect(copy.note == "Changed.")
        #expect(contact.note == "Allergic to pears.")
        #expect(mutable.copy().mutableCopy().copy() == copy)
    }

    @Test("Reading a key that was not fetched stops the program and names the key")
    func readingUnfetchedKeyTraps() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let contact = ModelFixtures.fetched([.givenName])
            _ = contact.note
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(
            stderr.contains(
                #"Contact property "note" was not fetched; add ContactKey.note to keysToFetch"#))
    }

    @Test("Reading an array key of a mutable copy that was not fetched stops the program")
    func readingUnfetchedKeyOfMutableCopyTraps() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let contact = ModelFixtures.fetched([.givenName]).mutableCopy()
            _ = contact.phoneNumbers
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(#"MutableContact property "phoneNumbers" was not fetched"#))
    }

    @Test("Setting a key that was not fetched stops the program and names the key")
    func settingUnfetchedKeyTraps() async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            var contact = ModelFixtures.fetched([.givenName]).mutableCopy()
            contact.birthday = DateComponents(month: 1, day: 1)
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(#"property "birthday" was not fetched"#))
        #expect(stderr.contains("ContactKey.birthday"))
    }

    @Test("A derived image key needs its own key, not just the image data")
    func derivedKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            let contact = ModelFixtures.fetched([.imageData])
            _ = contact.thumbnailImageData
        }
    }

    @Test("Reading fetched keys does not stop the program")
    func readingFetchedKeysExitsCleanly() async {
        await #expect(processExitsWith: .success) {
            let contact = ModelFixtures.fetched([.givenName, .note])
            _ = contact.givenName + contact.note + contact.identifier
        }
    }
}
