import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation
import LedgerStorage

/// Which contacts a fetch returns, like the framework's `CNContact` predicates.
///
/// Name, email and phone predicates are answered from the search indexes, not by scanning:
/// - name: every word of the query is a prefix of some word of the contact's name fields or
///   organization, ignoring case and diacritics;
/// - email: the whole address, ignoring case;
/// - phone: digits only, a national number matching its international form.
/// A custom Foundation `Predicate<Contact>` is evaluated on each contact with every key the
/// client may read (so it may read any key except the note without the notes entitlement).
public struct ContactPredicate: Sendable {
    package indirect enum Kind: Sendable {
        case name(String)
        case emailAddress(String)
        case phoneNumber(PhoneNumber)
        case identifiers([String])
        case group(String)
        case container(String)
        case custom(Predicate<Contact>)
    }

    package let kind: Kind

    /// Contacts whose names match every word of `name` (prefix, ignoring case and diacritics).
    public static func matchingName(_ name: String) -> ContactPredicate { ContactPredicate(kind: .name(name)) }
    /// Contacts with this email address (ignoring case).
    public static func matchingEmailAddress(_ address: String) -> ContactPredicate {
        ContactPredicate(kind: .emailAddress(address))
    }
    /// Contacts with this phone number, national and international forms alike.
    public static func matching(_ phoneNumber: PhoneNumber) -> ContactPredicate {
        ContactPredicate(kind: .phoneNumber(phoneNumber))
    }
    /// Contacts with these identifiers.
    public static func withIdentifiers(_ identifiers: [String]) -> ContactPredicate {
        ContactPredicate(kind: .identifiers(identifiers))
    }
    /// The members of a group.
    public static func inGroup(withIdentifier identifier: String) -> ContactPredicate {
        ContactPredicate(kind: .group(identifier))
    }
    /// The contacts in a container.
    public static func inContainer(withIdentifier identifier: String) -> ContactPredicate {
        ContactPredicate(kind: .container(identifier))
    }
    /// Contacts for which a Foundation predicate holds (evaluated on each contact).
    public static func custom(_ predicate: Predicate<Contact>) -> ContactPredicate {
        ContactPredicate(kind: .custom(predicate))
    }
}

extension Contact {
    /// Contacts whose names match every word of `name`, as `CNContact.predicateForContacts(matchingName:)`.
    public static func predicateForContacts(matchingName name: String) -> ContactPredicate { .matchingName(name) }
    /// Contacts with this email address, as `CNContact.predicateForContacts(matchingEmailAddress:)`.
    public static func predicateForContacts(matchingEmailAddress address: String) -> ContactPredicate {
        .matchingEmailAddress(address)
    }
    /// Contacts with this phone number, as `CNContact.predicateForContacts(matching:)`.
    public static func predicateForContacts(matching phoneNumber: PhoneNumber) -> ContactPredicate {
        .matching(phoneNumber)
    }
    /// Contacts with these identifiers, as `CNContact.predicateForContacts(withIdentifiers:)`.
    public static func predicateForContacts(withIdentifiers identifiers: [String]) -> ContactPredicate {
        .withIdentifiers(identifiers)
    }
    /// The members of a group, as `CNContact.predicateForContactsInGroup(withIdentifier:)`.
    public static func predicateForContactsInGroup(withIdentifier identifier: String) -> ContactPredicate {
        .inGroup(withIdentifier: identifier)
    }
    /// The contacts of a container, as `CNContact.predicateForContactsInContainer(withIdentifier:)`.
    public static func predicateForContactsInContainer(withIdentifier identifier: String) -> ContactPredicate {
        .inContainer(withIdentifier: identifier)
    }
}

/// Which groups to fetch.
public enum GroupPredicate: Sendable, Hashable {
    /// Groups with these identifiers.
    case withIdentifiers([String])
    /// Groups in a container.
    case inContainer(String)
    /// The subgroups of a group.
    case subgroupsOfGroup(String)
}

/// Which containers to fetch.
public enum ContainerPredicate: Sendable, Hashable {
    /// Containers with these identifiers.
    case withIdentifiers([String])
    /// The container of a contact.
    case ofContact(String)
    /// The container of a group.
    case ofGroup(String)
}

/// A fetch of contacts: which ones, which keys, in what order, like `CNContactFetchRequest`.
public struct ContactFetchRequest: Sendable {
    /// The keys the caller will read; reading any other key of a fetched contact stops the program.
    public var keysToFetch: [any KeyDescriptor]
    /// Which contacts; nil fetches all.
    public var predicate: ContactPredicate?
    /// The order; `.none` leaves it unspecified.
    public var sortOrder: ContactSortOrder = .none
    /// Whether linked contacts come back as one unified contact (the default, as the
    /// framework's `unifyResults`), or each as itself.
    public var unifyResults = true

    /// Creates a request for the given keys.
    public init(
        keysToFetch: [any KeyDescriptor], predicate: ContactPredicate? = nil, sortOrder: ContactSortOrder = .none
    ) {
        self.keysToFetch = keysToFetch
        self.predicate = predicate
        self.sortOrder = sortOrder
    }
}
