import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation
import LedgerStorage

/// Who is saving: a client and what it may do.
package struct SaveClient: Sendable {
    /// The client's identifier.
    package var identifier: String
    /// The client's access.
    package var access: ClientAccess
    /// Whether ``access`` is replaced, when the request is planned, by the access the ledger
    /// records for the client then (a server saving for a signed-in client), so that a change
    /// of access made meanwhile applies.
    package var readsRecordedAccess = false
}

/// The intent left for one contact after the in-request rules.
private enum ContactIntent: Sendable {
    /// `creator` is set for a contact restored with its creator (an undo), nil for a new one.
    case add(MutableContact, container: String?, creator: String?)
    case update(MutableContact)
    case delete(MutableContact)
}

/// The intent left for one group after the in-request rules.
private enum GroupIntent: Sendable {
    /// `restored` for a group added back with its identifier (an undo).
    case add(MutableGroup, container: String?, restored: Bool)
    case update(MutableGroup)
    case delete(MutableGroup)
}

private struct Pair: Hashable, Sendable {
    var first: String
    var second: String
}

/// A request's calls reduced by the in-request rules to one intent per object, and the order in
/// which the objects were first named: an update of an object the request adds stays an add,
/// a delete of one cancels the add, and the last membership or subgroup change of a pair wins.
private struct RequestIntents {
    var contactOrder: [String] = []
    var contacts: [String: ContactIntent] = [:]
    var groupOrder: [String] = []
    var groups: [String: GroupIntent] = [:]
    var memberOrder: [Pair] = []
    /// Whether the pair's last change adds the member.
    var members: [Pair: Bool] = [:]
    var subgroupOrder: [Pair] = []
    /// Whether the pair's last change adds the subgroup.
    var subgroups: [Pair: Bool] = [:]
    /// What the request undoes, if it is an undo.
    var undo: (kind: UndoKind, sequence: UInt64)?

    /// Applies the rules to the next call.
    mutating func take(_ operation: SaveRequest.Operation) {
        switch operation {
        case .addContact(let contact, let container):
            setContact(contact.identifier, .add(contact, container: container, creator: nil))
        case .restoreContact(let contact, let container, let creator):
            setContact(contact.identifier, .add(contact, container: container, creator: creator))
        case .updateContact(let contact):
            if case .add(_, let container, let creator) = contacts[contact.identifier] {
                contacts[contact.identifier] = .add(contact, container: container, creator: creator)
            } else {
                setContact(contact.identifier, .update(contact))
            }
        case .deleteContact(let contact):
            if case .add = contacts[contact.identifier] {
                contacts[contact.identifier] = nil
                contactOrder.removeAll { $0 == contact.identifier }
            } else {
                setContact(contact.identifier, .delete(contact))
            }
        case .addGroup(let group, let container):
            setGroup(group.identifier, .add(group, container: container, restored: false))
        case .restoreGroup(let group, let container):
            setGroup(group.identifier, .add(group, container: container, restored: true))
        case .updateGroup(let group):
            if case .add(_, let container, let restored) = groups[group.identifier] {
                groups[group.identifier] = .add(group, container: container, restored: restored)
            } else {
                setGroup(group.identifier, .update(group))
            }
        case .deleteGroup(let group):
            if case .add = groups[group.identifier] {
                groups[group.identifier] = nil
                groupOrder.removeAll { $0 == group.identifier }
            } else {
                setGroup(group.identifier, .delete(group))
            }
        case .addMember(let contact, let group), .removeMember(let contact, let group):
            let pair = Pair(first: contact, second: group)
            if members[pair] == nil { memberOrder.append(pair) }
            if case .addMember = operation { members[pair] = true } else { members[pair] = false }
        case .addSubgroup(let child, let parent), .removeSubgroup(let child, let parent):
            let pair = Pair(first: child, second: parent)
            if subgroups[pair] == nil { subgroupOrder.append(pair) }
            if case .addSubgroup = operation { subgroups[pair] = true } else { subgroups[pair] = false }
        case .undo(let kind, let sequence):
            undo = (kind, sequence)
        }
    }

    /// Replaces a contact's intent, noting its place if it has none yet.
    private mutating func setContact(_ identifier: String, _ intent: ContactIntent) {
        if contacts[identifier] == nil { contactOrder.append(identifier) }
        contacts[identifier] = intent
    }

