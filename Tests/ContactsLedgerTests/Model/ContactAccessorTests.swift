import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Checks every generated accessor against its key: each property must guard, read and write
/// its own key's value and no other.
@Suite("Contact accessors")
struct ContactAccessorTests {
    @Test(
        "Each property reads its own key's value, with only that key fetched",
        arguments: ContactKey.allCases)
    func getterMatchesKey(key: ContactKey) {
        let full = ModelFixtures.fetched(.all)
        let partial = ModelFixtures.fetched(ContactKeySet(key))
        #expect(Self.read(key, of: partial) == Self.read(key, of: full))
        #expect(Self.read(key, of: partial.mutableCopy()) == Self.read(key, of: full))
        if key != .contactType {  // the fixture's type is the default, .person
            #expect(Self.read(key, of: partial) != Self.read(key, of: MutableContact().copy()))
        }
    }

    @Test(
        "Each settable property writes its own key, with only that key fetched",
        arguments: ContactKeySet.writable.keys)
    func setterMatchesKey(key: ContactKey) {
        var contact = ModelFixtures.fetched(ContactKeySet(key)).mutableCopy()
        Self.reset(key, of: &contact)
        let expected: ContactKeySet = key == .contactType ? [] : ContactKeySet(key)
        #expect(contact.changedKeys == expected)
    }

    @Test("The contact type reads and writes its own key")
    func contactType() {
        var contact = ModelFixtures.fetched(.contactType).mutableCopy()
        contact.contactType = .organization
        #expect(contact.changedKeys == .contactType)
        #expect(contact.copy().contactType == .organization)
    }

    /// Reads a property through its public getter.
    static func read(_ key: ContactKey, of contact: Contact) -> AnyHashable {
        switch key {
        case .identifier: contact.identifier
        case .contactType: contact.contactType
        case .namePrefix: contact.namePrefix
        case .givenName: contact.givenName
        case .middleName: contact.middleName
        case .familyName: contact.familyName
        case .previousFamilyName: contact.previousFamilyName
        case .nameSuffix: contact.nameSuffix
        case .nickname: contact.nickname
        case .phoneticGivenName: contact.phoneticGivenName
        case .phoneticMiddleName: contact.phoneticMiddleName
        case .phoneticFamilyName: contact.phoneticFamilyName
        case .organizationName: contact.organizationName
        case .phoneticOrganizationName: contact.phoneticOrganizationName
        case .departmentName: contact.departmentName
        case .jobTitle: contact.jobTitle
        case .note: contact.note
        case .birthday: contact.birthday
        case .nonGregorianBirthday: contact.nonGregorianBirthday
        case .dates: contact.dates
        case .phoneNumbers: contact.phoneNumbers
        case .emailAddresses: contact.emailAddresses
        case .postalAddresses: contact.postalAddresses
        case .urlAddresses: contact.urlAddresses
        case .vCardExtensions: contact.vCardExtensions
        case .contactRelations: contact.contactRelations
        case .socialProfiles: contact.socialProfiles
        case .instantMessageAddresses: contact.instantMessageAddresses
        case .imageData: contact.imageData
        case .thumbnailImageData: contact.thumbnailImageData
        case .imageDataAvailable: contact.imageDataAvailable
        }
    }

    /// Reads a property through the mutable contact's public getter.
    static func read(_ key: ContactKey, of contact: MutableContact) -> AnyHashable {
        switch key {
        case .identifier: contact.identifier
        case .contactType: contact.contactType
        case .namePrefix: contact.namePrefix
        case .givenName: contact.givenName
        case .middleName: contact.middleName
        case .familyName: contact.familyName
        case .previousFamilyName: contact.previousFamilyName
        case .nameSuffix: contact.nameSuffix
        case .nickname: contact.nickname
        case .phoneticGivenName: contact.phoneticGivenName
        case .phoneticMiddleName: contact.phoneticMiddleName
        case .phoneticFamilyName: contact.phoneticFamilyName
        case .organizationName: contact.organizationName
        case .phoneticOrganizationName: contact.phoneticOrganizationName
        case .departmentName: contact.departmentName
        case .jobTitle: contact.jobTitle
        case .note: contact.note
        case .birthday: contact.birthday
        case .nonGregorianBirthday: contact.nonGregorianBirthday
        case .dates: contact.dates
        case .phoneNumbers: contact.phoneNumbers
        case .emailAddresses: contact.emailAddresses
        case .postalAddresses: contact.postalAddresses
        case .urlAddresses: contact.urlAddresses
        case .vCardExtensions: contact.vCardExtensions
        case .contactRelations: contact.contactRelations
        case .socialProfiles: contact.socialProfiles
        case .instantMessageAddresses: contact.instantMessageAddresses
        case .imageData: contact.imageData
        case .thumbnailImageData: contact.thumbnailImageData
        case .imageDataAvailable: contact.imageDataAvailable
        }
    }

    /// Sets a writable property to its default through its public setter.
    static func reset(_ key: ContactKey, of contact: inout MutableContact) {
        switch key {
        case .identifier, .thumbnailImageData, .imageDataAvailable:
            Issue.record("\(key) is read-only")
        case .contactType: contact.contactType = .person
        case .namePrefix: contact.namePrefix = ""
        case .givenName: contact.givenName = ""
        case .middleName: contact.middleName = ""
        case .familyName: contact.familyName = ""
        case .previousFamilyName: contact.previousFamilyName = ""
        case .nameSuffix: contact.nameSuffix = ""
        case .nickname: contact.nickname = ""
        case .phoneticGivenName: contact.phoneticGivenName = ""
        case .phoneticMiddleName: contact.phoneticMiddleName = ""
        case .phoneticFamilyName: contact.phoneticFamilyName = ""
        case .organizationName: contact.organizationName = ""
        case .phoneticOrganizationName: contact.phoneticOrganizationName = ""
        case .departmentName: contact.departmentName = ""
        case .jobTitle: contact.jobTitle = ""
        case .note: contact.note = ""
        case .birthday: contact.birthday = nil
        case .nonGregorianBirthday: contact.nonGregorianBirthday = nil
        case .dates: contact.dates = []
        case .phoneNumbers: contact.phoneNumbers = []
        case .emailAddresses: contact.emailAddresses = []
        case .postalAddresses: contact.postalAddresses = []
        case .urlAddresses: contact.urlAddresses = []
        case .vCardExtensions: contact.vCardExtensions = []
        case .contactRelations: contact.contactRelations = []
        case .socialProfiles: contact.socialProfiles = []
        case .instantMessageAddresses: contact.instantMessageAddresses = []
        case .imageData: contact.imageData = nil
        }
    }
}
