import ContactsLedger
import Foundation
import LedgerAudit
import LedgerServer
import Testing

@Suite("CardDAV: reports and a limited account")
struct CardDAVReportTests {
    static let cardData = "<d:getetag/><card:address-data/>"

    static func report(_ name: String, _ inner: String, namespace: String = "card") -> String {
        "<?xml version=\"1.0\"?><\(namespace):\(name) xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\">"
            + inner + "</\(namespace):\(name)>"
    }

    static func query(_ filter: String) -> String {
        report("addressbook-query", "<d:prop><d:getetag/></d:prop><card:filter\(filter)</card:filter>")
    }

    @Test("addressbook-multiget answers each href, a missing one 404, with its vCard")
    func multiget() async throws {
        let served = try await CardDAVLedger()
        let listing = try served.request("PROPFIND", served.book, headers: ["Depth": "1"])
        let hrefs = Array(CardDAVLedger.cardHrefs(listing).prefix(2))
        let missing = served.book + UUID().uuidString + ".vcf"
        let body = Self.report(
            "addressbook-multiget",
            "<d:prop>\(Self.cardData)</d:prop>" + (hrefs + [missing]).map { "<d:href>\($0)</d:href>" }.joined())
        let answer = try served.request("REPORT", served.book, headers: ["Depth": "1"], body: body)
        #expect(answer.status == 207)
        #expect(Set(CardDAVLedger.cardHrefs(answer)) == Set(hrefs))
        #expect(CardDAVLedger.missingHrefs(answer) == [missing])
        #expect(answer.text.components(separatedBy: "BEGIN:VCARD").count == 3)
    }

    @Test("addressbook-query matches FN, N, EMAIL, TEL, UID, NICKNAME and ORG text")
    func query() async throws {
        let served = try await CardDAVLedger()
        func count(_ filter: String) throws -> Int {
            CardDAVLedger.cardHrefs(try served.request("REPORT", served.book, body: Self.query(filter))).count
        }
        let text = { (name: String, match: String, type: String) in
            "><card:prop-filter name=\"\(name)\"><card:text-match match-type=\"\(type)\">\(match)"
                + "</card:text-match></card:prop-filter>"
        }
        #expect(try count(text("EMAIL", "example.org", "contains")) == 2)
        #expect(try count(text("FN", "bob", "starts-with")) == 1)
        #expect(try count(text("N", "Martin", "contains")) == 2)
        #expect(try count(text("TEL", "0005", "ends-with")) == 1)
        #expect(try count(text("NICKNAME", "x", "contains")) == 0)
        #expect(try count(text("ORG", "x", "contains")) == 0)
        let zoe = try served.served.identifier(of: "Zoe")
        #expect(try count(text("UID", zoe.lowercased(), "equals")) == 1)
        let allOf =
            " test=\"allof\"><card:prop-filter name=\"N\"><card:text-match>Martin</card:text-match></card:prop-filter>"
            + "<card:prop-filter name=\"EMAIL\"><card:text-match>dora</card:text-match></card:prop-filter>"
        #expect(try count(allOf) == 1)
        let negated =
            "><card:prop-filter name=\"EMAIL\"><card:text-match negate-condition=\"yes\">example.com"
            + "</card:text-match></card:prop-filter>"
        #expect(try count(negated) == 2)
        #expect(try count("/>") == 5)
    }

