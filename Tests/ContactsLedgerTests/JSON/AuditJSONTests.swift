import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("JSON: audit log")
struct AuditJSONTests {
    static func contact(_ given: String) -> Contact {
        var values = ContactValues()
        values.givenName = given
        return Contact(identifier: "C", values: values, availableKeys: [.givenName])
    }

    static let change = PropertyChange(
        key: .givenName,
        oldValue: Contact(identifier: "C", values: ContactValues(), availableKeys: [.givenName]),
        newValue: contact("Ada"))

    @Test(
        "Every kind of operation has a type and its fields",
        arguments: [
            (
                AuditChange.addContact(contact("Ada"), containerIdentifier: "K"),
                [
                    "type": "addContact", "identifier": "C", "container": "K",
                    "contact": ["identifier": "C", "givenName": "Ada"],
                ] as JSONValue
            ),
            (
                .updateContact(identifier: "C", changes: [change]),
                [
                    "type": "updateContact", "identifier": "C",
                    "changes": [["key": "givenName", "old": "", "new": "Ada"]],
                ]
            ),
            (
                .deleteContact(contact("Ada")),
                ["type": "deleteContact", "identifier": "C", "contact": ["identifier": "C", "givenName": "Ada"]]
            ),
            (
                .addGroup(identifier: "G", name: "Friends", containerIdentifier: "K"),
                ["type": "addGroup", "identifier": "G", "name": "Friends", "container": "K"]
            ),
            (
                .renameGroup(identifier: "G", oldName: "A", newName: "B"),
                ["type": "renameGroup", "identifier": "G", "oldName": "A", "newName": "B"]
            ),
            (
                .deleteGroup(identifier: "G", name: "A", memberIdentifiers: ["C"]),
                ["type": "deleteGroup", "identifier": "G", "name": "A", "members": ["C"]]
            ),
            (
                .undo(UndoReference(kind: .revert, sequence: 12)),
                ["type": "undo", "kind": "revert", "sequence": 12]
            ),
            (
                .addMember(contactIdentifier: "C", groupIdentifier: "G"),
                ["type": "addMember", "contact": "C", "group": "G"]
            ),
            (
                .removeMember(contactIdentifier: "C", groupIdentifier: "G"),
                ["type": "removeMember", "contact": "C", "group": "G"]
            ),
            (
                .addSubgroup(groupIdentifier: "G", parentGroupIdentifier: "P"),
                ["type": "addSubgroup", "group": "G", "parent": "P"]
            ),
            (
                .removeSubgroup(groupIdentifier: "G", parentGroupIdentifier: "P"),
                ["type": "removeSubgroup", "group": "G", "parent": "P"]
            ),
            (
                .addContainer(Container(identifier: "K", name: "Local", type: .local)),
                ["type": "addContainer", "identifier": "K", "name": "Local", "containerType": "local"]
            ),
            (
                .setAuthorization(clientIdentifier: "app", status: .limited, notesEntitlement: false),
                ["type": "setAuthorization", "client": "app", "status": "limited", "notesEntitlement": false]
            ),
            (
                .requestAccess(clientIdentifier: "app", notesEntitlement: true),
                ["type": "requestAccess", "client": "app", "notesEntitlement": true]
            ),
            (
                .grantAccess(clientIdentifier: "app", contactIdentifiers: ["C"]),
                ["type": "grantAccess", "client": "app", "contacts": ["C"]]
            ),
            (
                .revokeAccess(clientIdentifier: "app", contactIdentifiers: ["C"]),
                ["type": "revokeAccess", "client": "app", "contacts": ["C"]]
            ),
        ] as [(AuditChange, JSONValue)])
    func operations(change: AuditChange, expected: JSONValue) {
        #expect(AuditJSON.value(for: change) == expected)
    }

    @Test("An entry carries sequence, RFC 3339 time, author, request id, hash and operations")
    func entry() throws {
        let request = try #require(UUID(uuidString: "12345678-1234-1234-1234-123456789ABC"))
        let entry = AuditEntry(
            sequence: 7, commitDate: Date(timeIntervalSince1970: 1_714_555_800.5), author: "me",
            requestIdentifier: request, hash: .zero,
            changes: [.addMember(contactIdentifier: "C", groupIdentifier: "G")],
            affectedIdentifiers: ["G", "C"])
        #expect(
            AuditJSON.value(for: entry).serialized()
                == #"{"sequence":7,"time":"2024-05-01T09:30:00.500000Z","author":"me","#
                + #""requestId":"12345678-1234-1234-1234-123456789ABC","hash":""#
                + String(repeating: "0", count: 64)
                + #"","affectedIdentifiers":["G","C"],"operations":[{"type":"addMember","contact":"C","group":"G"}]}"#)
    }

