import ContactsLedger
import Foundation

/// An immutable phone number, like the framework's `CNPhoneNumber`.
public final class CNPhoneNumber: NSObject, NSCopying, @unchecked Sendable {
    /// The native number.
    let native: PhoneNumber

    /// Creates a phone number from its text.
    public init(stringValue: String) { native = PhoneNumber(stringValue: stringValue) }

    /// Wraps a native number.
    init(_ native: PhoneNumber) { self.native = native }

    /// The number as entered.
    public var stringValue: String { native.stringValue }

    /// The number itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
    /// Whether `object` is a phone number with the same text.
    public override func isEqual(_ object: Any?) -> Bool { (object as? CNPhoneNumber)?.native == native }
    /// A hash of the number.
    public override var hash: Int { native.hashValue }
}

/// The key of `CNPostalAddress.street`.
public let CNPostalAddressStreetKey: String = PostalAddress.Key.street.rawValue
/// The key of `CNPostalAddress.subLocality`.
public let CNPostalAddressSubLocalityKey: String = PostalAddress.Key.subLocality.rawValue
/// The key of `CNPostalAddress.city`.
public let CNPostalAddressCityKey: String = PostalAddress.Key.city.rawValue
/// The key of `CNPostalAddress.subAdministrativeArea`.
public let CNPostalAddressSubAdministrativeAreaKey: String = PostalAddress.Key.subAdministrativeArea.rawValue
/// The key of `CNPostalAddress.state`.
public let CNPostalAddressStateKey: String = PostalAddress.Key.state.rawValue
/// The key of `CNPostalAddress.postalCode`.
public let CNPostalAddressPostalCodeKey: String = PostalAddress.Key.postalCode.rawValue
/// The key of `CNPostalAddress.country`.
public let CNPostalAddressCountryKey: String = PostalAddress.Key.country.rawValue
/// The key of `CNPostalAddress.isoCountryCode`.
public let CNPostalAddressISOCountryCodeKey: String = PostalAddress.Key.isoCountryCode.rawValue

/// A postal address, like the framework's `CNPostalAddress`; ``CNMutablePostalAddress`` is the
/// one to change.
public class CNPostalAddress: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The native address; changed only by ``CNMutablePostalAddress``, which is not thread-safe.
    var native: MutablePostalAddress

    /// An empty address.
    public override init() { native = MutablePostalAddress() }

    /// Wraps a native address.
    init(_ address: PostalAddress) { native = address.mutableCopy() }

    /// The street lines, separated by "\n".
    public var street: String { native.street }
    /// The district within the city.
    public var subLocality: String { native.subLocality }
    /// The city.
    public var city: String { native.city }
    /// The area between city and state.
    public var subAdministrativeArea: String { native.subAdministrativeArea }
    /// The state or province.
    public var state: String { native.state }
    /// The postal code.
    public var postalCode: String { native.postalCode }
    /// The country.
    public var country: String { native.country }
    /// The ISO 3166-1 alpha-2 country code.
    public var isoCountryCode: String { native.isoCountryCode }

    /// The display name of a `CNPostalAddress...Key`, or the key itself when it names none.
    public class func localizedString(forKey key: String) -> String {
        PostalAddress.Key(rawValue: key).map(PostalAddress.localizedString(forKey:)) ?? key
    }

    /// An immutable copy.
    public func copy(with zone: NSZone? = nil) -> Any { CNPostalAddress(native.copy()) }
    /// A mutable copy.
    public func mutableCopy(with zone: NSZone? = nil) -> Any {
        let copy = CNMutablePostalAddress()
        copy.native = native
        return copy
    }
    /// Whether `object` is an address with the same fields.
    public override func isEqual(_ object: Any?) -> Bool { (object as? CNPostalAddress)?.native == native }
    /// A hash of the fields.
    public override var hash: Int { native.hashValue }
}

