import ContactsModel
import Foundation
import LedgerStorage

/// The payload of one journal record: the effects of one committed save request, in order.
///
/// Events record effects, not intentions: an add carries the whole new contact, an update the
/// changed keys with their old and new values, a delete the contact's last state. Audit,
/// history and restore read them; nothing re-executes them.
package struct LedgerEvent: Sendable, Hashable {
    /// The operations' effects, in the order they were applied.
    package var operations: [LedgerOperation]

    /// Creates an event from its operations.
    package init(operations: [LedgerOperation]) {
        self.operations = operations
    }
}

/// The effect of one operation of a save request (or of a store-level action such as a grant).
package indirect enum LedgerOperation: Sendable, Hashable {
    /// A contact was created in a container by a client; `values` holds every key.
    case addContact(identifier: String, containerIdentifier: String, createdBy: String, values: ContactValues)
    /// Some keys of a contact changed; `old` and `new` hold values for exactly `keys`
    /// (other keys are at their defaults and mean nothing).
    case updateContact(identifier: String, keys: ContactKeySet, old: ContactValues, new: ContactValues)
    /// A contact was deleted; `last` is its state just before, with its container and groups.
    case deleteContact(
        identifier: String, containerIdentifier: String, createdBy: String, groupIdentifiers: [String],
        last: ContactValues)
    /// A group was created in a container.
    case addGroup(identifier: String, containerIdentifier: String, name: String)
    /// A group was renamed.
    case updateGroup(identifier: String, oldName: String, newName: String)
    /// A group was deleted, with its last name, members, subgroups and parent groups.
    case deleteGroup(
        identifier: String, containerIdentifier: String, name: String, memberIdentifiers: [String],
        subgroupIdentifiers: [String], parentGroupIdentifiers: [String])
    /// A contact became a member of a group.
    case addMember(contactIdentifier: String, groupIdentifier: String)
    /// A contact stopped being a member of a group.
    case removeMember(contactIdentifier: String, groupIdentifier: String)
    /// A group became a subgroup of another.
    case addSubgroup(groupIdentifier: String, parentGroupIdentifier: String)
    /// A group stopped being a subgroup of another.
    case removeSubgroup(groupIdentifier: String, parentGroupIdentifier: String)
    /// A container was created (the default container is created with the first event).
    case addContainer(identifier: String, name: String, type: ContainerType, isDefault: Bool)
    /// A client's authorization was decided or changed (for example when it asked for access).
    case setAuthorization(clientIdentifier: String, status: AuthorizationStatus, notesEntitlement: Bool)
    /// A client with limited access was granted these contacts.
    case grantAccess(clientIdentifier: String, contactIdentifiers: [String])
    /// A client with limited access lost these contacts.
    case revokeAccess(clientIdentifier: String, contactIdentifiers: [String])
    /// Contacts were linked into one unified contact: `contactIdentifiers` is the whole link set
    /// after the link (the sets of the contacts named, joined), in the order its members joined.
    case linkContacts(contactIdentifiers: [String])
    /// A contact left its link set; `linkedIdentifiers` are the contacts it was linked to, in link
    /// order, which stay linked to each other when two or more remain.
    case unlinkContact(contactIdentifier: String, linkedIdentifiers: [String])
    /// A client asked for access (with the notes entitlement it holds); the owner's answer is a
    /// later ``setAuthorization(clientIdentifier:status:notesEntitlement:)``.
    case requestAccess(clientIdentifier: String, notesEntitlement: Bool)
    /// The record undoes another: the operations beside this one are the undo's effects, and
    /// this one names what they undo. The projection ignores it; the audit log shows it.
    case undo(kind: UndoKind, sequence: UInt64)
    /// The owner redacted a recorded request (or one contact's operations in it); the projection
    /// ignores it, the audit log shows it.
    case redaction(RedactionNote)
    /// In a redacted record, the stand-in for a contact operation whose content was removed.
    case redacted(RedactedOperation)
}

/// What an undo does, and so what the sequence it names is.
package enum UndoKind: Int, Sendable, Hashable, CaseIterable {
    /// A deleted contact brought back; the sequence is the record that deleted it.
    case undelete = 1
    /// The inverse of one record; the sequence is that record.
    case revert = 2
    /// One contact's values brought back to a point; the sequence is that point.
    case restore = 3
}