    @Test("An undo's entry and revisions name what it undid")
    func undoEntry() throws {
        let reference = UndoReference(kind: .undelete, sequence: 4)
        let entry = AuditEntry(
            sequence: 9, commitDate: Date(timeIntervalSince1970: 0), author: "me", requestIdentifier: UUID(),
            hash: .zero, changes: [.undo(reference), .addMember(contactIdentifier: "C", groupIdentifier: "G")],
            affectedIdentifiers: ["G", "C"])
        #expect(entry.undoes == reference)
        let value = AuditJSON.value(for: entry)
        #expect(value["undoes"] == ["kind": "undelete", "sequence": 4])
        #expect(value["operations"]?.arrayValue?.first == ["type": "undo", "kind": "undelete", "sequence": 4])
        let revision = ContactRevision(
            sequence: 9, commitDate: Date(timeIntervalSince1970: 0), author: "", requestIdentifier: UUID(),
            kind: .created, changes: [Self.change], undoes: reference)
        #expect(AuditJSON.value(for: revision)["undoes"] == ["kind": "undelete", "sequence": 4])
        let plain = ContactRevision(
            sequence: 2, commitDate: Date(timeIntervalSince1970: 0), author: "", requestIdentifier: UUID(),
            kind: .updated, changes: [Self.change])
        #expect(AuditJSON.value(for: plain)["undoes"] == nil)
    }

    @Test("A revision and a diff use the same change form")
    func revisionAndDiff() {
        let revision = ContactRevision(
            sequence: 2, commitDate: Date(timeIntervalSince1970: 0), author: "", requestIdentifier: UUID(),
            kind: .updated, changes: [Self.change])
        let value = AuditJSON.value(for: revision)
        #expect(value["kind"] == "updated")
        #expect(value["time"] == "1970-01-01T00:00:00.000000Z")
        #expect(value["changes"] == [["key": "givenName", "old": "", "new": "Ada"]])
        let diff = LedgerDiff(
            fromSequence: 1, toSequence: 3, added: [Self.contact("New")],
            changed: [ContactDifference(identifier: "C", changes: [Self.change])], deleted: [])
        #expect(
            AuditJSON.value(for: diff) == [
                "from": 1, "to": 3, "added": [["identifier": "C", "givenName": "New"]],
                "changed": [["identifier": "C", "changes": [["key": "givenName", "old": "", "new": "Ada"]]]],
                "deleted": [],
            ])
    }

    @Test("AuditJSON.write gives exactly the bytes of the entry's serialized value, for every operation")
    func writeMatchesValue() throws {
        let operations: [AuditChange] = [
            .addContact(Self.contact("Ada \"Lovelace\"\n"), containerIdentifier: "K"),
            .updateContact(identifier: "C", changes: [Self.change]), .deleteContact(Self.contact("Zoë")),
            .addGroup(identifier: "G", name: "Friends", containerIdentifier: "K"),
            .renameGroup(identifier: "G", oldName: "A", newName: "B"),
            .deleteGroup(identifier: "G", name: "A", memberIdentifiers: ["C"]),
            .addMember(contactIdentifier: "C", groupIdentifier: "G"),
            .addContainer(Container(identifier: "K", name: "Local", type: .local)),
            .setAuthorization(clientIdentifier: "app", status: .limited, notesEntitlement: false),
            .grantAccess(clientIdentifier: "app", contactIdentifiers: ["C"]),
            .linkContacts(contactIdentifiers: ["C", "D"]),
            .undo(UndoReference(kind: .restore, sequence: 3)),
            .redacted(contactIdentifier: "C", kind: .updated),
            .redaction(RedactionReference(sequence: 4, contactIdentifier: "C", reason: "asked", erased: true)),
        ]
        for (index, change) in operations.enumerated() {
            var entry = AuditEntry(
                sequence: UInt64(index + 1), commitDate: Date(timeIntervalSince1970: 1_714_555_800.25),
                author: "an \"author\"\t€", requestIdentifier: UUID(), hash: .zero,
                changes: [change, .removeMember(contactIdentifier: "C", groupIdentifier: "G")],
                affectedIdentifiers: ["C", "G\u{1}"])
            if index % 2 == 1 { entry.redactionReason = "a \"reason\"" }
            var bytes: [UInt8] = []
            AuditJSON.write(entry, to: &bytes)
            #expect(bytes == AuditJSON.value(for: entry).serializedBytes(), "operation \(index)")
        }
    }

    @Test("AuditJSON.write gives an update's exact bytes for every key, and null for a side without the key")
    func writeMatchesValueForEveryKey() throws {
        let full = VCardContactGenerator.everything().copy()
        var changes = LedgerAuditor.propertyChanges("C", .all, ContactValues(), full.values)
        changes += LedgerAuditor.propertyChanges("C", .all, full.values, ContactValues())
        changes.append(PropertyChange(key: .note, oldValue: Contact(identifier: "C"), newValue: Self.contact("Ada")))
        #expect(changes.count > 2 * 25)
        let entry = AuditEntry(
            sequence: 1, commitDate: Date(timeIntervalSince1970: 1_714_555_800), author: "", requestIdentifier: UUID(),
            hash: .zero,
            changes: [.updateContact(identifier: "C", changes: changes), .updateContact(identifier: "C", changes: [])],
            affectedIdentifiers: ["C"])
        var bytes: [UInt8] = []
        AuditJSON.write(entry, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == AuditJSON.value(for: entry).serialized())
        #expect(String(decoding: bytes, as: UTF8.self).contains(#"{"key":"note","old":null,"new":"#))
    }
}
