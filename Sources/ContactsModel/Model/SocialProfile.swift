import LedgerStorage

/// A social network profile, like the framework's `CNSocialProfile`.
///
/// Any field may be empty. The service is free text: the constants of ``Service`` are the
/// standard ones, and any other name is allowed.
public struct SocialProfile: Sendable, Hashable {
    /// The profile's URL as text.
    public let urlString: String
    /// The user name on the service.
    public let username: String
    /// The service's own identifier for the user.
    public let userIdentifier: String
    /// The service, a ``Service`` constant or any other name.
    public let service: String

    /// Creates a profile; a nil or missing field is stored as the empty string.
    public init(
        urlString: String? = nil, username: String? = nil, userIdentifier: String? = nil,
        service: String? = nil
    ) {
        self.urlString = urlString ?? ""
        self.username = username ?? ""
        self.userIdentifier = userIdentifier ?? ""
        self.service = service ?? ""
    }

    /// Returns the English display name of a field, such as "user name".
    public static func localizedString(forKey key: Key) -> String {
        switch key {
        case .urlString: "URL"
        case .username: "user name"
        case .userIdentifier: "user identifier"
        case .service: "service"
        }
    }

    /// Returns the display name of a standard service, or the service itself when it is not
    /// one of the ``Service`` constants.
    public static func localizedString(forService service: String) -> String {
        Service.displayNames[service] ?? service
    }
}

extension SocialProfile {
    /// A field of a social profile, with the framework's key strings as raw values.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The profile URL.
        case urlString
        /// The user name.
        case username
        /// The service's identifier for the user.
        case userIdentifier
        /// The service.
        case service
    }

    /// The standard social network services, as string constants named after the
    /// framework's `CNSocialProfileService…` constants.
    ///
    /// The raw strings are the service names Apple programs store; they match AddressBook's
    /// `kABPersonSocialProfileService…` values, which the Contacts constants are inferred to
    /// keep.
    public enum Service {
        /// Facebook.
        public static let facebook = "Facebook"
        /// Flickr.
        public static let flickr = "Flickr"
        /// LinkedIn.
        public static let linkedIn = "LinkedIn"
        /// MySpace.
        public static let mySpace = "MySpace"
        /// Sina Weibo.
        public static let sinaWeibo = "SinaWeibo"
        /// Tencent Weibo.
        public static let tencentWeibo = "TencentWeibo"
        /// Twitter.
        public static let twitter = "Twitter"
        /// Yelp.
        public static let yelp = "Yelp"
        /// Game Center.
        public static let gameCenter = "GameCenter"

        /// Every standard service.
        public static let all: [String] = [
            facebook, flickr, linkedIn, mySpace, sinaWeibo, tencentWeibo, twitter, yelp,
            gameCenter,
        ]

        static let displayNames: [String: String] = [
            facebook: "Facebook", flickr: "Flickr", linkedIn: "LinkedIn", mySpace: "MySpace",
            sinaWeibo: "Sina Weibo", tencentWeibo: "Tencent Weibo", twitter: "Twitter",
            yelp: "Yelp", gameCenter: "Game Center",
        ]
    }
}
