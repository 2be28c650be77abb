import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// How a redaction or an erasure runs.
public struct RedactionOptions: Sendable {
    /// The transaction author of the records it saves (the delete and the recorded redaction).
    public var author: String?
    /// How long to wait for another writer to release the ledger.
    public var lockWaitSeconds: Double
    /// The file layer (the fault-injecting one in tests).
    public var fileSystem: any FileSystem

    /// Creates options.
    public init(author: String? = nil, lockWaitSeconds: Double = 0, fileSystem: any FileSystem = SystemFileSystem()) {
        self.author = author
        self.lockWaitSeconds = lockWaitSeconds
        self.fileSystem = fileSystem
    }
}

/// What a redaction or an erasure did.
public struct RedactionOutcome: Sendable, Hashable {
    /// The records whose content was redacted, in order.
    public var redactedSequences: [UInt64]
    /// The record that deleted the contact, when an erasure found it live.
    public var deletedAt: UInt64?
    /// The record that recorded the redaction (who, what, why), or nil when nothing was left to redact.
    public var recordedAt: UInt64?
    /// The ledger's head afterwards.
    public var head: HeadDigest
}

/// Redaction and erasure: replacing the personal content of recorded requests by its digest, in
/// place, while the chain, every saved head digest and the audit of who redacted what still verify
/// (decision 0030).
///
/// Only the owner may redact. Only deleted contacts and superseded revisions can be redacted: a
/// live contact's revision is redacted only when later updates changed every value it set. The
/// redaction is first recorded through the store's save path (a record of its own, holding no
/// redacted value); then the store is closed, and the records are rewritten under the writer lock
/// (``JournalRedaction``), which also removes the snapshots that may hold the values.
public enum LedgerRedaction {
    /// Redacts one record's contact operations (only those of `contactIdentifier`, when given).
    public static func redact(
        ledgerAt path: String, sequence: UInt64, contactIdentifier: String?, reason: String, client: ClientContext,
        options: RedactionOptions = RedactionOptions()
    ) throws -> RedactionOutcome {
        try run(path, reason: reason, erased: false, client: client, options: options) { _, plan in
            try plan.add(sequence: sequence, contact: contactIdentifier)
            return nil
        }
    }

    /// Erases a contact: deletes it if it is live, then redacts every operation of it the ledger
    /// recorded and removes the snapshots, so that none of its values is left in any file of the
    /// ledger. Run again after a crash, it finishes what is left.
    public static func erase(
        ledgerAt path: String, contactIdentifier: String, reason: String, client: ClientContext,
        options: RedactionOptions = RedactionOptions()
    ) throws -> RedactionOutcome {
        try run(path, reason: reason, erased: true, client: client, options: options) { store, plan in
            let deletedAt = try deleteIfLive(contactIdentifier, store, author: options.author)
            let named = try plan.addEveryRecord(of: contactIdentifier)
            guard named || deletedAt != nil else {
                throw RedactionError(.recordMissing, "no record names contact \(contactIdentifier)")
            }
            return deletedAt
        }
    }

    /// Opens the store as the owner, lets `build` fill the plan (returning the sequence of a delete
    /// it saved), records the redaction, closes the store and rewrites the records.
    private static func run(
        _ path: String, reason: String, erased: Bool, client: ClientContext, options: RedactionOptions,
        _ build: (ContactStore, inout RedactionPlan) throws -> UInt64?
    ) throws -> RedactionOutcome {
        try checkReason(reason)
        let store = try openAsOwner(path, client, options)
        let plan: RedactionPlan
        let deletedAt: UInt64?
        let recordedAt: UInt64?
        do {
            var building = RedactionPlan(store: store, reason: reason, erased: erased)
            deletedAt = try build(store, &building)
            plan = building
            recordedAt = try plan.record(author: options.author, path: path, fileSystem: options.fileSystem)
        } catch {
            store.close()
            throw error
        }
        store.close()
        return try plan.rewrite(path, options, deletedAt: deletedAt, recordedAt: recordedAt)
    }

    /// Deletes the contact through the save path if it is live; returns the delete's sequence.
    static func deleteIfLive(_ identifier: String, _ store: ContactStore, author: String?) throws -> UInt64? {
        guard store.withProjection({ $0.contact(identifier) }) != nil else { return nil }
        let live = try store.unifiedContact(withIdentifier: identifier, keysToFetch: [ContactKey.identifier])
        var request = SaveRequest(transactionAuthor: author)
        request.delete(live.mutableCopy())
        return try store.execute(request).sequence
    }

    /// Refuses an empty reason or one longer than a redacted record can hold.
    static func checkReason(_ reason: String) throws(RedactionError) {
        guard !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw RedactionError(.invalidReason, "a redaction needs a reason (--reason TEXT)")
        }
        guard reason.utf8.count <= RecordRedaction.reasonBytesMax else {
            throw RedactionError(.invalidReason, "the reason is longer than \(RecordRedaction.reasonBytesMax) bytes")
        }
    }

    /// Opens the ledger for writing as `client`, which must be the owner.
    static func openAsOwner(_ path: String, _ client: ClientContext, _ options: RedactionOptions) throws -> ContactStore
    {
        guard client.isOwner else {
            throw ContactStoreError(.authorizationDenied, "only the owner may redact; \(client.identifier) is not")
        }
        return try ContactStore(
            ledgerAt: path, client: client, create: false, lockWaitSeconds: options.lockWaitSeconds,
            fileSystem: options.fileSystem)
    }
}

/// Why a redaction was refused; nothing was written.
public struct RedactionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of refusal.
    public enum Code: String, Sendable, Hashable {
        /// The reason is empty or too long.
        case invalidReason
        /// The record or contact does not exist.
        case recordMissing
        /// The record holds no contact operation to redact (of that contact, when one was named).
        case nothingToRedact
        /// The revision is still the contact's: its values are current.
        case currentRevision
    }

    /// The kind of refusal.
    public var code: Code
    /// What is wrong, naming the record or contact.
    public var message: String

    /// Creates a refusal.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
