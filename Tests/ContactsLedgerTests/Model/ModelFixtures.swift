import Foundation

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Builders shared by the model and formatting tests.
enum ModelFixtures {
    /// A contact as a store would hand it out: fetched with the given keys only.
    static func fetched(
        _ keys: ContactKeySet, identifier: String = "C-1", revision: UInt64 = 7,
        configure: (inout ContactValues) -> Void = { _ in }
    ) -> Contact {
        var values = fullValues()
        configure(&values)
        return Contact(
            identifier: identifier, values: values, availableKeys: keys, revision: revision)
    }

    /// Values with something in every key, as a store's projection holds them; the same on
    /// every call, labeled value identifiers included.
    static func fullValues() -> ContactValues {
        var values = ContactValues()
        values.contactType = .person
        values.namePrefix = "Dr."
        values.givenName = "John"
        values.middleName = "Paul"
        values.familyName = "Appleseed"
        values.previousFamilyName = "Smith"
        values.nameSuffix = "Jr."
        values.nickname = "Johnny"
        values.phoneticGivenName = "Jon"
        values.phoneticMiddleName = "Pol"
        values.phoneticFamilyName = "Appelseed"
        values.organizationName = "Apple Inc."
        values.phoneticOrganizationName = "Appel"
        values.departmentName = "Orchard"
        values.jobTitle = "Grower"
        values.note = "Allergic to pears."
        values.birthday = DateComponents(month: 4, day: 1)
        values.nonGregorianBirthday = DateComponents(
            calendar: Calendar(identifier: .chinese), month: 8, day: 15)
        values.dates = [
            LabeledValue(
                identifier: "L-1", label: Label.dateAnniversary,
                value: DateComponents(year: 2001, month: 6, day: 9))
        ]
        values.phoneNumbers = [
            LabeledValue(
                identifier: "L-2", label: Label.phoneNumberMobile,
                value: PhoneNumber(stringValue: "+1 408 555 0100"))
        ]
        values.emailAddresses = [
            LabeledValue(identifier: "L-3", label: Label.work, value: "john@example.com")
        ]
        values.postalAddresses = [
            LabeledValue(
                identifier: "L-4", label: Label.home,
                value: PostalAddress(street: "1 Infinite Loop", city: "Cupertino"))
        ]
        values.urlAddresses = [
            LabeledValue(
                identifier: "L-5", label: Label.urlAddressHomePage, value: "https://example.com")
        ]
        values.vCardExtensions = [LabeledValue(identifier: "L-X", label: nil, value: "X-CUSTOM:kept")]
        values.contactRelations = [
            LabeledValue(
                identifier: "L-6", label: Label.contactRelationMother,
                value: ContactRelation(name: "Jane"))
        ]
        values.socialProfiles = [
            LabeledValue(
                identifier: "L-7", label: nil,
                value: SocialProfile(username: "john", service: SocialProfile.Service.twitter))
        ]
        values.instantMessageAddresses = [
            LabeledValue(
                identifier: "L-8", label: Label.home,
                value: InstantMessageAddress(
                    username: "john", service: InstantMessageAddress.Service.skype))
        ]
        values.imageData = Data([0xFF, 0xD8, 0xFF])
        return values
    }

    /// A new person contact with the given name parts.
    static func person(
        given: String = "", middle: String = "", family: String = "", prefix: String = "",
        suffix: String = "", organization: String = "", type: ContactType = .person
    ) -> Contact {
        var contact = MutableContact()
        contact.givenName = given
        contact.middleName = middle
        contact.familyName = family
        contact.namePrefix = prefix
        contact.nameSuffix = suffix
        contact.organizationName = organization
        contact.contactType = type
        return contact.copy()
    }
}
