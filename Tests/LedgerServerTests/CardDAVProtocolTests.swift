import ContactsLedger
import Foundation
import LedgerAudit
import LedgerServer
import Testing

@Suite("CardDAV: discovery, properties and accounts")
struct CardDAVDiscoveryTests {
    @Test("well-known redirect, principal, home set, one address book per container, OPTIONS")
    func discovery() async throws {
        let served = try await CardDAVLedger()
        let wellKnown = try served.request("GET", "/.well-known/carddav", as: nil)
        #expect(wellKnown.status == 301)
        #expect(wellKnown.header("Location") == "/carddav/")
        let root = try served.request(
            "PROPFIND", "/carddav/", headers: ["Depth": "0"], body: CardDAVLedger.propfind(["current-user-principal"]))
        #expect(root.status == 207)
        #expect(root.text.contains("<d:current-user-principal><d:href>/carddav/principals/full/</d:href>"))
        let principal = try served.request(
            "PROPFIND", "/carddav/principals/full/", headers: ["Depth": "0"],
            body: "<propfind xmlns=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:carddav\"><prop>"
                + "<C:addressbook-home-set/></prop></propfind>")
        #expect(principal.text.contains("<card:addressbook-home-set><d:href>/carddav/addressbooks/full/</d:href>"))
        let home = try served.request(
            "PROPFIND", "/carddav/addressbooks/full/", headers: ["Depth": "1"],
            body: CardDAVLedger.propfind(["resourcetype", "displayname"]))
        #expect(home.text.contains("<d:href>\(served.book)</d:href>"))
        #expect(home.text.contains("<d:resourcetype><d:collection/><card:addressbook/></d:resourcetype>"))
        let options = try served.request("OPTIONS", served.book)
        #expect(options.status == 200)
        #expect(options.header("DAV")?.contains("addressbook") == true)
        #expect(options.header("Allow")?.contains("REPORT") == true)
    }

    @Test("PROPFIND of the address book at depth 0 and 1: every property clients ask for")
    func propfind() async throws {
        let served = try await CardDAVLedger()
        let names = [
            "getetag", "getcontenttype", "resourcetype", "displayname", "sync-token", "supported-report-set",
            "getctag", "quota-used-bytes",
        ]
        let book = try served.request(
            "PROPFIND", served.book, headers: ["Depth": "0"], body: CardDAVLedger.propfind(names))
        #expect(book.status == 207)
        for expected in [
            "<d:sync-token>urn:contacts-ledger:sync:", "<cs:getctag>", "<card:addressbook-multiget/>",
            "<card:addressbook-query/>", "<d:sync-collection/>", "<d:displayname>",
        ] {
            #expect(book.text.contains(expected), "\(expected) in \(book.text)")
        }
        #expect(book.text.contains("<d:quota-used-bytes/></d:prop><d:status>HTTP/1.1 404 Not Found"))
        let members = try served.request(
            "PROPFIND", served.book, headers: ["Depth": "1"],
            body: CardDAVLedger.propfind(["getetag", "getcontenttype"]))
        let hrefs = CardDAVLedger.cardHrefs(members)
        #expect(hrefs.count == 5)
        #expect(members.text.contains("<d:getetag>&quot;"))
        #expect(members.text.contains("<d:getcontenttype>text/vcard; charset=utf-8</d:getcontenttype>"))
        let all = try served.request("PROPFIND", served.book, headers: ["Depth": "0"])
        #expect(all.status == 207 && all.text.contains("<d:sync-token>"))
    }

    @Test("sign-in: Basic with an account's password or the token; anything else is 401, others' books 403")
    func accounts() async throws {
        let served = try await CardDAVLedger()
        let anonymous = try RawClient(port: served.server.port)
        anonymous.send("PROPFIND /carddav/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let challenge = try #require(anonymous.readResponse())
        #expect(challenge.status == 401)
        #expect(challenge.header("WWW-Authenticate")?.hasPrefix("Basic realm=") == true)
        #expect(try served.request("PROPFIND", served.book, password: "wrong").status == 401)
        #expect(try served.request("PROPFIND", served.book, as: "nobody").status == 401)
        #expect(try served.request("PROPFIND", served.book(of: "limited"), as: "full").status == 403)
        #expect(try served.request("PROPFIND", served.book(of: "owner"), as: nil).status == 207)
        #expect(try served.request("PROPFIND", served.book(of: "denied"), as: "denied").status == 403)
    }

    @Test("an accounts file with a bad line is refused naming the line; hashes verify only their password")
    func accountsFile() async throws {
        let hash = CardDAVPassword.hash("pw")
        #expect(hash.hasPrefix("sha256i$"))
        #expect(CardDAVPassword.verify("pw", against: hash))
        #expect(!CardDAVPassword.verify("pw ", against: hash))
        #expect(hash != CardDAVPassword.hash("pw"))
        let accounts = try CardDAVAccounts(text: "# comment\n\nalice app.one \(hash)\n")
        #expect(accounts.accounts["alice"]?.client == "app.one")
        #expect(throws: ServerError.self) { try CardDAVAccounts(text: "alice app.one notahash\n") }
        do {
            _ = try CardDAVAccounts(text: "alice app \(hash)\nalice app \(hash)\n")
            Issue.record("a repeated account was accepted")
        } catch let error as ServerError {
            #expect(error.message.contains("line 2"))
        }
    }
}
