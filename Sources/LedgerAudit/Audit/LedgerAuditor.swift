import ContactsEngine
import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// Reads a ledger's history without changing it: the audit log, one contact's revisions,
/// verification (checksums, chain, saved digest, and that replay reproduces the recorded
/// effects), differences between two points, point-in-time restore into a new directory, and
/// replay checks against a scratch store. The source ledger is never modified; nothing here
/// takes the writer lock.
public struct LedgerAuditor: Sendable {
    /// Reports how far long work is: records done, and records in all (the head's sequence).
    public typealias Progress = (_ done: UInt64, _ total: UInt64) -> Void

    /// The ledger's reader.
    public let reader: JournalReader
    /// What the client the auditor was given may see; nil when it reads for the owner.
    package internal(set) var lens: AuditLens?

    /// Opens the ledger at `path` for auditing, with the owner's view of everything.
    public init(ledgerAt path: String) throws {
        do { reader = try JournalReader(at: path) } catch { throw error }
    }

    /// The ledger's identity.
    public var identity: LedgerIdentity { reader.identity }

    /// Calls `body` with each record and its decoded event, in order, from `sequence` on, until it returns false.
    package func forEachEvent(from sequence: UInt64 = 1, _ body: (JournalRecord, LedgerEvent) throws -> Bool) throws {
        var cursor = try reader.records(from: sequence)
        while let record = try cursor.next() {
            if try !body(record, try Self.event(of: record)) { return }
        }
    }

    /// Decodes a record's event, naming the record if it cannot be.
    package static func event(of record: JournalRecord) throws -> LedgerEvent {
        do {
            return try EventCodec.decode(record.payload, schemaVersion: record.payloadSchemaVersion)
        } catch {
            throw LedgerInconsistency(
                sequence: record.sequence, location: record.location, reason: "payload cannot be decoded: \(error)")
        }
    }

    // MARK: The audit log

