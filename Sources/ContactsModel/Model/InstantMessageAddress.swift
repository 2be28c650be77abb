import LedgerStorage

/// An instant messaging account, like the framework's `CNInstantMessageAddress`.
///
/// The service is free text: the constants of ``Service`` are the standard ones, and any
/// other name is allowed.
public struct InstantMessageAddress: Sendable, Hashable {
    /// The user name on the service.
    public let username: String
    /// The service, a ``Service`` constant or any other name.
    public let service: String

    /// Creates an instant message address.
    public init(username: String, service: String) {
        self.username = username
        self.service = service
    }

    /// Returns the English display name of a field, such as "user name".
    public static func localizedString(forKey key: Key) -> String {
        switch key {
        case .username: "user name"
        case .service: "service"
        }
    }

    /// Returns the display name of a standard service, or the service itself when it is not
    /// one of the ``Service`` constants.
    public static func localizedString(forService service: String) -> String {
        Service.displayNames[service] ?? service
    }
}

extension InstantMessageAddress {
    /// A field of an instant message address, with the framework's key strings as raw values.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The user name.
        case username
        /// The service.
        case service
    }

    /// The standard instant messaging services, as string constants named after the
    /// framework's `CNInstantMessageService…` constants.
    ///
    /// The raw strings are the service names Apple programs store; they match AddressBook's
    /// `kABPersonInstantMessageService…` values, which the Contacts constants are inferred to
    /// keep.
    public enum Service {
        /// AOL Instant Messenger.
        public static let aim = "AIM"
        /// Facebook Messenger.
        public static let facebook = "Facebook"
        /// Gadu-Gadu.
        public static let gaduGadu = "GaduGadu"
        /// Google Talk.
        public static let googleTalk = "GoogleTalk"
        /// ICQ.
        public static let icq = "ICQ"
        /// Jabber (XMPP).
        public static let jabber = "Jabber"
        /// MSN Messenger.
        public static let msn = "MSN"
        /// QQ.
        public static let qq = "QQ"
        /// Skype.
        public static let skype = "Skype"
        /// Yahoo! Messenger.
        public static let yahoo = "Yahoo"

        /// Every standard service.
        public static let all: [String] = [
            aim, facebook, gaduGadu, googleTalk, icq, jabber, msn, qq, skype, yahoo,
        ]

        static let displayNames: [String: String] = [
            aim: "AIM", facebook: "Facebook", gaduGadu: "Gadu-Gadu", googleTalk: "Google Talk",
            icq: "ICQ", jabber: "Jabber", msn: "MSN", qq: "QQ", skype: "Skype", yahoo: "Yahoo!",
        ]
    }
}
