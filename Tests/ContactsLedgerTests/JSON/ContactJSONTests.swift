import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A contact with a value for every writable key, and fixed identifiers.
func everyKeyContact() -> MutableContact {
    var values = ContactValues()
    values.contactType = .organization
    values.namePrefix = "Dr."
    values.givenName = "Zoë \"Z\""
    values.middleName = "Q"
    values.familyName = "Ng\u{1}"
    values.previousFamilyName = "Old"
    values.nameSuffix = "Jr."
    values.nickname = "Zed"
    values.phoneticGivenName = "zo-ee"
    values.phoneticMiddleName = "kyu"
    values.phoneticFamilyName = "ing"
    values.organizationName = "Acme 😀"
    values.phoneticOrganizationName = "ak-mee"
    values.departmentName = "R&D"
    values.jobTitle = "Chief\\Engineer"
    values.note = "line one\nline two\ttabbed"
    values.birthday = DateComponents(year: 1984, month: 2, day: 29)
    var lunar = DateComponents(calendar: Calendar(identifier: .chinese), year: 41, month: 6, day: 3)
    lunar.isLeapMonth = true
    values.nonGregorianBirthday = lunar
    values.dates = [
        LabeledValue(identifier: "d1", label: Label.dateAnniversary, value: DateComponents(month: 6, day: 1))
    ]
    values.phoneNumbers = [
        LabeledValue(
            identifier: "p1", label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+1 (555) 010-0001")),
        LabeledValue(identifier: "p2", label: nil, value: PhoneNumber(stringValue: "555 0002")),
    ]
    values.emailAddresses = [LabeledValue(identifier: "e1", label: "custom label", value: "zoe@example.com")]
    values.postalAddresses = [
        LabeledValue(
            identifier: "a1", label: Label.work,
            value: PostalAddress(
                street: "1 Main St\nSuite 2", subLocality: "Downtown", city: "Springfield",
                subAdministrativeArea: "Greene", state: "MO", postalCode: "65801", country: "USA",
                isoCountryCode: "us"))
    ]
    values.vCardExtensions = [LabeledValue(identifier: "X1", label: nil, value: "X-CUSTOM:kept")]
    values.urlAddresses = [
        LabeledValue(identifier: "u1", label: Label.urlAddressHomePage, value: "https://example.com/")
    ]
    values.contactRelations = [
        LabeledValue(identifier: "r1", label: Label.contactRelationMother, value: ContactRelation(name: "Ma"))
    ]
    values.socialProfiles = [
        LabeledValue(
            identifier: "s1", label: nil,
            value: SocialProfile(
                urlString: "https://x.example/z", username: "zed", userIdentifier: "42",
                service: SocialProfile.Service.twitter))
    ]
    values.instantMessageAddresses = [
        LabeledValue(
            identifier: "i1", label: Label.home,
            value: InstantMessageAddress(username: "zed@jabber", service: InstantMessageAddress.Service.jabber))
    ]
    values.imageData = Data([0, 1, 2, 250, 251, 252])
    return MutableContact(
        identifier: "00000000-0000-4000-8000-0000000000C1", values: values, availableKeys: .all, base: nil)
}

@Suite("JSON: contacts")
struct ContactJSONTests {
    @Test("Every key appears under its framework name, in key order")
    func everyKey() throws {
        let object = ContactJSON.object(for: everyKeyContact().copy())
        #expect(object.keys == ContactKey.allCases.map(\.rawValue))
    }

    @Test("Each key's value has the documented shape")
    func shapes() throws {
        let contact = everyKeyContact().copy()
        let value = ContactJSON.value(for: contact)
        #expect(value["identifier"] == "00000000-0000-4000-8000-0000000000C1")
        #expect(value["contactType"] == "organization")
        #expect(value["givenName"] == "Zoë \"Z\"")
        #expect(value["birthday"] == ["month": 2, "day": 29, "year": 1984])
        #expect(
            value["nonGregorianBirthday"] == [
                "month": 6, "day": 3, "year": 41, "calendar": "chinese", "isLeapMonth": true,
            ])
        #expect(
            value["dates"] == [["identifier": "d1", "label": "_$!<Anniversary>!$_", "value": ["month": 6, "day": 1]]])
        #expect(
            value["phoneNumbers"] == [
                ["identifier": "p1", "label": "_$!<Mobile>!$_", "value": "+1 (555) 010-0001"],
                ["identifier": "p2", "label": nil, "value": "555 0002"],
            ])
        #expect(value["emailAddresses"] == [["identifier": "e1", "label": "custom label", "value": "zoe@example.com"]])
        #expect(
            value["postalAddresses"]?.arrayValue?.first?["value"] == [
                "street": "1 Main St\nSuite 2", "subLocality": "Downtown", "city": "Springfield",
                "subAdministrativeArea": "Greene", "state": "MO", "postalCode": "65801", "country": "USA",
                "isoCountryCode": "us",
            ])
        #expect(value["contactRelations"]?.arrayValue?.first?["value"] == ["name": "Ma"])
        #expect(
            value["socialProfiles"]?.arrayValue?.first?["value"] == [
                "urlString": "https://x.example/z", "username": "zed", "userIdentifier": "42", "service": "Twitter",
            ])
        #expect(
            value["instantMessageAddresses"]?.arrayValue?.first?["value"] == [
                "username": "zed@jabber", "service": "Jabber",
            ])
        #expect(value["imageData"] == "AAEC+vv8")
        #expect(value["thumbnailImageData"] == "AAEC+vv8")
        #expect(value["imageDataAvailable"] == true)
    }

    @Test("The compact text of a small contact is exactly the documented form")
    func golden() {
        var values = ContactValues()
        values.givenName = "Ada"
        values.phoneNumbers = [LabeledValue(identifier: "p", label: Label.home, value: PhoneNumber(stringValue: "1"))]
        let contact = Contact(
            identifier: "X", values: values, availableKeys: [.contactType, .givenName, .phoneNumbers, .birthday])
        #expect(
            ContactJSON.value(for: contact).serialized()
                == #"{"identifier":"X","contactType":"person","givenName":"Ada","birthday":null,"#
                + #""phoneNumbers":[{"identifier":"p","label":"_$!<Home>!$_","value":"1"}]}"#)
    }

    @Test("A partial contact gives only its available keys and never traps")
    func partial() {
        let contact = Contact(identifier: "P", values: everyKeyContact().values, availableKeys: [.familyName, .note])
        #expect(ContactJSON.object(for: contact).keys == ["identifier", "familyName", "note"])
        #expect(ContactJSON.value(of: .givenName, in: contact) == .null)
        #expect(ContactJSON.value(of: .familyName, in: contact) == "Ng\u{1}")
    }

    @Test("Every key round-trips through text: contact to JSON to contact", arguments: [false, true])
    func roundTrip(pretty: Bool) throws {
        let original = everyKeyContact()
        let text = ContactJSON.value(for: original.copy()).serialized(pretty ? .pretty : .compact)
        let decoded = try ContactJSON.mutableContacts(parsing: Array(text.utf8))
        #expect(decoded.count == 1)
        #expect(decoded[0].identifier == original.identifier)
        for key in ContactKey.allCases {
            #expect(decoded[0].values.hasSameValue(as: original.values, for: key), "key \(key.rawValue)")
        }
        #expect(decoded[0].isNew)
    }

    @Test("A minimal object makes a new contact with new identifiers")
    func minimal() throws {
        let contact = try ContactJSON.mutableContact(
            from: ["givenName": "Ada", "phoneNumbers": [["label": "home", "value": "1"]], "birthday": nil])
        #expect(contact.givenName == "Ada")
        #expect(!contact.identifier.isEmpty)
        #expect(contact.phoneNumbers.first?.label == "home")
        #expect(!(contact.phoneNumbers.first?.identifier.isEmpty ?? true))
        #expect(contact.birthday == nil)
    }

    @Test("An array of objects reads as several contacts, errors naming the element")
    func array() throws {
        let contacts = try ContactJSON.mutableContacts(from: [["givenName": "A"], ["givenName": "B"]])
        #expect(contacts.map(\.givenName) == ["A", "B"])
        #expect {
            try ContactJSON.mutableContacts(from: [["givenName": "A"], ["givenName": 1]])
        } throws: { error in
            (error as? ContactJSONError)?.keyPath == "$[1].givenName"
        }
    }

    @Test(
        "Bad input names the key path and the kind of problem",
        arguments: [
            (#"{"givenNam": "A"}"#, ContactJSONError.Kind.unknownKey, "$", "givenNam"),
            (#"{"givenName": 1}"#, .wrongType, "$.givenName", "string"),
            (#"{"phoneNumbers": [{"value": "1"}, {"value": 2}]}"#, .wrongType, "$.phoneNumbers[1].value", "string"),
            (#"{"phoneNumbers": [{"label": "x"}]}"#, .missingKey, "$.phoneNumbers[0]", "value"),
            (#"{"phoneNumbers": [{"value": "1", "kind": "x"}]}"#, .unknownKey, "$.phoneNumbers[0]", "kind"),
            (#"{"phoneNumbers": {"value": "1"}}"#, .wrongType, "$.phoneNumbers", "array"),
            (#"{"postalAddresses": [{"value": {"town": "x"}}]}"#, .unknownKey, "$.postalAddresses[0].value", "town"),
            (#"{"birthday": {"month": 1}}"#, .missingKey, "$.birthday", "day"),
            (#"{"birthday": {"month": "1", "day": 2}}"#, .wrongType, "$.birthday.month", "integer"),
            (#"{"birthday": {"month": 1.5, "day": 2}}"#, .wrongType, "$.birthday.month", "integer"),
            (
                #"{"nonGregorianBirthday": {"month": 1, "day": 2, "calendar": "mayan"}}"#, .invalidValue,
                "$.nonGregorianBirthday.calendar", "mayan"
            ),
            (#"{"contactType": "robot"}"#, .invalidValue, "$.contactType", "robot"),
            (#"{"imageData": "not base64!"}"#, .invalidValue, "$.imageData", "base64"),
            (#"{"imageDataAvailable": "yes"}"#, .wrongType, "$.imageDataAvailable", "Boolean"),
            (#"{"identifier": ""}"#, .invalidValue, "$.identifier", "empty"),
            (#"{"identifier": "contact-1"}"#, .invalidValue, "$.identifier", "UUID"),
            (#"{"givenName": "a\u0000b"}"#, .invalidValue, "$.givenName", "NUL"),
            (
                #"{"phoneNumbers": [{"label": "\u0000", "value": "1"}]}"#, .invalidValue, "$.phoneNumbers[0].label",
                "NUL"
            ),
            (
                #"{"postalAddresses": [{"value": {"city": "x\u0000"}}]}"#, .invalidValue,
                "$.postalAddresses[0].value.city", "NUL"
            ),
            (#"["x"]"#, .wrongType, "$[0]", "object"),
            (#"42"#, .wrongType, "$", "object"),
            (#"{"givenName": "A",}"#, .malformedJSON, "$", "at byte 18"),
        ])
    func errors(text: String, kind: ContactJSONError.Kind, keyPath: String, mentions: String) {
        #expect {
            try ContactJSON.mutableContacts(parsing: Array(text.utf8))
        } throws: { error in
            guard let error = error as? ContactJSONError else { return false }
            return error.kind == kind && error.keyPath == keyPath && error.description.contains(mentions)
        }
    }

    @Test("The derived image keys are accepted and ignored; imageData decides")
    func derivedKeys() throws {
        let contact = try ContactJSON.mutableContact(
            from: ["imageData": "AAE=", "thumbnailImageData": nil, "imageDataAvailable": false])
        #expect(contact.imageData == Data([0, 1]))
        #expect(contact.imageDataAvailable)
    }

    @Test("A saved contact read back from a store gives the same JSON as before saving")
    func throughStore() throws {
        let store = ContactStore.inMemory()
        var request = SaveRequest()
        let contact = everyKeyContact()
        request.add(contact, toContainerWithIdentifier: nil)
        try store.execute(request)
        let fetched = try store.unifiedContact(
            withIdentifier: "00000000-0000-4000-8000-0000000000C1", keysToFetch: [ContactKeySet.all])
        #expect(ContactJSON.value(for: fetched) == ContactJSON.value(for: contact.copy()))
    }
}
