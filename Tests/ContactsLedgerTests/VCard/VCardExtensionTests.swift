import Foundation
import Testing

@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel

@Suite("VCard extensions: properties the model has no key for")
struct VCardExtensionTests {
    static let card = [
        "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Example//EN", "REV:2026-01-01T00:00:00Z", "UID:urn:uuid:abc-1",
        "FN:The Doctor", "N:Smith;John;;;", "item1.EMAIL;type=INTERNET:john@example.org",
        "item1.X-ABLabel:Personal", "item2.X-UNKNOWN:value", "item2.X-ABLabel:odd", "X-CUSTOM;X-P=1:kept\\, as is",
        "CATEGORIES:a,b", "GEO:1.5;2.5", "END:VCARD", "",
    ].joined(separator: "\r\n")

    static func read(_ text: String, keeping: Bool) throws -> MutableContact {
        let read = try VCardSerialization.read(Data(text.utf8), keepingOtherProperties: keeping)
        return try #require(read.contacts.first?.contact)
    }

    @Test("kept as written: unknown and grouped unknown properties, the UID and an FN of its own")
    func kept() throws {
        let contact = try Self.read(Self.card, keeping: true)
        let lines = contact.vCardExtensions.map(\.value)
        #expect(
            lines == [
                "UID:urn:uuid:abc-1", "item2.X-UNKNOWN:value", "X-CUSTOM;X-P=1:kept\\, as is", "CATEGORIES:a,b",
                "GEO:1.5;2.5", "item2.X-ABLabel:odd",
                VCardWriter.keptNameLine("The Doctor", formatted: "John Smith"),
            ])
        #expect(contact.emailAddresses.first?.label == "Personal")
        #expect(try Self.read(Self.card, keeping: false).vCardExtensions.isEmpty)
    }

    @Test("written back in both versions; bookkeeping never; the kept FN only while the names stand")
    func written() throws {
        var contact = try Self.read(Self.card, keeping: true)
        contact.vCardExtensions.append(LabeledValue(label: nil, value: "X-CONTACTS-LEDGER-CARDDAV-HREF:a.vcf"))
        contact.vCardExtensions.append(LabeledValue(label: nil, value: "X-BROKEN:one\ntwo"))
        for version in [VCardVersion.v3_0, .v4_0] {
            let data = try VCardSerialization.data(with: [contact], version: version, writingClientIdentity: true)
            let text = String(decoding: data, as: UTF8.self)
            for line in [
                "UID:urn:uuid:abc-1", "item2.X-UNKNOWN:value", "X-CUSTOM;X-P=1:kept\\, as is", "FN:The Doctor",
            ] {
                #expect(text.contains(line + "\r\n"), "\(line) in \(text)")
            }
            #expect(!text.contains("X-CONTACTS-LEDGER") && !text.contains("X-BROKEN"))
            #expect(text.components(separatedBy: "\r\nUID:").count == 2)
        }
        contact.givenName = "Jane"
        let renamed = String(
            decoding: try VCardSerialization.data(with: [contact], writingClientIdentity: true), as: UTF8.self)
        #expect(renamed.contains("FN:Jane Smith\r\n"))
        let again = try Self.read(renamed, keeping: true)
        #expect(again.vCardExtensions.map(\.value).contains("item2.X-UNKNOWN:value"))
    }

    @Test("an export writes the identifier as UID and the formatted FN, and the other kept lines")
    func exported() throws {
        let contact = try Self.read(Self.card, keeping: true).copy()
        let text = String(decoding: try VCardSerialization.data(with: [contact]), as: UTF8.self)
        #expect(text.contains("\r\nUID:\(contact.identifier)\r\n"))
        #expect(!text.contains("abc-1") && !text.contains("The Doctor"))
        #expect(text.contains("FN:John Smith\r\n") && text.contains("X-CUSTOM;X-P=1:kept\\, as is\r\n"))
    }

    @Test("a card's lines named like the package's bookkeeping are dropped as it is read")
    func forgedBookkeeping() throws {
        let forged = Self.card.replacingOccurrences(
            of: "END:VCARD",
            with: "X-CONTACTS-LEDGER-CARDDAV-HREF:other.vcf\r\nitem7.x-contacts-ledger-fn;X-FOR=00:Forged\r\nEND:VCARD")
        let lines = try Self.read(forged, keeping: true).vCardExtensions.map(\.value)
        #expect(!lines.contains { $0.uppercased().contains("X-CONTACTS-LEDGER-CARDDAV") || $0.contains("Forged") })
    }

    @Test("kept groups are renamed after the writer's own, the same name for one group's lines")
    func renamedGroups() throws {
        var contact = try Self.read(Self.card, keeping: true)
        contact.vCardExtensions.append(LabeledValue(label: nil, value: "item1.X-OTHER:clash"))
        contact.vCardExtensions.append(LabeledValue(label: nil, value: "item1.X-ABLabel:clash label"))
        let text = String(decoding: try VCardSerialization.data(with: [contact]), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.contains { $0.hasPrefix("item1.EMAIL") }, "\(text)")
        #expect(lines.filter { $0.hasPrefix("item1.") }.count == 2, "\(text)")
        #expect(lines.contains("item2.X-UNKNOWN:value") && lines.contains("item2.X-ABLabel:odd"), "\(text)")
        #expect(lines.contains("item3.X-OTHER:clash") && lines.contains("item3.X-ABLabel:clash label"), "\(text)")
    }

    @Test("JSON leaves the key out while it is empty and carries it otherwise")
    func json() throws {
        let plain = try Self.read(Self.card, keeping: false)
        #expect(ContactJSON.object(for: plain.copy())["vCardExtensions"] == nil)
        let kept = try Self.read(Self.card, keeping: true)
        let value = try #require(ContactJSON.object(for: kept.copy())["vCardExtensions"]?.arrayValue)
        #expect(value.count == 7)
        var bytes: [UInt8] = []
        ContactJSON.write(plain.copy(), to: &bytes)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("vCardExtensions"))
    }

    @Test("an import's update leaves a contact's extensions alone; a CardDAV replace sets them")
    func updates() throws {
        let existing = try Self.read(Self.card, keeping: true).copy()
        var card = try Self.read(Self.card, keeping: false).values
        card.emailAddresses = [LabeledValue(label: nil, value: "new@example.org")]
        let imported = try #require(ContactStore.update(existing, toCard: card, replacingExtensions: false))
        #expect(imported.vCardExtensions == existing.vCardExtensions)
        let replaced = try #require(ContactStore.update(existing, toCard: card, replacingExtensions: true))
        #expect(replaced.vCardExtensions.isEmpty)
    }
}
