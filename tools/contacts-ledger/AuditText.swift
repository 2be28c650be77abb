import ContactsLedger
import Foundation
import LedgerAudit

/// The audit log, histories and differences as plain text, like `git log`.
enum AuditText {
    /// A property change, one line per changed item, each indented by `indent`: `- Given name: Ada`
    /// and `+ Given name: Augusta` for a single value; for a list, the property's name and then
    /// only the items that went (`- home: +1 202 555 0199`) and came (`+ mobile: +1 202 555 0100`),
    /// labels by their friendly names and values as `show` prints them.
    static func change(_ change: PropertyChange, indent: String) -> [String] {
        let old = ContactText.items(change.key, of: change.oldValue)
        let new = ContactText.items(change.key, of: change.newValue)
        let name = ContactText.name(of: change.key)
        guard listKeys.contains(change.key) else {
            return old.flatMap { item(.removed, name, $0.value, indent) }
                + new.flatMap { item(.added, name, $0.value, indent) }
        }
        let removed = unmatched(old, in: new), added = unmatched(new, in: old)
        if removed.isEmpty && added.isEmpty { return [] }
        let inner = indent + "    "
        return [indent + name + ":"]
            + removed.flatMap { item(.removed, LabelNames.display($0.label), $0.value, inner) }
            + added.flatMap { item(.added, LabelNames.display($0.label), $0.value, inner) }
    }

    /// The properties that hold labeled lists, whose items are shown one by one under the name.
    static let listKeys: Set<ContactKey> = [
        .dates, .phoneNumbers, .emailAddresses, .postalAddresses, .urlAddresses, .contactRelations, .socialProfiles,
        .instantMessageAddresses, .vCardExtensions,
    ]

    /// Every property of a contact as added (or removed) lines, in key order.
    static func properties(_ contact: Contact, _ side: Side, indent: String) -> [String] {
        ContactKey.allCases.filter(contact.isKeyAvailable).flatMap { key in
            let items = ContactText.items(key, of: contact)
            guard listKeys.contains(key) else {
                return items.flatMap { item(side, ContactText.name(of: key), $0.value, indent) }
            }
            if items.isEmpty { return [] }
            return [indent + ContactText.name(of: key) + ":"]
                + items.flatMap { item(side, LabelNames.display($0.label), $0.value, indent + "    ") }
        }
    }

    /// Whether a line shows an item that came or went.
    enum Side: String {
        case added = "+"
        case removed = "-"
    }

    /// `+ name: value` (or `+ value` without a name), coloured on a terminal; the lines of a
    /// value that spans lines each carry the sign, aligned under the first.
    private static func item(_ side: Side, _ name: String, _ value: String, _ indent: String) -> [String] {
        let head = side.rawValue + " " + (name.isEmpty ? "" : name + ": ")
        let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.enumerated().map { index, line in
            let text = (index == 0 ? head : side.rawValue + String(repeating: " ", count: head.count - 1)) + line
            return indent + colour(side, text)
        }
    }

    /// Text in green (added) or red (removed) when colour is allowed on standard output, as `git diff`.
    private static func colour(_ side: Side, _ text: String) -> String {
        guard Terminal.colourOnStdout else { return text }
        return (side == .added ? "\u{1B}[32m" : "\u{1B}[31m") + text + "\u{1B}[0m"
    }

    /// The items of `items` that `other` lacks, counting repeats, in order.
    private static func unmatched(
        _ items: [(label: String?, value: String)], in other: [(label: String?, value: String)]
    ) -> [(label: String?, value: String)] {
        var remaining: [String: Int] = [:]
        for item in other { remaining[(item.label ?? "") + "\u{0}" + item.value, default: 0] += 1 }
        return items.filter { item in
            let key = (item.label ?? "") + "\u{0}" + item.value
            guard let count = remaining[key], count > 0 else { return true }
            remaining[key] = count - 1
            return false
        }
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
        case .addContact(let contact, _):
            return ["    add contact \(contact.identifier)\(name(contact))"]
                + properties(contact, .added, indent: "        ")
        case .updateContact(let identifier, let changes):
            return ["    update contact \(identifier)"] + changes.flatMap { self.change($0, indent: "        ") }
        case .deleteContact(let contact):
            return ["    delete contact \(contact.identifier)\(name(contact))"]
                + properties(contact, .removed, indent: "        ")
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
        case .redacted(let contact, let kind):
            return ["    [redacted] \(redactedVerbs[kind] ?? kind.rawValue) contact \(contact)"]
        case .redaction(let reference):
            let whose = reference.contactIdentifier.map { "contact \($0)'s operations in " } ?? ""
            return [
                "    \(reference.erased ? "erase" : "redact") \(whose)record \(reference.sequence): \(reference.reason)"
            ]
        }
    }

    /// The verb of a redacted operation's line, by what the operation did.
    private static let redactedVerbs: [ContactRevision.Kind: String] = [
        .created: "add", .updated: "update", .deleted: "delete",
    ]

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
            "Request: \(entry.requestIdentifier.uuidString)",
        ] + (entry.redactionReason.map { ["Redacted: [redacted] \($0)"] } ?? []) + [""]
            + entry.changes.flatMap { lines($0) }
    }

    /// One revision of a contact.
    static func lines(_ revision: ContactRevision) -> [String] {
        [
            Terminal.highlight("record \(revision.sequence)") + "  \(revision.kind.rawValue)  "
                + RFC3339.string(from: revision.commitDate) + "  by "
                + (revision.author.isEmpty ? "(none)" : revision.author)
                + (revision.undoes.map { "  " + undone($0) } ?? "")
        ] + (revision.redactionReason.map { ["    [redacted] \($0)"] } ?? [])
            + revision.changes.flatMap { change($0, indent: "    ") }
    }

    /// A difference between two points, with the words for added, changed and deleted contacts.
    /// A contact in `redacted` gets a `[redacted] REASON` line under its own.
    static func lines(
        _ diff: LedgerDiff, verbs: (String, String, String) = ("added", "changed", "deleted"),
        redacted: [String: String] = [:]
    ) -> [String] {
        let width = max(verbs.0.count, verbs.1.count, verbs.2.count) + 2
        func pad(_ verb: String) -> String { verb.padding(toLength: width, withPad: " ", startingAt: 0) }
        func note(_ identifier: String) -> [String] { redacted[identifier].map { ["    [redacted] \($0)"] } ?? [] }
        var lines = diff.added.flatMap { [pad(verbs.0) + $0.identifier + name($0)] + note($0.identifier) }
        for changed in diff.changed {
            lines.append(pad(verbs.1) + changed.identifier)
            lines += note(changed.identifier) + changed.changes.flatMap { change($0, indent: "    ") }
        }
        lines += diff.deleted.flatMap { [pad(verbs.2) + $0.identifier + name($0)] + note($0.identifier) }
        return lines
    }
}
