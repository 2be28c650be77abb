import ContactsEngine
import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// The audit log, contact histories and differences as JSON: the `--json` form of `log`,
/// `history`, `diff` and `restore --dry-run`, one object per event.
///
/// Every object is stable and versioned by its keys: new keys may be added, existing ones never
/// change meaning. Times are RFC 3339 in UTC with microseconds; contacts are in the form of
/// ``ContactJSON``; a property change is `{key, old, new}`, each side the property's JSON value.
public enum AuditJSON {
    /// One record of the audit log: `{sequence, time, author, requestId, hash, affectedIdentifiers,
    /// operations}`, each operation an object whose `type` names it (`addContact`,
    /// `updateContact`, `deleteContact`, `addGroup`, `renameGroup`, `deleteGroup`, `addMember`,
    /// `removeMember`, `addSubgroup`, `removeSubgroup`, `addContainer`, `setAuthorization`,
    /// `requestAccess`, `grantAccess`, `revokeAccess`, `linkContacts` `{type, contacts}`,
    /// `unlinkContact` `{type, contact, linked}`, and `undo`, `{type, kind, sequence}`, which names what an undo
    /// undid: `kind` `undelete` or `revert` with the record undone, or `restore` with the point a
    /// contact was brought back to). An undo's entry also has `undoes`, `{kind, sequence}`. A redacted
    /// record's entry has `redacted`, `{reason}`, and each removed operation is `redacted`,
    /// `{type, contact, kind}` (`kind` `created`, `updated` or `deleted`); a recorded redaction is
    /// `redaction`, `{type, sequence, contact?, reason, erased}`.
    public static func value(for entry: AuditEntry) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("sequence", .integer(entry.sequence)), ("time", .string(RFC3339.string(from: entry.commitDate))),
            ("author", .string(entry.author)), ("requestId", .string(entry.requestIdentifier.uuidString)),
            ("hash", .string(entry.hash.hex)),
            ("affectedIdentifiers", .array(entry.affectedIdentifiers.map { .string($0) })),
            ("operations", .array(entry.changes.map(value(for:)))),
        ]
        pairs += optionalPairs(for: entry)
        return .object(JSONObject(pairs))
    }

    /// The keys of an entry after its operations, each present only when it applies.
    private static func optionalPairs(for entry: AuditEntry) -> [(String, JSONValue)] {
        var pairs: [(String, JSONValue)] = []
        if let undoes = entry.undoes { pairs.append(("undoes", value(for: undoes))) }
        if let reason = entry.redactionReason { pairs.append(("redacted", ["reason": .string(reason)])) }
        return pairs
    }

    /// Appends ``value(for:)-(AuditEntry)``'s compact form to `output` without building the value:
    /// the added, updated and deleted contacts, nearly all of a log's bytes, go straight through
    /// ``ContactJSON/write(_:to:)`` and its writer of one key, and every other operation through
    /// its value.
    public static func write(_ entry: AuditEntry, to output: inout [UInt8]) {
        output += #"{"sequence":"#.utf8
        output += String(entry.sequence).utf8
        output += #","time":"#.utf8
        JSONValue.writeString(RFC3339.string(from: entry.commitDate), to: &output, asciiOnly: false)
        output += #","author":"#.utf8
        JSONValue.writeString(entry.author, to: &output, asciiOnly: false)
        output += #","requestId":""#.utf8
        output += entry.requestIdentifier.uuidString.utf8
        output += #"","hash":""#.utf8
        output += entry.hash.hex.utf8
        output += #"","affectedIdentifiers":["#.utf8
        for (index, identifier) in entry.affectedIdentifiers.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.writeString(identifier, to: &output, asciiOnly: false)
        }
        output += #"],"operations":["#.utf8
        for (index, change) in entry.changes.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            write(change, to: &output)
        }
        output.append(UInt8(ascii: "]"))
        for (key, value) in optionalPairs(for: entry) {
            output.append(UInt8(ascii: ","))
            JSONValue.writeString(key, to: &output, asciiOnly: false)
            output.append(UInt8(ascii: ":"))
            value.write(to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Appends one operation's compact form: a contact's add, update or delete without building
    /// its value.
    private static func write(_ change: AuditChange, to output: inout [UInt8]) {
        switch change {
        case .addContact(let added, let container): write("addContact", of: added, in: container, to: &output)
        case .deleteContact(let deleted): write("deleteContact", of: deleted, in: nil, to: &output)
        case .updateContact(let identifier, let changes): write(changes, of: identifier, to: &output)
        default: value(for: change).write(to: &output)
        }
    }

    /// Appends an added or deleted contact's operation: `{type, identifier, container?, contact}`.
    private static func write(
        _ type: StaticString, of contact: Contact, in container: String?, to output: inout [UInt8]
    ) {
        output += #"{"type":""#.utf8
        type.withUTF8Buffer { output.append(contentsOf: $0) }
        output += #"","identifier":"#.utf8
        JSONValue.writeString(contact.identifier, to: &output, asciiOnly: false)
        if let container {
            output += #","container":"#.utf8
            JSONValue.writeString(container, to: &output, asciiOnly: false)
        }
        output += #","contact":"#.utf8
        ContactJSON.write(contact, to: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// Appends an update's operation: `{type, identifier, changes}`, each change `{key, old, new}`.
    private static func write(_ changes: [PropertyChange], of identifier: String, to output: inout [UInt8]) {
        output += #"{"type":"updateContact","identifier":"#.utf8
        JSONValue.writeString(identifier, to: &output, asciiOnly: false)
        output += #","changes":["#.utf8
        for (index, change) in changes.enumerated() {
            output += (index == 0 ? #"{"key":"# : #",{"key":"#).utf8
            JSONValue.writeString(change.key.rawValue, to: &output, asciiOnly: false)
            output += #","old":"#.utf8
            ContactJSON.write(change.key, of: change.oldValue, to: &output)
            output += #","new":"#.utf8
            ContactJSON.write(change.key, of: change.newValue, to: &output)
            output.append(UInt8(ascii: "}"))
        }
        output += "]}".utf8
    }

    /// What an undo undid: `{kind, sequence}`.
    public static func value(for reference: UndoReference) -> JSONValue {
        ["kind": .string(reference.kind.rawValue), "sequence": .integer(reference.sequence)]
    }

    /// One operation of a record.
    public static func value(for change: AuditChange) -> JSONValue {
        switch change {
        case .addContact(let contact, let container):
            return [
                "type": "addContact", "identifier": .string(contact.identifier), "container": .string(container),
                "contact": ContactJSON.value(for: contact),
            ]
        case .updateContact(let identifier, let changes):
            return ["type": "updateContact", "identifier": .string(identifier), "changes": value(for: changes)]
        case .deleteContact(let contact):
            return [
                "type": "deleteContact", "identifier": .string(contact.identifier),
                "contact": ContactJSON.value(for: contact),
            ]
        case .addGroup(let identifier, let name, let container):
            return [
                "type": "addGroup", "identifier": .string(identifier), "name": .string(name),
                "container": .string(container),
            ]
        case .renameGroup(let identifier, let oldName, let newName):
            return [
                "type": "renameGroup", "identifier": .string(identifier), "oldName": .string(oldName),
                "newName": .string(newName),
            ]
        case .deleteGroup(let identifier, let name, let members):
            return [
                "type": "deleteGroup", "identifier": .string(identifier), "name": .string(name),
                "members": .array(members.map { .string($0) }),
            ]
        case .addMember(let contact, let group):
            return ["type": "addMember", "contact": .string(contact), "group": .string(group)]
        case .removeMember(let contact, let group):
            return ["type": "removeMember", "contact": .string(contact), "group": .string(group)]
        case .addSubgroup(let group, let parent):
            return ["type": "addSubgroup", "group": .string(group), "parent": .string(parent)]
        case .removeSubgroup(let group, let parent):
            return ["type": "removeSubgroup", "group": .string(group), "parent": .string(parent)]
        case .addContainer(let container):
            return [
                "type": "addContainer", "identifier": .string(container.identifier), "name": .string(container.name),
                "containerType": .string(containerTypeName(container.type)),
            ]
        case .setAuthorization(let client, let status, let notesEntitlement):
            return [
                "type": "setAuthorization", "client": .string(client), "status": .string(statusName(status)),
                "notesEntitlement": .bool(notesEntitlement),
            ]
        case .requestAccess(let client, let notesEntitlement):
            return ["type": "requestAccess", "client": .string(client), "notesEntitlement": .bool(notesEntitlement)]
        case .grantAccess(let client, let contacts):
            return ["type": "grantAccess", "client": .string(client), "contacts": .array(contacts.map { .string($0) })]
        case .revokeAccess(let client, let contacts):
            return [
                "type": "revokeAccess", "client": .string(client), "contacts": .array(contacts.map { .string($0) }),
            ]
        case .linkContacts(let contacts):
            return ["type": "linkContacts", "contacts": .array(contacts.map { .string($0) })]
        case .unlinkContact(let contact, let linked):
            return ["type": "unlinkContact", "contact": .string(contact), "linked": .array(linked.map { .string($0) })]
        case .undo(let reference):
            return ["type": "undo", "kind": .string(reference.kind.rawValue), "sequence": .integer(reference.sequence)]
        case .redacted(let contact, let kind):
            return ["type": "redacted", "contact": .string(contact), "kind": .string(kind.rawValue)]
        case .redaction(let reference):
            var pairs: [(String, JSONValue)] = [("type", "redaction"), ("sequence", .integer(reference.sequence))]
            if let contact = reference.contactIdentifier { pairs.append(("contact", .string(contact))) }
            pairs += [("reason", .string(reference.reason)), ("erased", .bool(reference.erased))]
            return .object(JSONObject(pairs))
        }
    }

    /// Property changes as `[{key, old, new}]`.
    public static func value(for changes: [PropertyChange]) -> JSONValue {
        .array(
            changes.map { change in
                [
                    "key": .string(change.key.rawValue),
                    "old": ContactJSON.value(of: change.key, in: change.oldValue),
                    "new": ContactJSON.value(of: change.key, in: change.newValue),
                ]
            })
    }

    /// One revision of a contact: `{sequence, time, author, requestId, kind, changes}`, `kind`
    /// being `created`, `updated` or `deleted`, and `undoes`, `{kind, sequence}`, when the record
    /// that made it is an undo, and `redacted`, `{reason}`, when its values were redacted.
    public static func value(for revision: ContactRevision) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("sequence", .integer(revision.sequence)), ("time", .string(RFC3339.string(from: revision.commitDate))),
            ("author", .string(revision.author)), ("requestId", .string(revision.requestIdentifier.uuidString)),
            ("kind", .string(revision.kind.rawValue)), ("changes", value(for: revision.changes)),
        ]
        if let undoes = revision.undoes { pairs.append(("undoes", value(for: undoes))) }
        if let reason = revision.redactionReason { pairs.append(("redacted", ["reason": .string(reason)])) }
        return .object(JSONObject(pairs))
    }

    /// A difference between two points: `{from, to, added, changed, deleted}`, `added` and
    /// `deleted` being contacts and `changed` being `[{identifier, changes}]`.
    public static func value(for diff: LedgerDiff) -> JSONValue {
        [
            "from": .integer(diff.fromSequence), "to": .integer(diff.toSequence),
            "added": .array(diff.added.map(ContactJSON.value(for:))),
            "changed": .array(
                diff.changed.map { ["identifier": .string($0.identifier), "changes": value(for: $0.changes)] }),
            "deleted": .array(diff.deleted.map(ContactJSON.value(for:))),
        ]
    }

    /// A head digest: `{sequence, hash}`.
    public static func value(for digest: HeadDigest) -> JSONValue {
        ["sequence": .integer(digest.sequence), "hash": .string(digest.hash.hex)]
    }

    /// `unassigned`, `local`, `exchange` or `cardDAV`.
    public static func containerTypeName(_ type: ContainerType) -> String {
        switch type {
        case .unassigned: "unassigned"
        case .local: "local"
        case .exchange: "exchange"
        case .cardDAV: "cardDAV"
        }
    }

    /// `notDetermined`, `restricted`, `denied`, `authorized` or `limited`.
    public static func statusName(_ status: AuthorizationStatus) -> String {
        switch status {
        case .notDetermined: "notDetermined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .authorized: "authorized"
        case .limited: "limited"
        }
    }
}
