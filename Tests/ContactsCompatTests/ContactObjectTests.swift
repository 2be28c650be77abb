import ContactsCompat
import Foundation
import Testing

@Suite("CNContact and CNMutableContact, their values and keys")
struct ContactObjectTests {
    @Test("The key constants are the framework's strings, usable as key descriptors")
    func keyConstants() {
        #expect(CNContactGivenNameKey == "givenName")
        #expect(CNContactTypeKey == "contactType")
        #expect(CNContactRelationsKey == "contactRelations")
        #expect(CNContactUrlAddressesKey == "urlAddresses")
        #expect(CNContactImageDataAvailableKey == "imageDataAvailable")
        #expect(CNLabelPhoneNumberMobile == "_$!<Mobile>!$_")
        #expect(CNLabelHome == "_$!<Home>!$_")
        #expect(CNLabelContactRelationFather == "_$!<Father>!$_")
        #expect(CNContactPropertyNotFetchedExceptionName == "CNPropertyNotFetchedException")
        let keys: [CNKeyDescriptor] = [CNContactGivenNameKey as CNKeyDescriptor, CNContactFamilyNameKey as NSString]
        #expect(CNMutableContact().areKeysAvailable(keys))
    }

    @Test("A new contact has every key; its properties read back what was set")
    func properties() throws {
        let contact = CNMutableContact()
        contact.contactType = .organization
        contact.namePrefix = "Dr."
        contact.organizationName = "Analytical Engines"
        contact.note = "met at the exhibition"
        contact.birthday = DateComponents(month: 12, day: 10)
        contact.dates = [
            CNLabeledValue(label: CNLabelDateAnniversary, value: DateComponents(month: 6, day: 8) as NSDateComponents)
        ]
        let address = CNMutablePostalAddress()
        address.street = "12 St James's Square"
        address.city = "London"
        address.isoCountryCode = "gb"
        contact.postalAddresses = [CNLabeledValue(label: CNLabelWork, value: address)]
        contact.urlAddresses = [
            CNLabeledValue(label: CNLabelURLAddressHomePage, value: "https://example.com" as NSString)
        ]
        contact.contactRelations = [
            CNLabeledValue(label: CNLabelContactRelationFather, value: CNContactRelation(name: "Lord Byron"))
        ]
        contact.socialProfiles = [
            CNLabeledValue(
                label: nil,
                value: CNSocialProfile(
                    urlString: nil, username: "ada", userIdentifier: nil, service: CNSocialProfileServiceTwitter))
        ]
        contact.instantMessageAddresses = [
            CNLabeledValue(
                label: nil, value: CNInstantMessageAddress(username: "ada", service: CNInstantMessageServiceSkype))
        ]
        contact.imageData = Data([1, 2, 3])
        #expect(contact.contactType == .organization)
        #expect(contact.namePrefix == "Dr.")
        #expect(contact.birthday?.day == 10)
        #expect((contact.dates.first?.value as DateComponents?)?.month == 6)
        #expect(contact.postalAddresses.first?.value.city == "London")
        #expect(contact.urlAddresses.first?.value == "https://example.com")
        #expect(contact.contactRelations.first?.value.name == "Lord Byron")
        #expect(contact.socialProfiles.first?.value.service == "Twitter")
        #expect(contact.instantMessageAddresses.first?.value.service == "Skype")
        #expect(contact.imageDataAvailable)
        #expect(contact.thumbnailImageData == Data([1, 2, 3]))
        #expect(contact.note == "met at the exhibition")
    }

    @Test("copy and mutableCopy keep the identifier; CNContact is Identifiable by a UUID")
    func copies() throws {
        let contact = person("Ada", "Lovelace")
        let frozen = try #require(contact.copy() as? CNContact)
        let thawed = try #require(frozen.mutableCopy() as? CNMutableContact)
        #expect(frozen.identifier == contact.identifier && thawed.identifier == contact.identifier)
        #expect(frozen.id == contact.id)
        #expect(UUID(uuidString: contact.identifier) == contact.id)
        thawed.givenName = "Augusta Ada"
        #expect(frozen.givenName == "Ada")
        #expect(frozen.isEqual(contact))
        #expect(!thawed.isEqual(contact))
        #expect(contact.isUnifiedWithContact(withIdentifier: contact.identifier))
        #expect(!contact.isUnifiedWithContact(withIdentifier: ""))
    }

    @Test("isKeyAvailable and areKeysAvailable answer false for a key that does not exist")
    func unknownKeys() {
        let contact = CNMutableContact()
        #expect(contact.isKeyAvailable(CNContactNoteKey))
        #expect(!contact.isKeyAvailable("shoeSize"))
        #expect(!contact.areKeysAvailable(["shoeSize" as NSString]))
        #expect(CNContact.localizedString(forKey: CNContactGivenNameKey) != CNContactGivenNameKey)
        #expect(CNContact.localizedString(forKey: "shoeSize") == "shoeSize")
    }

    @Test("A labeled value keeps its identifier through settingLabel and settingValue")
    func labeledValues() {
        let number = CNLabeledValue(
            label: CNLabelPhoneNumberMobile, value: CNPhoneNumber(stringValue: "+44 20 7946 0001"))
        let relabeled = number.settingLabel(CNLabelWork)
        let renumbered = number.settingValue(CNPhoneNumber(stringValue: "+44 20 7946 0002"))
        let both = number.settingLabel(CNLabelHome, value: CNPhoneNumber(stringValue: "1"))
        #expect(relabeled.identifier == number.identifier && relabeled.label == CNLabelWork)
        #expect(renumbered.identifier == number.identifier && renumbered.value.stringValue == "+44 20 7946 0002")
        #expect(both.identifier == number.identifier)
        #expect(CNLabeledValue(label: nil, value: "x" as NSString).identifier != number.identifier)
        #expect(CNLabeledValue<CNPhoneNumber>.localizedString(forLabel: CNLabelPhoneNumberMobile) == "mobile")
        #expect(CNLabeledValue<NSString>.localizedString(forLabel: "boat") == "boat")
    }

    @Test("A labeled value's identifier survives a save and a fetch")
    func labeledValueIdentifierSaved() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let contact = person("Ada", "Lovelace", phone: "+44 20 7946 0001")
            let identifier = try #require(contact.phoneNumbers.first?.identifier)
            try add([contact], to: store)
            let fetched = try store.unifiedContact(
                withIdentifier: contact.identifier, keysToFetch: [CNContactPhoneNumbersKey as NSString])
            #expect(fetched.phoneNumbers.map(\.identifier) == [identifier])
        }
    }

    @Test("The value types: phone numbers, postal addresses and their keys")
    func valueTypes() throws {
        #expect(CNPhoneNumber(stringValue: "+1 202 555 0100").stringValue == "+1 202 555 0100")
        let address = CNMutablePostalAddress()
        address.street = "1600 Pennsylvania Avenue NW"
        address.city = "Washington"
        address.state = "DC"
        address.postalCode = "20500"
        address.isoCountryCode = "us"
        let frozen = try #require(address.copy() as? CNPostalAddress)
        #expect(frozen.isEqual(address))
        #expect(CNPostalAddressFormatter.string(from: frozen, style: .mailingAddress).contains("Washington DC 20500"))
        #expect(CNPostalAddressStreetKey == "street")
        #expect(CNPostalAddress.localizedString(forKey: CNPostalAddressStreetKey) == "street")
        #expect(CNSocialProfile.localizedString(forService: CNSocialProfileServiceLinkedIn) == "LinkedIn")
    }
}
