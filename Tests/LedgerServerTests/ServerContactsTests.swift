import ContactsLedger
import Foundation
import LedgerAudit
import LedgerServer
import Testing

@Suite("Server: contacts API")
struct ServerContactsTests {
    @Test("the list is in the store's order, paged, with the total")
    func listOrderAndPaging() throws {
        let served = try ServedLedger()
        let store = served.store
        var request = ContactFetchRequest(keysToFetch: [ContactKeySet([.givenName])], sortOrder: .userDefault)
        request.unifyResults = false
        var expected: [String] = []
        try store.enumerateContacts(with: request) { contact, _ in expected.append(contact.givenName) }
        #expect(try served.listed() == expected)
        let page = try served.json("GET", "/api/v1/contacts?offset=1&limit=2")
        #expect(page["total"]?.intValue == 5)
        #expect(page["contacts"]?.arrayValue?.compactMap { $0["givenName"]?.stringValue } == Array(expected[1..<3]))
        #expect(try served.listed("/api/v1/contacts?offset=9") == [])
    }

    @Test("the list follows writes: an added, renamed and deleted contact move in it")
    func listFollowsWrites() throws {
        let served = try ServedLedger()
        _ = try served.listed()
        _ = try served.json(
            "POST", "/api/v1/contacts", body: ["contact": ["givenName": "Eve", "familyName": "Aaronson"]], status: 201)
        #expect(try served.listed().first == "Eve")
        let zoe = try served.identifier(of: "Zoe")
        let read = try served.json("GET", "/api/v1/contacts/\(zoe)")
        _ = try served.json(
            "PATCH", "/api/v1/contacts/\(zoe)",
            body: [
                "revision": try #require(read["revision"]), "before": ["familyName": "Adams"],
                "after": ["familyName": "Zimmer"],
            ])
        #expect(try served.listed().last == "Zoe")
        _ = try served.json("DELETE", "/api/v1/contacts/\(zoe)")
        #expect(try !served.listed().contains("Zoe"))
        #expect(try served.json("GET", "/api/v1/contacts")["total"]?.intValue == 5)
    }

    @Test("search finds by name prefix, email address and phone number")
    func search() throws {
        let served = try ServedLedger()
        #expect(try served.listed("/api/v1/contacts?q=mar") == ["Bob", "Dora"])
        #expect(try served.listed("/api/v1/contacts?q=carl%40example.org") == ["Carl"])
        #expect(try served.listed("/api/v1/contacts?q=%2B44%2020%207946%200002") == ["Anna"])
        #expect(try served.listed("/api/v1/contacts?q=nobody") == [])
    }

    @Test("a search pages its matches in the list's order, whether they are many or few")
    func searchPagesInOrder() throws {
        // 300 people: "Ma…" matches a third of them (walked in the list's order), "Quill" one
        // (looked up and sorted).
        let people = (0..<300).map { index in
            (index % 3 == 0 ? "Ma\(index)" : "Person\(index)", "Family\(300 - index)", "", "")
        }
        let served = try ServedLedger(contacts: people + [("Quill", "Zed", "", ""), ("Quill", "Able", "", "")])
        var request = ContactFetchRequest(keysToFetch: [ContactKeySet([.givenName])], sortOrder: .userDefault)
        request.unifyResults = false
        var order: [String] = []
        try served.store.enumerateContacts(with: request) { contact, _ in order.append(contact.givenName) }
        let many = order.filter { $0.hasPrefix("Ma") }
        #expect(many.count == 100)
        let firstPage = try served.json("GET", "/api/v1/contacts?q=ma&limit=30")
        #expect(firstPage["total"]?.intValue == 100)
        #expect(firstPage["contacts"]?.arrayValue?.compactMap { $0["givenName"]?.stringValue } == Array(many[0..<30]))
        #expect(try served.listed("/api/v1/contacts?q=ma&offset=90&limit=30") == Array(many[90..<100]))
        let few = try served.json("GET", "/api/v1/contacts?q=quill")
        #expect(few["total"]?.intValue == 2)
        #expect(few["contacts"]?.arrayValue?.compactMap { $0["familyName"]?.stringValue } == ["Able", "Zed"])
    }

    @Test("show gives every property and the revision; a deleted contact's 404 names its deletion")
    func showAndDeleted() throws {
        let served = try ServedLedger()
        let bob = try served.identifier(of: "Bob")
        let shown = try served.json("GET", "/api/v1/contacts/\(bob.prefix(8).lowercased())")
        #expect(shown["contact"]?["identifier"]?.stringValue == bob)
        #expect(shown["contact"]?["emailAddresses"]?.arrayValue?.first?["value"]?.stringValue == "bob@example.com")
        #expect((shown["revision"]?.intValue ?? 0) > 0)
        _ = try served.json("DELETE", "/api/v1/contacts/\(bob)", body: ["author": "tester"])
        let missing = try served.json("GET", "/api/v1/contacts/\(bob)", status: 404)
        #expect(missing["error"]?.stringValue == "recordDoesNotExist")
        #expect(missing["deleted"]?["author"]?.stringValue == "tester")
        let asOf = try served.json("GET", "/api/v1/contacts/\(bob)?asOf=1")
        #expect(asOf["contact"]?["givenName"]?.stringValue == "Bob")
        #expect(asOf["asOf"]?.intValue == 1)
    }

