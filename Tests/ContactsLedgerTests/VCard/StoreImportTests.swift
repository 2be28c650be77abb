import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("vCard import into and export from a store")
struct StoreVCardImportTests {
    @Test("A file with a malformed card imports the good cards and names the bad one")
    func partialImport() throws {
        let store = ContactStore.inMemory()
        let data = try VCardTestSupport.fixtureData("folkerkinzel-vcards/v4.vcf")
        let summary = try store.importVCards(data, author: "importer")
        #expect(summary.imported.map(\.cardIndex) == [0])
        #expect(summary.rejected.map(\.cardIndex) == [1])
        #expect(summary.rejected.first?.line == 22)
        #expect(!summary.isComplete)
        #expect(summary.sequences.count == 1)
        let identifier = try #require(summary.imported.first?.identifier)
        #expect(try store.unifiedContact(withIdentifier: identifier, keysToFetch: listKeys).identifier == identifier)
    }

    @Test("Strict mode commits nothing when any card is bad")
    func strictImport() throws {
        let store = ContactStore.inMemory()
        let data = try VCardTestSupport.fixtureData("folkerkinzel-vcards/v4.vcf")
        let head = store.headDigest
        #expect(throws: VCardCardError.self) { try store.importVCards(data, strict: true) }
        #expect(store.headDigest == head)
    }

    @Test("Cards the store refuses are reported per card and the rest are imported")
    func refusedByStore() throws {
        let store = ContactStore.inMemory(client: ClientContext(identifier: "plain", authorization: .authorized))
        let vcards = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:One;Card;;;\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Two;Card;;;\r
            NOTE:a note this client may not write\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Three;Card;;;\r
            END:VCARD\r

            """
        let summary = try store.importVCards(Data(vcards.utf8), author: "importer")
        #expect(summary.imported.map(\.cardIndex) == [0, 2])
        #expect(summary.rejected.map(\.cardIndex) == [1])
        #expect(summary.rejected.first?.kind == .refusedByStore)
        #expect(summary.rejected.first?.message.contains("note") == true)
        #expect(throws: VCardCardError.self) { try store.importVCards(Data(vcards.utf8), strict: true) }
    }

    @Test("Export from a store and import into another gives the same contacts")
    func exportImport() throws {
        let source = ContactStore.inMemory()
        let sample = try seedSampleContacts(source)
        let data = try source.exportVCards()
        let target = ContactStore.inMemory()
        let summary = try target.importVCards(data)
        #expect(summary.imported.count == 4)
        let imported = try target.unifiedContacts(matching: .matchingName("grace"), keysToFetch: detailKeys)
        #expect(imported.count == 1)
        let original = try source.unifiedContact(withIdentifier: sample.grace.identifier, keysToFetch: detailKeys)
        #expect(imported[0].phoneNumbers.map(\.value) == original.phoneNumbers.map(\.value))
        #expect(imported[0].birthday == original.birthday)
        #expect(imported[0].organizationName == original.organizationName)
        let one = try source.exportVCards(identifiers: [sample.ada.identifier], version: .v4_0)
        #expect(String(decoding: one, as: UTF8.self).contains("VERSION:4.0"))
    }
}
