import ContactsEngine
import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

extension LedgerUndo {
    /// Saves the inverse of one committed record, computed against the current state, as one save
    /// request whose record names the record it reverts: an add becomes a delete, a delete an
    /// undelete (with the contact's identifier, values and the groups that still exist), an update
    /// restores the old values of exactly the properties it changed, and group, membership and
    /// subgroup changes are inverted.
    ///
    /// It reads the one record and the current state of what it touched. Where the record's effect
    /// changed again since (a property set since to another value, a contact added by the record
    /// and changed since, a deleted contact or group that exists again), the revert is refused with
    /// each conflict named (``UndoError/Code/conflict``), unless ``UndoOptions/onlyUnchanged`` leaves
    /// those out and reverts the rest. A record that is not a save request of contacts or groups
    /// (containers, authorization, grants) is refused, as is a record past the head; an update of a
    /// contact deleted since is refused with a message to undelete it first.
    public func revert(record sequence: UInt64, options: UndoOptions = UndoOptions()) throws -> UndoOutcome {
        if let earlier = try earlierOutcome(options) { return earlier }
        let event = try event(at: sequence).event
        try checkSeesEverything(in: event, sequence: sequence)
        var plan = RevertPlan(undo: self, sequence: sequence, onlyUnchanged: options.onlyUnchanged)
        plan.request = request(options)
        plan.request.markUndo(.revert, of: sequence)
        try plan.checkRevertible(event.operations)
        plan.noteContacts(event.operations)
        for operation in event.operations { try plan.invert(operation) }
        guard plan.conflicts.isEmpty else {
            throw UndoError(
                .conflict,
                "cannot revert record \(sequence): changed since, "
                    + plan.conflicts.map(\.description).joined(separator: "; ")
                    + " (--only-unchanged reverts the rest)",
                conflicts: plan.conflicts)
        }
        return try finish(
            plan.request, undoes: UndoReference(kind: .revert, sequence: sequence), skipped: plan.skipped,
            options: options)
    }
}

/// The inverse of one record, built operation by operation against the current state.
struct RevertPlan {
    let undo: LedgerUndo
    let sequence: UInt64
    let onlyUnchanged: Bool
    var request = SaveRequest()
    var conflicts: [UndoConflict] = []
    var skipped: [UndoSkip] = []
    /// Contacts the revert deletes (their membership changes need no inverse) and brings back.
    var deleting: Set<String> = []
    var restoring: Set<String> = []
    var restoringGroups: Set<String> = []

    /// Refuses a record that holds store-level operations, which no save request makes.
    func checkRevertible(_ operations: [LedgerOperation]) throws {
        for operation in operations {
            switch operation {
            case .addContainer, .setAuthorization, .requestAccess, .grantAccess, .revokeAccess, .linkContacts,
                .unlinkContact:
                throw UndoError(
                    .notRevertible,
                    "record \(sequence) is not a save request of contacts or groups (it holds \(Self.name(operation))); "
                        + "only those can be reverted")
            default: continue
            }
        }
    }

    /// Which contacts and groups the inverse deletes or brings back, when nothing conflicts.
    mutating func noteContacts(_ operations: [LedgerOperation]) {
        for operation in operations {
            switch operation {
            case .addContact(let identifier, _, _, _): deleting.insert(identifier)
            case .deleteContact(let identifier, _, _, _, _): restoring.insert(identifier)
            case .deleteGroup(let identifier, _, _, _, _, _): restoringGroups.insert(identifier)
            default: continue
            }
        }
    }

    /// Adds the inverse of one operation, or its conflicts, or why it is left out.
    mutating func invert(_ operation: LedgerOperation) throws {
        switch operation {
        case .addContact(let identifier, _, _, let values): try invertAdd(identifier, values)
        case .updateContact(let identifier, let keys, let old, let new): try invertUpdate(identifier, keys, old, new)
        case .deleteContact(let identifier, let container, let creator, let groups, let last):
            invertDelete(identifier, container, creator, groups, last)
        case .addGroup(let identifier, _, let name): invertAddGroup(identifier, name)
        case .updateGroup(let identifier, let oldName, let newName): invertRename(identifier, oldName, newName)
        case .deleteGroup(let identifier, let container, let name, let members, let subgroups, let parents):
            invertDeleteGroup(identifier, container, name, members: members, subgroups: subgroups, parents: parents)
        case .addMember(let contact, let group): invertMembership(contact, group, wasAdded: true)
        case .removeMember(let contact, let group): invertMembership(contact, group, wasAdded: false)
        case .addSubgroup(let child, let parent): invertSubgroup(child, parent, wasAdded: true)
        case .removeSubgroup(let child, let parent): invertSubgroup(child, parent, wasAdded: false)
        case .redacted(let standIn):
            skipped.append(UndoSkip(identifier: standIn.contactIdentifier, reason: "redacted: its values are gone"))
        case .undo, .addContainer, .setAuthorization, .requestAccess, .grantAccess, .revokeAccess, .linkContacts,
            .unlinkContact, .redaction:
            break
        }
    }

