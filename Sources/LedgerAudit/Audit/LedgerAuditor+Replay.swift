import ContactsEngine
import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

extension LedgerAuditor {
    /// What a replay check found.
    public struct ReplayCheck: Sendable, Hashable {
        /// How many records were re-executed and matched.
        public var recordsMatched: Int
        /// The first record whose re-execution did not give the recorded effects, if any.
        public var firstDivergence: Divergence?
        /// The records committed to the scratch store as recorded rather than re-executed, since a
        /// redaction took away what re-executing them needs (redacted records, recorded
        /// redactions, and later records of a contact with a redacted operation), with the reason
        /// of the redaction, or "" for a record that is not itself redacted.
        public var carried: [UInt64: String] = [:]
    }

    /// A record whose re-execution gave other effects than the recorded ones.
    public struct Divergence: Sendable, Hashable, CustomStringConvertible {
        /// The record's sequence.
        public var sequence: UInt64
        /// What differs.
        public var reason: String
        /// One line naming the record and the difference.
        public var description: String { "record \(sequence): \(reason)" }
    }

    /// Re-executes every recorded save request, in order, against a scratch store (in memory, or
    /// a new ledger at `scratchDirectory`) and compares each outcome with the recorded one.
    ///
    /// Destructive operations reach only the scratch store: this ledger is only read, and no
    /// request is ever sent anywhere else. A save request is rebuilt from its recorded effects
    /// (adds with the recorded identifiers and values, updates of the recorded keys, deletes,
    /// group and membership changes) and executed through the store's full commit path;
    /// access decisions and grants are re-committed as recorded.
    public func replayCheck(scratchDirectory: String? = nil, progress: Progress? = nil) throws -> ReplayCheck {
        try checkReadsEverything("a replay check")
        let total = try reader.head().sequence
        let scratch: ContactStore
        if let scratchDirectory {
            if FileManager.default.fileExists(atPath: scratchDirectory),
                !((try? FileManager.default.contentsOfDirectory(atPath: scratchDirectory))?.isEmpty ?? false)
            {
                throw StorageError.alreadyExists(path: scratchDirectory)
            }
            scratch = try ContactStore(ledgerAt: scratchDirectory, client: .fullAccess("contacts-ledger replay"))
        } else {
            scratch = .inMemory(client: .fullAccess("contacts-ledger replay"))
        }
        defer { scratch.close() }
        var matched = 0
        var divergence: Divergence?
        var carry = RedactionCarry()
        // The scratch ledger has its own id, so its default container has another identifier:
        // requests name the default container as nil, and outcomes are compared in the source's terms.
        let sourceDefault = identity.ledgerID.uuidString
        let scratchDefault = scratch.defaultContainerIdentifier()
        try forEachEvent { record, event in
            let replayed: LedgerEvent?
            do {
                replayed = try Self.reexecute(
                    record, event, on: scratch, sourceDefaultContainer: sourceDefault,
                    asRecorded: carry.carries(record, event))
            } catch {
                divergence = Divergence(sequence: record.sequence, reason: "re-executing it failed: \(error)")
                return false
            }
            let actual = (replayed?.operations ?? []).map {
                Self.renamingContainer($0, from: scratchDefault, to: sourceDefault)
            }
            guard actual == event.operations else {
                divergence = Divergence(
                    sequence: record.sequence,
                    reason:
                        "recorded \(event.operations.count) operations, re-execution gave \(actual.count) that differ"
                        + (Self.firstDifference(event.operations, actual).map { ": \($0)" } ?? ""))
                return false
            }
            matched += 1
            progress?(record.sequence, total)
            return true
        }
        return ReplayCheck(recordsMatched: matched, firstDivergence: divergence, carried: carry.carried)
    }

    /// Names the first differing operation of two lists.
    private static func firstDifference(_ expected: [LedgerOperation], _ actual: [LedgerOperation]) -> String? {
        for (index, pair) in zip(expected, actual).enumerated() where pair.0 != pair.1 {
            return "operation \(index) differs"
        }
        return expected.count == actual.count ? nil : "operation count differs"
    }

    /// An operation with one container identifier replaced by another.
    private static func renamingContainer(
        _ operation: LedgerOperation, from old: String, to new: String
    )
        -> LedgerOperation
    {
        let rename: (String) -> String = { $0 == old ? new : $0 }
        switch operation {
        case .addContact(let identifier, let container, let createdBy, let values):
            return .addContact(
                identifier: identifier, containerIdentifier: rename(container), createdBy: createdBy, values: values)
        case .deleteContact(let identifier, let container, let createdBy, let groups, let last):
            return .deleteContact(
                identifier: identifier, containerIdentifier: rename(container), createdBy: createdBy,
                groupIdentifiers: groups, last: last)
        case .addGroup(let identifier, let container, let name):
            return .addGroup(identifier: identifier, containerIdentifier: rename(container), name: name)
        case .deleteGroup(let identifier, let container, let name, let members, let subgroups, let parents):
            return .deleteGroup(
                identifier: identifier, containerIdentifier: rename(container), name: name, memberIdentifiers: members,
                subgroupIdentifiers: subgroups, parentGroupIdentifiers: parents)
        default:
            return operation
        }
    }

