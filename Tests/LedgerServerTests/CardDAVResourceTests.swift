import ContactsLedger
import Foundation
import LedgerAudit
import LedgerServer
import Testing

@Suite("CardDAV: GET, PUT and DELETE with ETags")
struct CardDAVResourceTests {
    static let uid = "6F1C2B1E-6A53-4B36-9A43-3D1B41C2E0AA"

    @Test("PUT creates under the client's name, keeps every property, and a stale ETag is 412")
    func putAndGet() async throws {
        let served = try await CardDAVLedger()
        let href = served.book + Self.uid.lowercased() + ".vcf"
        let card = CardDAVLedger.card(uid: Self.uid.lowercased(), given: "Erin", family: "Gale", email: "erin@x.test")
        let created = try served.request(
            "PUT", href, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: card)
        #expect(created.status == 201)
        let etag = try #require(created.header("ETag"))
        let again = try served.request(
            "PUT", href, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: card)
        #expect(again.status == 412)
        let read = try served.request("GET", href)
        #expect(read.status == 200)
        #expect(read.header("ETag") == etag)
        for line in [
            "VERSION:3.0", "UID:\(Self.uid.lowercased())", "X-CUSTOM-FLAG;X-PARAM=yes:kept as written",
            "item1.X-UNKNOWN:grouped", "item1.X-ABLabel:odd label", "CATEGORIES:friends,work", "FN:Erin Gale",
        ] {
            #expect(read.text.contains(line + "\r\n"), "\(line) in \(read.text)")
        }
        #expect(read.text.components(separatedBy: "\r\nUID:").count == 2)
        let v4 = try served.request("GET", href, headers: ["Accept": "text/vcard; version=4.0"])
        #expect(v4.text.contains("VERSION:4.0\r\n") && v4.text.contains("X-CUSTOM-FLAG"))
        let changed = card.replacingOccurrences(of: "erin@x.test", with: "erin@y.test")
        let updated = try served.request("PUT", href, headers: ["If-Match": etag], body: changed)
        #expect(updated.status == 204)
        #expect(updated.header("ETag") != etag)
        let stale = try served.request("PUT", href, headers: ["If-Match": etag], body: card)
        #expect(stale.status == 412)
        #expect(try served.request("GET", href).text.contains("erin@y.test"))
        let entries = try LedgerAuditor(ledgerAt: served.served.ledger).entries()
        #expect(entries.suffix(2).allSatisfy { $0.author == "carddav:full (test-client/1.0)" })
    }

    @Test("DELETE with If-Match; a name that is not a UUID is kept and answered under itself")
    func deleteAndNames() async throws {
        let served = try await CardDAVLedger()
        let href = served.book + "card-from-elsewhere%40host.vcf"
        let card = CardDAVLedger.card(uid: "card-from-elsewhere@host", given: "Finn", family: "Hale", email: "f@x.test")
        let created = try served.request("PUT", href, body: card)
        #expect(created.status == 201)
        let listing = try served.request(
            "PROPFIND", served.book, headers: ["Depth": "1"], body: CardDAVLedger.propfind(["getetag"]))
        #expect(CardDAVLedger.cardHrefs(listing).contains(served.book + "card-from-elsewhere@host.vcf"))
        #expect(try served.request("GET", href).text.contains("UID:card-from-elsewhere@host\r\n"))
        let stale = try served.request("DELETE", href, headers: ["If-Match": "\"1\""])
        #expect(stale.status == 412)
        let etag = try #require(created.header("ETag"))
        #expect(try served.request("DELETE", href, headers: ["If-Match": etag]).status == 204)
        #expect(try served.request("GET", href).status == 404)
        #expect(try served.request("DELETE", href).status == 404)
    }

    @Test("bad bodies: malformed vCard, two cards, the wrong type, malformed XML, a DTD, too large")
    func badInput() async throws {
        var limits = HTTPLimits()
        limits.bodyBytes = 64 * 1024
        let served = try await CardDAVLedger(limits: limits)
        let href = served.book + UUID().uuidString + ".vcf"
        let malformed = try served.request("PUT", href, body: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN Erin\r\n")
        #expect(malformed.status == 400)
        #expect(malformed.text.contains("valid-address-data") && malformed.text.contains("line"))
        let card = CardDAVLedger.card(uid: "a", given: "A", family: "B", email: "a@b.test")
        let two = try served.request("PUT", href, body: card + card)
        #expect(two.status == 400 && two.text.contains("exactly one vCard"))
        let json = try served.request("PUT", href, headers: ["Content-Type": "application/json"], body: "{}")
        #expect(json.status == 415)
        let xml = try served.request("PROPFIND", served.book, headers: ["Depth": "0"], body: "<d:propfind xmlns:d=")
        #expect(xml.status == 400 && xml.text.contains("not well-formed XML"))
        let entity = "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x \"y\">]><d:propfind xmlns:d=\"DAV:\"/>"
        #expect(try served.request("PROPFIND", served.book, body: entity).status == 400)
        let deep = String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
        #expect(try served.request("REPORT", served.book, body: deep).status == 400)
        let huge = [UInt8](repeating: 0x41, count: 65 * 1024)
        #expect(try served.request("PUT", href, as: "full", bytes: huge).status == 413)
        let unknownReport = "<x:other-report xmlns:x=\"urn:example\"/>"
        #expect(try served.request("REPORT", served.book, body: unknownReport).status == 403)
        #expect(try served.request("GET", href).status == 404)
        #expect(try served.request("MKCOL", served.book + "new/").status == 405)
    }

    @Test("a read-only server answers reads and refuses a PUT with 503, writing nothing")
    func readOnly() throws {
        let served = try ServedLedger(readOnly: true)
        let book = "/carddav/addressbooks/owner/\(served.store.defaultContainerIdentifier())/"
        func send(_ method: String, _ target: String, _ body: String) throws -> RawResponse {
            let client = try served.client()
            client.send(
                "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "Authorization: Bearer \(served.token.value)\r\nDepth: 1\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return try #require(client.readResponse())
        }
        #expect(CardDAVLedger.cardHrefs(try send("PROPFIND", book, "")).count == 5)
        let head = served.store.headDigest.sequence
        let card = CardDAVLedger.card(uid: "ro", given: "Ro", family: "Only", email: "ro@x.test")
        let refused = try send("PUT", book + UUID().uuidString + ".vcf", card)
        #expect(refused.status == 503)
        #expect(refused.text.contains("storeNotWritable"))
        #expect(served.store.headDigest.sequence == head)
    }
}
