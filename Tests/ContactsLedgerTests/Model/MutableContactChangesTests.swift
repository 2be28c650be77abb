import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Changed keys of mutable contacts")
struct MutableContactChangesTests {
    @Test("A new contact's changed keys are the keys set to something but the default")
    func newContact() {
        var contact = MutableContact()
        #expect(contact.changedKeys.isEmpty)
        contact.givenName = "Ada"
        contact.emailAddresses = [LabeledValue(label: Label.home, value: "ada@example.com")]
        #expect(contact.changedKeys == ContactKeySet([.givenName, .emailAddresses]))
        contact.givenName = ""
        #expect(contact.changedKeys == ContactKeySet(.emailAddresses))
    }

    @Test("A fetched contact's changed keys are those that differ from what was fetched")
    func fetchedContact() {
        var contact = ModelFixtures.fetched([.givenName, .note, .phoneNumbers]).mutableCopy()
        #expect(contact.changedKeys.isEmpty)

        contact.note = "New note."
        #expect(contact.changedKeys == ContactKeySet(.note))

        contact.note = "Allergic to pears."
        #expect(contact.changedKeys.isEmpty, "setting the old value back is no change")

        contact.phoneNumbers[0] = contact.phoneNumbers[0].settingLabel(Label.work)
        #expect(contact.changedKeys == ContactKeySet(.phoneNumbers))
    }

    @Test("Changing the image reports the image data only, never the derived keys")
    func imageChange() {
        var contact = ModelFixtures.fetched(ContactKeySet.image).mutableCopy()
        contact.imageData = Data([1, 2, 3])
        #expect(contact.changedKeys == ContactKeySet(.imageData))
    }

    @Test("Changed keys never include keys that were not fetched", arguments: ContactKey.allCases)
    func changedKeysStayAvailable(fetchedKey: ContactKey) {
        var contact = ModelFixtures.fetched(ContactKeySet(fetchedKey)).mutableCopy()
        contact.values = ContactValues()  // a change to every key, as a store might see it
        #expect(contact.changedKeys.isSubset(of: ContactKeySet(fetchedKey)))
        #expect(contact.changedKeys.isSubset(of: .writable))
    }

    @Test("Saving only the changed keys never clobbers keys the caller did not fetch")
    func storeAppliesOnlyChangedKeys() {
        let committed = ModelFixtures.fullValues()
        let fetched = Contact(
            identifier: "C-1", values: committed, availableKeys: [ContactKeySet(.givenName)])
        var edit = fetched.mutableCopy()
        edit.givenName = "Jonathan"

        var saved = committed
        saved.update(edit.changedKeys, from: edit.values)
        #expect(saved.givenName == "Jonathan")
        #expect(saved.note == committed.note)
        #expect(saved.phoneNumbers == committed.phoneNumbers)
        #expect(saved.keys(differingFrom: committed) == ContactKeySet(.givenName))
    }
}
