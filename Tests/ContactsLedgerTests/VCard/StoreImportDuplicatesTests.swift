import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel

@Suite("vCard import: cards whose UID the store holds, glued cards, files that are not vCards")
struct StoreImportDuplicatesTests {
    /// A store with the sample contacts and one that holds every property.
    private func seededStore(client: ClientContext = .fullAccess()) throws -> ContactStore {
        let store = ContactStore.inMemory(client: client)
        _ = try seedSampleContacts(store)
        var request = SaveRequest()
        request.add(VCardContactGenerator.everything(), toContainerWithIdentifier: nil)
        _ = try store.execute(request)
        return store
    }

    private func everyContact(_ store: ContactStore) throws -> [Contact] {
        var request = ContactFetchRequest(keysToFetch: [ContactKeySet.all], sortOrder: .none)
        request.unifyResults = false
        var contacts: [Contact] = []
        try store.enumerateContacts(with: request) { contact, _ in contacts.append(contact) }
        return contacts
    }

    @Test("Importing a store's own export changes nothing and writes no record")
    func ownExportIsUnchanged() throws {
        let store = try seededStore()
        let before = try everyContact(store)
        let head = store.headDigest
        let summary = try store.importVCards(try store.exportVCards())
        #expect(summary.imported.isEmpty)
        #expect(summary.updated.isEmpty)
        #expect(summary.unchanged.map(\.identifier) == before.map(\.identifier))
        #expect(summary.sequences.isEmpty)
        #expect(store.headDigest == head)
        #expect(try everyContact(store) == before)
    }

    @Test("An export imported twice into another store keeps its identifiers and adds nothing the second time")
    func importTwice() throws {
        let source = try seededStore()
        let data = try source.exportVCards()
        let target = ContactStore.inMemory()
        let first = try target.importVCards(data)
        #expect(first.imported.map(\.identifier) == (try everyContact(source)).map(\.identifier))
        let head = target.headDigest
        let second = try target.importVCards(data)
        #expect(second.imported.isEmpty && second.updated.isEmpty)
        #expect(second.unchanged.count == first.imported.count)
        #expect(target.headDigest == head)
        #expect(try everyContact(target).count == first.imported.count)
    }

    @Test("A changed card updates its contact and keeps the identifiers of unchanged labeled values")
    func changedCardUpdates() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let original = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: [ContactKeySet.all])
        let text = String(decoding: try store.exportVCards(identifiers: [sample.ada.identifier]), as: UTF8.self)
        let edited = text.replacingOccurrences(of: "Lovelace", with: "King")
        let summary = try store.importVCards(Data(edited.utf8), author: "importer")
        #expect(summary.updated.map(\.identifier) == [sample.ada.identifier])
        #expect(summary.imported.isEmpty)
        let updated = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: [ContactKeySet.all])
        #expect(updated.familyName == "King")
        #expect(updated.phoneNumbers.map(\.identifier) == original.phoneNumbers.map(\.identifier))
        #expect(updated.emailAddresses.map(\.identifier) == original.emailAddresses.map(\.identifier))
        #expect(try everyContact(store).count == 4)
    }

    @Test("--duplicates skip leaves the contact and add makes a new one")
    func skipAndAdd() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let text = String(decoding: try store.exportVCards(identifiers: [sample.ada.identifier]), as: UTF8.self)
        let edited = Data(text.replacingOccurrences(of: "Lovelace", with: "King").utf8)
        let skipped = try store.importVCards(edited, duplicates: .skip)
        #expect(skipped.unchanged.map(\.identifier) == [sample.ada.identifier])
        let kept = try store.unifiedContact(withIdentifier: sample.ada.identifier, keysToFetch: listKeys)
        #expect(kept.familyName == "Lovelace")
        let added = try store.importVCards(edited, duplicates: .add)
        #expect(added.imported.count == 1)
        #expect(added.imported.first?.identifier != sample.ada.identifier)
        #expect(try everyContact(store).count == 5)
    }

    @Test("A UID that a contact the client does not see holds is added under a new identifier")
    func hiddenUID() async throws {
        let directory = StoreDirectory()
        let owner = try ContactStore(ledgerAt: directory.ledger, client: .owner())
        let hidden = makeContact(given: "Hidden", family: "Person")
        var request = SaveRequest()
        request.add(hidden, toContainerWithIdentifier: nil)
        _ = try await owner.execute(request)
        try await owner.setAuthorization(.limited, forClient: "app")
        let card = try owner.exportVCards(identifiers: [hidden.identifier])
        owner.close()
        let limited = try ContactStore(
            ledgerAt: directory.ledger, client: ClientContext(identifier: "app", authorization: .limited))
        defer { limited.close() }
        let summary = try limited.importVCards(card)
        #expect(summary.imported.count == 1)
        #expect(summary.rejected.isEmpty)
        #expect(summary.imported.first?.identifier != hidden.identifier)
        #expect(summary.unchanged.isEmpty && summary.updated.isEmpty)
    }

    @Test("Cards glued together without a line break are read apart, with their line numbers")
    func gluedCards() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Card;One;;;\r\nEND:VCARD"
        let glued =
            card + card + "\r\n" + card + "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Bad;;;;\r\nBDAY:not a date\r\nEND:VCARD"
        let read = try VCardSerialization.read(Data(glued.utf8))
        #expect(read.contacts.count == 3)
        #expect(read.rejected.map(\.cardIndex) == [3])
        // Line 11 holds the third card's end and the fourth's start; its BDAY is line 14.
        #expect(read.rejected.first?.line == 14)
    }

    @Test(
        "An empty file and files that are not vCards are named as such",
        arguments: [
            ([UInt8](), "empty file"),
            (Array(" \r\n\n".utf8), "empty file"),
            (
                [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13],
                "not a vCard file: it starts with PNG image data"
            ),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 16], "not a vCard file: it starts with JPEG image data"),
            (Array("%PDF-1.7\n".utf8), "not a vCard file: it starts with a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04, 20, 0], "not a vCard file: it starts with a ZIP archive"),
            ([0x1F, 0x8B, 8, 0], "not a vCard file: it starts with gzip-compressed data"),
            (Array("name,phone\nAda,+44 20 7946 0958\n".utf8), "not a vCard file: it starts with plain text"),
            ([0, 1, 2, 3, 0xFE, 0x80, 0], "not a vCard file: it starts with binary data"),
        ])
    func notVCards(bytes: [UInt8], message: String) throws {
        let store = ContactStore.inMemory()
        let head = store.headDigest
        let error = try #require(throws: ContactStoreError.self) { try store.importVCards(Data(bytes)) }
        #expect(error.code == .vCardMalformed)
        #expect(error.message.hasPrefix(message), "\(error.message)")
        #expect(VCardSerialization.fileProblem(Data(bytes))?.hasPrefix(message) == true)
        #expect(store.headDigest == head)
    }

    @Test("A UTF-16 vCard and one after text are still vCards")
    func notMistakenForOtherFiles() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Card;One;;;\r\nEND:VCARD\r\n"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in card.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(VCardSerialization.fileProblem(Data(utf16)) == nil)
        #expect(try VCardSerialization.read(Data(utf16)).contacts.count == 1)
        #expect(VCardSerialization.fileProblem(Data(("a note first\r\n" + card).utf8)) == nil)
    }
}
