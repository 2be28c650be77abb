import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("New identifiers")
struct NewIdentifierTests {
    @Test("New identifiers are distinct version 4 UUIDs in Foundation's canonical upper-case text")
    func canonicalText() {
        var seen = Set<String>()
        for _ in 0..<5_000 {
            let identifier = NewIdentifier.make()
            #expect(UUID(uuidString: identifier)?.uuidString == identifier, "\(identifier)")
            let characters = Array(identifier)
            #expect(characters.count == 36 && characters[14] == "4" && "89AB".contains(characters[19]), "\(identifier)")
            seen.insert(identifier)
        }
        #expect(seen.count == 5_000)
    }
}
