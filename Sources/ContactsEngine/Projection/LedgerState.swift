import ContactsModel
import Foundation
import LedgerStorage

/// A contact as the store keeps it: its values and the bookkeeping around them.
package struct ContactState: Sendable, Hashable {
    /// Every property's value.
    package var values: ContactValues
    /// The container that holds the contact.
    package var containerIdentifier: String
    /// The client that created it (limited clients always see their own contacts).
    package var createdBy: String
    /// The sequence of the last record that changed it.
    package var revision: UInt64
}

/// A group as the store keeps it.
package struct GroupState: Sendable, Hashable {
    /// The group's name.
    package var name: String
    /// The container that holds the group.
    package var containerIdentifier: String
    /// Identifiers of its member contacts.
    package var members: Set<String> = []
    /// Identifiers of its subgroups.
    package var subgroups: Set<String> = []
    /// Identifiers of the groups it is a subgroup of.
    package var parents: Set<String> = []
    /// The sequence of the last record that changed it.
    package var revision: UInt64
}

/// What a client was told about its access.
package struct ClientAccess: Sendable, Hashable {
    /// The authorization status.
    package var status: AuthorizationStatus
    /// Whether the client may read and write notes.
    package var notesEntitlement: Bool

    /// Creates a client's access.
    package init(status: AuthorizationStatus, notesEntitlement: Bool) {
        self.status = status
        self.notesEntitlement = notesEntitlement
    }
}

/// The reading half of ``LedgerState``: what planning a save request looks up. The staging
/// overlay (``StagedView``) only reads its base, so its base may be a view of state kept
/// elsewhere: a store plans against its projection in place, without copying it.
package protocol LedgerStateReading {
    /// The ledger's default container.
    var defaultContainer: Container { get }
    /// A contact, or nil if there is none with this identifier.
    func contact(_ identifier: String) -> ContactState?
    /// A group, or nil.
    func group(_ identifier: String) -> GroupState?
    /// A container, or nil.
    func container(_ identifier: String) -> Container?
    /// The groups a contact is a member of.
    func groups(containing contactIdentifier: String) -> [String]
    /// What a client was last told about its access, if anything was recorded.
    func access(of client: String) -> ClientAccess?
    /// The contacts granted to a limited client.
    func grants(of client: String) -> Set<String>
    /// The sequence of the record that committed a request id, if any.
    func sequence(ofRequest requestID: UUID) -> UInt64?
    /// The link set a contact belongs to, itself included, in the order its members joined;
    /// empty when it is linked to no other contact.
    func links(of contactIdentifier: String) -> [String]
}

/// The state that events build, read and written through one interface, so that the single
/// ``LedgerState/apply(_:sequence:requestID:)`` serves the durable projection (live commits,
/// replay, point-in-time views) and the staging overlay that validates queued requests.
package protocol LedgerState: LedgerStateReading {
    /// Stores or removes (nil) a contact.
    mutating func putContact(_ identifier: String, _ state: ContactState?)
    /// Stores a contact whose current values the caller has just read (`old`), so that a state
    /// that would read them again (to update its indexes) need not.
    mutating func putContact(_ identifier: String, _ state: ContactState, replacing old: ContactValues)
    /// Stores or removes (nil) a group.
    mutating func putGroup(_ identifier: String, _ state: GroupState?)
    /// Stores a container.
    mutating func putContainer(_ container: Container)
    /// Records a client's access.
    mutating func putAccess(_ client: String, _ access: ClientAccess)
    /// Replaces a client's granted contacts.
    mutating func putGrants(_ client: String, _ contacts: Set<String>)
    /// Records the sequence that committed a request id.
    mutating func putRequest(_ requestID: UUID, sequence: UInt64)
    /// Replaces a contact's link set (empty: linked to none).
    mutating func putLinks(_ contactIdentifier: String, _ links: [String])
}

extension LedgerState {
    /// Stores the contact; `old` is only a hint for states that index their contacts.
    package mutating func putContact(_ identifier: String, _ state: ContactState, replacing old: ContactValues) {
        putContact(identifier, state)
    }

    /// Applies one committed (or staged) event's effects.
    package mutating func apply(_ event: LedgerEvent, sequence: UInt64, requestID: UUID) {
        for operation in event.operations {
            apply(operation, sequence: sequence)
        }
        putRequest(requestID, sequence: sequence)
    }

