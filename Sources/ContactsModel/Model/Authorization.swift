import LedgerStorage

/// Whether a client may reach the contacts, as the framework's `CNAuthorizationStatus` models it.
public enum AuthorizationStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The user has not decided yet; every fetch and save fails until ``ContactStore/requestAccess(for:)`` decides.
    case notDetermined = 0
    /// The client may not reach contacts and the user cannot change that (for example by policy).
    case restricted = 1
    /// The user denied access.
    case denied = 2
    /// Full access: every contact may be fetched, created, changed and deleted.
    case authorized = 3
    /// Limited access: only the contacts granted to the client and those it created.
    case limited = 4

    /// The case's name.
    public var description: String {
        switch self {
        case .notDetermined: "notDetermined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .authorized: "authorized"
        case .limited: "limited"
        }
    }
}

/// The kinds of data access is asked for; contacts is the only one, as in the framework.
public enum EntityType: Int, Sendable, Hashable {
    /// Contacts.
    case contacts = 0
}
