import ContactsEngine
import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// Undo without replay: brings a deleted contact back (``undelete(contactWithIdentifier:asOf:options:)``),
/// inverts one committed record (``revert(record:options:)``), or brings one contact's values back
/// to a point (``restoreContact(withIdentifier:to:options:)``).
///
/// Each undo is one new save request, computed against the store's current state and executed
/// through its save path as its client, so it is recorded with its author like any other request,
/// can itself be undone, and a limited client may undo only what it could write. Its record names
/// what it undoes (``UndoReference``), which the audit log shows. No recorded request is ever sent
/// again: the undo reads the records it needs (the one it reverts, the delete it undoes, the
/// records since a point that touch the contact) and the current state, and nothing else.
public struct LedgerUndo: Sendable {
    /// The store the undo reads and saves through.
    public let store: ContactStore

    /// Undoes through `store`, as its client.
    public init(store: ContactStore) {
        self.store = store
    }
}

/// How an undo is saved.
public struct UndoOptions: Sendable, Hashable {
    /// The transaction author recorded with the undo.
    public var author: String?
    /// The undo's request id (its idempotency key).
    public var requestIdentifier: UUID
    /// Plans the undo against the current state and reports it without saving anything.
    public var dryRun: Bool
    /// For a revert: leaves out what changed again since the record (and reports it) instead of
    /// refusing the whole revert.
    public var onlyUnchanged: Bool

    /// Creates options; by default a new request id, no author, saved, refusing on conflicts.
    public init(
        author: String? = nil, requestIdentifier: UUID = RandomUUID.make(), dryRun: Bool = false,
        onlyUnchanged: Bool = false
    ) {
        self.author = author
        self.requestIdentifier = requestIdentifier
        self.dryRun = dryRun
        self.onlyUnchanged = onlyUnchanged
    }
}

/// A property (or a whole contact or group) that changed again since the record an undo would
/// invert: what the record set, and what it is now, each as the property's JSON value.
public struct UndoConflict: Sendable, Hashable, CustomStringConvertible {
    /// The contact or group.
    public var identifier: String
    /// The property's key (`givenName`), `name` for a group's name, or `exists` for an object
    /// that the record removed and that exists again, or that it added and that is gone.
    public var property: String
    /// The value the record set.
    public var recorded: JSONValue
    /// The value now.
    public var current: JSONValue

    /// `ID property: the record set VALUE, now VALUE`, or for `exists`, what became of the object.
    public var description: String {
        guard property == "exists" else {
            return "\(identifier) \(property): the record set \(recorded.serialized()), now \(current.serialized())"
        }
        return recorded == true
            ? "\(identifier) no longer exists" : "\(identifier) exists again (the record deleted it)"
    }
}

/// Something an undo left out, and why (a group that no longer exists, a conflict left out by
/// ``UndoOptions/onlyUnchanged``, a membership already as it was).
public struct UndoSkip: Sendable, Hashable, CustomStringConvertible {
    /// The contact or group concerned.
    public var identifier: String
    /// Why it was left out.
    public var reason: String

    /// `ID: reason`.
    public var description: String { "\(identifier): \(reason)" }
}

/// What an undo did, or with ``UndoOptions/dryRun`` would do.
public struct UndoOutcome: Sendable, Hashable {
    /// What the undo undoes.
    public var undoes: UndoReference
    /// The changes its record holds (or would hold), as the audit log shows them, in order: the
    /// ``AuditChange/undo(_:)`` first.
    public var changes: [AuditChange]
    /// What it left out, and why.
    public var skipped: [UndoSkip]
    /// The save's result; nil for a dry run.
    public var save: SaveResult?
    /// Whether nothing was saved because this was a dry run.
    public var dryRun: Bool { save == nil }
}

/// Why an undo was refused; nothing was saved.
public struct UndoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of refusal.
    public enum Code: String, Sendable, Hashable {
        /// Undelete of a contact that exists.
        case contactExists
        /// No record deleted the contact (it never existed, or it was never deleted).
        case notDeleted
        /// The contact does not exist now (restore-contact, or a revert of an update of it).
        case contactMissing
        /// The contact did not exist at the point asked for.
        case notAtPoint
        /// The sequence or time is not in the ledger.
        case pointOutOfRange
        /// The record is not a save request of contacts or groups.
        case notRevertible
        /// Properties changed again since the record (see ``UndoError/conflicts``).
        case conflict
        /// Nothing is left to undo: the state already is what the undo would make it.
        case nothingToUndo
    }

    /// The kind of refusal.
    public var code: Code
    /// One line naming the problem.
    public var message: String
    /// For ``Code/conflict``: each property that changed since, with the two values.
    public var conflicts: [UndoConflict] = []

    /// The message.
    public var description: String { message }

    init(_ code: Code, _ message: String, conflicts: [UndoConflict] = []) {
        self.code = code
        self.message = message
        self.conflicts = conflicts
    }
}
