import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation
import LedgerStorage

/// What an import committed and what it rejected.
public struct VCardImportSummary: Sendable {
    /// The identifiers of the contacts the import added, with each card's index in the input.
    public var imported: [(cardIndex: Int, identifier: String)]
    /// The contacts the import updated, because a card's `UID` named them.
    public var updated: [(cardIndex: Int, identifier: String)]
    /// The contacts a card's `UID` named that the import left as they were: the card matched
    /// them, or duplicates were skipped.
    public var unchanged: [(cardIndex: Int, identifier: String)]
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
    /// The cards it added: each card's index in the input and the identifier of its contact.
    public var imported: [(cardIndex: Int, identifier: String)]
    /// The cards that updated the contact their `UID` names.
    public var updated: [(cardIndex: Int, identifier: String)]
    /// The journal sequence of its record.
    public var sequence: UInt64
    /// Its request id (see ``ContactStore/importRequestIdentifier(base:cards:)``; the cards are
    /// those of the whole batch, unchanged ones included).
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

    /// Imports vCard data: the cards are read, and the good ones are saved in save requests of
    /// at most ``importBatchMax`` cards, each committed whole (and on disk) before the next;
    /// `onBatch` is called after each is durable.
    ///
    /// A card whose `UID` names a contact the client sees is handled by `duplicates`: by default
    /// it updates that contact, and a card that matches it changes nothing; a batch that changes
    /// nothing writes no record. A card whose `UID` is a UUID no contact holds is added under it.
    ///
    /// Without `strict`, a malformed card (or one the store refuses) is reported with its index
    /// and line and the cards around it are imported; with `strict`, the first problem throws
    /// before anything is committed. `progress` is called with the cards done and the total.
    ///
    /// Each save request's id is derived from `requestIdentifier` and the cards of its batch
    /// (``importRequestIdentifier(base:cards:)``), so that importing the same data again with the
    /// same base id saves only the batches that are not in the ledger yet: the way to finish an
    /// import that stopped with ``VCardImportInterrupted``, which a storage failure throws. Without
    /// a base id, a random one is used.
    ///
    /// - Throws: ``ContactStoreError`` with code ``ContactStoreError/Code/vCardMalformed`` when
    ///   the data is empty or not vCard text (see ``VCardSerialization/read(_:strict:fallbackEncoding:)``).
    public func importVCards(
        _ data: Data, author: String? = nil, strict: Bool = false, fallbackEncoding: String.Encoding = .windowsCP1252,
        duplicates: VCardDuplicatePolicy = .update, requestIdentifier: UUID? = nil,
        onBatch: ((VCardImportBatch) -> Void)? = nil, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> VCardImportSummary {
        let read = try VCardSerialization.read(data, strict: strict, fallbackEncoding: fallbackEncoding)
        let cards = plan(read, duplicates: duplicates)
        if strict { try checkWhole(cards, author: author) }
        var run = ImportRun(
            base: requestIdentifier ?? RandomUUID.make(), author: author, onBatch: onBatch,
            summary: VCardImportSummary(
                imported: [], updated: [], unchanged: [], rejected: read.rejected, warnings: read.warnings,
                sequences: []))
        var done = 0
        progress?(0, cards.count)
        for start in stride(from: 0, to: cards.count, by: Self.importBatchMax) {
            let batch = Array(cards[start..<min(cards.count, start + Self.importBatchMax)])
            try importBatch(batch, strict: strict, in: &run)
            done += batch.count
            progress?(done, cards.count)
        }
        run.summary.rejected.sort { $0.cardIndex < $1.cardIndex }
        return run.summary
    }

    /// Saves one batch's changing cards as one request, or, when a card spoils it (and not
    /// `strict`), card by card to find it. Its unchanged cards are only counted.
    private func importBatch(_ batch: [PlannedCard], strict: Bool, in run: inout ImportRun) throws {
        let changing = batch.filter {
            if case .unchanged = $0.action { return false }
            return true
        }
        for card in batch {
            if case .unchanged(let identifier) = card.action {
                run.summary.unchanged.append((cardIndex: card.index, identifier: identifier))
            }
        }
        guard !changing.isEmpty else { return }
        do {
            // The id names the whole batch, so that a rerun asks for the same request even when
            // some of its cards have become unchanged.
            try save(changing, id: Self.importRequestIdentifier(base: run.base, cards: batch.map(\.index)), in: &run)
        } catch let error as ContactStoreError where !strict && Self.refusesCard(error) {
            for card in changing { try saveAlone(card, in: &run) }
        }
    }

    /// Saves one card as its own request; a refusal rejects the card, except that a card added
    /// under its `UID` that a contact the client does not see holds is added under a new identifier.
    private func saveAlone(_ card: PlannedCard, renamed: Bool = false, in run: inout ImportRun) throws {
        let name = renamed ? "card \(card.index) under a new identifier" : nil
        let id = name.map { Self.derivedRequestIdentifier(base: run.base, $0) }
        do {
            try save([card], id: id ?? Self.importRequestIdentifier(base: run.base, cards: [card.index]), in: &run)
        } catch let error as ContactStoreError where Self.refusesCard(error) {
            if error.code == .insertedRecordAlreadyExists, case .add(_, let fallback?) = card.action {
                try saveAlone(
                    PlannedCard(index: card.index, action: .add(fallback, fallback: nil)), renamed: true, in: &run)
                return
            }
            run.summary.rejected.append(
                VCardCardError(cardIndex: card.index, line: 0, kind: .refusedByStore, message: error.description))
        }
    }

    /// Whether a save's error is the store refusing what a card holds, rather than the ledger
    /// failing to write (which stops the import).
    private static func refusesCard(_ error: ContactStoreError) -> Bool {
        error.code != .storeNotWritable && error.code != .dataAccessError
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
    private func save(_ cards: [PlannedCard], id: UUID, in run: inout ImportRun) throws {
        let indexes = cards.map(\.index)
        var batch = request(for: cards, author: run.author)
        batch.requestIdentifier = id
        let result: SaveResult
        do {
            result = try execute(batch)
        } catch let error as ContactStoreError where !Self.refusesCard(error) {
            throw VCardImportInterrupted(
                summary: run.summary, failedRequestIdentifier: id, failedCardIndexes: indexes, error: error)
        }
        // A batch saved by an earlier run holds the contacts that run made, in card order.
        let identifiers =
            result.wasAlreadyCommitted && result.affectedIdentifiers.count == cards.count
            ? result.affectedIdentifiers : cards.map(\.identifier)
        var saved = VCardImportBatch(
            imported: [], updated: [], sequence: result.sequence, requestIdentifier: id,
            wasAlreadyCommitted: result.wasAlreadyCommitted)
        for (card, identifier) in zip(cards, identifiers) {
            if case .update = card.action {
                saved.updated.append((cardIndex: card.index, identifier: identifier))
            } else {
                saved.imported.append((cardIndex: card.index, identifier: identifier))
            }
        }
        run.summary.sequences.append(result.sequence)
        run.summary.imported += saved.imported
        run.summary.updated += saved.updated
        run.onBatch?(saved)
    }

    /// For a strict import: plans every card alone, then every batch, each seeing the ones before
    /// it, and throws the first refusal with its card, so that nothing is saved unless all can be.
    private func checkWhole(_ cards: [PlannedCard], author: String?) throws {
        let changing = cards.filter {
            if case .unchanged = $0.action { return false }
            return true
        }
        for card in changing {
            do {
                try dryRun([request(for: [card], author: author)])
            } catch {
                throw VCardCardError(cardIndex: card.index, line: 0, kind: .refusedByStore, message: error.description)
            }
        }
        try dryRun(
            stride(from: 0, to: changing.count, by: Self.importBatchMax).map { batch in
                request(for: Array(changing[batch..<min(changing.count, batch + Self.importBatchMax)]), author: author)
            })
    }

    private func request(for cards: [PlannedCard], author: String?) -> SaveRequest {
        var request = SaveRequest(transactionAuthor: author)
        for card in cards {
            switch card.action {
            case .add(let contact, _): request.add(contact, toContainerWithIdentifier: nil)
            case .update(let contact): request.update(contact)
            case .unchanged: break
            }
        }
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
