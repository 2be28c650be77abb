import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// The records a redaction rewrites and the recorded redaction that names them, worked out
/// against an open store before anything is written.
struct RedactionPlan {
    /// The store, open for writing as the owner.
    let store: ContactStore
    /// Why.
    let reason: String
    /// Whether this is an erasure.
    let erased: Bool
    /// The records to rewrite.
    private(set) var requests: [RedactionRequest] = []
    /// The recorded redaction's operations, one per record.
    private(set) var notes: [LedgerOperation] = []

    /// Starts an empty plan.
    init(store: ContactStore, reason: String, erased: Bool) {
        self.store = store
        self.reason = reason
        self.erased = erased
    }

    /// Adds one record, whose contact operations (of `contact`, when given) must be redactable.
    mutating func add(sequence: UInt64, contact: String?) throws {
        guard sequence >= 1, sequence <= store.headDigest.sequence else {
            throw RedactionError(
                .recordMissing, "record \(sequence) does not exist (the head is \(store.headDigest.sequence))")
        }
        let record = try self.record(sequence)
        let event = try LedgerAuditor.event(of: record)
        let (redacted, replaced) = event.redacting(contact: contact)
        guard replaced > 0 else {
            let whose = contact.map { "no unredacted operation of contact \($0)" } ?? "no unredacted contact operation"
            throw RedactionError(.nothingToRedact, "record \(sequence) holds \(whose)")
        }
        for operation in event.operations where RedactedOperation.standIn(for: operation, contact: contact) != nil {
            try checkSuperseded(operation, at: sequence)
        }
        append(record, redacted, contact: contact)
    }

    /// Adds every record that holds an unredacted operation of `contact`; returns whether any
    /// record holds an operation of it at all (redacted or not).
    mutating func addEveryRecord(of contact: String) throws -> Bool {
        let needles = PayloadSearch.needles(contact)
        var named = false
        var found: [(JournalRecord, LedgerEvent)] = []
        try store.forEachRecord(from: 1) { record in
            guard PayloadSearch.mentions(record.payload, needles) else { return true }
            let event = try LedgerAuditor.event(of: record)
            named = named || event.operations.contains { $0.contactIdentifier == contact }
            let (redacted, replaced) = event.redacting(contact: contact)
            if replaced > 0 { found.append((record, redacted)) }
            return true
        }
        for (record, redacted) in found { append(record, redacted, contact: contact) }
        return named
    }

    /// Saves the recorded redaction through the store's save path, once the records are known to
    /// be redactable; returns its sequence, or nil when there is nothing to redact.
    func record(author: String?, path: String, fileSystem: any FileSystem) throws -> UInt64? {
        guard !notes.isEmpty else { return nil }
        try JournalRedaction.checkRedactable(requests.map(\.sequence), ledgerAt: path, fileSystem: fileSystem)
        return try store.commitOperations(notes, author: author ?? "", requestID: RandomUUID.make()).sequence
    }

    /// Rewrites the records, once the store is closed, and reports the outcome.
    func rewrite(
        _ path: String, _ options: RedactionOptions, deletedAt: UInt64?, recordedAt: UInt64?
    ) throws -> RedactionOutcome {
        try JournalRedaction.apply(
            requests, ledgerAt: path, fileSystem: options.fileSystem, lockWaitSeconds: options.lockWaitSeconds)
        let head = try JournalReader(at: path, fileSystem: options.fileSystem).head()
        return RedactionOutcome(
            redactedSequences: requests.map(\.sequence), deletedAt: deletedAt, recordedAt: recordedAt, head: head)
    }

    /// The record at a sequence.
    private func record(_ sequence: UInt64) throws -> JournalRecord {
        var found: JournalRecord?
        try store.forEachRecord(from: sequence) { record in
            found = record
            return false
        }
        guard let found, found.sequence == sequence else {
            throw RedactionError(.recordMissing, "record \(sequence) does not exist")
        }
        return found
    }

    /// Adds a record's rewrite and its note.
    private mutating func append(_ record: JournalRecord, _ redacted: LedgerEvent, contact: String?) {
        let remaining = EventCodec.encode(redacted)
        requests.append(
            RedactionRequest(
                sequence: record.sequence, expectedPayloadDigest: SHA256.hash(record.payload), remaining: remaining,
                payloadSchemaVersion: EventCodec.currentSchemaVersion, reason: reason))
        notes.append(
            .redaction(
                RedactionNote(
                    sequence: record.sequence, contactIdentifier: contact ?? "", reason: reason, erased: erased,
                    remainingDigest: SHA256.hash(remaining))))
    }

    /// Throws unless the operation's values are no longer its contact's: the contact is deleted,
    /// or later records changed every value the operation set.
    private func checkSuperseded(_ operation: LedgerOperation, at sequence: UInt64) throws {
        guard let contact = operation.contactIdentifier, store.withProjection({ $0.contact(contact) }) != nil else {
            return
        }
        let set: ContactKeySet
        switch operation {
        case .addContact(_, _, _, let values): set = values.keys(differingFrom: ContactValues(), among: .writable)
        case .updateContact(_, let keys, _, _): set = keys.intersection(.writable)
        default: return
        }
        let current = set.subtracting(try keysChanged(of: contact, after: sequence))
        guard current.isEmpty else {
            let names = current.keys.map(\.rawValue).joined(separator: ", ")
            throw RedactionError(
                .currentRevision,
                "record \(sequence) holds the current \(names) of live contact \(contact): only superseded "
                    + "revisions and deleted contacts can be redacted; update those values (or delete the contact) first"
            )
        }
    }

    /// The keys later records set on a contact (every key, when a later record adds it again).
    private func keysChanged(of contact: String, after sequence: UInt64) throws -> ContactKeySet {
        let needles = PayloadSearch.needles(contact)
        var keys: ContactKeySet = []
        try store.forEachRecord(from: sequence + 1) { record in
            guard PayloadSearch.mentions(record.payload, needles) else { return true }
            for operation in try LedgerAuditor.event(of: record).operations {
                switch operation {
                case .updateContact(contact, let changed, _, _): keys.formUnion(changed)
                case .addContact(contact, _, _, _): keys = .all
                default: continue
                }
            }
            return true
        }
        return keys
    }
}