/// A postal address that can be changed, like the framework's `CNMutablePostalAddress`.
public final class CNMutablePostalAddress: CNPostalAddress, @unchecked Sendable {
    /// The street lines, separated by "\n".
    public override var street: String {
        get { native.street }
        set { native.street = newValue }
    }
    /// The district within the city.
    public override var subLocality: String {
        get { native.subLocality }
        set { native.subLocality = newValue }
    }
    /// The city.
    public override var city: String {
        get { native.city }
        set { native.city = newValue }
    }
    /// The area between city and state.
    public override var subAdministrativeArea: String {
        get { native.subAdministrativeArea }
        set { native.subAdministrativeArea = newValue }
    }
    /// The state or province.
    public override var state: String {
        get { native.state }
        set { native.state = newValue }
    }
    /// The postal code.
    public override var postalCode: String {
        get { native.postalCode }
        set { native.postalCode = newValue }
    }
    /// The country.
    public override var country: String {
        get { native.country }
        set { native.country = newValue }
    }
    /// The ISO 3166-1 alpha-2 country code.
    public override var isoCountryCode: String {
        get { native.isoCountryCode }
        set { native.isoCountryCode = newValue }
    }
}

/// The name of a related person, like the framework's `CNContactRelation`.
public final class CNContactRelation: NSObject, NSCopying, @unchecked Sendable {
    /// The native relation.
    let native: ContactRelation
    /// Creates a relation with a person's name.
    public init(name: String) { native = ContactRelation(name: name) }
    /// Wraps a native relation.
    init(_ native: ContactRelation) { self.native = native }
    /// The related person's name.
    public var name: String { native.name }
    /// The relation itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
    /// Whether `object` is a relation with the same name.
    public override func isEqual(_ object: Any?) -> Bool { (object as? CNContactRelation)?.native == native }
    /// A hash of the name.
    public override var hash: Int { native.hashValue }
}

/// A social network profile, like the framework's `CNSocialProfile`.
public final class CNSocialProfile: NSObject, NSCopying, @unchecked Sendable {
    /// The native profile.
    let native: SocialProfile
    /// Creates a profile; nil fields are empty.
    public init(urlString: String?, username: String?, userIdentifier: String?, service: String?) {
        native = SocialProfile(
            urlString: urlString ?? "", username: username ?? "", userIdentifier: userIdentifier ?? "",
            service: service ?? "")
    }
    /// Wraps a native profile.
    init(_ native: SocialProfile) { self.native = native }
    /// The profile's URL.
    public var urlString: String { native.urlString }
    /// The user name.
    public var username: String { native.username }
    /// The service's identifier for the user.
    public var userIdentifier: String { native.userIdentifier }
    /// The service (a `CNSocialProfileService...` constant or any text).
    public var service: String { native.service }
    /// The display name of a `CNSocialProfile...Key`, or the key itself.
    public class func localizedString(forKey key: String) -> String {
        SocialProfile.Key(rawValue: key).map(SocialProfile.localizedString(forKey:)) ?? key
    }
    /// The display name of a service.
    public class func localizedString(forService service: String) -> String {
        SocialProfile.localizedString(forService: service)
    }
    /// The profile itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
    /// Whether `object` is a profile with the same fields.
    public override func isEqual(_ object: Any?) -> Bool { (object as? CNSocialProfile)?.native == native }
    /// A hash of the fields.
    public override var hash: Int { native.hashValue }
}

/// An instant message address, like the framework's `CNInstantMessageAddress`.
public final class CNInstantMessageAddress: NSObject, NSCopying, @unchecked Sendable {
    /// The native address.
    let native: InstantMessageAddress
    /// Creates an address.
    public init(username: String, service: String) {
        native = InstantMessageAddress(username: username, service: service)
    }
    /// Wraps a native address.
    init(_ native: InstantMessageAddress) { self.native = native }
    /// The user name.
    public var username: String { native.username }
    /// The service (a `CNInstantMessageService...` constant or any text).
    public var service: String { native.service }
    /// The display name of a `CNInstantMessageAddress...Key`, or the key itself.
    public class func localizedString(forKey key: String) -> String {
        InstantMessageAddress.Key(rawValue: key).map(InstantMessageAddress.localizedString(forKey:)) ?? key
    }
    /// The display name of a service.
    public class func localizedString(forService service: String) -> String {
        InstantMessageAddress.localizedString(forService: service)
    }
    /// The address itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
    /// Whether `object` is an address with the same fields.
    public override func isEqual(_ object: Any?) -> Bool { (object as? CNInstantMessageAddress)?.native == native }
    /// A hash of the fields.
    public override var hash: Int { native.hashValue }
}

