import Foundation
import Testing

@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel

@Suite("JSON written as bytes")
struct ContactJSONWriteTests {
    @Test("ContactJSON.write gives exactly the bytes of the contact's serialized value")
    func writeMatchesValue() {
        let contacts = [
            VCardContactGenerator.everything(), VCardContactGenerator.organization(), VCardContactGenerator.empty(),
            VCardContactGenerator.long(),
        ].map { $0.copy() }
        let partial = contacts[0].values
        let limited = Contact(
            identifier: contacts[0].identifier, values: partial,
            availableKeys: ContactKeySet([.givenName, .phoneNumbers, .note]))
        var undated = MutableContact()
        undated.birthday = DateComponents()
        undated.dates = [LabeledValue(label: nil, value: DateComponents(day: 1))]
        undated.postalAddresses = [LabeledValue(label: "custom \"home\"", value: PostalAddress(city: "Zürich\t"))]
        for contact in contacts + [limited, undated.copy()] {
            var bytes: [UInt8] = []
            ContactJSON.write(contact, to: &bytes)
            #expect(bytes == Array(ContactJSON.value(for: contact).serialized().utf8))
        }
    }

    @Test("Strings keep every character and escape what JSON requires, in bytes and in ASCII")
    func escapes() throws {
        let text = "a\"b\\c\n\r\t\u{08}\u{0C}\u{01}é🙂"
        let value = JSONValue.array([.string(text), .string(""), ["k\"": .int(1)]])
        #expect(value.serialized() == #"["a\"b\\c\n\r\t\b\f\u0001é🙂","",{"k\"":1}]"#)
        #expect(value.serialized(JSONValue.Style(asciiOnly: true)).contains(#"\u00e9\ud83d\ude42"#))
        #expect(try JSONValue(parsing: value.serialized()) == value)
        #expect(value.serializedBytes() == Array(value.serialized().utf8))
    }
}
