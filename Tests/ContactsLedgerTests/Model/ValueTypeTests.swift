import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Value types")
struct ValueTypeTests {
    @Test(
        "PhoneNumber.digits keeps decimal digits of any script and a leading plus",
        arguments: [
            ("+1 (408) 555-0100", "+14085550100"),
            ("408.555.0100 ext 7", "40855501007"),
            ("  +44 20 7946 0000", "+442079460000"),
            ("1-800-FLOWERS", "1800"),
            ("٠١٢٣", "0123"),
            ("０９０-１２３４", "0901234"),
            ("5+5", "55"),
            ("+", ""),
            ("x²", ""),
        ])
    func phoneDigits(text: String, digits: String) {
        #expect(PhoneNumber(stringValue: text).digits == digits)
        #expect(PhoneNumber(stringValue: text).stringValue == text)
    }

    @Test("Postal addresses copy both ways and name their keys with the framework's strings")
    func postalAddress() {
        var mutable = MutablePostalAddress()
        mutable.street = "1 Infinite Loop"
        mutable.city = "Cupertino"
        mutable.isoCountryCode = "us"
        let address = mutable.copy()
        #expect(address.street == "1 Infinite Loop")
        #expect(address.mutableCopy() == mutable)
        #expect(address[.city] == "Cupertino")
        #expect(!address.isEmpty)
        #expect(PostalAddress().isEmpty)
        #expect(
            PostalAddress.Key.allCases.map(\.rawValue) == [
                "street", "subLocality", "city", "subAdministrativeArea", "state", "postalCode",
                "country", "ISOCountryCode",
            ])
        #expect(PostalAddress.localizedString(forKey: .postalCode) == "postal code")
    }

    @Test("Social profiles and instant message addresses keep the framework's shapes")
    func profiles() {
        let profile = SocialProfile(
            urlString: nil, username: "jo", service: SocialProfile.Service.linkedIn)
        #expect(profile.urlString == "")
        #expect(profile.userIdentifier == "")
        #expect(profile.service == "LinkedIn")
        #expect(
            SocialProfile.localizedString(forService: SocialProfile.Service.sinaWeibo)
                == "Sina Weibo")
        #expect(SocialProfile.localizedString(forService: "Mastodon") == "Mastodon")
        #expect(SocialProfile.Key.urlString.rawValue == "urlString")
        #expect(SocialProfile.Service.all.count == 9)

        let im = InstantMessageAddress(
            username: "jo", service: InstantMessageAddress.Service.jabber)
        #expect(im.service == "Jabber")
        #expect(InstantMessageAddress.localizedString(forService: "GaduGadu") == "Gadu-Gadu")
        #expect(InstantMessageAddress.Service.all.count == 10)
    }

    @Test("Enumerations carry the framework's raw values")
    func rawValues() {
        #expect(ContactType.person.rawValue == 0)
        #expect(ContactType.organization.rawValue == 1)
        #expect(ContainerType.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(ContainerType(rawValue: 3) == .cardDAV)
        #expect(ContactSortOrder.allCases.map(\.rawValue) == [0, 1, 2, 3])
    }

    @Test("Groups keep their identifier through mutable copies; new groups get a new one")
    func groups() {
        var group = MutableGroup(name: "Family")
        let other = MutableGroup(name: "Family")
        #expect(group.identifier != other.identifier)
        group.name = "Relatives"
        let saved = group.copy()
        #expect(saved.identifier == group.identifier)
        #expect(saved.name == "Relatives")
        #expect(saved.mutableCopy() == group)
        let container = Container(identifier: "local", name: "On My Mac", type: .local)
        #expect(container.type == .local)
    }

    @Test("User defaults are en_US-style with the locale's country, and never refer to themselves")
    func userDefaults() {
        let shared = ContactsUserDefaults.shared
        #expect(shared.sortOrder == .familyName)
        #expect(shared.displayNameOrder == .givenNameFirst)
        #expect(shared.countryCode == ContactsUserDefaults.localeRegion(in: ProcessInfo.processInfo.environment) ?? "")
        let odd = ContactsUserDefaults(
            sortOrder: .userDefault, displayNameOrder: .userDefault, countryCode: "DE")
        #expect(odd.sortOrder == .familyName)
        #expect(odd.displayNameOrder == .givenNameFirst)
        #expect(odd.countryCode == "de")
    }
}
