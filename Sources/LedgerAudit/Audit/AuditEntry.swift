import ContactsEngine
import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// One property's change: the value before and after, each as a contact that holds only that key.
public struct PropertyChange: Sendable, Hashable {
    /// The property.
    public var key: ContactKey
    /// The contact's value before (only `key` is available on it).
    public var oldValue: Contact
    /// The contact's value after (only `key` is available on it).
    public var newValue: Contact
}

/// What one operation of a committed record did, as the audit log shows it.
public enum AuditChange: Sendable, Hashable {
    /// A contact was created, with every property it was created with.
    case addContact(Contact, containerIdentifier: String)
    /// Properties of a contact changed.
    case updateContact(identifier: String, changes: [PropertyChange])
    /// A contact was deleted; its last state.
    case deleteContact(Contact)
    /// A group was created.
    case addGroup(identifier: String, name: String, containerIdentifier: String)
    /// A group was renamed.
    case renameGroup(identifier: String, oldName: String, newName: String)
    /// A group was deleted.
    case deleteGroup(identifier: String, name: String, memberIdentifiers: [String])
    /// A contact joined a group.
    case addMember(contactIdentifier: String, groupIdentifier: String)
    /// A contact left a group.
    case removeMember(contactIdentifier: String, groupIdentifier: String)
    /// A group became a subgroup.
    case addSubgroup(groupIdentifier: String, parentGroupIdentifier: String)
    /// A group stopped being a subgroup.
    case removeSubgroup(groupIdentifier: String, parentGroupIdentifier: String)
    /// A container was created.
    case addContainer(Container)
    /// A client's authorization was decided.
    case setAuthorization(clientIdentifier: String, status: AuthorizationStatus, notesEntitlement: Bool)
    /// A client asked for access (the owner answers with a later ``setAuthorization``).
    case requestAccess(clientIdentifier: String, notesEntitlement: Bool)
    /// A limited client was granted contacts.
    case grantAccess(clientIdentifier: String, contactIdentifiers: [String])
    /// A limited client lost contacts.
    case revokeAccess(clientIdentifier: String, contactIdentifiers: [String])
    /// Contacts were linked into one unified contact: the whole link set after the link.
    case linkContacts(contactIdentifiers: [String])
    /// A contact left its link set; the contacts it was linked to.
    case unlinkContact(contactIdentifier: String, linkedIdentifiers: [String])
    /// The record is an undo: what it undoes. Its other changes are the undo's effects.
    case undo(UndoReference)
    /// A contact operation whose content was redacted: the contact and what the operation did
    /// to it; the record's ``AuditEntry/redactionReason`` says why.
    case redacted(contactIdentifier: String, kind: ContactRevision.Kind)
    /// The owner redacted a recorded request, or one contact's operations in it.
    case redaction(RedactionReference)
}

/// A recorded redaction: which record, which contact's operations (nil: every contact's), why,
/// and whether it was part of erasing the contact.
public struct RedactionReference: Sendable, Hashable {
    /// The redacted record.
    public var sequence: UInt64
    /// The contact whose operations were redacted, or nil when every contact's were.
    public var contactIdentifier: String?
    /// Why.
    public var reason: String
    /// Whether the redaction was part of erasing the contact.
    public var erased: Bool

    /// Creates a reference.
    public init(sequence: UInt64, contactIdentifier: String?, reason: String, erased: Bool) {
        self.sequence = sequence
        self.contactIdentifier = contactIdentifier
        self.reason = reason
        self.erased = erased
    }
}

/// What an undo undid: a deleted contact brought back, the inverse of a record, or a contact's
/// values brought back to a point.
public struct UndoReference: Sendable, Hashable {
    /// The kind of undo.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A deleted contact brought back; ``UndoReference/sequence`` is the record that deleted it.
        case undelete
        /// The inverse of one record; ``UndoReference/sequence`` is that record.
        case revert
        /// A contact's values brought back to a point; ``UndoReference/sequence`` is that point.
        case restore
    }

    /// The kind of undo.
    public var kind: Kind
    /// The record undone (for `undelete` and `revert`), or the point restored to (for `restore`).
    public var sequence: UInt64

    /// Creates a reference.
    public init(kind: Kind, sequence: UInt64) {
        self.kind = kind
        self.sequence = sequence
    }
}

