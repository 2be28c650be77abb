import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation
import LedgerStorage

/// What an import committed and what it rejected.
public struct VCardImportSummary: Sendable {
    /// The identifiers of the imported contacts, with each card's index in the input.
    public var imported: [(cardIndex: Int, identifier: String)]
    /// The cards that were not imported, each with its index, line and reason.
    public var rejected: [VCardCardError]
    /// Things the reader passed over or guessed at, card by card.
    public var warnings: [VCardWarning]
    /// The journal sequences of the save requests the import committed, one per batch.
    public var sequences: [UInt64]

    /// Whether every card was imported.
    public var isComplete: Bool { rejected.isEmpty }
}

/// One save request of an import, reported as soon as it is durable.
public struct VCardImportBatch: Sendable {
    /// The cards it saved: each card's index in the input and the identifier of its contact.
    public var imported: [(cardIndex: Int, identifier: String)]
    /// The journal sequence of its record.
    public var sequence: UInt64
    /// Its request id (see ``ContactStore/importRequestIdentifier(base:cards:)``).
    public var requestIdentifier: UUID
    /// Whether an earlier run of the same import had saved it already.
    public var wasAlreadyCommitted: Bool
}

/// An import that stopped at a save request whose outcome is a storage error: what it saved
/// before that request, and the request that failed.
///
/// When ``error`` wraps ``StorageError/outcomeUnknown(cause:)``, the failed request may be in
/// the ledger; running the same import again with the same base request id saves each batch
/// exactly once.
public struct VCardImportInterrupted: Error, Sendable, CustomStringConvertible {
    /// What the import saved (and rejected) before the failure.
    public var summary: VCardImportSummary
    /// The request id of the save request that failed.
    public var failedRequestIdentifier: UUID
    /// The indexes of the cards that request held.
    public var failedCardIndexes: [Int]
    /// Why it failed.
    public var error: ContactStoreError

    /// The error, the request and its cards, and how many cards were saved before it.
    public var description: String {
        let cards = "cards \(failedCardIndexes.first ?? 0)-\(failedCardIndexes.last ?? 0)"
        let saved = "\(summary.imported.count) cards were saved"
        return "request \(failedRequestIdentifier.uuidString) (\(cards)) failed after \(saved): \(error.message)"
    }
}

extension ContactStore {
    /// The most cards one import save request holds.
    public static let importBatchMax = 500

