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

extension ContactStore {
    /// The most cards one import save request holds.
    public static let importBatchMax = 500

    /// Imports vCard data: the cards are read, and the good ones are added in save requests of
    /// at most ``importBatchMax`` cards, each committed whole (and on disk) before the next.
    ///
    /// Without `strict`, a malformed card (or one the store refuses) is reported with its index
    /// and line and the cards around it are imported; with `strict`, the first problem throws
    /// before anything is committed. `progress` is called with the cards done and the total.
    public func importVCards(
        _ data: Data, author: String? = nil, strict: Bool = false, fallbackEncoding: String.Encoding = .windowsCP1252,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> VCardImportSummary {
        let read = try VCardSerialization.read(data, strict: strict, fallbackEncoding: fallbackEncoding)
        var summary = VCardImportSummary(imported: [], rejected: read.rejected, warnings: read.warnings, sequences: [])
        if strict {
            // Nothing may be committed unless every card can be: plan every batch first, each
            // seeing the ones before it, and throw the first refusal with its card.
            for card in read.contacts {
                do {
                    try dryRun([request(for: [card], author: author)])
                } catch {
                    throw VCardCardError(
                        cardIndex: card.index, line: 0, kind: .refusedByStore, message: error.description)
                }
            }
            try dryRun(
                stride(from: 0, to: read.contacts.count, by: Self.importBatchMax).map { batch in
                    request(
                        for: Array(read.contacts[batch..<min(read.contacts.count, batch + Self.importBatchMax)]),
                        author: author)
                })
        }
        let total = read.contacts.count
        var done = 0
        for batch in stride(from: 0, to: total, by: Self.importBatchMax) {
            let cards = Array(read.contacts[batch..<min(total, batch + Self.importBatchMax)])
            do {
                let result = try execute(request(for: cards, author: author))
                summary.sequences.append(result.sequence)
                summary.imported += cards.map { ($0.index, $0.contact.identifier) }
            } catch let error as ContactStoreError
                where !strict && error.code != .storeNotWritable
                && error.code != .dataAccessError
            {
                // One card spoiled the batch: import the cards one by one to find it.
                for card in cards {
                    do {
                        let result = try execute(request(for: [card], author: author))
                        summary.sequences.append(result.sequence)
                        summary.imported.append((card.index, card.contact.identifier))
                    } catch let error as ContactStoreError
                        where error.code != .storeNotWritable
                        && error.code != .dataAccessError
                    {
                        summary.rejected.append(
                            VCardCardError(
                                cardIndex: card.index, line: 0, kind: .refusedByStore, message: error.description))
                    }
                }
            }
            done += cards.count
            progress?(done, total)
        }
        summary.rejected.sort { $0.cardIndex < $1.cardIndex }
        return summary
    }

    private func request(for cards: [(index: Int, contact: MutableContact)], author: String?) -> SaveRequest {
        var request = SaveRequest(transactionAuthor: author)
        for card in cards { request.add(card.contact, toContainerWithIdentifier: nil) }
        return request
    }

    /// Exports contacts as vCard data (all visible contacts when `identifiers` is nil), with the
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
            try enumerateContacts(with: ContactFetchRequest(keysToFetch: [keys], sortOrder: .none)) { contact, _ in
                all.append(contact)
            }
            contacts = all
        }
        return try VCardSerialization.data(with: contacts, version: version)
    }
}
