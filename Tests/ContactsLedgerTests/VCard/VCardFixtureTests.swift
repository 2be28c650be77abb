import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Imports every real vCard under Tests/Fixtures/vcards and compares each card, field by field,
/// with what the file says (see VCardFixtureTable.swift).
@Suite("VCard fixtures")
struct VCardFixtureTests {
    @Test("every .vcf file under Tests/Fixtures/vcards has an expectation, and every expectation a file")
    func everyFixtureIsCovered() throws {
        let files = Set(try VCardTestSupport.allFixturePaths())
        let expected = Set(VCardFixture.all.map(\.path))
        #expect(files.count >= 70, "expected the 72 copied fixtures, found \(files.count)")
        #expect(files.subtracting(expected).sorted() == [], "fixtures without an expectation")
        #expect(expected.subtracting(files).sorted() == [], "expectations without a fixture")
    }

    @Test("each fixture imports as expected", arguments: VCardFixture.all)
    func fixtureImportsAsExpected(_ fixture: VCardFixture) throws {
        let data = try VCardTestSupport.fixtureData(fixture.path)
        let result = try VCardSerialization.read(data, fallbackEncoding: fixture.fallbackEncoding)

        #expect(result.contacts.map(\.index) == fixture.cards.map(\.index), "indices of the imported cards")
        for expected in fixture.cards {
            guard let contact = result.contacts.first(where: { $0.index == expected.index })?.contact else {
                continue
            }
            Self.compare(contact, with: expected)
        }
        let rejected = result.rejected.map { VCardExpectedRejection(index: $0.cardIndex, line: $0.line, $0.kind) }
        #expect(rejected == fixture.rejected, "rejected cards")
        for error in result.rejected {
            #expect(error.description.contains("index \(error.cardIndex)"))
            #expect(error.description.contains("line \(error.line)"))
        }
        let warnings = result.warnings.map { VCardExpectedWarning($0.kind, line: $0.line) }
        #expect(warnings == fixture.warnings, "warnings")
    }

    @Test(
        "strict mode throws the first rejected card of a fixture",
        arguments: VCardFixture.all.filter { !$0.rejected.isEmpty })
    func strictModeThrows(_ fixture: VCardFixture) throws {
        let data = try VCardTestSupport.fixtureData(fixture.path)
        let error = try #require(throws: VCardCardError.self) {
            try VCardSerialization.read(data, strict: true, fallbackEncoding: fixture.fallbackEncoding)
        }
        #expect(error.cardIndex == fixture.rejected.first?.index)
        #expect(error.line == fixture.rejected.first?.line)
        let storeError = try #require(throws: ContactStoreError.self) {
            try VCardSerialization.contacts(with: data)
        }
        #expect(storeError.code == .vCardMalformed)
        #expect(storeError.message.contains("line \(error.line)"))
    }

    static func compare(_ contact: MutableContact, with expected: VCardExpectedCard) {
        let card = "card \(expected.index)"
        #expect(contact.contactType == expected.type, "\(card) type")
        #expect(contact.namePrefix == expected.prefix, "\(card) prefix")
        #expect(contact.givenName == expected.given, "\(card) given name")
        #expect(contact.middleName == expected.middle, "\(card) middle name")
        #expect(contact.familyName == expected.family, "\(card) family name")
        #expect(contact.nameSuffix == expected.suffix, "\(card) suffix")
        #expect(contact.nickname == expected.nickname, "\(card) nickname")
        #expect(contact.phoneticGivenName == expected.phoneticGiven, "\(card) phonetic given name")
        #expect(contact.phoneticMiddleName == expected.phoneticMiddle, "\(card) phonetic middle name")
        #expect(contact.phoneticFamilyName == expected.phoneticFamily, "\(card) phonetic family name")
        #expect(contact.organizationName == expected.organization, "\(card) organization")
        #expect(contact.departmentName == expected.department, "\(card) department")
        #expect(contact.jobTitle == expected.jobTitle, "\(card) job title")
        #expect(expected.note.matches(contact.note), "\(card) note: \(contact.note.debugDescription)")
        #expect(contact.birthday.map(VCardTestSupport.dateString) == expected.birthday, "\(card) birthday")
        #expect(contact.nonGregorianBirthday == nil, "\(card) non-Gregorian birthday")
        #expect(
            contact.dates.map { VCardExpectedLabeled($0.label, VCardTestSupport.dateString($0.value)) }
                == expected.dates,
            "\(card) dates")
        #expect(
            contact.phoneNumbers.map { VCardExpectedLabeled($0.label, $0.value.stringValue) } == expected.phones,
            "\(card) phone numbers")
        #expect(
            contact.emailAddresses.map { VCardExpectedLabeled($0.label, $0.value) } == expected.emails, "\(card) emails"
        )
        #expect(
            contact.postalAddresses.map { VCardExpectedAddress.from($0) } == expected.addresses, "\(card) addresses")
        #expect(contact.urlAddresses.map { VCardExpectedLabeled($0.label, $0.value) } == expected.urls, "\(card) URLs")
        #expect(
            contact.contactRelations.map { VCardExpectedLabeled($0.label, $0.value.name) } == expected.relations,
            "\(card) relations")
        #expect(
            contact.instantMessageAddresses.map {
                VCardExpectedLabeled($0.label, $0.value.service + ":" + $0.value.username)
            } == expected.instantMessages, "\(card) instant messages")
        #expect(contact.socialProfiles.isEmpty, "\(card) social profiles")
        let photo = contact.imageData.map {
            VCardExpectedPhoto(
                VCardImageType(of: [UInt8]($0)) ?? .jpeg, bytes: $0.count, sha256: VCardTestSupport.sha256Prefix($0))
        }
        #expect(photo == expected.photo, "\(card) photo")
        if let expectedPhoto = expected.photo, let image = contact.imageData {
            #expect(VCardImageType(of: [UInt8](image)) == expectedPhoto.format, "\(card) photo format")
        }
    }
}

extension VCardExpectedAddress {
    /// The expectation a labeled address would satisfy.
    static func from(_ labeled: LabeledValue<PostalAddress>) -> VCardExpectedAddress {
        let address = labeled.value
        return VCardExpectedAddress(
            labeled.label, street: address.street, subLocality: address.subLocality, city: address.city,
            subAdministrativeArea: address.subAdministrativeArea, state: address.state,
            postalCode: address.postalCode, country: address.country, isoCountryCode: address.isoCountryCode)
    }
}
