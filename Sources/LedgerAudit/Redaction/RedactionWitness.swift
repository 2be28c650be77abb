import ContactsEngine
import ContactsLedger
import Foundation
import LedgerStorage

/// Checks, over a pass through the journal, that every redacted record holds what a recorded
/// redaction says it does: the chain covers a redacted record's original payload digest, not
/// what the redaction left, so the recorded redaction's digest of it is what vouches for it.
struct RedactionWitness {
    /// Each redacted record's location, reason and the digest of what it holds.
    private var redacted: [UInt64: (location: LedgerLocation, reason: String, digest: SHA256Digest)] = [:]
    /// The digests recorded redactions vouch for, by the record they name.
    private var vouched: [UInt64: Set<SHA256Digest>] = [:]

    /// Notes a record and its event.
    mutating func note(_ record: JournalRecord, _ event: LedgerEvent) {
        if let redaction = record.redaction {
            redacted[record.sequence] = (record.location, redaction.reason, SHA256.hash(record.payload))
        }
        for case .redaction(let note) in event.operations {
            vouched[note.sequence, default: []].insert(note.remainingDigest)
        }
    }

    /// The redacted records and their reasons; throws for one whose recorded redactions all vouch
    /// for other bytes than it holds. A record no recorded redaction names (a copy restored to a
    /// point before the redaction was recorded) is reported with the reason and that note.
    func check() throws -> [UInt64: String] {
        var reasons: [UInt64: String] = [:]
        for (sequence, found) in redacted.sorted(by: { $0.key < $1.key }) {
            guard let digests = vouched[sequence] else {
                reasons[sequence] = found.reason + " (the redaction is recorded after this ledger's head)"
                continue
            }
            guard digests.contains(found.digest) else {
                throw LedgerInconsistency(
                    sequence: sequence, location: found.location,
                    reason: "is redacted, but holds other bytes than its recorded redaction vouches for")
            }
            reasons[sequence] = found.reason
        }
        return reasons
    }
}

/// Which records a replay check commits as recorded instead of re-executing them: a redacted
/// record cannot be rebuilt into its request, and a contact with a redacted operation has values
/// the scratch store does not know, so its later requests would not give the recorded effects.
struct RedactionCarry {
    /// The records carried, with their redaction's reason ("" for one not itself redacted).
    private(set) var carried: [UInt64: String] = [:]
    /// The contacts with a redacted operation so far.
    private var contacts: Set<String> = []

    /// Whether the record is carried, noting it if so.
    mutating func carries(_ record: JournalRecord, _ event: LedgerEvent) -> Bool {
        var carries = record.redaction != nil || event.affectedIdentifiers.contains(where: contacts.contains)
        for operation in event.operations {
            switch operation {
            case .redacted(let standIn): contacts.insert(standIn.contactIdentifier)
            case .redaction: carries = true
            default: break
            }
        }
        if carries { carried[record.sequence] = record.redaction?.reason ?? "" }
        return carries
    }
}