    /// Applies one operation of a record (or staged request) with this sequence.
    package mutating func apply(_ operation: LedgerOperation, sequence: UInt64) {
        switch operation {
        case .addContact(let identifier, let container, let createdBy, let values):
            putContact(
                identifier,
                ContactState(values: values, containerIdentifier: container, createdBy: createdBy, revision: sequence))
        case .updateContact(let identifier, let keys, _, let new):
            updateContact(identifier, keys: keys, to: new, sequence: sequence)
        case .deleteContact(let identifier, _, _, _, _):
            unlink(identifier)
            deleteContact(identifier)
        case .addGroup(let identifier, let container, let name):
            putGroup(identifier, GroupState(name: name, containerIdentifier: container, revision: sequence))
        case .updateGroup(let identifier, _, let newName):
            guard var group = group(identifier) else { return }
            group.name = newName
            group.revision = sequence
            putGroup(identifier, group)
        case .deleteGroup(let identifier, _, _, _, let subgroups, let parents):
            deleteGroup(identifier, subgroups: subgroups, parents: parents)
        case .addMember(let contactIdentifier, let groupIdentifier):
            guard var group = group(groupIdentifier) else { return }
            group.members.insert(contactIdentifier)
            putGroup(groupIdentifier, group)
        case .removeMember(let contactIdentifier, let groupIdentifier):
            guard var group = group(groupIdentifier) else { return }
            group.members.remove(contactIdentifier)
            putGroup(groupIdentifier, group)
        case .addSubgroup(let child, let parent):
            addSubgroup(child, to: parent)
        case .removeSubgroup(let child, let parent):
            removeSubgroup(child, from: parent)
        case .addContainer(let identifier, let name, let type, _):
            putContainer(Container(identifier: identifier, name: name, type: type))
        case .setAuthorization(let client, let status, let notes):
            putAccess(client, ClientAccess(status: status, notesEntitlement: notes))
        case .requestAccess(let client, let notes):
            // A request stands until the owner answers; it never undoes an answer.
            if access(of: client) == nil {
                putAccess(client, ClientAccess(status: .notDetermined, notesEntitlement: notes))
            }
        case .grantAccess(let client, let contacts):
            putGrants(client, grants(of: client).union(contacts))
        case .revokeAccess(let client, let contacts):
            putGrants(client, grants(of: client).subtracting(contacts))
        case .undo, .redaction:
            // Names what the record undoes or redacted; its effects are the record's other operations.
            break
        case .redacted(let standIn):
            applyStandIn(standIn, sequence: sequence)
        case .linkContacts(let contacts):
            for contact in contacts { putLinks(contact, contacts.count > 1 ? contacts : []) }
        case .unlinkContact(let contact, _):
            unlink(contact)
        }
    }

    /// Applies what a redacted operation still does. Only deleted contacts and superseded
    /// revisions are redacted: a removed add creates its contact empty (later updates set every
    /// value it had set), a removed update changes nothing that lasts, a removed delete still
    /// removes its contact.
    private mutating func applyStandIn(_ standIn: RedactedOperation, sequence: UInt64) {
        let identifier = standIn.contactIdentifier
        switch standIn.kind {
        case .addContact where contact(identifier) == nil:
            putContact(
                identifier,
                ContactState(
                    values: ContactValues(), containerIdentifier: standIn.containerIdentifier,
                    createdBy: standIn.createdBy, revision: sequence))
        case .addContact, .updateContact:
            break
        case .deleteContact:
            unlink(identifier)
            deleteContact(identifier)
        }
    }

    /// Takes a contact out of its link set; the others stay linked when two or more remain.
    @inline(__always)
    private mutating func unlink(_ identifier: String) {
        let members = links(of: identifier)
        guard !members.isEmpty else { return }
        let remaining = members.filter { $0 != identifier }
        for member in remaining { putLinks(member, remaining.count > 1 ? remaining : []) }
        putLinks(identifier, [])
    }

    /// Copies the values of `keys` from `new` into a contact, if there is one.
    @inline(__always)
    private mutating func updateContact(
        _ identifier: String, keys: ContactKeySet, to new: ContactValues, sequence: UInt64
    ) {
        guard var state = contact(identifier) else { return }
        let old = state.values
        for key in keys.keys { state.values.copyValue(for: key, from: new) }
        state.revision = sequence
        putContact(identifier, state, replacing: old)
    }

    /// Removes a contact, and takes it out of every group it is a member of.
    @inline(__always)
    private mutating func deleteContact(_ identifier: String) {
        for groupIdentifier in groups(containing: identifier) {
            guard var group = group(groupIdentifier) else { continue }
            group.members.remove(identifier)
            putGroup(groupIdentifier, group)
        }
        putContact(identifier, nil)
    }

    /// Removes a group, and takes it out of its subgroups' parents and its parents' subgroups.
    @inline(__always)
    private mutating func deleteGroup(_ identifier: String, subgroups: [String], parents: [String]) {
        for child in subgroups {
            guard var state = group(child) else { continue }
            state.parents.remove(identifier)
            putGroup(child, state)
        }
        for parent in parents {
            guard var state = group(parent) else { continue }
            state.subgroups.remove(identifier)
            putGroup(parent, state)
        }
        putGroup(identifier, nil)
    }

    /// Makes `child` a subgroup of `parent`, if both exist.
    @inline(__always)
    private mutating func addSubgroup(_ child: String, to parent: String) {
        guard var childState = group(child), var parentState = group(parent) else { return }
        childState.parents.insert(parent)
        parentState.subgroups.insert(child)
        putGroup(child, childState)
        putGroup(parent, parentState)
    }

    /// Takes `child` out of `parent`'s subgroups, on whichever of the two exists.
    @inline(__always)
    private mutating func removeSubgroup(_ child: String, from parent: String) {
        if var childState = group(child) {
            childState.parents.remove(parent)
            putGroup(child, childState)
        }
        if var parentState = group(parent) {
            parentState.subgroups.remove(child)
            putGroup(parent, parentState)
        }
    }
}
