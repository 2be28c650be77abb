import ContactsLedger
import Foundation
import LedgerServer
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a client can send that the server must refuse or neutralise: bodies in other encodings,
/// forged bookkeeping, characters XML forbids, reserved names and other credentials.
@Suite("CardDAV: hostile input")
struct CardDAVInputTests {
    /// A PROPFIND body that, were it read, would expand an entity into the answer.
    static let entityBody =
        "<?xml version=\"1.0\"?><!DOCTYPE d:propfind [<!ENTITY e \"expanded\">]>"
        + "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:displayname>&e;</d:displayname></d:prop></d:propfind>"

    @Test("a body not in UTF-8 is 415 before any scan: UTF-16, UTF-32, NUL, bad bytes, another encoding")
    func notUTF8() async throws {
        let served = try await CardDAVLedger()
        var utf16 = [UInt8(0xFF), 0xFE]
        for unit in Self.entityBody.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        var utf32 = [UInt8(0), 0, 0xFE, 0xFF]
        for scalar in Self.entityBody.unicodeScalars {
            utf32 += [0, UInt8(scalar.value >> 16 & 0xFF), UInt8(scalar.value >> 8 & 0xFF), UInt8(scalar.value & 0xFF)]
        }
        let plain = Array(CardDAVLedger.propfind(["displayname"]).utf8)
        let bodies: [(String, [UInt8])] = [
            ("UTF-16", utf16), ("UTF-32", utf32), ("UTF-16 without a mark", Array(utf16.dropFirst(2))),
            ("a NUL byte", plain + [0]), ("bad UTF-8", [0x3C, 0xC3, 0x28] + plain),
            ("not XML first", Array("x".utf8) + plain),
            ("another encoding", Array("<?xml version=\"1.0\" encoding=\"UTF-7\"?>".utf8) + plain.dropFirst(21)),
        ]
        for (reason, bytes) in bodies {
            let answer = try served.request(
                "PROPFIND", served.book, as: "full", headers: ["Depth": "0"], bytes: bytes)
            #expect(answer.status == 415, "\(reason): \(answer.status) \(answer.text)")
            #expect(answer.text.contains("UTF-8"), "\(reason): \(answer.text)")
            #expect(!answer.text.contains("expanded"))
        }
        let fine = try served.request(
            "PROPFIND", served.book, as: "full", headers: ["Depth": "0"], bytes: [0xEF, 0xBB, 0xBF] + plain)
        #expect(fine.status == 207)
        let doctype = try served.request("PROPFIND", served.book, headers: ["Depth": "0"], body: Self.entityBody)
        #expect(doctype.status == 400 && !doctype.text.contains("expanded"))
    }

    @Test("a card's forged bookkeeping line is dropped: it cannot take another card's href")
    func forgedHref() async throws {
        let served = try await CardDAVLedger()
        let first = CardDAVLedger.card(uid: "first", given: "Fay", family: "First", email: "fay@x.test")
        #expect(try served.request("PUT", served.book + "first.vcf", body: first).status == 201)
        let forged = CardDAVLedger.card(
            uid: "second", given: "Sid", family: "Second", email: "sid@x.test",
            adding: "X-CONTACTS-LEDGER-CARDDAV-HREF:first.vcf")
        #expect(try served.request("PUT", served.book + "second.vcf", body: forged).status == 201)
        let hrefs = CardDAVLedger.cardHrefs(try served.request("PROPFIND", served.book, headers: ["Depth": "1"]))
        #expect(hrefs.filter { $0.hasSuffix("/first.vcf") }.count == 1, "\(hrefs)")
        #expect(hrefs.contains(served.book + "second.vcf"), "\(hrefs)")
        let second = try served.request("GET", served.book + "second.vcf")
        #expect(second.status == 200 && second.text.contains("Sid") && !second.text.contains("X-CONTACTS-LEDGER"))
    }

    @Test("a value with characters XML forbids still makes a well-formed 207; a property of no namespace too")
    func controlCharacters() async throws {
        let served = try await CardDAVLedger()
        let card = CardDAVLedger.card(
            uid: "ctl", given: "Cal", family: "Control", email: "cal@x.test",
            adding: "X-BELL:ring\u{07}bell\u{1B}")
        #expect(try served.request("PUT", served.book + "ctl.vcf", body: card).status == 201)
        let multiget = CardDAVReportTests.report(
            "addressbook-multiget",
            "<d:prop>\(CardDAVReportTests.cardData)</d:prop><d:href>\(served.book)ctl.vcf</d:href>")
        let answer = try served.request("REPORT", served.book, headers: ["Depth": "1"], body: multiget)
        #expect(answer.status == 207)
        #expect(Self.isWellFormed(answer.body), "\(answer.text)")
        #expect(answer.text.contains("X-BELL:ring\u{FFFD}bell\u{FFFD}"), "\(answer.text)")
        let bare =
            "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:prop><plain xmlns=\"\"/></d:prop></d:propfind>"
        let found = try served.request("PROPFIND", served.book, headers: ["Depth": "0"], body: bare)
        #expect(found.status == 207 && !found.text.contains("xmlns:x=\"\""), "\(found.text)")
        #expect(found.text.contains("<plain/>") && Self.isWellFormed(found.body), "\(found.text)")
    }

    static func isWellFormed(_ bytes: [UInt8]) -> Bool {
        XMLParser(data: Data(bytes)).parse()
    }

    @Test("only Bearer and Basic sign in; the owner browsing an account's book gets its hrefs")
    func credentials() async throws {
        let served = try await CardDAVLedger()
        let token = served.served.token.value
        for header in [("Cookie", "ledger_token=\(token)")] {
            let client = try RawClient(port: served.server.port)
            client.send(
                "PROPFIND \(served.book) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(header.0): \(header.1)\r\n"
                    + "Depth: 0\r\n\r\n")
            #expect(try #require(client.readResponse()).status == 401)
        }
        let client = try RawClient(port: served.server.port)
        client.send("PROPFIND \(served.book)?token=\(token) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(try #require(client.readResponse()).status == 401)
        let browsed = try served.request("PROPFIND", served.book, as: nil, headers: ["Depth": "1"])
        #expect(browsed.status == 207)
        let hrefs = CardDAVLedger.cardHrefs(browsed)
        #expect(!hrefs.isEmpty && hrefs.allSatisfy { $0.hasPrefix(served.book) }, "\(hrefs)")
    }

    @Test("the account name owner is reserved: the accounts file and carddav-account refuse it")
    func reservedOwner() throws {
        let hash = CardDAVPassword.hash("pw")
        #expect(throws: (any Error).self) { try CardDAVAccounts(text: "owner app.x \(hash)\n") }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try runProgram(
            "/bin/sh", ["-c", "printf 'pw\\n' | '\(try toolPath())' carddav-account owner"], in: directory)
        #expect(run.status == 64 && run.stderr.contains("reserved"), "\(run.stderr)")
    }
}