    /// Rebuilds a record's request, executes it on the scratch store and returns the event it committed.
    private static func reexecute(
        _ record: JournalRecord, _ event: LedgerEvent, on scratch: ContactStore, sourceDefaultContainer: String,
        asRecorded: Bool
    ) throws -> LedgerEvent? {
        let storeLevel =
            asRecorded
            || event.operations.contains {
                switch $0 {
                case .addContainer, .setAuthorization, .requestAccess, .grantAccess, .revokeAccess, .linkContacts,
                    .unlinkContact:
                    return true
                default: return false
                }
            }
        let before = scratch.headDigest.sequence
        if storeLevel {
            try scratch.commitOperations(event.operations, author: record.author, requestID: record.requestID)
        } else {
            var rebuilt = RebuiltRequest(
                record: record, scratch: scratch, sourceDefaultContainer: sourceDefaultContainer,
                isUndo: event.undoReference != nil)
            for operation in event.operations { rebuilt.take(operation) }
            try scratch.execute(rebuilt.request, onBehalfOf: rebuilt.client)
        }
        var committed: LedgerEvent?
        try scratch.forEachCommittedEvent(after: before, through: scratch.headDigest.sequence) { _, event in
            committed = event
        }
        return committed
    }

    // MARK: Recovery and salvage

    /// What recovery found and did.
    public struct Recovery: Sendable, Hashable {
        /// The journal's recovery report: torn tail truncated, torn segment removed, head.
        public var storage: RecoveryReport
        /// Contacts after rebuilding the projections.
        public var contacts: Int
        /// The sequence of the snapshot written from the rebuilt projections, or nil for an empty
        /// ledger or when it could not be written.
        public var snapshotSequence: UInt64?
        /// Why no snapshot could be written (a full disk, say), if so: the recovery stands
        /// without one, and the next open replays the journal.
        public var snapshotFailure: String?
    }

    /// Does what opening a ledger after a crash does, and reports it: takes the writer lock,
    /// truncates a torn tail, rebuilds the projections from the journal, and writes a fresh
    /// snapshot of them (or reports why it could not). Damage to records that were durable is
    /// refused with the segment and offset, as on open. `fileSystem` is the file layer used
    /// throughout (the fault-injecting one, in tests).
    public static func recover(
        ledgerAt path: String, lockWaitSeconds: Double = 0, progress: Progress? = nil,
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws
        -> Recovery
    {
        let total = (try? JournalReader(at: path, fileSystem: fileSystem).head().sequence) ?? 0
        var projection: Projection?
        let options = JournalOptions(lockWaitSeconds: lockWaitSeconds, fileSystem: fileSystem)
        let journal = try Journal.open(at: path, options: options) { record in
            if projection == nil {
                projection = Projection(
                    ledgerID: try LedgerDirectory.identity(at: path, fileSystem: fileSystem).ledgerID)
            }
            try projection!.apply(record)
            progress?(record.sequence, max(total, record.sequence))
        }
        defer { journal.close() }
        // Rebuild the snapshot too: a fresh one at the head replaces whatever was there. It is a
        // cache, so a disk too full for it does not fail the recovery.
        var snapshotSequence: UInt64?
        var snapshotFailure: String?
        if let projection, projection.head.sequence > 0 {
            do {
                try ProjectionSnapshots.write(
                    projection, paths: journal.paths, identity: journal.identity, fileSystem: fileSystem)
                snapshotSequence = projection.head.sequence
            } catch {
                snapshotFailure = error.description
            }
        }
        return Recovery(
            storage: journal.recovery, contacts: projection?.contactCount ?? 0, snapshotSequence: snapshotSequence,
            snapshotFailure: snapshotFailure)
    }

    /// What a salvage copied and where it stopped.
    public struct Salvage: Sendable, Hashable {
        /// How many records were copied (every verifiable one before the damage).
        public var recordsCopied: Int
        /// The new ledger's head (equal to the source's at that sequence).
        public var head: HeadDigest
        /// The damage that stopped the copy, or nil if the journal was sound to its end.
        public var damage: String?
        /// The path of the written report.
        public var reportPath: String
    }

    /// Copies every verifiable record before the first damage into a new ledger at
    /// `destination` and writes a report beside its files; the damaged ledger is never edited.
    public static func salvage(ledgerAt source: String, to destination: String) throws -> Salvage {
        let reader = try JournalReader(at: source)
        var records: [JournalRecord] = []
        var damage: String?
        do {
            var cursor = try reader.records(from: 1)
            while let record = try cursor.next() {
                do {
                    _ = try EventCodec.decode(record.payload, schemaVersion: record.payloadSchemaVersion)
                } catch {
                    damage = "record \(record.sequence) at \(record.location): payload cannot be decoded: \(error)"
                    break
                }
                records.append(record)
            }
            if damage == nil, case .tornRecord(let location, let dropped, let reason) = cursor.tail {
                damage = "torn final record at \(location) (\(dropped) bytes): \(reason)"
            }
        } catch {
            damage = error.description
        }
        let head = try LedgerDirectory.createCopy(at: destination, identity: reader.identity, records: records)
        let reportPath = destination + "/SALVAGE-REPORT.txt"
        let report = """
            Salvage of \(source)
            into \(destination)
            ledger id: \(reader.identity.ledgerID.uuidString.lowercased())
            records copied: \(records.count)
            head: \(head.sequence) \(head.hash.hex)
            stopped at: \(damage ?? "the end of the journal (no damage found)")

            """
        try SystemFileSystem().replaceAtomically(reportPath, with: Array(report.utf8))
        return Salvage(recordsCopied: records.count, head: head, damage: damage, reportPath: reportPath)
    }
}

/// A recorded save request rebuilt from its effects, for a replay check: adds with the recorded
/// identifiers and values, updates of the recorded keys, deletes, group and membership changes,
/// and for an undo, its name and the contacts and groups it brought back with their identifiers.
private struct RebuiltRequest {
    let scratch: ContactStore
    let sourceDefaultContainer: String
    let isUndo: Bool
    var request: SaveRequest
    var client = "contacts-ledger replay"