    /// Records conflicts, or with `onlyUnchanged` the reason the object is left out; returns
    /// whether the object may be inverted.
    private mutating func accept(_ identifier: String, _ found: [UndoConflict]) -> Bool {
        guard !found.isEmpty else { return true }
        if onlyUnchanged {
            skipped.append(
                UndoSkip(
                    identifier: identifier,
                    reason: "changed since record \(sequence), left as it is: "
                        + found.map { "\($0.property) now \($0.current.serialized())" }.joined(separator: ", ")))
        } else {
            conflicts += found
        }
        return false
    }

    private mutating func invertAdd(_ identifier: String, _ values: ContactValues) throws {
        guard let current = try undo.currentContact(identifier) else {
            deleting.remove(identifier)
            skipped.append(UndoSkip(identifier: identifier, reason: "already deleted"))
            return
        }
        let changed = values.keys(differingFrom: current.values, among: .writable)
        let found = changed.keys.map { conflict(identifier, $0, set: values, now: current.values) }
        guard accept(identifier, found) else {
            deleting.remove(identifier)
            return
        }
        request.delete(LedgerUndo.mutable(identifier, current))
    }

    private mutating func invertUpdate(
        _ identifier: String, _ keys: ContactKeySet, _ old: ContactValues, _ new: ContactValues
    ) throws {
        guard let current = try undo.currentContact(identifier) else {
            let message =
                "contact \(identifier) was deleted after record \(sequence); undelete it first "
                + "(undelete \(identifier)), then revert \(sequence)"
            guard onlyUnchanged else { throw UndoError(.contactMissing, message) }
            skipped.append(UndoSkip(identifier: identifier, reason: "deleted since record \(sequence)"))
            return
        }
        var reverted = LedgerUndo.mutable(identifier, current)
        var found: [UndoConflict] = []
        for key in keys.keys where !current.values.hasSameValue(as: old, for: key) {
            if current.values.hasSameValue(as: new, for: key) {
                reverted.values.copyValue(for: key, from: old)
            } else {
                found.append(conflict(identifier, key, set: new, now: current.values))
            }
        }
        if !found.isEmpty && !onlyUnchanged {
            conflicts += found
            return
        }
        _ = accept(identifier, found)
        request.update(reverted)
    }

    private mutating func invertDelete(
        _ identifier: String, _ container: String, _ creator: String, _ groups: [String], _ last: ContactValues
    ) {
        guard undo.contactExists(identifier) == nil else {
            restoring.remove(identifier)
            _ = accept(
                identifier,
                [UndoConflict(identifier: identifier, property: "exists", recorded: false, current: true)])
            return
        }
        request.restore(
            MutableContact(identifier: identifier, values: last, availableKeys: .all, base: nil),
            toContainerWithIdentifier: container, createdBy: creator)
        let live = groups.filter { undo.currentGroup($0) != nil || restoringGroups.contains($0) }
        for group in live {
            request.addMember(LedgerUndo.placeholder(identifier), to: Group(identifier: group, name: ""))
        }
        for group in groups where !live.contains(group) {
            skipped.append(
                UndoSkip(identifier: group, reason: "group no longer exists; membership of \(identifier) not restored"))
        }
    }
}

extension RevertPlan {
    private mutating func invertAddGroup(_ identifier: String, _ name: String) {
        guard let current = undo.currentGroup(identifier) else {
            skipped.append(UndoSkip(identifier: identifier, reason: "group already deleted"))
            return
        }
        let found =
            current.name == name
            ? []
            : [
                UndoConflict(
                    identifier: identifier, property: "name", recorded: .string(name), current: .string(current.name))
            ]
        guard accept(identifier, found) else { return }
        request.delete(MutableGroup(identifier: identifier, name: current.name))
    }

