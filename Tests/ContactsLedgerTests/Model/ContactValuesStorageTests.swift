import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// `ContactValues` shares its storage between copies until one of them changes.
@Suite("Contact values: copies share storage and never each other's changes")
struct ContactValuesStorageTests {
    @Test("A change to a copy leaves the original, and every other copy, as it was")
    func copiesAreIndependent() {
        var original = ContactValues()
        original.givenName = "Ada"
        original.phoneNumbers = [
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+44 20 7946 0000"))
        ]
        let untouched = original
        var changed = original
        changed.givenName = "Grace"
        changed.phoneNumbers.append(LabeledValue(label: nil, value: PhoneNumber(stringValue: "555 0100")))
        changed.note = "note"
        #expect(original.givenName == "Ada")
        #expect(original.phoneNumbers.count == 1)
        #expect(original.note.isEmpty)
        #expect(untouched == original)
        #expect(changed.givenName == "Grace")
        #expect(changed.phoneNumbers.count == 2)
        #expect(changed != original)

        // The empty values every `init()` starts from are never changed through a copy.
        var first = ContactValues()
        first.familyName = "Lovelace"
        #expect(ContactValues().familyName.isEmpty)
        #expect(ContactValues() == ContactValues())
    }

    @Test("Equal values are equal and hash alike whether or not they share storage")
    func equalityIsByValue() {
        // A labeled value has an identifier of its own: both sets hold the same one.
        let email = LabeledValue(label: nil, value: "ada@example.com")
        var one = ContactValues()
        one.givenName = "Ada"
        one.emailAddresses = [email]
        var other = ContactValues()
        other.emailAddresses = [email]
        other.givenName = "Ada"
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        var emptied = one
        emptied.givenName = ""
        emptied.emailAddresses = []
        #expect(emptied == ContactValues())
        #expect(emptied.hashValue == ContactValues().hashValue)
        #expect(Set([one, other, emptied, ContactValues()]).count == 2)
    }
}