    init(record: JournalRecord, scratch: ContactStore, sourceDefaultContainer: String, isUndo: Bool) {
        self.scratch = scratch
        self.sourceDefaultContainer = sourceDefaultContainer
        self.isUndo = isUndo
        request = SaveRequest(requestIdentifier: record.requestID, transactionAuthor: record.author)
        request.conflictPolicy = .lastWriterWins
    }

    /// The source's default container is named as nil (the scratch store's default).
    private func container(_ identifier: String) -> String? {
        identifier == sourceDefaultContainer ? nil : identifier
    }

    private func current(_ identifier: String) -> ContactState? {
        scratch.readState { projection, _ in projection.contact(identifier) }
    }

    mutating func take(_ operation: LedgerOperation) {
        switch operation {
        case .addContact(let identifier, let containerIdentifier, let createdBy, let values):
            let contact = MutableContact(identifier: identifier, values: values, availableKeys: .all, base: nil)
            if isUndo {
                request.restore(
                    contact,
                    toContainerWithIdentifier: container(containerIdentifier) ?? scratch.defaultContainerIdentifier(),
                    createdBy: createdBy)
            } else {
                client = createdBy
                request.add(contact, toContainerWithIdentifier: container(containerIdentifier))
            }
        case .updateContact(let identifier, let keys, _, let new):
            let current = current(identifier)
            var values = current?.values ?? ContactValues()
            for key in keys.keys { values.copyValue(for: key, from: new) }
            request.update(
                MutableContact(
                    identifier: identifier, values: values, availableKeys: keys.union(ContactKeySet(.identifier)),
                    base: current?.values, revision: current?.revision ?? 0))
        case .deleteContact(let identifier, _, _, _, let last):
            let current = current(identifier)
            request.delete(
                MutableContact(
                    identifier: identifier, values: current?.values ?? last, availableKeys: .all,
                    base: current?.values ?? last, revision: current?.revision ?? 0))
        default:
            takeGroupOperation(operation)
        }
    }

    private mutating func takeGroupOperation(_ operation: LedgerOperation) {
        let group = { (identifier: String) in Group(identifier: identifier, name: "") }
        switch operation {
        case .addGroup(let identifier, let containerIdentifier, let name):
            let added = MutableGroup(identifier: identifier, name: name)
            if isUndo {
                request.restore(
                    added,
                    toContainerWithIdentifier: container(containerIdentifier) ?? scratch.defaultContainerIdentifier())
            } else {
                request.add(added, toContainerWithIdentifier: container(containerIdentifier))
            }
        case .updateGroup(let identifier, _, let newName):
            request.update(MutableGroup(identifier: identifier, name: newName))
        case .deleteGroup(let identifier, _, let name, _, _, _):
            request.delete(MutableGroup(identifier: identifier, name: name))
        case .addMember(let contact, let groupID):
            request.addMember(
                Contact(identifier: contact, values: ContactValues(), availableKeys: []), to: group(groupID))
        case .removeMember(let contact, let groupID):
            request.removeMember(
                Contact(identifier: contact, values: ContactValues(), availableKeys: []), from: group(groupID))
        case .addSubgroup(let child, let parent):
            request.addSubgroup(group(child), to: group(parent))
        case .removeSubgroup(let child, let parent):
            request.removeSubgroup(group(child), from: group(parent))
        case .undo(let kind, let sequence):
            request.markUndo(kind, of: sequence)
        case .addContact, .updateContact, .deleteContact, .addContainer, .setAuthorization, .requestAccess,
            .grantAccess, .revokeAccess, .linkContacts, .unlinkContact, .redacted, .redaction:
            break
        }
    }
}
