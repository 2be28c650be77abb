import ContactsLedger
import Foundation

/// A batch of changes to execute together, like the framework's `CNSaveRequest`.
///
/// The objects are read when ``CNContactStore/execute(_:)`` runs, not when they are added, as in
/// the framework ("Do not access objects in the save request while that request is executing").
/// Each execution is a new request to the store: executing the same request twice adds its
/// contacts twice, which the store refuses with ``CNError/Code/insertedRecordAlreadyExists``.
public final class CNSaveRequest: NSObject, @unchecked Sendable {
    /// One call made on the request.
    enum Operation {
        case addContact(CNMutableContact, container: String?)
        case updateContact(CNMutableContact)
        case deleteContact(CNMutableContact)
        case addGroup(CNMutableGroup, container: String?)
        case updateGroup(CNMutableGroup)
        case deleteGroup(CNMutableGroup)
        case addMember(CNContact, CNGroup)
        case removeMember(CNContact, CNGroup)
        case addSubgroup(CNGroup, CNGroup)
        case removeSubgroup(CNGroup, CNGroup)
    }

    /// The calls made so far, in order; like the framework's, a request is not thread-safe.
    private(set) var operations: [Operation] = []

    /// Who makes the change; recorded in the ledger and used to filter change history.
    public var transactionAuthor: String?

    /// Whether the added and updated contacts are fetched again after the save, so that they
    /// show what was saved (the default, as in the framework).
    public var shouldRefetchContacts = true

    /// An empty request.
    public override init() {}

    /// Adds a new contact to a container (the default container when nil).
    public func add(_ contact: CNMutableContact, toContainerWithIdentifier identifier: String?) {
        operations.append(.addContact(contact, container: identifier))
    }

    /// Saves the changed properties of an existing contact.
    public func update(_ contact: CNMutableContact) { operations.append(.updateContact(contact)) }

    /// Deletes an existing contact.
    public func delete(_ contact: CNMutableContact) { operations.append(.deleteContact(contact)) }

    /// Adds a new group to a container (the default container when nil).
    public func add(_ group: CNMutableGroup, toContainerWithIdentifier identifier: String?) {
        operations.append(.addGroup(group, container: identifier))
    }

    /// Saves a group's new name.
    public func update(_ group: CNMutableGroup) { operations.append(.updateGroup(group)) }

    /// Deletes a group; its contacts are not deleted.
    public func delete(_ group: CNMutableGroup) { operations.append(.deleteGroup(group)) }

    /// Makes a contact a member of a group.
    public func addMember(_ contact: CNContact, to group: CNGroup) { operations.append(.addMember(contact, group)) }

    /// Removes a contact from a group; the contact is not deleted.
    public func removeMember(_ contact: CNContact, from group: CNGroup) {
        operations.append(.removeMember(contact, group))
    }

    /// Makes a group a subgroup of another (the framework offers it on macOS).
    public func addSubgroup(_ subgroup: CNGroup, to group: CNGroup) {
        operations.append(.addSubgroup(subgroup, group))
    }

    /// Removes a group from another; its members are not affected.
    public func removeSubgroup(_ subgroup: CNGroup, from group: CNGroup) {
        operations.append(.removeSubgroup(subgroup, group))
    }
}

extension CNSaveRequest {
    /// A new native request holding the objects' current values, with a new request identifier:
    /// the framework's last-writer-wins rule, and never a recorded request sent again.
    func nativeRequest() -> SaveRequest {
        var request = SaveRequest(transactionAuthor: transactionAuthor)
        request.conflictPolicy = .lastWriterWins
        for operation in operations {
            switch operation {
            case .addContact(let contact, let container):
                request.add(contact.native, toContainerWithIdentifier: container)
            case .updateContact(let contact): request.update(contact.native)
            case .deleteContact(let contact): request.delete(contact.native)
            case .addGroup(let group, let container): request.add(group.native, toContainerWithIdentifier: container)
            case .updateGroup(let group): request.update(group.native)
            case .deleteGroup(let group): request.delete(group.native)
            case .addMember(let contact, let group): request.addMember(contact.native.copy(), to: group.native.copy())
            case .removeMember(let contact, let group):
                request.removeMember(contact.native.copy(), from: group.native.copy())
            case .addSubgroup(let subgroup, let group):
                request.addSubgroup(subgroup.native.copy(), to: group.native.copy())
            case .removeSubgroup(let subgroup, let group):
                request.removeSubgroup(subgroup.native.copy(), from: group.native.copy())
            }
        }
        return request
    }

    /// The objects the request names, by identifier, for an error's affected records.
    var records: [String: AnyObject] {
        var records: [String: AnyObject] = [:]
        for operation in operations {
            for object in operation.objects { records[object.identifier] = object.object }
        }
        return records
    }

    /// The contacts to fetch again after a save: those added or updated, and not deleted later.
    var contactsToRefetch: [CNMutableContact] {
        var deleted: Set<String> = []
        var saved: [CNMutableContact] = []
        for operation in operations.reversed() {
            switch operation {
            case .deleteContact(let contact): deleted.insert(contact.identifier)
            case .addContact(let contact, _), .updateContact(let contact):
                if !deleted.contains(contact.identifier) { saved.append(contact) }
            default: continue
            }
        }
        return saved.reversed()
    }
}

extension CNSaveRequest.Operation {
    /// The objects the call names, with their identifiers.
    var objects: [(identifier: String, object: AnyObject)] {
        switch self {
        case .addContact(let contact, _), .updateContact(let contact), .deleteContact(let contact):
            [(contact.identifier, contact)]
        case .addGroup(let group, _), .updateGroup(let group), .deleteGroup(let group): [(group.identifier, group)]
        case .addMember(let contact, let group), .removeMember(let contact, let group):
            [(contact.identifier, contact), (group.identifier, group)]
        case .addSubgroup(let subgroup, let group), .removeSubgroup(let subgroup, let group):
            [(subgroup.identifier, subgroup), (group.identifier, group)]
        }
    }
}

/// The order of fetched contacts, like the framework's `CNContactSortOrder`.
public enum CNContactSortOrder: Int, Sendable, Hashable {
    /// Unspecified.
    case none = 0
    /// The user's preferred order.
    case userDefault = 1
    /// By given name.
    case givenName = 2
    /// By family name.
    case familyName = 3
}

/// A fetch of contacts, like the framework's `CNContactFetchRequest`.
public final class CNContactFetchRequest: NSObject, @unchecked Sendable {
    /// The keys to fetch; reading any other key of a fetched contact stops the program.
    public var keysToFetch: [any CNKeyDescriptor]
    /// Which contacts (one of the `CNContact` predicates); nil fetches all.
    public var predicate: NSPredicate?
    /// The order of the results.
    public var sortOrder: CNContactSortOrder = .none
    /// Whether linked contacts come back as one unified contact (the default).
    public var unifyResults = true
    /// Whether the results are ``CNMutableContact`` objects.
    public var mutableObjects = false

    /// A request for these keys.
    public init(keysToFetch: [any CNKeyDescriptor]) { self.keysToFetch = keysToFetch }

    /// The native request, or the framework's error for a key or predicate it cannot take.
    func nativeRequest() throws(CNError) -> ContactFetchRequest {
        var request = ContactFetchRequest(
            keysToFetch: [try CompatKeys.keys(keysToFetch)],
            predicate: try predicate.map(CompatPredicate.contacts),
            sortOrder: ContactSortOrder(rawValue: sortOrder.rawValue) ?? .none)
        request.unifyResults = unifyResults
        return request
    }
}
