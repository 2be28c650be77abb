import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel

@Suite("Phone search: partial numbers and the locale's region")
struct PartialPhoneSearchTests {
    /// A store in `region` with Ada (+49 494 808 313), Bob (+1 415 555 0100) and Cy
    /// (+43 494 808 313, the same national number in another country).
    private func store(region: String) throws -> (ContactStore, ada: String, bob: String, cy: String) {
        let store = ContactStore.inMemory(client: .fullAccess(region: region))
        let ada = makeContact(given: "Ada", family: "Lovelace", phones: [(Label.phoneNumberMobile, "+49 494 808 313")])
        let bob = makeContact(given: "Bob", family: "Smith", phones: [(Label.work, "+1 415 555 0100")])
        let cy = makeContact(given: "Cy", family: "Young", phones: [(Label.home, "+43 494 808 313")])
        var request = SaveRequest()
        for contact in [ada, bob, cy] { request.add(contact, toContainerWithIdentifier: nil) }
        _ = try store.execute(request)
        return (store, ada.identifier, bob.identifier, cy.identifier)
    }

    private func found(_ store: ContactStore, _ query: String) throws -> Set<String> {
        Set(
            try store.unifiedContacts(matching: .matching(PhoneNumber(stringValue: query)), keysToFetch: listKeys)
                .map(\.identifier))
    }

    @Test("A national number with its trunk prefix finds the international form in its region")
    func nationalInRegion() throws {
        let (store, ada, _, _) = try store(region: "de")
        #expect(try found(store, "0494 808313") == [ada])
        #expect(try found(store, "+49 494 808313") == [ada])
    }

    @Test("The last seven or more digits find every number that ends with them")
    func partialNumbers() throws {
        for region in ["de", "us", ""] {
            let (store, ada, bob, cy) = try store(region: region)
            #expect(try found(store, "4808313") == [ada, cy], "\(region)")
            #expect(try found(store, "94 808 313") == [ada, cy], "\(region)")
            #expect(try found(store, "555-0100") == [bob], "\(region)")
            #expect(try found(store, "415 555 0100").contains(bob), "\(region)")
            #expect(try found(store, "808 313").isEmpty, "six digits are too few: \(region)")
            #expect(try found(store, "5 808 313").isEmpty, "a different seventh digit: \(region)")
            #expect(try found(store, "1494808313").isEmpty, "a longer query than the number: \(region)")
        }
    }

    @Test("A number too long for an integer key is found by its end too")
    func partialLongNumber() throws {
        let store = ContactStore.inMemory(client: .fullAccess(region: "de"))
        let long = makeContact(given: "Long", family: "Number", phones: [(Label.work, "+49 1234 5678 9012 3456 78")])
        let short = makeContact(given: "Short", family: "Number", phones: [(Label.work, "+49 30 4567 8000")])
        var request = SaveRequest()
        for contact in [long, short] { request.add(contact, toContainerWithIdentifier: nil) }
        _ = try store.execute(request)
        #expect(try found(store, "+49 1234 5678 9012 3456 78") == [long.identifier])
        #expect(try found(store, "2 3456 78") == [long.identifier])
        #expect(try found(store, "9012 3456 78") == [long.identifier])
        #expect(try found(store, "8012 3456 78").isEmpty, "a different digit before the last seven")
    }

    @Test("A partial number follows edits and deletes")
    func partialAfterChanges() throws {
        let (store, ada, _, cy) = try store(region: "de")
        let contact = try store.unifiedContact(withIdentifier: ada, keysToFetch: [ContactKeySet.all])
        var edited = contact.mutableCopy()
        edited.phoneNumbers = [LabeledValue(label: Label.home, value: PhoneNumber(stringValue: "+49 30 1234 5678"))]
        var request = SaveRequest()
        request.update(edited)
        _ = try store.execute(request)
        #expect(try found(store, "4808313") == [cy])
        #expect(try found(store, "12345678") == [ada])
        var delete = SaveRequest()
        delete.delete(try store.unifiedContact(withIdentifier: cy, keysToFetch: listKeys).mutableCopy())
        _ = try store.execute(delete)
        #expect(try found(store, "4808313").isEmpty)
    }

    @Test("Two numbers with the same last digits: removing one keeps the other findable")
    func sharedEnding() throws {
        var indexes = SearchIndexes(defaultCountryCode: "de")
        var old = ContactValues()
        old.phoneNumbers = [
            LabeledValue(label: nil, value: PhoneNumber(stringValue: "+49 494 808 313")),
            LabeledValue(label: nil, value: PhoneNumber(stringValue: "+43 494 808 313")),
        ]
        indexes.insert(0, values: old)
        var new = old
        new.phoneNumbers.removeFirst()
        indexes.update(0, from: old, to: new)
        let numbers: (ContactSlot) -> [String] = { _ in ["+43 494 808 313"] }
        #expect(indexes.slots(endingWithPhoneNumber: "4808313", numbersOf: numbers) == [0])
        #expect(indexes.slots(endingWithPhoneNumber: "494808313", numbersOf: numbers) == [0])
        indexes.checkInvariants()
    }

    @Test(
        "The locale's region comes from LC_ALL, LC_TELEPHONE, then LANG; C and POSIX name none",
        arguments: [
            (["LANG": "de_DE.UTF-8"], "de"), (["LANG": "en_GB"], "gb"), (["LANG": "pt_BR.utf8@latin"], "br"),
            (["LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"], "fr"),
            (["LC_ALL": "", "LC_TELEPHONE": "ja_JP.UTF-8", "LANG": "de_DE.UTF-8"], "jp"),
            (["LANG": "C.UTF-8"], nil), (["LANG": "POSIX"], nil), (["LANG": "en"], nil), ([:], nil),
        ] as [([String: String], String?)])
    func localeRegion(environment: [String: String], region: String?) {
        #expect(ContactsUserDefaults.localeRegion(in: environment) == region)
    }
}
