import Foundation
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The projection's contact table keeps an identifier in a UUID's canonical text as the UUID's
/// 16 bytes, and any other identifier as its text, without the two forms ever standing for each
/// other.
@Suite("Contact table identifiers")
struct ContactTableTests {
    /// A UUID in canonical text, and one whose 16 bytes are the UTF-8 of a 16-character text.
    static let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    static let sixteen = "ABCDEFGHIJKLMNOP"
    static let uuidOfSixteen = "41424344-4546-4748-494A-4B4C4D4E4F50"

    @Test("A canonical UUID identifier takes its 16 bytes in the arena, any other its text, and each is given back")
    func identifierForms() {
        var table = ContactTable()
        let encoded: [UInt8] = [0x0A, 0x01, 0x41]
        let canonical = table.insert(Self.uuid, encoded: encoded, container: 0, creator: 0, revision: 1)
        #expect(table.arenaBytes == 16 + encoded.count)
        #expect(table.records[Int(canonical)].identifierIsUUID)
        let lower = Self.uuid.lowercased()
        let lowerSlot = table.insert(lower, encoded: encoded, container: 0, creator: 0, revision: 2)
        #expect(table.arenaBytes == 16 + 36 + 2 * encoded.count)
        #expect(!table.records[Int(lowerSlot)].identifierIsUUID)
        #expect(table.slot(of: Self.uuid) == canonical)
        #expect(table.slot(of: lower) == lowerSlot)
        #expect(table.identifier(at: canonical) == Self.uuid)
        #expect(table.identifier(at: lowerSlot) == lower)
        #expect(table.encoded(at: canonical) == encoded)
        // Replacing the values keeps the identifier's form.
        table.replace(canonical, encoded: [0x0A, 0x00], container: 0, creator: 0, revision: 3)
        #expect(table.identifier(at: canonical) == Self.uuid)
        #expect(table.slot(of: Self.uuid) == canonical)
        table.checkInvariants()
    }

    @Test("A 16-character identifier and the UUID whose bytes it spells are two contacts, even in one bucket")
    func formsNeverMatchEachOther() {
        var table = ContactTable()
        let uuidSlot = table.insert(Self.uuidOfSixteen, encoded: [1], container: 0, creator: 0, revision: 1)
        let uuidHash = ContactTable.withKey(Self.uuidOfSixteen) { $0.hash }
        // The text's key, looked up under the UUID's hash, reaches the UUID's bucket and is refused.
        #expect(ContactTable.withKey(Self.sixteen) { table.lookUp($0, hash: uuidHash).slot } == nil)
        #expect(table.slot(of: Self.sixteen) == nil)
        let textSlot = table.insert(Self.sixteen, encoded: [2], container: 0, creator: 0, revision: 2)
        #expect(textSlot != uuidSlot)
        #expect(table.slot(of: Self.uuidOfSixteen) == uuidSlot)
        #expect(table.slot(of: Self.sixteen) == textSlot)
        table.remove(uuidSlot)
        #expect(table.slot(of: Self.uuidOfSixteen) == nil)
        #expect(table.slot(of: Self.sixteen) == textSlot)
        #expect(table.identifier(at: textSlot) == Self.sixteen)
        table.checkInvariants()
    }

    @Test("A snapshot of the table keeps each identifier's form")
    func snapshotKeepsForms() throws {
        var table = ContactTable()
        for (index, identifier) in [Self.uuid, Self.sixteen, Self.uuidOfSixteen, "contact-7"].enumerated() {
            _ = table.insert(identifier, encoded: [UInt8(index)], container: 0, creator: 0, revision: UInt64(index))
        }
        table.remove(table.slot(of: "contact-7")!)
        let restored = try snapshotRoundTrip(table)
        #expect(restored.records.map(\.identifierIsUUID) == table.records.map(\.identifierIsUUID))
        #expect(restored.records.map(\.identifierBytes) == table.records.map(\.identifierBytes))
        for identifier in [Self.uuid, Self.sixteen, Self.uuidOfSixteen] {
            let slot = try #require(restored.slot(of: identifier))
            #expect(restored.identifier(at: slot) == identifier)
            #expect(restored.encoded(at: slot) == table.encoded(at: slot))
        }
        #expect(restored.slot(of: "contact-7") == nil)
        #expect(restored.arenaBytes == 16 + 16 + 16 + 3)
        restored.checkInvariants()
    }
}
