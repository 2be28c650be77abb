import ContactsLedger
import LedgerAudit

/// The contacts whose values at a point were partly or wholly redacted, for the readers that
/// show contacts as they were (`show --as-of`, `export --as-of`), and redacted records as JSON.
enum RedactedContacts {
    /// Each such contact's redaction reason at `point`; none without a point, since only
    /// superseded values are redacted and a contact's current values are whole.
    static func reasons(_ context: CommandContext, asOf point: LedgerPoint?) throws -> [String: String] {
        guard let point else { return [:] }
        let auditor = try LedgerAuditor(ledgerAt: context.ledger)
        return try auditor.redactedContacts(through: try auditor.sequence(at: point))
    }

}
