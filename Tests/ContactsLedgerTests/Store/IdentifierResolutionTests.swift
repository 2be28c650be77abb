import Foundation
import Testing

@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel

@Suite("ContactStore: identifiers by prefix and in any case")
struct IdentifierResolutionTests {
    /// A contact with a chosen identifier, as JSON input keeps it.
    static func contact(_ identifier: String, given: String) throws -> MutableContact {
        try ContactJSON.mutableContact(
            from: JSONValue(parsing: #"{"identifier": "\#(identifier)", "givenName": "\#(given)"}"#))
    }

    static let ada = "AB12CD34-0000-4000-8000-000000000001"
    static let alan = "AB12CD99-0000-4000-8000-000000000002"
    static let grace = "F00D0000-0000-4000-8000-000000000003"

    /// A ledger with three contacts, two of them sharing the prefix AB12CD, and a group.
    static func ledger() throws -> (StoreDirectory, ContactStore, MutableGroup) {
        let directory = StoreDirectory()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .owner())
        let group = MutableGroup(name: "Team")
        var request = SaveRequest()
        for (identifier, given) in [(ada, "Ada"), (alan, "Alan"), (grace, "Grace")] {
            request.add(try contact(identifier, given: given), toContainerWithIdentifier: nil)
        }
        request.add(group, toContainerWithIdentifier: nil)
        try store.execute(request)
        return (directory, store, group)
    }

    @Test("A full identifier in any case, and a unique prefix of six or more, resolve")
    func resolves() throws {
        let (directory, store, group) = try Self.ledger()
        defer { store.close() }
        _ = directory
        #expect(try store.resolveIdentifier(Self.ada) == Self.ada)
        #expect(try store.resolveIdentifier(Self.ada.lowercased()) == Self.ada)
        #expect(try store.resolveIdentifier("ab12cd3") == Self.ada)
        #expect(try store.resolveIdentifier("f00d00") == Self.grace)
        #expect(try store.resolveIdentifier(String(group.identifier.prefix(8)).lowercased()) == group.identifier)
    }

    @Test("An ambiguous prefix names its candidates; a short or unknown one does not exist")
    func refuses() throws {
        let (directory, store, group) = try Self.ledger()
        defer { store.close() }
        _ = directory
        #expect {
            try store.resolveIdentifier("ab12cd")
        } throws: { error in
            let error = error as? ContactStoreError
            return error?.code == .recordIdentifierInvalid && error?.affectedIdentifiers == [Self.ada, Self.alan]
        }
        for text in ["f00d0", "ABCDEF12", Self.grace.replacingOccurrences(of: "F00D", with: "FEED")] {
            #expect(throws: ContactStoreError.self) { try store.resolveIdentifier(text) }
        }
        #expect(throws: ContactStoreError.self) {
            try store.resolveIdentifier(String(group.identifier.prefix(8)), kinds: .contacts)
        }
        #expect(throws: ContactStoreError.self) { try store.resolveIdentifier("f00d00", kinds: .groups) }
    }

    @Test("A limited client resolves only what it sees, and learns nothing of the rest")
    func limitedClient() async throws {
        let (directory, owner, _) = try Self.ledger()
        try await owner.setAuthorization(.limited, forClient: "app")
        try await owner.grantAccess(toContactsWithIdentifiers: [Self.ada], toClient: "app")
        owner.close()
        let client = try ContactStore(
            ledgerAt: directory.ledger, client: ClientContext(identifier: "app", authorization: .limited))
        defer { client.close() }
        // Alan shares Ada's prefix, but the client does not see him: the prefix is Ada's alone.
        #expect(try client.resolveIdentifier("ab12cd") == Self.ada)
        var messages: [String] = []
        for text in ["f00d00", "ab12cd9", Self.alan, "feed00"] {
            do {
                _ = try client.resolveIdentifier(text)
                Issue.record("\(text) resolved for a limited client")
            } catch let error as ContactStoreError {
                #expect(error.code == .recordDoesNotExist)
                messages.append(error.message.replacingOccurrences(of: text, with: "X"))
            }
        }
        // A hidden contact's error reads exactly as a missing one's.
        #expect(Set(messages).count == 1)
    }
}
