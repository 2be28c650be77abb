import ContactsLedger
import Foundation
import LedgerAudit
import LedgerServer
import Testing

@Suite("Server: audit, undo, access and live events")
struct ServerAuditTests {
    @Test("the log, newest first, filtered by author, contact and time, paged back; one record")
    func log() throws {
        let served = try ServedLedger()
        let bob = try served.identifier(of: "Bob")
        _ = try served.json("DELETE", "/api/v1/contacts/\(bob)", body: ["author": "mallory"])
        _ = try served.json(
            "POST", "/api/v1/contacts", body: ["contact": ["givenName": "Fay"], "author": "alice"], status: 201)
        let all = try served.json("GET", "/api/v1/log")["entries"]?.arrayValue ?? []
        #expect(all.compactMap { $0["sequence"]?.intValue } == [3, 2, 1])
        let mallory = try served.json("GET", "/api/v1/log?author=mallory")["entries"]?.arrayValue ?? []
        #expect(mallory.compactMap { $0["sequence"]?.intValue } == [2])
        #expect(mallory.first?["operations"]?.arrayValue?.first?["type"]?.stringValue == "deleteContact")
        let aboutBob = try served.json("GET", "/api/v1/log?contact=\(bob)")["entries"]?.arrayValue ?? []
        #expect(aboutBob.compactMap { $0["sequence"]?.intValue } == [2, 1])
        let older = try served.json("GET", "/api/v1/log?before=3&limit=1")["entries"]?.arrayValue ?? []
        #expect(older.compactMap { $0["sequence"]?.intValue } == [2])
        let since = try served.json("GET", "/api/v1/log?since=2&until=2")["entries"]?.arrayValue ?? []
        #expect(since.count == 1)
        #expect(try served.json("GET", "/api/v1/log/3")["author"]?.stringValue == "alice")
        _ = try served.json("GET", "/api/v1/log/99", status: 404)
        _ = try served.json("GET", "/api/v1/log/abc", status: 400)
        _ = try served.json("GET", "/api/v1/log?since=yesterday", status: 400)
    }

    @Test("activity counts requests per day by author and the contacts deleted")
    func activity() throws {
        let served = try ServedLedger()
        for name in ["Anna", "Bob", "Carl"] {
            _ = try served.json(
                "DELETE", "/api/v1/contacts/\(try served.identifier(of: name))", body: ["author": "mallory"])
        }
        let activity = try served.json("GET", "/api/v1/activity?days=7")
        let days = activity["days"]?.arrayValue ?? []
        #expect(days.count == 7)
        let today = try #require(days.last?["authors"]?.arrayValue)
        let mallory = try #require(today.first { $0["author"]?.stringValue == "mallory" })
        #expect(mallory["requests"]?.intValue == 3)
        #expect(mallory["deletedContacts"]?.intValue == 3)
        #expect(today.first { $0["author"]?.stringValue == "setup" }?["requests"]?.intValue == 1)
    }

    @Test("history, diff, digest and verify, in the CLI's JSON forms")
    func historyDiffDigestVerify() throws {
        let served = try ServedLedger()
        let anna = try served.identifier(of: "Anna")
        let read = try served.json("GET", "/api/v1/contacts/\(anna)")
        _ = try served.json(
            "PATCH", "/api/v1/contacts/\(anna)",
            body: [
                "revision": try #require(read["revision"]), "before": ["jobTitle": ""], "after": ["jobTitle": "Chef"],
            ])
        let history = try served.json("GET", "/api/v1/contacts/\(anna)/history")
        let kinds = history["revisions"]?.arrayValue?.compactMap { $0["kind"]?.stringValue }
        #expect(kinds == ["created", "updated"])
        #expect(history["revisions"]?.arrayValue?.last?["changes"]?.arrayValue?.first?["new"]?.stringValue == "Chef")
        let diff = try served.json("GET", "/api/v1/diff?from=1&to=2")
        #expect(diff["changed"]?.arrayValue?.count == 1)
        _ = try served.json("GET", "/api/v1/diff", status: 400)
        let digest = try served.json("GET", "/api/v1/digest")
        #expect(digest["sequence"]?.intValue == 2)
        let verified = try served.json("GET", "/api/v1/verify")
        #expect(verified["ok"]?.boolValue == true)
        #expect(verified["head"]?["hash"] == digest["hash"])
        let client = try served.client()
        client.send(
            "GET /api/v1/verify/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(served.token.value)\r\n\r\n")
        let (head, events) = client.readEvents(count: 3)
        #expect(head?.header("Content-Type") == "text/event-stream; charset=utf-8")
        #expect(events.contains { $0.event == "progress" })
        #expect(events.last?.event == "result")
    }

