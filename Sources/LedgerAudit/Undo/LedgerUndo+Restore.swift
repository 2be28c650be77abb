import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

extension LedgerUndo {
    /// Brings one contact's values back to those it had at `point`, as one update of the
    /// properties that differ, whose record names the point; other contacts and the contact's
    /// group memberships are untouched.
    ///
    /// It reads only the records after the point up to the contact's last change (its revision)
    /// and decodes those that mention the contact, walking its values back from the current ones.
    /// A contact that does not exist now is refused (``UndoError/Code/contactMissing``: undelete it
    /// with a point instead), as is one that did not exist at the point, or one whose values are
    /// those of the point already (``UndoError/Code/nothingToUndo``).
    public func restoreContact(
        withIdentifier identifier: String, to point: LedgerPoint, options: UndoOptions = UndoOptions()
    ) throws -> UndoOutcome {
        if let earlier = try earlierOutcome(options) { return earlier }
        guard let current = try currentContact(identifier) else {
            throw UndoError(
                .contactMissing,
                "contact \(identifier) does not exist; to bring a deleted contact back as it was at a point, "
                    + "undelete it with --as-of")
        }
        let target = try sequence(at: point)
        guard current.revision > target else {
            throw UndoError(
                .nothingToUndo, "contact \(identifier) has not changed since sequence \(target); nothing to restore")
        }
        var state = ContactRollback(identifier: identifier, exists: true, values: current.values, groups: [])
        state.undo(try operations(on: identifier, after: target, through: current.revision))
        guard state.exists else {
            throw UndoError(.notAtPoint, "contact \(identifier) did not exist at sequence \(target)")
        }
        var restored = Self.mutable(identifier, current)
        for key in ContactKeySet.writable.keys { restored.values.copyValue(for: key, from: state.values) }
        var request = request(options)
        request.markUndo(.restore, of: target)
        request.update(restored)
        return try finish(
            request, undoes: UndoReference(kind: .restore, sequence: target), skipped: [], options: options)
    }
}
