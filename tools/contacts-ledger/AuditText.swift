import ContactsLedger
import Foundation
import LedgerAudit

/// The audit log, histories and differences as plain text, like `git log`.
enum AuditText {
    /// A property change as `key: OLD → NEW`, each side the value's compact JSON.
    static func change(_ change: PropertyChange) -> String {
        let old = ContactJSON.value(of: change.key, in: change.oldValue).serialized()
        let new = ContactJSON.value(of: change.key, in: change.newValue).serialized()
        return "\(change.key.rawValue): \(old) → \(new)"
    }

    /// A contact's name for a log line, from whatever keys it has.
    static func name(_ contact: Contact) -> String {
        if contact.areKeysAvailable(ContactText.summaryKeys) { return " (\(ContactText.displayName(contact)))" }
        let keys: [ContactKey] = [.givenName, .familyName, .organizationName]
        let parts = keys.filter(contact.isKeyAvailable).map { ContactJSON.value(of: $0, in: contact).stringValue ?? "" }
        let name = parts.filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? "" : " (\(name))"
    }

    /// The lines of one operation, indented by four spaces.
    static func lines(_ change: AuditChange) -> [String] {
        switch change {
        case .addContact(let contact, _): return ["    add contact \(contact.identifier)\(name(contact))"]
        case .updateContact(let identifier, let changes):
            return ["    update contact \(identifier)"] + changes.map { "        " + self.change($0) }
        case .deleteContact(let contact): return ["    delete contact \(contact.identifier)\(name(contact))"]
        case .addGroup(let identifier, let groupName, _): return ["    add group \(identifier) \"\(groupName)\""]
        case .renameGroup(let identifier, let oldName, let newName):
            return ["    rename group \(identifier) \"\(oldName)\" → \"\(newName)\""]
        case .deleteGroup(let identifier, let groupName, let members):
            return ["    delete group \(identifier) \"\(groupName)\" (\(members.count) members)"]
        case .addMember(let contact, let group): return ["    add \(contact) to group \(group)"]
        case .removeMember(let contact, let group): return ["    remove \(contact) from group \(group)"]
        case .addSubgroup(let group, let parent): return ["    add group \(group) to group \(parent)"]
        case .removeSubgroup(let group, let parent): return ["    remove group \(group) from group \(parent)"]
        case .addContainer(let container): return ["    add container \(container.identifier) \"\(container.name)\""]
        case .setAuthorization(let client, let status, let notes):
            return ["    authorize \(client): \(AuditJSON.statusName(status))\(notes ? ", notes entitlement" : "")"]
        case .requestAccess(let client, let notes):
            return ["    \(client) asks for access\(notes ? ", with the notes entitlement" : "")"]
        case .grantAccess(let client, let contacts):
            return ["    grant \(client) access to \(contacts.joined(separator: ", "))"]
        case .revokeAccess(let client, let contacts):
            return ["    revoke \(client)'s access to \(contacts.joined(separator: ", "))"]
        case .linkContacts(let contacts): return ["    link contacts \(contacts.joined(separator: ", "))"]
        case .unlinkContact(let contact, let linked):
            return ["    unlink contact \(contact) from \(linked.joined(separator: ", "))"]
        case .undo(let reference): return ["    " + undone(reference)]
        }
    }

    /// What an undo undid, in words: `undoes record N (undelete)`, `undoes record N (revert)`, or
    /// `restores to sequence N`.
    static func undone(_ reference: UndoReference) -> String {
        switch reference.kind {
        case .undelete, .revert: "undoes record \(reference.sequence) (\(reference.kind.rawValue))"
        case .restore: "restores to sequence \(reference.sequence)"
        }
    }

    /// One record: a header, author, date and request, and its operations.
    static func lines(_ entry: AuditEntry) -> [String] {
        [
            Terminal.highlight("record \(entry.sequence) \(entry.hash.hex)"),
            "Author:  \(entry.author.isEmpty ? "(none)" : entry.author)",
            "Date:    \(RFC3339.string(from: entry.commitDate))",
            "Request: \(entry.requestIdentifier.uuidString)", "",
        ] + entry.changes.flatMap { lines($0) }
    }

    /// One revision of a contact.
    static func lines(_ revision: ContactRevision) -> [String] {
        [
            Terminal.highlight("record \(revision.sequence)") + "  \(revision.kind.rawValue)  "
                + RFC3339.string(from: revision.commitDate) + "  by "
                + (revision.author.isEmpty ? "(none)" : revision.author)
                + (revision.undoes.map { "  " + undone($0) } ?? "")
        ] + revision.changes.map { "    " + change($0) }
    }

    /// A difference between two points, with the words for added, changed and deleted contacts.
    static func lines(_ diff: LedgerDiff, verbs: (String, String, String) = ("added", "changed", "deleted")) -> [String]
    {
        let width = max(verbs.0.count, verbs.1.count, verbs.2.count) + 2
        func pad(_ verb: String) -> String { verb.padding(toLength: width, withPad: " ", startingAt: 0) }
        var lines = diff.added.map { pad(verbs.0) + $0.identifier + name($0) }
        for changed in diff.changed {
            lines.append(pad(verbs.1) + changed.identifier)
            lines += changed.changes.map { "    " + change($0) }
        }
        lines += diff.deleted.map { pad(verbs.2) + $0.identifier + name($0) }
        return lines
    }
}