/// One committed record in the audit log.
public struct AuditEntry: Sendable, Hashable {
    /// The record's sequence number.
    public var sequence: UInt64
    /// When it was committed.
    public var commitDate: Date
    /// The transaction author ("" when none was given).
    public var author: String
    /// The save request's id.
    public var requestIdentifier: UUID
    /// The record's chain hash.
    public var hash: SHA256Digest
    /// What it did, in order.
    public var changes: [AuditChange]

    /// What the record undoes, when it is an undo.
    public var undoes: UndoReference? {
        for case .undo(let reference) in changes { return reference }
        return nil
    }

    /// The identifiers of the contacts, groups and clients it touched.
    public var affectedIdentifiers: [String]
    /// Why the record's content was redacted, or nil when it was not.
    public var redactionReason: String? = nil
}

/// Which records the audit log shows; every condition given must hold.
public struct AuditFilter: Sendable, Hashable {
    /// Only records that touch this contact (or group, or client).
    public var identifier: String?
    /// Only records by this transaction author.
    public var author: String?
    /// Only records committed at or after this time.
    public var since: Date?
    /// Only records committed at or before this time.
    public var until: Date?
    /// Only records from this sequence on.
    public var fromSequence: UInt64?
    /// Only records up to this sequence.
    public var toSequence: UInt64?

    /// Creates a filter; nil conditions do not filter.
    public init(
        identifier: String? = nil, author: String? = nil, since: Date? = nil, until: Date? = nil,
        fromSequence: UInt64? = nil, toSequence: UInt64? = nil
    ) {
        self.identifier = identifier
        self.author = author
        self.since = since
        self.until = until
        self.fromSequence = fromSequence
        self.toSequence = toSequence
    }
}

/// One revision of one contact: who changed it, when, and each property's old and new value.
public struct ContactRevision: Sendable, Hashable {
    /// What kind of revision it was.
    public enum Kind: String, Sendable, Hashable {
        /// The contact was created.
        case created
        /// Properties changed.
        case updated
        /// The contact was deleted.
        case deleted
    }

    /// The record's sequence.
    public var sequence: UInt64
    /// When it was committed.
    public var commitDate: Date
    /// The transaction author.
    public var author: String
    /// The save request's id.
    public var requestIdentifier: UUID
    /// Created, updated or deleted.
    public var kind: Kind
    /// The properties that changed (for a creation, every property set; for a deletion, every property cleared).
    public var changes: [PropertyChange]
    /// What the record that made this revision undoes, when it is an undo (an undelete shows as
    /// a creation that undoes the delete).
    public var undoes: UndoReference?
    /// Why the revision's values were redacted, or nil when they were not (a redacted revision
    /// has no changes).
    public var redactionReason: String? = nil
}

/// How one contact differs between two points of a ledger.
public struct ContactDifference: Sendable, Hashable {
    /// The contact's identifier.
    public var identifier: String
    /// The properties that differ, old value at the first point, new at the second.
    public var changes: [PropertyChange]
}

/// What changed between two points of a ledger.
public struct LedgerDiff: Sendable, Hashable {
    /// The first point's sequence.
    public var fromSequence: UInt64
    /// The second point's sequence.
    public var toSequence: UInt64
    /// Contacts present at the second point and not at the first.
    public var added: [Contact]
    /// Contacts present at both points whose properties differ.
    public var changed: [ContactDifference]
    /// Contacts present at the first point and not at the second.
    public var deleted: [Contact]

    /// Whether nothing differs.
    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && deleted.isEmpty }
}

/// A recorded effect that replaying the journal does not reproduce.
public struct LedgerInconsistency: Error, Sendable, Hashable, CustomStringConvertible {
    /// The record's sequence.
    public var sequence: UInt64
    /// Where the record is.
    public var location: LedgerLocation
    /// What does not match.
    public var reason: String

    /// One line naming the record and the problem.
    public var description: String { "record \(sequence) at \(location): \(reason)" }
}

extension ContactRevision.Kind {
    /// The revision kind of the operation a redacted stand-in replaced.
    init(_ kind: RedactedKind) {
        switch kind {
        case .addContact: self = .created
        case .updateContact: self = .updated
        case .deleteContact: self = .deleted
        }
    }
}