    /// The records matching a filter, oldest first.
    public func entries(matching filter: AuditFilter = AuditFilter()) throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try forEachEntry(matching: filter) {
            entries.append($0)
            return true
        }
        return entries
    }

    /// The audit form of one recorded operation.
    package static func change(_ operation: LedgerOperation) -> AuditChange {
        switch operation {
        case .addContact(let identifier, let container, _, let values):
            return .addContact(
                Contact(identifier: identifier, values: values, availableKeys: .all), containerIdentifier: container)
        case .updateContact(let identifier, let keys, let old, let new):
            return .updateContact(identifier: identifier, changes: propertyChanges(identifier, keys, old, new))
        case .deleteContact(let identifier, _, _, _, let last):
            return .deleteContact(Contact(identifier: identifier, values: last, availableKeys: .all))
        case .addGroup(let identifier, let container, let name):
            return .addGroup(identifier: identifier, name: name, containerIdentifier: container)
        case .updateGroup(let identifier, let oldName, let newName):
            return .renameGroup(identifier: identifier, oldName: oldName, newName: newName)
        case .deleteGroup(let identifier, _, let name, let members, _, _):
            return .deleteGroup(identifier: identifier, name: name, memberIdentifiers: members)
        case .addMember(let contact, let group): return .addMember(contactIdentifier: contact, groupIdentifier: group)
        case .removeMember(let contact, let group):
            return .removeMember(contactIdentifier: contact, groupIdentifier: group)
        case .addSubgroup(let child, let parent):
            return .addSubgroup(groupIdentifier: child, parentGroupIdentifier: parent)
        case .removeSubgroup(let child, let parent):
            return .removeSubgroup(groupIdentifier: child, parentGroupIdentifier: parent)
        case .addContainer(let identifier, let name, let type, _):
            return .addContainer(Container(identifier: identifier, name: name, type: type))
        case .setAuthorization(let client, let status, let notes):
            return .setAuthorization(clientIdentifier: client, status: status, notesEntitlement: notes)
        case .requestAccess(let client, let notes):
            return .requestAccess(clientIdentifier: client, notesEntitlement: notes)
        case .grantAccess(let client, let contacts):
            return .grantAccess(clientIdentifier: client, contactIdentifiers: contacts)
        case .revokeAccess(let client, let contacts):
            return .revokeAccess(clientIdentifier: client, contactIdentifiers: contacts)
        case .undo(let kind, let sequence):
            return .undo(UndoReference(kind, sequence))
        case .linkContacts(let contacts): return .linkContacts(contactIdentifiers: contacts)
        case .unlinkContact(let contact, let linked):
            return .unlinkContact(contactIdentifier: contact, linkedIdentifiers: linked)
        case .redacted(let standIn):
            return .redacted(contactIdentifier: standIn.contactIdentifier, kind: ContactRevision.Kind(standIn.kind))
        case .redaction(let note):
            return .redaction(
                RedactionReference(
                    sequence: note.sequence,
                    contactIdentifier: note.contactIdentifier.isEmpty ? nil : note.contactIdentifier,
                    reason: note.reason, erased: note.erased))
        }
    }

    /// One change per key, each side a contact holding only that key.
    package static func propertyChanges(
        _ identifier: String, _ keys: ContactKeySet, _ old: ContactValues, _ new: ContactValues
    ) -> [PropertyChange] {
        keys.keys.filter { $0 != .identifier && $0 != .thumbnailImageData && $0 != .imageDataAvailable }.map { key in
            PropertyChange(
                key: key, oldValue: Contact(identifier: identifier, values: old, availableKeys: ContactKeySet(key)),
                newValue: Contact(identifier: identifier, values: new, availableKeys: ContactKeySet(key)))
        }
    }

    /// The keys whose values are not the defaults.
    private static func setKeys(_ values: ContactValues) -> ContactKeySet {
        values.keys(differingFrom: ContactValues(), among: .writable)
    }

    /// One contact's revisions, oldest first: who, when, and each property's old and new value.
    /// A contact the auditor's client may not see has no revisions, as a missing one has none.
    /// Only the records whose payload holds the identifier are decoded.
    public func revisions(ofContact identifier: String) throws -> [ContactRevision] {
        var revisions: [ContactRevision] = []
        if let lens, !lens.sees(identifier) { return revisions }
        try forEachRevision(of: identifier, needles: PayloadSearch.needles(identifier)) { revisions.append($0) }
        return revisions
    }

    /// The revision an operation makes to a contact, or nil when it does not create, update or
    /// delete that contact.
    static func revision(
        _ operation: LedgerOperation, of identifier: String, record: JournalRecord, undoes: UndoReference?
    ) -> ContactRevision? {
        let kind: ContactRevision.Kind
        let changes: [PropertyChange]
        switch operation {
        case .addContact(identifier, _, _, let values):
            kind = .created
            changes = propertyChanges(identifier, setKeys(values), ContactValues(), values)
        case .updateContact(identifier, let keys, let old, let new):
            kind = .updated
            changes = propertyChanges(identifier, keys, old, new)
        case .deleteContact(identifier, _, _, _, let last):
            kind = .deleted
            changes = propertyChanges(identifier, setKeys(last), last, ContactValues())
        case .redacted(let standIn) where standIn.contactIdentifier == identifier:
            kind = ContactRevision.Kind(standIn.kind)
            changes = []
        default:
            return nil
        }
        return ContactRevision(
            sequence: record.sequence, commitDate: record.commitDate, author: record.author,
            requestIdentifier: record.requestID, kind: kind, changes: changes, undoes: undoes,
            redactionReason: changes.isEmpty ? record.redaction?.reason : nil)
    }

    // MARK: Verification

    /// What a successful verification checked.
    public struct Verification: Sendable, Hashable {
        /// The last record's sequence and hash.
        public var head: HeadDigest
        /// How many records were checked.
        public var records: Int
        /// How the journal ends (a torn final record is reported, not damage).
        public var tail: JournalTail
        /// Contacts after replay.
        public var contacts: Int
        /// The redacted records, by sequence, with the reason each was redacted: each one's
        /// remaining payload is vouched for by a recorded redaction, which the chain covers.
        public var redacted: [UInt64: String] = [:]
    }

    /// Checks every record's checksum, sequence and chain link, the saved digest if given, and
    /// that replaying the journal reproduces every recorded effect (an update's old values are
    /// the replayed state's, a delete's last state is the replayed contact, and so on).
    ///
    /// Throws ``LedgerStorage/StorageError/corruption(location:reason:)`` for damage and
    /// ``LedgerInconsistency`` for an effect replay does not reproduce.
    public func verify(against digest: HeadDigest? = nil, progress: Progress? = nil) throws -> Verification {
        try checkReadsEverything("verification")
        let verified = try reader.verify(against: digest)
        var projection = Projection(ledgerID: identity.ledgerID)
        // A contact with a redacted operation has values replay no longer knows: its later
        // operations cannot be compared with them.
        var redacted: Set<String> = []
        var witness = RedactionWitness()
        try forEachEvent { record, event in
            witness.note(record, event)
            for operation in event.operations {
                if case .redacted(let standIn) = operation { redacted.insert(standIn.contactIdentifier) }
                if let contact = operation.contactIdentifier, redacted.contains(contact) {
                    projection.apply(
                        LedgerEvent(operations: [operation]), sequence: record.sequence, requestID: record.requestID)
                    continue
                }
                if let problem = Self.inconsistency(of: operation, with: projection) {
                    throw LedgerInconsistency(sequence: record.sequence, location: record.location, reason: problem)
                }
                projection.apply(
                    LedgerEvent(operations: [operation]), sequence: record.sequence, requestID: record.requestID)
            }
            progress?(record.sequence, verified.head.sequence)
            return record.sequence < verified.head.sequence
        }
        return Verification(
            head: verified.head, records: verified.records, tail: verified.tail, contacts: projection.contactCount,
            redacted: try witness.check())
    }

    /// Why a recorded operation does not follow from the state before it, or nil if it does.
    package static func inconsistency(of operation: LedgerOperation, with state: some LedgerState) -> String? {
        switch operation {
        case .addContact(let identifier, let container, _, _):
            if state.contact(identifier) != nil { return "adds contact \(identifier), which already exists" }
            if state.container(container) == nil {
                return "adds contact \(identifier) to missing container \(container)"
            }
        case .updateContact(let identifier, let keys, let old, _):
            guard let current = state.contact(identifier) else { return "updates missing contact \(identifier)" }
            for key in keys.keys where !old.hasSameValue(as: current.values, for: key) {
                return "updates \(key.rawValue) of \(identifier) from a value the replayed contact does not have"
            }
        case .deleteContact(let identifier, let container, _, let groups, let last):
            guard let current = state.contact(identifier) else { return "deletes missing contact \(identifier)" }
            if current.values != last {
                return "deletes contact \(identifier) with a last state replay does not reproduce"
            }
            if current.containerIdentifier != container {
                return "deletes contact \(identifier) from the wrong container"
            }
            if Set(state.groups(containing: identifier)) != Set(groups) {
                return "deletes contact \(identifier) with group memberships replay does not reproduce"
            }
        case .addGroup(let identifier, let container, _):
            if state.group(identifier) != nil { return "adds group \(identifier), which already exists" }
            if state.container(container) == nil { return "adds group \(identifier) to missing container \(container)" }
        case .updateGroup(let identifier, let oldName, _):
            guard let group = state.group(identifier) else { return "renames missing group \(identifier)" }
            if group.name != oldName { return "renames group \(identifier) from \(oldName), but it is \(group.name)" }
        case .deleteGroup(let identifier, _, let name, let members, let subgroups, let parents):
            guard let group = state.group(identifier) else { return "deletes missing group \(identifier)" }
            if group.name != name || group.members != Set(members) || group.subgroups != Set(subgroups)
                || group.parents != Set(parents)
            {
                return "deletes group \(identifier) with a last state replay does not reproduce"
            }
        case .addMember(let contact, let groupIdentifier):
            guard state.contact(contact) != nil, let group = state.group(groupIdentifier) else {
                return "adds missing contact \(contact) or group \(groupIdentifier) to a membership"
            }
            if group.members.contains(contact) { return "adds \(contact) to \(groupIdentifier) twice" }
        case .removeMember(let contact, let groupIdentifier):
            guard let group = state.group(groupIdentifier), group.members.contains(contact) else {
                return "removes \(contact) from \(groupIdentifier), of which it is not a member"
            }
        case .addSubgroup(let child, let parent):
            guard state.group(child) != nil, let group = state.group(parent) else {
                return "adds missing group \(child) or \(parent) to a subgroup link"
            }
            if group.subgroups.contains(child) { return "adds \(child) to \(parent) twice" }
        case .removeSubgroup(let child, let parent):
            guard let group = state.group(parent), group.subgroups.contains(child) else {
                return "removes \(child) from \(parent), of which it is not a subgroup"
            }
        case .linkContacts(let contacts):
            if let missing = contacts.first(where: { state.contact($0) == nil }) {
                return "links missing contact \(missing)"
            }
        case .unlinkContact(let contact, let linked):
            if state.links(of: contact).filter({ $0 != contact }) != linked {
                return "unlinks contact \(contact) from a link set replay does not reproduce"
            }
        case .addContainer, .setAuthorization, .requestAccess, .grantAccess, .revokeAccess, .undo, .redacted,
            .redaction:
            break
        }
        return nil
    }

    // MARK: Points, differences and restore

    /// The sequence a point resolves to (inclusive); a time resolves to the last record at or before it.
    public func sequence(at point: LedgerPoint) throws -> UInt64 {
        let head = try reader.head().sequence
        switch point {
        case .sequence(let sequence):
            guard sequence <= head else {
                throw ContactStoreError(.predicateInvalid, "sequence \(sequence) is past the head, \(head)")
            }
            return sequence
        case .time:
            return try ContactStore.lastSequence(reader, through: point) ?? head
        }
    }

    /// Every contact's values after replaying through `sequence`, and the replay state.
    private func contacts(
        through sequence: UInt64, into projection: inout Projection, from start: UInt64
    ) throws
        -> [String: ContactValues]
    {
        if start <= sequence {
            try forEachEvent(from: start) { record, event in
                guard record.sequence <= sequence else { return false }
                projection.apply(event, record: record)
                return record.sequence < sequence
            }
        }
        var result: [String: ContactValues] = [:]
        for slot in projection.occupiedSlots {
            if let owner = projection.owner(at: slot), lens?.sees(owner.identifier) ?? true,
                let state = projection.state(at: slot)
            {
                result[owner.identifier] = lens?.readable(state.values) ?? state.values
            }
        }
        return result
    }

    /// The contacts added, changed (per property) and deleted between two points.
    public func diff(from: LedgerPoint, to: LedgerPoint) throws -> LedgerDiff {
        let first = try sequence(at: from)
        let second = try sequence(at: to)
        var projection = Projection(ledgerID: identity.ledgerID)
        let atLow = try contacts(through: min(first, second), into: &projection, from: 1)
        let atHigh = try contacts(through: max(first, second), into: &projection, from: min(first, second) + 1)
        let (before, after) = first <= second ? (atLow, atHigh) : (atHigh, atLow)
        var diff = LedgerDiff(fromSequence: first, toSequence: second, added: [], changed: [], deleted: [])
        for identifier in after.keys.sorted() {
            let new = after[identifier]!
            guard let old = before[identifier] else {
                diff.added.append(Contact(identifier: identifier, values: new, availableKeys: .all))
                continue
            }
            let keys = new.keys(differingFrom: old, among: .writable)
            if !keys.isEmpty {
                diff.changed.append(
                    ContactDifference(identifier: identifier, changes: Self.propertyChanges(identifier, keys, old, new))
                )
            }
        }
        for identifier in before.keys.sorted() where after[identifier] == nil {
            diff.deleted.append(Contact(identifier: identifier, values: before[identifier]!, availableKeys: .all))
        }
        return diff
    }

    /// What a restore did (or, in a dry run, would do).
    public struct Restore: Sendable, Hashable {
        /// The last sequence the restored ledger holds.
        public var sequence: UInt64
        /// The restored ledger's head digest: equal to the source's at that sequence.
        public var digest: HeadDigest
        /// How the restored state differs from the source's current state.
        public var differenceFromCurrent: LedgerDiff
        /// Whether anything was written.
        public var dryRun: Bool
    }

    /// Creates a new ledger at `destination` whose journal is this ledger's prefix through
    /// `point`, so its head digest equals this ledger's at that sequence. The source is only
    /// read; an existing, non-empty destination is refused. A dry run writes nothing and
    /// reports what would differ from the source's current state.
    public func restore(to destination: String, at point: LedgerPoint, dryRun: Bool = false) throws -> Restore {
        try checkReadsEverything("restore")
        let target = try sequence(at: point)
        let current = try reader.head().sequence
        let difference = try diff(from: .sequence(current), to: .sequence(target))
        let expected = try reader.hash(at: target) ?? .zero
        let digest = HeadDigest(sequence: target, hash: expected)
        if dryRun { return Restore(sequence: target, digest: digest, differenceFromCurrent: difference, dryRun: true) }
        if FileManager.default.fileExists(atPath: destination),
            !((try? FileManager.default.contentsOfDirectory(atPath: destination))?.isEmpty ?? false)
        {
            throw StorageError.alreadyExists(path: destination)
        }
        var records: [JournalRecord] = []
        var cursor = try reader.records(from: 1)
        while let record = try cursor.next(), record.sequence <= target { records.append(record) }
        let head = try LedgerDirectory.createCopy(at: destination, identity: identity, records: records)
        guard head == digest else {
            throw LedgerInconsistency(
                sequence: target, location: LedgerLocation(file: destination, offset: 0),
                reason: "the restored head \(head) differs from the source's \(digest)")
        }
        return Restore(sequence: target, digest: head, differenceFromCurrent: difference, dryRun: false)
    }
}

extension UndoReference {
    /// The audit form of a recorded undo.
    init(_ kind: UndoKind, _ sequence: UInt64) {
        switch kind {
        case .undelete: self.init(kind: .undelete, sequence: sequence)
        case .revert: self.init(kind: .revert, sequence: sequence)
        case .restore: self.init(kind: .restore, sequence: sequence)
        }
    }

    /// The recorded form.
    var recordedKind: UndoKind {
        switch kind {
        case .undelete: .undelete
        case .revert: .revert
        case .restore: .restore
        }
    }
}

extension LedgerEvent {
    /// What the event undoes, when it is an undo.
    var undoReference: UndoReference? {
        for case .undo(let kind, let sequence) in operations { return UndoReference(kind, sequence) }
        return nil
    }
}
