import ContactsCompat
import Foundation
import Testing

@Suite("CNContactFormatter, CNPostalAddressFormatter and CNContactVCardSerialization")
struct FormattingTests {
    @Test("Names format in the framework's styles, from a contact fetched with the formatter's keys")
    func contactFormatter() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let ada = person("Ada", "Lovelace")
            ada.namePrefix = "Countess"
            try add([ada], to: store)
            let fetched = try store.unifiedContact(
                withIdentifier: ada.identifier,
                keysToFetch: [CNContactFormatter.descriptorForRequiredKeys(for: .fullName)])
            #expect(CNContactFormatter.string(from: fetched, style: .fullName) == "Countess Ada Lovelace")
            let formatter = CNContactFormatter()
            #expect(formatter.string(from: fetched) == "Countess Ada Lovelace")
            #expect(formatter.string(for: fetched) == "Countess Ada Lovelace")
            #expect(formatter.string(for: "not a contact") == nil)
            #expect(CNContactFormatter.nameOrder(for: ada) == .givenNameFirst)
            #expect(CNContactFormatter.delimiter(for: ada) == " ")
            #expect(CNContactFormatter.string(from: CNMutableContact(), style: .fullName) == nil)
        }
    }

    @Test("An address formats as mailing lines for its country")
    func addressFormatter() {
        let address = CNMutablePostalAddress()
        address.street = "221B Baker Street"
        address.city = "London"
        address.postalCode = "NW1 6XE"
        address.country = "United Kingdom"
        address.isoCountryCode = "gb"
        let text = CNPostalAddressFormatter().string(from: address)
        #expect(text.hasPrefix("221B Baker Street\n"))
        #expect(text.contains("London"))
        #expect(text.contains("NW1 6XE"))
    }

    @Test("vCard data round-trips contacts; malformed data is vCardMalformed (700)")
    func vCards() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let ada = person("Ada", "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0001")
            try add([ada], to: store)
            let fetched = try store.unifiedContact(
                withIdentifier: ada.identifier, keysToFetch: [CNContactVCardSerialization.descriptorForRequiredKeys()])
            let data = try CNContactVCardSerialization.data(with: [fetched])
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
            let parsed = try CNContactVCardSerialization.contacts(with: data)
            #expect(parsed.count == 1)
            #expect(parsed.first?.familyName == "Lovelace")
            #expect(parsed.first?.emailAddresses.first?.value == "ada@example.com")
            #expect { try CNContactVCardSerialization.contacts(with: Data("BEGIN:VCARD\r\nFN:x\r\n".utf8)) } throws: {
                code($0) == .vCardMalformed
            }
        }
    }
}