    @Test("sync-collection: every card, then changes and 404s for removed ones; a foreign token is 403")
    func syncCollection() async throws {
        let served = try await CardDAVLedger()
        let initial = Self.report(
            "sync-collection", "<d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop>",
            namespace: "d")
        let first = try served.request("REPORT", served.book, body: initial)
        #expect(first.status == 207)
        #expect(CardDAVLedger.cardHrefs(first).count == 5)
        let token = try #require(CardDAVLedger.syncToken(first))
        let href = served.book + UUID().uuidString + ".vcf"
        let card = CardDAVLedger.card(uid: "new", given: "Gail", family: "Ives", email: "g@x.test")
        #expect(try served.request("PUT", href, body: card).status == 201)
        let removed = CardDAVLedger.cardHrefs(first)[0]
        #expect(try served.request("DELETE", removed).status == 204)
        func since(_ token: String) -> String {
            Self.report(
                "sync-collection", "<d:sync-token>\(token)</d:sync-token><d:prop><d:getetag/></d:prop>", namespace: "d")
        }
        let changes = try served.request("REPORT", served.book, body: since(token))
        #expect(CardDAVLedger.cardHrefs(changes) == [href])
        #expect(CardDAVLedger.missingHrefs(changes) == [removed])
        let next = try #require(CardDAVLedger.syncToken(changes))
        #expect(next != token)
        #expect(CardDAVLedger.cardHrefs(try served.request("REPORT", served.book, body: since(next))).isEmpty)
        let foreign = "urn:contacts-ledger:sync:\(UUID().uuidString.lowercased()):1"
        for bad in [foreign, "not-a-token", token.replacingOccurrences(of: ":5", with: ":999999")] {
            let refused = try served.request("REPORT", served.book, body: since(bad))
            #expect(refused.status == 403)
            #expect(refused.text.contains("<d:valid-sync-token/>"), "\(refused.text)")
        }
    }

    @Test("a limited account sees only its granted and created cards: PROPFIND, multiget, query, sync, GET")
    func limitedAccount() async throws {
        let served = try await CardDAVLedger()
        let book = served.book(of: "limited")
        let zoe = try served.served.identifier(of: "Zoe")
        let bob = try served.served.identifier(of: "Bob")
        let listing = try served.request("PROPFIND", book, as: "limited", headers: ["Depth": "1"])
        #expect(CardDAVLedger.cardHrefs(listing) == [book + zoe + ".vcf"])
        #expect(try served.request("GET", book + bob + ".vcf", as: "limited").status == 404)
        #expect(try served.request("DELETE", book + bob + ".vcf", as: "limited").status == 404)
        let multiget = Self.report(
            "addressbook-multiget",
            "<d:prop><d:getetag/></d:prop><d:href>\(book + bob).vcf</d:href><d:href>\(book + zoe).vcf</d:href>")
        let got = try served.request("REPORT", book, as: "limited", body: multiget)
        #expect(CardDAVLedger.cardHrefs(got) == [book + zoe + ".vcf"])
        #expect(CardDAVLedger.missingHrefs(got) == [book + bob + ".vcf"])
        let query = Self.query(" />")
        #expect(CardDAVLedger.cardHrefs(try served.request("REPORT", book, as: "limited", body: query)).count == 1)
        let initial = Self.report("sync-collection", "<d:sync-token/><d:prop><d:getetag/></d:prop>", namespace: "d")
        let sync = try served.request("REPORT", book, as: "limited", body: initial)
        #expect(CardDAVLedger.cardHrefs(sync) == [book + zoe + ".vcf"])
        let token = try #require(CardDAVLedger.syncToken(sync))
        let own = book + UUID().uuidString + ".vcf"
        let card = CardDAVLedger.card(uid: "mine", given: "Hana", family: "Jung", email: "h@x.test")
        #expect(try served.request("PUT", own, as: "limited", body: card).status == 201)
        #expect(try served.request("GET", own, as: "limited").status == 200)
        var request = ContactFetchRequest(keysToFetch: [ContactKeySet(.identifier)])
        request.unifyResults = false
        var count = 0
        try served.served.store.enumerateContacts(with: request) { contact, _ in
            count += 1
            _ = contact
        }
        #expect(count == 6)
        let later = Self.report(
            "sync-collection", "<d:sync-token>\(token)</d:sync-token><d:prop><d:getetag/></d:prop>", namespace: "d")
        #expect(CardDAVLedger.cardHrefs(try served.request("REPORT", book, as: "limited", body: later)) == [own])
    }
}