    @Test("undelete, restore a revision and revert a record, each saved as a new request")
    func undos() throws {
        let served = try ServedLedger()
        let anna = try served.identifier(of: "Anna")
        let read = try served.json("GET", "/api/v1/contacts/\(anna)")
        _ = try served.json(
            "PATCH", "/api/v1/contacts/\(anna)",
            body: [
                "revision": try #require(read["revision"]), "before": ["jobTitle": ""], "after": ["jobTitle": "Chef"],
            ])
        let restored = try served.json(
            "POST", "/api/v1/contacts/\(anna)/restore", body: ["to": "1", "author": "fixer"])
        #expect(restored["action"]?.stringValue == "restored")
        #expect(try served.json("GET", "/api/v1/contacts/\(anna)")["contact"]?["jobTitle"]?.stringValue == "")
        let nothing = try served.json("POST", "/api/v1/contacts/\(anna)/restore", body: ["to": "1"], status: 409)
        #expect(nothing["error"]?.stringValue == "nothingToUndo")
        _ = try served.json("DELETE", "/api/v1/contacts/\(anna)")
        let undeleted = try served.json("POST", "/api/v1/contacts/\(anna)/undelete", body: [:])
        #expect(undeleted["undoes"]?["kind"]?.stringValue == "undelete")
        #expect(try served.json("GET", "/api/v1/contacts/\(anna)")["contact"]?["givenName"]?.stringValue == "Anna")
        _ = try served.json("POST", "/api/v1/contacts/\(anna)/undelete", body: [:], status: 409)
        let added = try served.json("POST", "/api/v1/contacts", body: ["contact": ["givenName": "Gus"]], status: 201)
        let sequence = try #require(added["sequence"]?.intValue)
        let reverted = try served.json("POST", "/api/v1/log/\(sequence)/revert", body: [:])
        #expect(reverted["action"]?.stringValue == "reverted")
        #expect(try !served.listed().contains("Gus"))
    }

    @Test("the picker's grants: recorded with the owner as author, naming the app; revoking works the same")
    func grants() throws {
        let served = try ServedLedger()
        let anna = try served.identifier(of: "Anna")
        let bob = try served.identifier(of: "Bob")
        let granted = try served.json(
            "POST", "/api/v1/clients/com.example.app/grants", body: ["identifiers": [.string(anna), .string(bob)]])
        #expect(granted["action"]?.stringValue == "granted")
        let clients = try served.json("GET", "/api/v1/clients").arrayValue ?? []
        let app = try #require(clients.first { $0["client"]?.stringValue == "com.example.app" })
        #expect(Set(app["granted"]?.arrayValue?.compactMap(\.stringValue) ?? []) == [anna, bob])
        let entry = try #require(served.json("GET", "/api/v1/log?limit=1")["entries"]?.arrayValue?.first)
        #expect(entry["author"]?.stringValue == "contacts-ledger")
        #expect(entry["operations"]?.arrayValue?.first?["client"]?.stringValue == "com.example.app")
        _ = try served.json(
            "POST", "/api/v1/clients/com.example.app/revocations", body: ["identifiers": [.string(bob)]])
        let after = try served.json("GET", "/api/v1/clients").arrayValue?.first {
            $0["client"]?.stringValue == "com.example.app"
        }
        #expect(after?["granted"]?.arrayValue == [.string(anna)])
        _ = try served.json("POST", "/api/v1/clients/com.example.app/grants", body: ["identifiers": []], status: 400)
        _ = try served.json(
            "POST", "/api/v1/clients/com.example.app/grants", body: ["identifiers": ["NOSUCHCONTACT"]], status: 404)
    }

    @Test("events catch up from a sequence, then follow live commits")
    func events() throws {
        let served = try ServedLedger()
        let client = try served.client()
        client.send(
            "GET /api/v1/events?after=0 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(served.token.value)\r\n\r\n")
        let (head, caughtUp) = client.readEvents(count: 2)
        #expect(head?.status == 200)
        #expect(caughtUp.map(\.event) == ["ready", "commit"])
        #expect(try JSONValue(parsing: caughtUp[1].data)["sequence"]?.intValue == 1)
        _ = try served.json("POST", "/api/v1/contacts", body: ["contact": ["givenName": "Hal"]], status: 201)
        let (_, live) = client.readEvents(count: 1)
        let entry = try JSONValue(parsing: try #require(live.first).data)
        #expect(entry["sequence"]?.intValue == 2)
        #expect(entry["operations"]?.arrayValue?.first?["contact"]?["givenName"]?.stringValue == "Hal")
        _ = try served.json("GET", "/api/v1/events?after=x", status: 400)
    }

    @Test("a read-only server shows another writer's commits in its reads and its events")
    func anotherWriter() throws {
        let served = try ServedLedger(readOnly: true)
        let client = try served.client()
        client.send("GET /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(served.token.value)\r\n\r\n")
        _ = client.readEvents(count: 1)
        let writer = try ContactStore(ledgerAt: served.ledger, client: .owner("another"), create: false)
        var request = SaveRequest(transactionAuthor: "elsewhere")
        var contact = MutableContact()
        contact.givenName = "Ivy"
        request.add(contact, toContainerWithIdentifier: nil)
        try writer.execute(request)
        writer.close()
        let (_, live) = client.readEvents(count: 1)
        #expect(try JSONValue(parsing: try #require(live.first).data)["author"]?.stringValue == "elsewhere")
        #expect(try served.listed().contains("Ivy"))
        let refused = try served.request("POST", "/api/v1/contacts", json: ["contact": ["givenName": "No"]])
        #expect(refused.status == 503)
    }
}
