import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// A contact's delete, as its record holds it.
struct RecordedDelete {
    var sequence: UInt64
    var containerIdentifier: String
    var createdBy: String
    var groupIdentifiers: [String]
    var last: ContactValues
}

/// How an undo finds the records it needs without reading the whole ledger: one record by its
/// sequence; the newest segments first when it looks for the last delete of a contact or the
/// last record before a time; and only the records after a point, decoding only those whose
/// payload holds the contact's identifier.
extension LedgerUndo {
    /// The head's sequence.
    var head: UInt64 { store.headDigest.sequence }

    /// The record with this sequence and its event.
    func event(at sequence: UInt64) throws -> (record: JournalRecord, event: LedgerEvent) {
        guard sequence >= 1, sequence <= head else {
            throw UndoError(.pointOutOfRange, "record \(sequence) is not in the ledger, whose head is \(head)")
        }
        var found: (JournalRecord, LedgerEvent)?
        try store.forEachRecord(from: sequence) { record in
            if record.sequence == sequence { found = (record, try LedgerAuditor.event(of: record)) }
            return false
        }
        guard let found else {
            throw UndoError(.pointOutOfRange, "record \(sequence) is not in the ledger, whose head is \(head)")
        }
        return found
    }

    /// The sequence a point resolves to: a sequence as it is (at most the head), a time as the
    /// last record committed at or before it (0 before the first).
    func sequence(at point: LedgerPoint) throws -> UInt64 {
        switch point {
        case .sequence(let sequence):
            guard sequence <= head else {
                throw UndoError(.pointOutOfRange, "sequence \(sequence) is past the head, \(head)")
            }
            return sequence
        case .time(let date):
            let limit = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
            var last: UInt64 = 0
            // Commit times never decrease along the journal, so the newest segment whose first
            // record is at or before the time holds the answer.
            try newestSegmentsFirst { records in
                guard let first = records.first, first.commitMicroseconds <= limit else { return false }
                last = records.last { $0.commitMicroseconds <= limit }?.sequence ?? 0
                return true
            }
            return last
        }
    }

    /// The last record that deleted the contact, read from the newest segment back to the
    /// first that holds one.
    func lastDelete(of identifier: String) throws -> RecordedDelete? {
        let needles = PayloadSearch.needles(identifier)
        var found: RecordedDelete?
        try newestSegmentsFirst { records in
            for record in records.reversed() where PayloadSearch.mentions(record.payload, needles) {
                let operations = try LedgerAuditor.event(of: record).operations
                for case .redacted(let standIn) in operations
                where standIn.kind == .deleteContact && standIn.contactIdentifier == identifier {
                    throw UndoError(
                        .notRevertible,
                        "contact \(identifier)'s deletion at record \(record.sequence) was redacted "
                            + "([redacted] \(record.redaction?.reason ?? "")): its values are gone")
                }
                for case .deleteContact(identifier, let container, let creator, let groups, let last) in operations {
                    found = RecordedDelete(
                        sequence: record.sequence, containerIdentifier: container, createdBy: creator,
                        groupIdentifiers: groups, last: last)
                    return true
                }
            }
            return false
        }
        return found
    }

    /// The operations that touch a contact (its adds, updates and deletes, its memberships, and
    /// deletes of groups it was a member of) in the records after `start` through `end`, in order;
    /// throws ``UndoError/Code/notRevertible`` when any operation of the contact up to `end` was redacted.
    func operations(on identifier: String, after start: UInt64, through end: UInt64) throws -> [LedgerOperation] {
        guard start < end else { return [] }
        let needles = PayloadSearch.needles(identifier)
        var operations: [LedgerOperation] = []
        // The records up to the point are read too, for redactions of the contact only: values
        // redacted there must not come back from a later update's old side.
        try store.forEachRecord(from: 1) { record in
            guard record.sequence <= end else { return false }
            guard record.sequence > start || record.redaction != nil else { return true }
            if PayloadSearch.mentions(record.payload, needles) {
                let event = try LedgerAuditor.event(of: record)
                try Self.refuseRedacted(event, of: identifier, in: record)
                if record.sequence > start { operations += event.operations.filter { Self.touches($0, identifier) } }
            }
            return record.sequence < end
        }
        return operations
    }

    /// Calls `body` with the records of each segment, newest segment first, until it returns true.
    private func newestSegmentsFirst(_ body: ([JournalRecord]) throws -> Bool) throws {
        var upper = head
        for start in try store.segmentStarts().reversed() where start <= upper {
            var records: [JournalRecord] = []
            try store.forEachRecord(from: start) { record in
                guard record.sequence <= upper else { return false }
                records.append(record)
                return record.sequence < upper
            }
            if try body(records) { return }
            upper = start - 1
            if upper == 0 { return }
        }
    }

    /// Whether an operation concerns the contact's values or memberships.
    /// Throws when the record holds a redacted operation of the contact: its values there are
    /// gone, and a walk back over it would bring back values the owner redacted.
    static func refuseRedacted(_ event: LedgerEvent, of identifier: String, in record: JournalRecord) throws {
        for case .redacted(let standIn) in event.operations where standIn.contactIdentifier == identifier {
            throw UndoError(
                .notRevertible,
                "contact \(identifier)'s operation at record \(record.sequence) was redacted "
                    + "([redacted] \(record.redaction?.reason ?? "")): its values at that point are gone")
        }
    }

    static func touches(_ operation: LedgerOperation, _ identifier: String) -> Bool {
        switch operation {
        case .addContact(let contact, _, _, _), .updateContact(let contact, _, _, _),
            .deleteContact(let contact, _, _, _, _), .addMember(let contact, _), .removeMember(let contact, _):
            return contact == identifier
        case .deleteGroup(_, _, _, let members, _, _):
            return members.contains(identifier)
        default:
            return false
        }
    }
}

/// A contact's state, walked back from a later state over the operations between: an update's
/// old values come back, a delete's last state and groups come back, an add means it did not exist
/// before, and membership changes are undone.
struct ContactRollback {
    let identifier: String
    var exists: Bool
    var values: ContactValues
    var groups: Set<String>

    /// Undoes the operations, last first.
    mutating func undo(_ operations: [LedgerOperation]) {
        for operation in operations.reversed() { undo(operation) }
    }

    private mutating func undo(_ operation: LedgerOperation) {
        switch operation {
        case .updateContact(identifier, let keys, let old, _):
            for key in keys.keys { values.copyValue(for: key, from: old) }
        case .addContact(identifier, _, _, _):
            exists = false
        case .deleteContact(identifier, _, _, let groupIdentifiers, let last):
            exists = true
            values = last
            groups = Set(groupIdentifiers)
        case .addMember(identifier, let group):
            groups.remove(group)
        case .removeMember(identifier, let group), .deleteGroup(let group, _, _, _, _, _):
            groups.insert(group)
        default:
            break
        }
    }
}