    private mutating func invertRename(_ identifier: String, _ oldName: String, _ newName: String) {
        guard let current = undo.currentGroup(identifier) else {
            _ = accept(
                identifier, [UndoConflict(identifier: identifier, property: "exists", recorded: true, current: false)])
            return
        }
        guard current.name != oldName else { return }
        let found =
            current.name == newName
            ? []
            : [
                UndoConflict(
                    identifier: identifier, property: "name", recorded: .string(newName), current: .string(current.name)
                )
            ]
        guard accept(identifier, found) else { return }
        request.update(MutableGroup(identifier: identifier, name: oldName))
    }

    private mutating func invertDeleteGroup(
        _ identifier: String, _ container: String, _ name: String, members: [String], subgroups: [String],
        parents: [String]
    ) {
        guard undo.currentGroup(identifier) == nil else {
            restoringGroups.remove(identifier)
            _ = accept(
                identifier, [UndoConflict(identifier: identifier, property: "exists", recorded: false, current: true)])
            return
        }
        request.restore(MutableGroup(identifier: identifier, name: name), toContainerWithIdentifier: container)
        let group = Group(identifier: identifier, name: name)
        for member in members {
            guard undo.contactExists(member) != nil || restoring.contains(member) else {
                skipped.append(
                    UndoSkip(
                        identifier: member, reason: "contact no longer exists; not a member of \(identifier) again"))
                continue
            }
            request.addMember(LedgerUndo.placeholder(member), to: group)
        }
        for child in subgroups where exists(group: child) {
            request.addSubgroup(Group(identifier: child, name: ""), to: group)
        }
        for parent in parents where exists(group: parent) {
            request.addSubgroup(group, to: Group(identifier: parent, name: ""))
        }
    }

    private func exists(group identifier: String) -> Bool {
        undo.currentGroup(identifier) != nil || restoringGroups.contains(identifier)
    }

    private mutating func invertMembership(_ contact: String, _ groupID: String, wasAdded: Bool) {
        // A contact the revert deletes leaves its groups with it; one it brings back rejoins its
        // recorded groups.
        if wasAdded && deleting.contains(contact) { return }
        let contactExists = undo.contactExists(contact) != nil || restoring.contains(contact)
        guard contactExists, exists(group: groupID) else {
            skipped.append(
                UndoSkip(identifier: contact, reason: "contact or group \(groupID) no longer exists; membership left"))
            return
        }
        let group = Group(identifier: groupID, name: "")
        if wasAdded {
            request.removeMember(LedgerUndo.placeholder(contact), from: group)
        } else {
            request.addMember(LedgerUndo.placeholder(contact), to: group)
        }
    }

    private mutating func invertSubgroup(_ child: String, _ parent: String, wasAdded: Bool) {
        guard exists(group: child), exists(group: parent) else {
            skipped.append(UndoSkip(identifier: child, reason: "group or group \(parent) no longer exists; link left"))
            return
        }
        let childGroup = Group(identifier: child, name: "")
        let parentGroup = Group(identifier: parent, name: "")
        if wasAdded {
            request.removeSubgroup(childGroup, from: parentGroup)
        } else {
            request.addSubgroup(childGroup, to: parentGroup)
        }
    }

    /// A property whose value is not the one the record set; a note's values are not shown to a
    /// client without the notes entitlement.
    func conflict(
        _ identifier: String, _ key: ContactKey, set recorded: ContactValues, now current: ContactValues
    ) -> UndoConflict {
        let keys = ContactKeySet(key)
        let value = { (values: ContactValues) -> JSONValue in
            guard key != .note || undo.readsNotes else { return "(hidden: the note needs the notes entitlement)" }
            return ContactJSON.value(of: key, in: Contact(identifier: identifier, values: values, availableKeys: keys))
        }
        return UndoConflict(
            identifier: identifier, property: key.rawValue, recorded: value(recorded), current: value(current))
    }

    /// The name of a store-level operation, for a refusal.
    static func name(_ operation: LedgerOperation) -> String {
        switch operation {
        case .addContainer: "a container's creation"
        case .setAuthorization: "an authorization decision"
        case .requestAccess: "a request for access"
        case .grantAccess: "a grant of access"
        case .revokeAccess: "a revocation of access"
        case .linkContacts: "a link of contacts, which `unlink` undoes"
        case .unlinkContact: "an unlink of a contact, which `link` undoes"
        default: "a save request's operations"
        }
    }
}
