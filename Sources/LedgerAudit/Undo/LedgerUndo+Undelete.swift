import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

extension LedgerUndo {
    /// Brings a deleted contact back with its identifier, container and creator, its last values
    /// (or those it had at `point`) and its group memberships (groups that no longer exist are
    /// skipped and reported), as one save request whose record names the delete it undoes.
    ///
    /// It reads the last record that deleted the contact, searching the newest segments first,
    /// and with a point, the records after the point that touch the contact; it never replays.
    /// A contact that exists is refused (``UndoError/Code/contactExists``), and so is one that no
    /// record deleted (``UndoError/Code/notDeleted``) or that did not exist at the point
    /// (``UndoError/Code/notAtPoint``).
    public func undelete(
        contactWithIdentifier identifier: String, asOf point: LedgerPoint? = nil, options: UndoOptions = UndoOptions()
    ) throws -> UndoOutcome {
        if let earlier = try earlierOutcome(options) { return earlier }
        // A contact the client may not see, live or deleted, is one that never existed.
        let neverExisted = UndoError(
            .notDeleted, "no record deleted a contact \(identifier): it never existed in this ledger")
        switch contactExists(identifier) {
        case true?:
            throw UndoError(.contactExists, "contact \(identifier) exists; only a deleted contact can be undeleted")
        case false?: throw neverExisted
        case nil: break
        }
        guard let delete = try lastDelete(of: identifier), seesDeleted(identifier, createdBy: delete.createdBy) else {
            throw neverExisted
        }
        var state = ContactRollback(
            identifier: identifier, exists: true, values: delete.last, groups: Set(delete.groupIdentifiers))
        if let point {
            let target = try sequence(at: point)
            guard target < delete.sequence else {
                throw UndoError(
                    .notAtPoint,
                    "contact \(identifier) was deleted at record \(delete.sequence), so it did not exist at sequence \(target)"
                )
            }
            state.undo(try operations(on: identifier, after: target, through: delete.sequence - 1))
            guard state.exists else {
                throw UndoError(.notAtPoint, "contact \(identifier) did not exist at sequence \(target)")
            }
        }
        var request = request(options)
        request.markUndo(.undelete, of: delete.sequence)
        request.restore(
            MutableContact(identifier: identifier, values: state.values, availableKeys: .all, base: nil),
            toContainerWithIdentifier: delete.containerIdentifier, createdBy: delete.createdBy)
        let skipped = addMemberships(of: identifier, to: state.groups, in: &request)
        return try finish(
            request, undoes: UndoReference(kind: .undelete, sequence: delete.sequence), skipped: skipped,
            options: options)
    }
}
