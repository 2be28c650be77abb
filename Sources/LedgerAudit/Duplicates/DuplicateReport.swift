import ContactsLedger
import Foundation

/// Why two contacts look like one person, with the points it adds to their score.
public enum DuplicateReason: Sendable, Hashable, CustomStringConvertible {
    /// Both have this email address (case-folded).
    case sameEmailAddress(String)
    /// Both have this phone number (`+CC NATIONAL`, or `? NATIONAL` when a number's calling
    /// code is unknown), read with the store's region.
    case samePhoneNumber(String)
    /// Both have this given and family name, case, diacritics and spacing folded away.
    case sameName(String)
    /// Both have this name and work at this organization.
    case sameNameAndOrganization(name: String, organization: String)
    /// Same family name, and one's given name is a nickname of the other's.
    case nickname(String, of: String)

    /// The points the reason adds; a pair's score is their sum, at most 100.
    ///
    /// An email address is the strongest single sign; a phone number less (households and
    /// switchboards share one); a name alone is weak (people share names) and never reaches the
    /// default threshold, with an organization it just does; a nickname counts only beside
    /// another sign.
    public var points: Int {
        switch self {
        case .sameEmailAddress: 50
        case .samePhoneNumber: 40
        case .sameName: 30
        case .sameNameAndOrganization: 50
        case .nickname: 25
        }
    }

    /// The reason in words.
    public var description: String {
        switch self {
        case .sameEmailAddress(let address): "the same email address \(address)"
        case .samePhoneNumber(let number): "the same phone number \(number)"
        case .sameName(let name): "the same name \"\(name)\""
        case .sameNameAndOrganization(let name, let organization):
            "the same name \"\(name)\" at the same organization \"\(organization)\""
        case .nickname(let nickname, let name): "\"\(nickname)\" is a nickname of \"\(name)\""
        }
    }
}

/// Two contacts that look like one person: their score (0 to 100) and the reasons.
public struct DuplicatePair: Sendable, Hashable {
    /// The contact that comes first in the store.
    public var first: String
    /// The other contact.
    public var second: String
    /// The sum of the reasons' points, at most 100.
    public var score: Int
    /// Every reason found, strongest first.
    public var reasons: [DuplicateReason]
}

/// Contacts that look like one person: the pairs above the threshold, joined wherever they share
/// a contact.
public struct DuplicateCluster: Sendable, Hashable {
    /// The contacts, in store order.
    public var identifiers: [String]
    /// Each contact's name as the report shows it (its organization when it has no name), in the
    /// order of ``identifiers``.
    public var names: [String]
    /// The highest score of its pairs.
    public var score: Int
    /// The pairs that joined it, highest score first.
    public var pairs: [DuplicatePair]
}

/// What ``ContactStore/duplicates(_:progress:)`` looks for.
public struct DuplicateOptions: Sendable {
    /// The lowest score a pair needs to be reported (default 50).
    public var minimumScore: Int
    /// Contacts sharing one key (an address, a number, a name at an organization) are compared
    /// pairwise only up to this many; a larger block (a switchboard's number on hundreds of cards)
    /// is passed over and counted in ``DuplicateReport/blocksPassedOver``.
    public var blockSizeLimit: Int
    /// The region phone numbers are read in; nil for the store's (``ClientContext/region``).
    public var region: String?

    /// Options; the defaults are those of the `duplicates` command.
    public init(minimumScore: Int = 50, blockSizeLimit: Int = 50, region: String? = nil) {
        self.minimumScore = minimumScore
        self.blockSizeLimit = blockSizeLimit
        self.region = region
    }
}

/// The likely duplicates of an address book.
public struct DuplicateReport: Sendable {
    /// The clusters, highest score first (ties in store order).
    public var clusters: [DuplicateCluster]
    /// How many contacts were examined (those the client sees).
    public var contactsExamined: Int
    /// How many pairs of contacts were scored.
    public var pairsScored: Int
    /// How many blocks were larger than ``DuplicateOptions/blockSizeLimit`` and passed over.
    public var blocksPassedOver: Int
}
