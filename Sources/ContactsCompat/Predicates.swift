import ContactsLedger
import Foundation

/// A predicate made by one of the framework's factories: it carries the store's own predicate,
/// which the store answers from its indexes. Like the framework's, it is opaque: evaluating it
/// in memory is not supported and is false.
final class CompatPredicate: NSPredicate {
    /// What the predicate selects.
    enum Kind {
        case contacts(ContactPredicate)
        case groups(GroupPredicate)
        case containers(ContainerPredicate)
    }

    /// What the predicate selects.
    let kind: Kind
    /// The factory call that made it, as its format.
    let format: String

    /// A predicate of `kind`, described by `format`.
    init(_ kind: Kind, _ format: String) {
        self.kind = kind
        self.format = format
        super.init(value: false)
    }

    /// Not decoded: the framework's predicates are made by their factories only.
    required init?(coder: NSCoder) { nil }

    /// A predicate as an error names it: the factory call that made one of ours, the class of another.
    private static func describe(_ predicate: NSPredicate) -> String {
        (predicate as? CompatPredicate)?.format ?? "a predicate of class \(type(of: predicate))"
    }

    /// The contact predicate `predicate` carries, or ``CNError/Code/predicateInvalid`` for any
    /// other predicate, as the framework refuses predicates it did not make for contacts.
    static func contacts(_ predicate: NSPredicate) throws(CNError) -> ContactPredicate {
        if let ours = predicate as? CompatPredicate, case .contacts(let inner) = ours.kind { return inner }
        throw CNError(.predicateInvalid, "\(describe(predicate)) is not a CNContact predicate")
    }

    /// The group predicate `predicate` carries, or ``CNError/Code/predicateInvalid``.
    static func groups(_ predicate: NSPredicate) throws(CNError) -> GroupPredicate {
        if let ours = predicate as? CompatPredicate, case .groups(let inner) = ours.kind { return inner }
        throw CNError(.predicateInvalid, "\(describe(predicate)) is not a CNGroup predicate")
    }

    /// The container predicate `predicate` carries, or ``CNError/Code/predicateInvalid``.
    static func containers(_ predicate: NSPredicate) throws(CNError) -> ContainerPredicate {
        if let ours = predicate as? CompatPredicate, case .containers(let inner) = ours.kind { return inner }
        throw CNError(.predicateInvalid, "\(describe(predicate)) is not a CNContainer predicate")
    }
}

extension CNContact {
    /// Contacts whose names match every word of `name` (a prefix of a name word, ignoring case
    /// and diacritics).
    public class func predicateForContacts(matchingName name: String) -> NSPredicate {
        CompatPredicate(.contacts(.matchingName(name)), "matchingName(\(name))")
    }

    /// Contacts with this email address, ignoring case.
    public class func predicateForContacts(matchingEmailAddress emailAddress: String) -> NSPredicate {
        CompatPredicate(.contacts(.matchingEmailAddress(emailAddress)), "matchingEmailAddress(\(emailAddress))")
    }

    /// Contacts with this phone number, national and international forms alike.
    public class func predicateForContacts(matching phoneNumber: CNPhoneNumber) -> NSPredicate {
        CompatPredicate(.contacts(.matching(phoneNumber.native)), "matchingPhoneNumber(\(phoneNumber.stringValue))")
    }

    /// The contacts with these identifiers.
    public class func predicateForContacts(withIdentifiers identifiers: [String]) -> NSPredicate {
        CompatPredicate(.contacts(.withIdentifiers(identifiers)), "withIdentifiers(\(identifiers))")
    }

    /// The members of a group.
    public class func predicateForContactsInGroup(withIdentifier group: String) -> NSPredicate {
        CompatPredicate(.contacts(.inGroup(withIdentifier: group)), "inGroup(\(group))")
    }

    /// The contacts of a container.
    public class func predicateForContactsInContainer(withIdentifier container: String) -> NSPredicate {
        CompatPredicate(.contacts(.inContainer(withIdentifier: container)), "inContainer(\(container))")
    }
}
