import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@Suite("contacts-ledger: the owner's access commands")
struct AccessCommandsTests {
    @Test("The owner answers an app, grants and revokes contacts, and the log and clients list show it")
    func grantAndRevoke() throws {
        let work = try WorkDirectory().initLedger()
        let ada = try work.add(["--given", "Ada", "--family", "Lovelace"])
        let grace = try work.add(["--given", "Grace", "--family", "Hopper"])

        #expect(
            try work.succeed(["authorize", "app.example", "limited"]).lines == [
                "authorized app.example limited", "head 3",
            ])
        let granted = try work.succeed(["grant", "app.example", ada, grace])
        #expect(granted.lines == ["granted \(ada)", "granted \(grace)", "head 4"])
        let revoked = try work.succeed(["revoke", "app.example", grace, "--json"]).json()
        #expect(revoked["identifiers"] == [.string(grace)])
        #expect(revoked["head"] == 5)

        #expect(try work.succeed(["clients"]).lines == ["app.example  limited", "  \(ada)"])
        #expect(
            try work.succeed(["clients", "--json"]).json()
                == [
                    [
                        "client": "app.example", "status": "limited", "notesEntitlement": false,
                        "granted": [.string(ada)],
                    ]
                ])

        let log = try work.succeed(["log", "--from", "3"]).stdout
        #expect(log.contains("Author:  contacts-ledger"))
        #expect(log.contains("authorize app.example: limited"))
        #expect(log.contains("grant app.example access to \(ada), \(grace)"))
        #expect(log.contains("revoke app.example's access to \(grace)"))

        // The limited client reads only what it was granted.
        let store = try ContactStore(
            readingLedgerAt: work.ledger, client: ClientContext(identifier: "app.example", authorization: .limited))
        let everyone = #Predicate<Contact> { _ in true }
        #expect(try store.unifiedContacts(matching: .custom(everyone), keysToFetch: []).map(\.identifier) == [ada])
    }

    @Test("A grant of a missing contact, an unknown status or missing arguments change nothing")
    func refusals() throws {
        let work = try WorkDirectory().initLedger()
        let ada = try work.add(["--given", "Ada"])
        expectFailure(try work.run(["grant", "app", ada, "nobody"]), 67, mentioning: "contact nobody does not exist")
        expectFailure(try work.run(["grant", "app"]), 64, mentioning: "missing ID")
        expectFailure(try work.run(["revoke"]), 64, mentioning: "missing CLIENT")
        expectFailure(try work.run(["authorize", "app", "sometimes"]), 64, mentioning: "unknown status sometimes")
        #expect(try work.succeed(["clients"]).stdout.isEmpty)
        #expect(try LedgerAuditor(ledgerAt: work.ledger).reader.head().sequence == 1)
    }
}