    @Test("add answers the write's JSON form; bad contact JSON is a 400 that names the key")
    func add() throws {
        let served = try ServedLedger(contacts: [])
        let written = try served.json(
            "POST", "/api/v1/contacts",
            body: [
                "contact": ["givenName": "Ann"], "author": "alice", "requestId": "6F9619FF-8B86-D011-B42D-00C04FC964FF",
            ],
            status: 201)
        #expect(written["action"]?.stringValue == "added")
        #expect(written["sequence"]?.intValue == 1)
        #expect(written["alreadyCommitted"]?.boolValue == false)
        let again = try served.json(
            "POST", "/api/v1/contacts",
            body: ["contact": ["givenName": "Ann"], "requestId": "6F9619FF-8B86-D011-B42D-00C04FC964FF"], status: 201)
        #expect(again["alreadyCommitted"]?.boolValue == true)
        #expect(try served.json("GET", "/api/v1/contacts")["total"]?.intValue == 1)
        let bad = try served.json("POST", "/api/v1/contacts", body: ["contact": ["shoeSize": 9]], status: 400)
        #expect(bad["message"]?.stringValue?.contains("shoeSize") == true)
        let missing = try served.json("POST", "/api/v1/contacts", body: ["givenName": "Ann"], status: 400)
        #expect(missing["error"]?.stringValue == "badParameter")
    }

    @Test("a stale update merges another property and refuses the same one, showing the contact now")
    func staleUpdate() throws {
        let served = try ServedLedger()
        let anna = try served.identifier(of: "Anna")
        let read = try served.json("GET", "/api/v1/contacts/\(anna)")
        let revision = try #require(read["revision"])
        _ = try served.json(
            "PATCH", "/api/v1/contacts/\(anna)",
            body: ["revision": revision, "before": ["jobTitle": ""], "after": ["jobTitle": "Editor"]])
        let merged = try served.json(
            "PATCH", "/api/v1/contacts/\(anna)",
            body: ["revision": revision, "before": ["nickname": ""], "after": ["nickname": "Annie"]])
        #expect(merged["action"]?.stringValue == "updated")
        let refused = try served.json(
            "PATCH", "/api/v1/contacts/\(anna)",
            body: ["revision": revision, "before": ["jobTitle": ""], "after": ["jobTitle": "Writer"]], status: 409)
        #expect(refused["keyPaths"]?.arrayValue == [.string("jobTitle")])
        #expect(refused["current"]?["jobTitle"]?.stringValue == "Editor")
        #expect(refused["current"]?["nickname"]?.stringValue == "Annie")
        let incomplete = try served.json(
            "PATCH", "/api/v1/contacts/\(anna)",
            body: ["revision": revision, "before": [:], "after": ["jobTitle": "X"]],
            status: 400)
        #expect(incomplete["message"]?.stringValue?.contains("jobTitle") == true)
    }

    @Test("groups: create, add a member, list, rename, remove the member, delete")
    func groups() throws {
        let served = try ServedLedger()
        let created = try served.json("POST", "/api/v1/groups", body: ["name": "Friends"], status: 201)
        let group = try #require(created["identifiers"]?.arrayValue?.first?.stringValue)
        let bob = try served.identifier(of: "Bob")
        _ = try served.json("POST", "/api/v1/groups/\(group)/members", body: ["contact": .string(bob)])
        let listed = try served.json("GET", "/api/v1/groups")
        #expect(listed.arrayValue?.first?["members"]?.arrayValue == [.string(bob)])
        _ = try served.json("PATCH", "/api/v1/groups/\(group)", body: ["name": "Family"])
        #expect(try served.json("GET", "/api/v1/groups").arrayValue?.first?["name"]?.stringValue == "Family")
        _ = try served.json("DELETE", "/api/v1/groups/\(group)/members/\(bob)")
        #expect(try served.json("GET", "/api/v1/groups").arrayValue?.first?["members"]?.arrayValue == [])
        _ = try served.json("DELETE", "/api/v1/groups/\(group)")
        #expect(try served.json("GET", "/api/v1/groups").arrayValue == [])
        _ = try served.json("POST", "/api/v1/groups", body: ["name": ""], status: 400)
    }
}
