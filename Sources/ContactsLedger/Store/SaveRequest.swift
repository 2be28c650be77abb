import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation
import LedgerStorage

/// A batch of changes to execute together, like `CNSaveRequest`.
///
/// ``ContactStore/execute(_:)-(SaveRequest)`` applies the whole batch or nothing: it validates
/// every change first, then commits the batch as one journal record, and returns after it is on
/// disk. Within one request the framework's rules apply, in the order the calls were made:
///
/// - deleting a contact or group that the same request adds cancels both;
/// - adding a contact or group that the same request deletes overrides the delete;
/// - updating a contact the request adds folds the update into the add; a later update of the
///   same contact replaces an earlier one;
/// - adding and removing the same membership or subgroup: the last call takes effect.
///
/// The request id makes execution idempotent: executing a request whose id is already in the
/// ledger appends nothing and returns the original result, so a client that retries after an
/// ambiguous failure never applies a destructive change twice.
public struct SaveRequest: Sendable {
    /// How a change to a contact that changed since it was fetched is handled.
    public enum ConflictPolicy: Sendable, Hashable {
        /// Changes to properties the other writer did not touch merge; a change to the same
        /// property is refused with ``ContactStoreError/Code/recordChangedSinceFetch``. The default.
        case mergeOrRefuse
        /// The framework's behaviour: this request's values win, whatever changed meanwhile.
        case lastWriterWins
        /// Any change to a contact made since it was fetched refuses the update or delete with
        /// ``ContactStoreError/Code/recordChangedSinceFetch``, even one to other properties: the
        /// contact's revision must still be the one fetched (an HTTP `If-Match`).
        case refuseIfChanged
    }

    /// One call made on the request, in order.
    package enum Operation: Sendable {
        case addContact(MutableContact, containerIdentifier: String?)
        case updateContact(MutableContact)
        case deleteContact(MutableContact)
        case addGroup(MutableGroup, containerIdentifier: String?)
        case updateGroup(MutableGroup)
        case deleteGroup(MutableGroup)
        case addMember(contactIdentifier: String, groupIdentifier: String)
        case removeMember(contactIdentifier: String, groupIdentifier: String)
        case addSubgroup(groupIdentifier: String, parentGroupIdentifier: String)
        case removeSubgroup(groupIdentifier: String, parentGroupIdentifier: String)
        /// A deleted contact added back with its identifier, container and creator (an undo).
        case restoreContact(MutableContact, containerIdentifier: String, createdBy: String)
        /// A deleted group added back with its identifier and container (an undo).
        case restoreGroup(MutableGroup, containerIdentifier: String)
        /// The request undoes a record (or brings a contact back to a point), which the record names.
        case undo(UndoKind, sequence: UInt64)
    }

    /// The calls made so far.
    package private(set) var operations: [Operation] = []

    /// Who makes the change, recorded in the ledger and used to filter change history.
    public var transactionAuthor: String?
    /// The idempotency key; a new UUID unless the caller sets one (for example to retry a request).
    public var requestIdentifier: UUID
    /// How conflicts with changes made since a contact was fetched are handled.
    public var conflictPolicy: ConflictPolicy = .mergeOrRefuse

    /// Creates an empty request.
    public init(requestIdentifier: UUID = RandomUUID.make(), transactionAuthor: String? = nil) {
        self.requestIdentifier = requestIdentifier
        self.transactionAuthor = transactionAuthor
    }

    /// Whether no change has been added.
    public var isEmpty: Bool { operations.isEmpty }

    /// Adds a new contact to a container (the default container when nil).
    public mutating func add(_ contact: MutableContact, toContainerWithIdentifier identifier: String?) {
        operations.append(.addContact(contact, containerIdentifier: identifier))
    }

    /// Saves the changed properties of an existing contact.
    public mutating func update(_ contact: MutableContact) {
        operations.append(.updateContact(contact))
    }

    /// Deletes an existing contact.
    public mutating func delete(_ contact: MutableContact) {
        operations.append(.deleteContact(contact))
    }

    /// Adds a new group to a container (the default container when nil).
    public mutating func add(_ group: MutableGroup, toContainerWithIdentifier identifier: String?) {
        operations.append(.addGroup(group, containerIdentifier: identifier))
    }

    /// Saves a group's new name.
    public mutating func update(_ group: MutableGroup) {
        operations.append(.updateGroup(group))
    }

    /// Deletes a group; its member contacts are not deleted.
    public mutating func delete(_ group: MutableGroup) {
        operations.append(.deleteGroup(group))
    }

    /// Makes a contact a member of a group.
    public mutating func addMember(_ contact: Contact, to group: Group) {
        operations.append(.addMember(contactIdentifier: contact.identifier, groupIdentifier: group.identifier))
    }

    /// Removes a contact from a group; the contact is not deleted.
    public mutating func removeMember(_ contact: Contact, from group: Group) {
        operations.append(.removeMember(contactIdentifier: contact.identifier, groupIdentifier: group.identifier))
    }

    /// Makes a group a subgroup of another.
    public mutating func addSubgroup(_ group: Group, to parent: Group) {
        operations.append(.addSubgroup(groupIdentifier: group.identifier, parentGroupIdentifier: parent.identifier))
    }

    /// Removes a group from another; its members are not affected.
    public mutating func removeSubgroup(_ group: Group, from parent: Group) {
        operations.append(
            .removeSubgroup(groupIdentifier: group.identifier, parentGroupIdentifier: parent.identifier))
    }
}

extension SaveRequest {
    /// Adds a deleted contact back, keeping its identifier and recording `createdBy` as its
    /// creator, as an undo does. The identifier must be free; unlike a new contact's, it need not
    /// be a UUID, since a ledger keeps whatever identifiers its records hold. A limited client
    /// may restore only a contact it created or was granted.
    package mutating func restore(
        _ contact: MutableContact, toContainerWithIdentifier container: String, createdBy: String
    ) {
        operations.append(.restoreContact(contact, containerIdentifier: container, createdBy: createdBy))
    }

    /// Adds a deleted group back, keeping its identifier, as an undo does.
    package mutating func restore(_ group: MutableGroup, toContainerWithIdentifier container: String) {
        operations.append(.restoreGroup(group, containerIdentifier: container))
    }

    /// Names what the request undoes; its record holds the name before its effects.
    package mutating func markUndo(_ kind: UndoKind, of sequence: UInt64) {
        operations.append(.undo(kind, sequence: sequence))
    }
}

/// What a committed save request did; returned after the record is on disk.
public struct SaveResult: Sendable, Hashable {
    /// The journal sequence of the record (the original one when the request was a retry).
    public var sequence: UInt64
    /// When the record was committed.
    public var commitDate: Date
    /// The identifiers of every contact and group the request touched, in order.
    public var affectedIdentifiers: [String]
    /// Whether this call appended nothing because the request id was already committed.
    public var wasAlreadyCommitted: Bool
}