// The social profile and instant message keys and services.

/// The key of `CNSocialProfile.urlString`.
public let CNSocialProfileURLStringKey: String = SocialProfile.Key.urlString.rawValue
/// The key of `CNSocialProfile.username`.
public let CNSocialProfileUsernameKey: String = SocialProfile.Key.username.rawValue
/// The key of `CNSocialProfile.userIdentifier`.
public let CNSocialProfileUserIdentifierKey: String = SocialProfile.Key.userIdentifier.rawValue
/// The key of `CNSocialProfile.service`.
public let CNSocialProfileServiceKey: String = SocialProfile.Key.service.rawValue
/// The framework's social profile service `facebook`.
public let CNSocialProfileServiceFacebook: String = SocialProfile.Service.facebook
/// The framework's social profile service `flickr`.
public let CNSocialProfileServiceFlickr: String = SocialProfile.Service.flickr
/// The framework's social profile service `linkedIn`.
public let CNSocialProfileServiceLinkedIn: String = SocialProfile.Service.linkedIn
/// The framework's social profile service `mySpace`.
public let CNSocialProfileServiceMySpace: String = SocialProfile.Service.mySpace
/// The framework's social profile service `sinaWeibo`.
public let CNSocialProfileServiceSinaWeibo: String = SocialProfile.Service.sinaWeibo
/// The framework's social profile service `tencentWeibo`.
public let CNSocialProfileServiceTencentWeibo: String = SocialProfile.Service.tencentWeibo
/// The framework's social profile service `twitter`.
public let CNSocialProfileServiceTwitter: String = SocialProfile.Service.twitter
/// The framework's social profile service `yelp`.
public let CNSocialProfileServiceYelp: String = SocialProfile.Service.yelp
/// The framework's social profile service `gameCenter`.
public let CNSocialProfileServiceGameCenter: String = SocialProfile.Service.gameCenter
/// The key of `CNInstantMessageAddress.username`.
public let CNInstantMessageAddressUsernameKey: String = InstantMessageAddress.Key.username.rawValue
/// The key of `CNInstantMessageAddress.service`.
public let CNInstantMessageAddressServiceKey: String = InstantMessageAddress.Key.service.rawValue
/// The framework's instant message service `AIM`.
public let CNInstantMessageServiceAIM: String = InstantMessageAddress.Service.aim
/// The framework's instant message service `Facebook`.
public let CNInstantMessageServiceFacebook: String = InstantMessageAddress.Service.facebook
/// The framework's instant message service `GaduGadu`.
public let CNInstantMessageServiceGaduGadu: String = InstantMessageAddress.Service.gaduGadu
/// The framework's instant message service `GoogleTalk`.
public let CNInstantMessageServiceGoogleTalk: String = InstantMessageAddress.Service.googleTalk
/// The framework's instant message service `ICQ`.
public let CNInstantMessageServiceICQ: String = InstantMessageAddress.Service.icq
/// The framework's instant message service `Jabber`.
public let CNInstantMessageServiceJabber: String = InstantMessageAddress.Service.jabber
/// The framework's instant message service `MSN`.
public let CNInstantMessageServiceMSN: String = InstantMessageAddress.Service.msn
/// The framework's instant message service `QQ`.
public let CNInstantMessageServiceQQ: String = InstantMessageAddress.Service.qq
/// The framework's instant message service `Skype`.
public let CNInstantMessageServiceSkype: String = InstantMessageAddress.Service.skype
/// The framework's instant message service `Yahoo`.
public let CNInstantMessageServiceYahoo: String = InstantMessageAddress.Service.yahoo
