import ContactsLedger
import Foundation
import LedgerAudit

/// What `show` says about a contact that does not exist because it was deleted: when, by whom,
/// and how to bring it back or see it as it was.
enum DeletedContact {
    /// The error for a contact that is missing (now, or at `point`): the same error, its message
    /// naming the record that deleted the contact, or `missing` itself when no record did.
    static func explain(
        _ missing: ContactStoreError, identifier: String, ledger: String, asOf point: LedgerPoint?
    ) -> ContactStoreError {
        guard missing.code == .recordDoesNotExist, let auditor = try? LedgerAuditor(ledgerAt: ledger) else {
            return missing
        }
        var through: UInt64?
        if let point {
            guard let sequence = try? auditor.sequence(at: point) else { return missing }
            through = sequence
        }
        guard let deletion = try? auditor.lastDeletion(ofContact: identifier, through: through) else {
            return missing
        }
        return ContactStoreError(.recordDoesNotExist, message(identifier, deletion, atPoint: point != nil))
    }

    /// `contact ID does not exist: it was deleted at record N (TIME) by AUTHOR; ...` with the
    /// commands that help.
    static func message(_ identifier: String, _ deletion: ContactRevision, atPoint: Bool) -> String {
        let author = deletion.author.isEmpty ? "no named author" : deletion.author
        let when = "record \(deletion.sequence) (\(RFC3339.string(from: deletion.commitDate))) by \(author)"
        if let reason = deletion.redactionReason {
            return "contact \(identifier) does not exist: it was deleted at \(when), and its values were redacted "
                + "([redacted] \(reason))"
        }
        let before = "`contacts-ledger show \(identifier) --as-of \(deletion.sequence - 1)` shows it as it was"
        if atPoint { return "contact \(identifier) did not exist at that point: it was deleted at \(when); \(before)" }
        return
            "contact \(identifier) does not exist: it was deleted at \(when); `contacts-ledger undelete \(identifier)` "
            + "brings it back, " + before
    }
}
