import ContactsEngine
import Foundation
import LedgerStorage

extension LedgerAuditor {
    /// The contacts with a redacted operation in the records up to `sequence` (every record when
    /// nil), each with the reason of its latest redacted record: their values at such a point are
    /// not all known any more, and readers show `[redacted]` with the reason beside them.
    public func redactedContacts(through sequence: UInt64? = nil) throws -> [String: String] {
        var contacts: [String: String] = [:]
        var cursor = try reader.records(from: 1)
        while let record = try cursor.next(), record.sequence <= sequence ?? .max {
            guard let redaction = record.redaction else { continue }
            for case .redacted(let standIn) in try Self.event(of: record).operations
            where lens?.sees(standIn.contactIdentifier) ?? true {
                contacts[standIn.contactIdentifier] = redaction.reason
            }
        }
        return contacts
    }
}