    /// Imports vCard data: the cards are read, and the good ones are added in save requests of
    /// at most ``importBatchMax`` cards, each committed whole (and on disk) before the next;
    /// `onBatch` is called after each is durable.
    ///
    /// Without `strict`, a malformed card (or one the store refuses) is reported with its index
    /// and line and the cards around it are imported; with `strict`, the first problem throws
    /// before anything is committed. `progress` is called with the cards done and the total.
    ///
    /// Each save request's id is derived from `requestIdentifier` and the cards it holds
    /// (``importRequestIdentifier(base:cards:)``), so that importing the same data again with the
    /// same base id saves only the batches that are not in the ledger yet: the way to finish an
    /// import that stopped with ``VCardImportInterrupted``, which a storage failure throws. Without
    /// a base id, a random one is used.
    public func importVCards(
        _ data: Data, author: String? = nil, strict: Bool = false, fallbackEncoding: String.Encoding = .windowsCP1252,
        requestIdentifier: UUID? = nil, onBatch: ((VCardImportBatch) -> Void)? = nil,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> VCardImportSummary {
        let read = try VCardSerialization.read(data, strict: strict, fallbackEncoding: fallbackEncoding)
        if strict { try checkWhole(read.contacts, author: author) }
        var run = ImportRun(
            base: requestIdentifier ?? RandomUUID.make(), author: author, onBatch: onBatch,
            summary: VCardImportSummary(imported: [], rejected: read.rejected, warnings: read.warnings, sequences: []))
        let total = read.contacts.count
        var done = 0
        for batch in stride(from: 0, to: total, by: Self.importBatchMax) {
            let cards = Array(read.contacts[batch..<min(total, batch + Self.importBatchMax)])
            do {
                try save(cards, in: &run)
            } catch let error as ContactStoreError
                where !strict && error.code != .storeNotWritable && error.code != .dataAccessError
            {
                // One card spoiled the batch: import the cards one by one to find it.
                for card in cards {
                    do {
                        try save([card], in: &run)
                    } catch let error as ContactStoreError
                        where error.code != .storeNotWritable && error.code != .dataAccessError
                    {
                        run.summary.rejected.append(
                            VCardCardError(
                                cardIndex: card.index, line: 0, kind: .refusedByStore, message: error.description))
                    }
                }
            }
            done += cards.count
            progress?(done, total)
        }
        run.summary.rejected.sort { $0.cardIndex < $1.cardIndex }
        return run.summary
    }

    /// The request id of an import's save request holding `cards` (their indexes in the input,
    /// in order), derived from the import's base id, so that the same import run again with the
    /// same base id asks for the same requests.
    public static func importRequestIdentifier(base: UUID, cards: [Int]) -> UUID {
        let range = (cards.first.map(String.init) ?? "") + "-" + (cards.last.map(String.init) ?? "")
        return derivedRequestIdentifier(base: base, "cards \(range) of \(cards.count)")
    }

    /// A name-based UUID (version 8, from SHA-256) for `name` under `base`: the same base and
    /// name always give the same id, and different names different ids.
    public static func derivedRequestIdentifier(base: UUID, _ name: String) -> UUID {
        var bytes: [UInt8] = []
        SHA256.hash(Array((base.uuidString + " " + name).utf8)).append(to: &bytes)
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// What an import has done so far, and how it reports.
    private struct ImportRun {
        var base: UUID
        var author: String?
        var onBatch: ((VCardImportBatch) -> Void)?
        var summary: VCardImportSummary
    }

    /// Saves cards as one request and records it; a storage failure throws
    /// ``VCardImportInterrupted`` with what was saved before, any other refusal throws as it is.
    private func save(_ cards: [(index: Int, contact: MutableContact)], in run: inout ImportRun) throws {
        let indexes = cards.map(\.index)
        var batch = request(for: cards, author: run.author)
        batch.requestIdentifier = Self.importRequestIdentifier(base: run.base, cards: indexes)
        let result: SaveResult
        do {
            result = try execute(batch)
        } catch let error as ContactStoreError where error.code == .dataAccessError || error.code == .storeNotWritable {
            throw VCardImportInterrupted(
                summary: run.summary, failedRequestIdentifier: batch.requestIdentifier, failedCardIndexes: indexes,
                error: error)
        }
        // A batch saved by an earlier run holds the contacts that run made, in card order.
        let identifiers =
            result.wasAlreadyCommitted && result.affectedIdentifiers.count == cards.count
            ? result.affectedIdentifiers : cards.map(\.contact.identifier)
        let imported = Array(zip(indexes, identifiers)).map { (cardIndex: $0.0, identifier: $0.1) }
        run.summary.sequences.append(result.sequence)
        run.summary.imported += imported
        run.onBatch?(
            VCardImportBatch(
                imported: imported, sequence: result.sequence, requestIdentifier: batch.requestIdentifier,
                wasAlreadyCommitted: result.wasAlreadyCommitted))
    }

    /// For a strict import: plans every card alone, then every batch, each seeing the ones before
    /// it, and throws the first refusal with its card, so that nothing is saved unless all can be.
    private func checkWhole(_ contacts: [(index: Int, contact: MutableContact)], author: String?) throws {
        for card in contacts {
            do {
                try dryRun([request(for: [card], author: author)])
            } catch {
                throw VCardCardError(cardIndex: card.index, line: 0, kind: .refusedByStore, message: error.description)
            }
        }
        try dryRun(
            stride(from: 0, to: contacts.count, by: Self.importBatchMax).map { batch in
                request(for: Array(contacts[batch..<min(contacts.count, batch + Self.importBatchMax)]), author: author)
            })
    }

    private func request(for cards: [(index: Int, contact: MutableContact)], author: String?) -> SaveRequest {
        var request = SaveRequest(transactionAuthor: author)
        for card in cards { request.add(card.contact, toContainerWithIdentifier: nil) }
        return request
    }

    /// Exports contacts as vCard data (all visible contacts, each as itself even when linked, when
    /// `identifiers` is nil), with the
    /// keys ``VCardSerialization/descriptorForRequiredKeys()`` names (plus the note when the
    /// client holds the notes entitlement).
    public func exportVCards(identifiers: [String]? = nil, version: VCardVersion = .v3_0) throws -> Data {
        var keys = VCardSerialization.descriptorForRequiredKeys()
        if currentAccess.notesEntitlement { keys.insert(.note) }
        let contacts: [Contact]
        if let identifiers {
            contacts = try identifiers.map { try unifiedContact(withIdentifier: $0, keysToFetch: [keys]) }
        } else {
            var all: [Contact] = []
            // Every contact as itself, linked or not: an export is what an import must give back.
            var request = ContactFetchRequest(keysToFetch: [keys], sortOrder: .none)
            request.unifyResults = false
            try enumerateContacts(with: request) { contact, _ in all.append(contact) }
            contacts = all
        }
        return try VCardSerialization.data(with: contacts, version: version)
    }
}