    /// Replaces a group's intent, noting its place if it has none yet.
    private mutating func setGroup(_ identifier: String, _ intent: GroupIntent) {
        if groups[identifier] == nil { groupOrder.append(identifier) }
        groups[identifier] = intent
    }
}

/// The part of planning a save request that depends only on the request: its calls reduced to
/// one intent per object by the in-request rules, and each added contact's kept values and
/// validation issues.
///
/// The store computes it before taking its commit lock, so that the part of planning that must
/// run one request at a time (against the durable and staged state) is shorter.
package struct PreparedSaveRequest: Sendable {
    /// A contact the request adds: what planning needs of it, worked out beforehand.
    fileprivate struct AddedContact: Sendable {
        var identifier: String
        var container: String?
        /// The values it keeps.
        var values: ContactValues
        var issues: [ContactValidationIssue]
        /// The creator a restored contact keeps (an undo); nil for a new contact.
        var restoredCreator: String?
    }

    // Each phase's intents in request order, so that planning, under the store's commit lock,
    // walks arrays instead of looking every object up (and copying its intent) once per phase.
    fileprivate var contactAdds: [AddedContact] = []
    fileprivate var contactUpdates: [MutableContact] = []
    fileprivate var contactDeletes: [MutableContact] = []
    fileprivate var groupAdds: [(group: MutableGroup, container: String?, restored: Bool)] = []
    fileprivate var groupUpdates: [MutableGroup] = []
    fileprivate var groupDeletes: [MutableGroup] = []
    fileprivate var memberChanges: [(pair: Pair, add: Bool)] = []
    fileprivate var subgroupChanges: [(pair: Pair, add: Bool)] = []
    /// What the request undoes, recorded first.
    fileprivate var undo: (kind: UndoKind, sequence: UInt64)?

    /// Applies the in-request rules to `request`'s calls and validates the contacts it adds.
    package init(_ request: SaveRequest) {
        if Self.onlyAddsDistinctContacts(request.operations) {
            // The rules leave every call as it is: no intents to sort, no dictionaries.
            contactAdds.reserveCapacity(request.operations.count)
            for operation in request.operations {
                guard case .addContact(let contact, let container) = operation else { continue }
                contactAdds.append(AddedContact(contact, container: container))
            }
            return
        }
        var intents = RequestIntents()
        for operation in request.operations {
            intents.take(operation)
        }
        sortIntoPhases(intents)
    }

    /// Puts each object's intent into its phase's array, in the order the objects were first
    /// named.
    private mutating func sortIntoPhases(_ intents: RequestIntents) {
        for identifier in intents.contactOrder {
            switch intents.contacts[identifier] {
            case .add(let contact, let container, let creator):
                var added = AddedContact(contact, container: container)
                added.restoredCreator = creator
                contactAdds.append(added)
            case .update(let contact): contactUpdates.append(contact)
            case .delete(let contact): contactDeletes.append(contact)
            case nil: break
            }
        }
        for identifier in intents.groupOrder {
            switch intents.groups[identifier] {
            case .add(let group, let container, let restored): groupAdds.append((group, container, restored))
            case .update(let group): groupUpdates.append(group)
            case .delete(let group): groupDeletes.append(group)
            case nil: break
            }
        }
        subgroupChanges = intents.subgroupOrder.map { ($0, intents.subgroups[$0]!) }
        memberChanges = intents.memberOrder.map { ($0, intents.members[$0]!) }
        undo = intents.undo
    }

    /// Whether every call adds a contact, and no two add the same one: the in-request rules then
    /// change nothing (each add is its own intent, in call order). The common request, one
    /// contact added, and a bulk import are both such.
    private static func onlyAddsDistinctContacts(_ operations: [SaveRequest.Operation]) -> Bool {
        if operations.count == 1 {
            if case .addContact = operations[0] { return true }
            return false
        }
        var identifiers = Set<String>(minimumCapacity: operations.count)
        for operation in operations {
            guard case .addContact(let contact, _) = operation, identifiers.insert(contact.identifier).inserted
            else { return false }
        }
        return !identifiers.isEmpty
    }
}

extension PreparedSaveRequest.AddedContact {
    /// A contact the request adds to `container` (nil: the default one): the values it keeps,
    /// and their validation issues.
    fileprivate init(_ contact: MutableContact, container: String?) {
        identifier = contact.identifier
        self.container = container
        values = contact.availableKeys == .all ? contact.values : contact.values.keeping(contact.availableKeys)
        issues = contact.validate(keys: .all)
    }
}

extension PreparedSaveRequest {
    /// For a request that only adds contacts, the event planning makes of it if it succeeds;
    /// nil for any other request.
    ///
    /// Planning such a request records exactly one `addContact` per added contact, in request
    /// order, from the values worked out here, the container asked for (the default container when
    /// none was) and the saving client; anything it refuses, it refuses by throwing. So the store
    /// can encode this event before taking its commit lock, and use it when planning succeeds
    /// with as many operations.
    package func addOnlyEvent(createdBy: String, defaultContainer: String) -> LedgerEvent? {
        guard !contactAdds.isEmpty, contactUpdates.isEmpty, contactDeletes.isEmpty, groupAdds.isEmpty,
            groupUpdates.isEmpty, groupDeletes.isEmpty, memberChanges.isEmpty, subgroupChanges.isEmpty, undo == nil,
            contactAdds.allSatisfy({ $0.restoredCreator == nil })
        else { return nil }
        return LedgerEvent(
            operations: contactAdds.map { added in
                .addContact(
                    identifier: added.identifier, containerIdentifier: added.container ?? defaultContainer,
                    createdBy: createdBy, values: added.values)
            })
    }
}

/// Turns a save request into the effects it would have, validating everything against the
/// durable state plus the queued requests' effects, and applying each effect to the view as it
/// goes so later operations of the request see earlier ones.
///
/// The request's calls are first reduced to one intent per object by the framework's in-request
/// rules (see ``SaveRequest``), then applied in phases: group adds, contact adds, contact updates,
/// group renames, subgroup changes, membership changes, contact deletes, group deletes. Any
/// failure throws before anything is written; the caller discards the view.
package struct SavePlanner<State: LedgerState> {
    package var state: State
    let client: SaveClient
    let request: SaveRequest
    /// The sequence number the request's record will get.
    let sequence: UInt64
    private(set) var operations: [LedgerOperation] = []
    private(set) var affected: [String] = []
    private var issues: [ContactValidationIssue] = []
    private var issueIdentifiers: [String] = []

    package init(state: State, client: SaveClient, request: SaveRequest, sequence: UInt64) {
        self.state = state
        self.client = client
        self.request = request
        self.sequence = sequence
    }

    /// Plans the whole request; returns the event's operations and the affected identifiers.
    package mutating func plan() throws(ContactStoreError) -> (operations: [LedgerOperation], affected: [String]) {
        try plan(PreparedSaveRequest(request))
    }

    /// Plans the whole request from its prepared intents (``PreparedSaveRequest``, made from this
    /// planner's request); returns the event's operations and the affected identifiers.
    package mutating func plan(
        _ prepared: PreparedSaveRequest
    ) throws(ContactStoreError) -> (operations: [LedgerOperation], affected: [String]) {
        try checkAuthorized()
        if let undo = prepared.undo { record(.undo(kind: undo.kind, sequence: undo.sequence), affecting: nil) }
        for (group, container, restored) in prepared.groupAdds { try addGroup(group, container, restored: restored) }
        for index in prepared.contactAdds.indices { try addContact(prepared.contactAdds[index]) }
        for contact in prepared.contactUpdates { try updateContact(contact) }
        try finishValidation()
        for group in prepared.groupUpdates { try updateGroup(group) }
        for (pair, add) in prepared.subgroupChanges { try changeSubgroup(pair.first, of: pair.second, add: add) }
        for (pair, add) in prepared.memberChanges { try changeMember(pair.first, of: pair.second, add: add) }
        for contact in prepared.contactDeletes { try deleteContact(contact) }
        for group in prepared.groupDeletes { try deleteGroup(group) }
        return (operations, affected)
    }

    // MARK: Checks

    private func checkAuthorized() throws(ContactStoreError) {
        switch client.access.status {
        case .authorized, .limited: return
        case .notDetermined, .denied, .restricted:
            throw ContactStoreError(
                .authorizationDenied, "client \(client.identifier) is \(client.access.status), not authorized to save")
        }
    }

    /// Whether the client may see and change a contact.
    private func isVisible(_ identifier: String, _ contact: ContactState) -> Bool {
        client.access.status == .authorized || contact.createdBy == client.identifier
            || state.grants(of: client.identifier).contains(identifier)
    }

    /// A contact the client may change, or recordDoesNotExist.
    private func existingContact(_ identifier: String) throws(ContactStoreError) -> ContactState {
        guard let contact = state.contact(identifier), isVisible(identifier, contact) else {
            throw ContactStoreError(
                .recordDoesNotExist, "contact \(identifier) does not exist", affectedIdentifiers: [identifier])
        }
        return contact
    }

    private func existingGroup(_ identifier: String) throws(ContactStoreError) -> GroupState {
        guard let group = state.group(identifier) else {
            throw ContactStoreError(
                .recordDoesNotExist, "group \(identifier) does not exist", affectedIdentifiers: [identifier])
        }
        return group
    }

    private func containerIdentifier(_ requested: String?, for identifier: String) throws(ContactStoreError) -> String {
        guard let requested else { return state.defaultContainer.identifier }
        guard state.container(requested) != nil else {
            throw ContactStoreError(
                .parentRecordDoesNotExist, "container \(requested) does not exist",
                affectedIdentifiers: [identifier, requested])
        }
        return requested
    }

    private func checkNote(_ keys: ContactKeySet, _ identifier: String) throws(ContactStoreError) {
        if keys.contains(.note) && !client.access.notesEntitlement {
            throw ContactStoreError(
                .unauthorizedKeys, "writing the note needs the notes entitlement", affectedIdentifiers: [identifier],
                keyPaths: [ContactKey.note.rawValue])
        }
    }

    private mutating func collect(_ found: [ContactValidationIssue], _ identifier: String) {
        guard !found.isEmpty else { return }
        issues += found
        issueIdentifiers.append(identifier)
    }

    /// Throws the validation errors collected over all adds and updates, all at once.
    private func finishValidation() throws(ContactStoreError) {
        guard !issues.isEmpty else { return }
        let code: ContactStoreError.Code = issues.count == 1 ? .validationConfigurationError : .validationMultipleErrors
        throw ContactStoreError(
            code, issues.map(\.description).joined(separator: "; "), affectedIdentifiers: issueIdentifiers,
            keyPaths: issues.map(\.keyPath), validationIssues: issues)
    }

    private mutating func record(_ operation: LedgerOperation, affecting identifier: String?) {
        operations.append(operation)
        if let identifier, !affected.contains(identifier) { affected.append(identifier) }
        state.apply(LedgerEvent(operations: [operation]), sequence: sequence, requestID: request.requestIdentifier)
    }

    // MARK: Contacts

    private mutating func addContact(_ added: PreparedSaveRequest.AddedContact) throws(ContactStoreError) {
        let identifier = added.identifier
        if let creator = added.restoredCreator {
            try checkRestorable(identifier, createdBy: creator)
        } else {
            try Self.checkNewIdentifier(identifier, of: "contact")
        }
        guard state.contact(identifier) == nil else {
            throw ContactStoreError(
                .insertedRecordAlreadyExists, "contact \(identifier) already exists", affectedIdentifiers: [identifier])
        }
        let containerID = try containerIdentifier(added.container, for: identifier)
        try checkNote(added.values[string: .note].isEmpty ? [] : [.note], identifier)
        collect(added.issues, identifier)
        record(
            .addContact(
                identifier: identifier, containerIdentifier: containerID,
                createdBy: added.restoredCreator ?? client.identifier, values: added.values),
            affecting: identifier)
    }

    private mutating func updateContact(_ contact: MutableContact) throws(ContactStoreError) {
        let identifier = contact.identifier
        let current = try existingContact(identifier)
        let keys = contact.changedKeys
        try checkNote(keys, identifier)
        collect(contact.validate(keys: keys), identifier)
        try checkUnchanged(contact, current)
        if request.conflictPolicy == .mergeOrRefuse && contact.revision != current.revision {
            let base = contact.base ?? ContactValues()
            let conflicts = keys.keys.filter { !base.hasSameValue(as: current.values, for: $0) }
            if !conflicts.isEmpty {
                throw ContactStoreError(
                    .recordChangedSinceFetch,
                    "contact \(identifier) changed since it was fetched, in \(conflicts.map(\.rawValue).joined(separator: ", ")); fetch it again and rebuild the request",
                    affectedIdentifiers: [identifier], keyPaths: conflicts.map(\.rawValue))
            }
        }
        let effective = ContactKeySet(keys.keys.filter { !contact.values.hasSameValue(as: current.values, for: $0) })
        guard !effective.isEmpty else { return }
        var old = ContactValues()
        var new = ContactValues()
        for key in effective.keys {
            old.copyValue(for: key, from: current.values)
            new.copyValue(for: key, from: contact.values)
        }
        record(.updateContact(identifier: identifier, keys: effective, old: old, new: new), affecting: identifier)
    }

    private mutating func deleteContact(_ contact: MutableContact) throws(ContactStoreError) {
        let identifier = contact.identifier
        let current = try existingContact(identifier)
        try checkUnchanged(contact, current)
        if request.conflictPolicy == .mergeOrRefuse && contact.revision != current.revision, let base = contact.base {
            let held = contact.availableKeys.intersection(.writable)
            let changed = base.keys(differingFrom: current.values, among: held)
            if !changed.isEmpty {
                throw ContactStoreError(
                    .recordChangedSinceFetch,
                    "contact \(identifier) changed since it was fetched (\(changed.keys.map(\.rawValue).joined(separator: ", "))); fetch it again before deleting",
                    affectedIdentifiers: [identifier], keyPaths: changed.keys.map(\.rawValue))
            }
        }
        record(
            .deleteContact(
                identifier: identifier, containerIdentifier: current.containerIdentifier, createdBy: current.createdBy,
                groupIdentifiers: state.groups(containing: identifier), last: current.values),
            affecting: identifier)
    }

    /// Under ``SaveRequest/ConflictPolicy/refuseIfChanged``, refuses a change to a contact whose
    /// revision moved since it was fetched, whatever the other change touched.
    private func checkUnchanged(_ contact: MutableContact, _ current: ContactState) throws(ContactStoreError) {
        guard request.conflictPolicy == .refuseIfChanged, contact.revision != current.revision else { return }
        throw ContactStoreError(
            .recordChangedSinceFetch,
            "contact \(contact.identifier) is at revision \(current.revision), not \(contact.revision) as fetched",
            affectedIdentifiers: [contact.identifier])
    }

    /// Refuses to restore a contact (an undo) with an empty identifier, or one a limited client
    /// could not have changed: restoring is writing, and a limited client writes only the
    /// contacts it created or was granted.
    private func checkRestorable(_ identifier: String, createdBy creator: String) throws(ContactStoreError) {
        guard !identifier.isEmpty else {
            throw ContactStoreError(
                .recordIdentifierInvalid, "a contact's identifier is empty", keyPaths: ["identifier"])
        }
        guard
            client.access.status == .authorized || creator == client.identifier
                || state.grants(of: client.identifier).contains(identifier)
        else {
            throw ContactStoreError(
                .recordDoesNotExist, "contact \(identifier) does not exist", affectedIdentifiers: [identifier])
        }
    }

    /// Refuses the identifier a request gives a new contact or group unless it is a UUID (any
    /// case): the store makes UUIDs, and one from elsewhere must look the same, so that it is one
    /// word on a command line and in the tool's output. Records already in a ledger keep
    /// whatever identifiers they have (decision 0021).
    private static func checkNewIdentifier(_ identifier: String, of kind: String) throws(ContactStoreError) {
        guard !identifier.isEmpty else {
            throw ContactStoreError(
                .recordIdentifierInvalid, "a \(kind)'s identifier is empty", keyPaths: ["identifier"])
        }
        guard Self.isUUIDText(identifier) else {
            throw ContactStoreError(
                .recordIdentifierInvalid,
                "identifier: a \(kind)'s identifier must be a UUID, got \(identifier.debugDescription)",
                affectedIdentifiers: [identifier], keyPaths: ["identifier"])
        }
    }

    /// Whether a text is a UUID's 36-character form (hex digits in either case, hyphens after the
    /// 8th, 12th, 16th and 20th), the form `UUID(uuidString:)` accepts, read without Foundation's
    /// parser: every new contact and group is checked.
    static func isUUIDText(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            let isHyphenPlace = count == 8 || count == 13 || count == 18 || count == 23
            let isHex =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
            guard isHyphenPlace ? byte == UInt8(ascii: "-") : isHex else { return false }
            count += 1
            if count > 36 { return false }
        }
        return count == 36
    }

    /// Refuses a group name that holds a NUL character, as contact values are refused.
    private static func checkGroupName(_ group: MutableGroup) throws(ContactStoreError) {
        guard ContactValues.holdsNUL(group.name) else { return }
        throw ContactStoreError(
            .validationConfigurationError, "name: \(ContactValues.nulMessage)", affectedIdentifiers: [group.identifier],
            keyPaths: ["name"])
    }

    // MARK: Groups

    private mutating func addGroup(
        _ group: MutableGroup, _ container: String?, restored: Bool
    ) throws(ContactStoreError) {
        if !restored || group.identifier.isEmpty { try Self.checkNewIdentifier(group.identifier, of: "group") }
        try Self.checkGroupName(group)
        guard state.group(group.identifier) == nil else {
            throw ContactStoreError(
                .insertedRecordAlreadyExists, "group \(group.identifier) already exists",
                affectedIdentifiers: [group.identifier])
        }
        let containerID = try containerIdentifier(container, for: group.identifier)
        record(
            .addGroup(identifier: group.identifier, containerIdentifier: containerID, name: group.name),
            affecting: group.identifier)
    }

    /// Refuses a rename or delete of a group by a client without full access: a group may hold
    /// contacts the client does not see, and a refusal that depended on them would tell it they
    /// exist (decision 0024).
    private func checkMayChangeGroup(_ identifier: String) throws(ContactStoreError) {
        guard client.access.status == .authorized else {
            throw ContactStoreError(
                .authorizationDenied,
                "client \(client.identifier) has limited access and cannot rename or delete groups",
                affectedIdentifiers: [identifier])
        }
    }

    private mutating func updateGroup(_ group: MutableGroup) throws(ContactStoreError) {
        try checkMayChangeGroup(group.identifier)
        let current = try existingGroup(group.identifier)
        try Self.checkGroupName(group)
        guard current.name != group.name else { return }
        record(
            .updateGroup(identifier: group.identifier, oldName: current.name, newName: group.name),
            affecting: group.identifier)
    }

    private mutating func deleteGroup(_ group: MutableGroup) throws(ContactStoreError) {
        try checkMayChangeGroup(group.identifier)
        let current = try existingGroup(group.identifier)
        record(
            .deleteGroup(
                identifier: group.identifier, containerIdentifier: current.containerIdentifier, name: current.name,
                memberIdentifiers: current.members.sorted(), subgroupIdentifiers: current.subgroups.sorted(),
                parentGroupIdentifiers: current.parents.sorted()),
            affecting: group.identifier)
    }

    private mutating func changeMember(_ contactID: String, of groupID: String, add: Bool) throws(ContactStoreError) {
        let contact = try existingContact(contactID)
        let group = try existingGroup(groupID)
        guard contact.containerIdentifier == group.containerIdentifier else {
            throw ContactStoreError(
                .containmentScope, "contact \(contactID) and group \(groupID) are in different containers",
                affectedIdentifiers: [contactID, groupID])
        }
        if add && !group.members.contains(contactID) {
            record(.addMember(contactIdentifier: contactID, groupIdentifier: groupID), affecting: groupID)
        } else if !add && group.members.contains(contactID) {
            record(.removeMember(contactIdentifier: contactID, groupIdentifier: groupID), affecting: groupID)
        }
    }

    private mutating func changeSubgroup(_ childID: String, of parentID: String, add: Bool) throws(ContactStoreError) {
        let child = try existingGroup(childID)
        let parent = try existingGroup(parentID)
        if !add {
            if parent.subgroups.contains(childID) {
                record(.removeSubgroup(groupIdentifier: childID, parentGroupIdentifier: parentID), affecting: parentID)
            }
            return
        }
        guard child.containerIdentifier == parent.containerIdentifier else {
            throw ContactStoreError(
                .containmentScope, "groups \(childID) and \(parentID) are in different containers",
                affectedIdentifiers: [childID, parentID])
        }
        // A cycle: the parent is the child or one of the child's descendants.
        var frontier = [childID]
        var seen: Set<String> = []
        while let next = frontier.popLast() {
            if next == parentID {
                throw ContactStoreError(
                    .containmentCycle, "making \(childID) a subgroup of \(parentID) would make a group contain itself",
                    affectedIdentifiers: [childID, parentID])
            }
            guard seen.insert(next).inserted else { continue }
            frontier += state.group(next)?.subgroups ?? []
        }
        if !parent.subgroups.contains(childID) {
            record(.addSubgroup(groupIdentifier: childID, parentGroupIdentifier: parentID), affecting: parentID)
        }
    }
}
