import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@testable import LedgerServer

/// A card written over CardDAV keeps its client's identity where CardDAV serves it and nowhere
/// else; writes run as the account's client; access changes apply without a restart.
@Suite("CardDAV: identity, access and sync of cards that leave a view")
struct CardDAVIdentityTests {
    @Test("an export of a card PUT with its own UID writes the identifier; importing it changes nothing")
    func exportImport() async throws {
        let served = try await CardDAVLedger()
        let store = served.served.store
        let card = CardDAVLedger.card(uid: "client-uid-1@phone", given: "Ivy", family: "Export", email: "ivy@x.test")
        #expect(try served.request("PUT", served.book + "ivy.vcf", body: card).status == 201)
        let identifier = CardDAVCards.identifier(forResource: "ivy.vcf")
        let exported = String(decoding: try store.exportVCards(identifiers: [identifier]), as: UTF8.self)
        #expect(exported.contains("\r\nUID:\(identifier)\r\n") && !exported.contains("client-uid-1"), "\(exported)")
        #expect(exported.contains("X-CUSTOM-FLAG;X-PARAM=yes:kept as written"))
        let served1 = try served.request("GET", served.book + "ivy.vcf")
        #expect(served1.text.contains("UID:client-uid-1@phone\r\n"))
        let before = try LedgerAuditor(ledgerAt: served.served.ledger).entries().count
        let summary = try store.importVCards(Data(exported.utf8), duplicates: .update)
        #expect(summary.imported.isEmpty && summary.updated.isEmpty, "\(summary.imported) \(summary.updated)")
        #expect(try LedgerAuditor(ledgerAt: served.served.ledger).entries().count == before)
    }

    @Test("a lower-case UUID name finds its contact by the upper-case identifier and keeps its spelling")
    func lowerCaseUUID() async throws {
        let served = try await CardDAVLedger()
        let uuid = UUID().uuidString
        let href = served.book + uuid.lowercased() + ".vcf"
        let card = CardDAVLedger.card(uid: uuid.lowercased(), given: "Lou", family: "Case", email: "lou@x.test")
        #expect(try served.request("PUT", href, body: card).status == 201)
        #expect(
            try served.served.store.unifiedContact(withIdentifier: uuid, keysToFetch: [ContactKeySet(.identifier)])
                .identifier == uuid)
        #expect(try served.request("GET", href).status == 200)
        let hrefs = CardDAVLedger.cardHrefs(try served.request("PROPFIND", served.book, headers: ["Depth": "1"]))
        #expect(hrefs.contains(href), "\(hrefs)")
    }

    @Test("merging two CardDAV-written contacts keeps one UID and the survivor's href")
    func merge() async throws {
        let served = try await CardDAVLedger()
        for (name, given) in [("one.vcf", "Mia"), ("two.vcf", "Max")] {
            let card = CardDAVLedger.card(uid: "uid-\(given)", given: given, family: "Merge", email: "\(given)@x.test")
            #expect(try served.request("PUT", served.book + name, body: card).status == 201)
        }
        let kept = CardDAVCards.identifier(forResource: "one.vcf")
        let store = served.served.store
        try store.merge([kept, CardDAVCards.identifier(forResource: "two.vcf")], keeping: kept)
        let lines = try store.unifiedContact(withIdentifier: kept, keysToFetch: [ContactKeySet(.vCardExtensions)])
            .vCardExtensions.map(\.value)
        #expect(lines.filter { $0.hasPrefix("UID:") } == ["UID:uid-Mia"], "\(lines)")
        #expect(
            lines.filter { $0.hasPrefix("X-CONTACTS-LEDGER-CARDDAV-HREF:") } == [
                "X-CONTACTS-LEDGER-CARDDAV-HREF:one.vcf"
            ])
        let card = try served.request("GET", served.book + "one.vcf")
        #expect(card.text.components(separatedBy: "\r\nUID:").count == 2 && card.text.contains("Max@x.test"))
    }

    @Test("addressbook-query on UID matches the client's UID, and the identifier of a card without one")
    func uidQuery() async throws {
        let served = try await CardDAVLedger()
        let card = CardDAVLedger.card(uid: "query-uid-42", given: "Quinn", family: "Query", email: "q@x.test")
        #expect(try served.request("PUT", served.book + "q.vcf", body: card).status == 201)
        let filter = { (text: String) in
            CardDAVReportTests.query(
                "><card:prop-filter name=\"UID\"><card:text-match match-type=\"equals\">\(text)</card:text-match>"
                    + "</card:prop-filter>")
        }
        let byUID = try served.request("REPORT", served.book, headers: ["Depth": "1"], body: filter("query-uid-42"))
        #expect(CardDAVLedger.cardHrefs(byUID) == [served.book + "q.vcf"], "\(byUID.text)")
        let zoe = try served.served.identifier(of: "Zoe")
        let byIdentifier = try served.request("REPORT", served.book, headers: ["Depth": "1"], body: filter(zoe))
        #expect(CardDAVLedger.cardHrefs(byIdentifier) == [served.book + zoe + ".vcf"], "\(byIdentifier.text)")
    }

    @Test("the notes entitlement is read per request: revoked, the note is neither served nor written")
    func notesEntitlement() async throws {
        let served = try await CardDAVLedger()
        let card = CardDAVLedger.card(
            uid: "n", given: "Nora", family: "Note", email: "n@x.test",
            adding: "NOTE:private words")
        #expect(try served.request("PUT", served.book + "n.vcf", body: card).status == 201)
        #expect(try served.request("GET", served.book + "n.vcf").text.contains("NOTE:private words"))
        try await served.served.store.setAuthorization(.authorized, notesEntitlement: false, forClient: "app.full")
        let read = try served.request("GET", served.book + "n.vcf")
        #expect(read.status == 200 && !read.text.contains("private words"), "\(read.status) \(read.text)")
        try await served.served.store.setAuthorization(.authorized, notesEntitlement: true, forClient: "app.full")
        #expect(try served.request("GET", served.book + "n.vcf").text.contains("NOTE:private words"))
    }

    @Test("a limited account's PUT is one record created by its client, which sees it without a grant")
    func writesAsClient() async throws {
        let served = try await CardDAVLedger()
        let store = served.served.store
        let book = served.book(of: "limited")
        let before = try LedgerAuditor(ledgerAt: served.served.ledger).entries().count
        let card = CardDAVLedger.card(uid: "lim", given: "Lim", family: "Ited", email: "lim@x.test")
        let created = try served.request("PUT", book + "lim.vcf", as: "limited", body: card)
        #expect(created.status == 201, "\(created.text)")
        #expect(try LedgerAuditor(ledgerAt: served.served.ledger).entries().count == before + 1)
        let record = try #require(try store.clientAccessRecords().first { $0.clientIdentifier == "app.limited" })
        #expect(record.grantedIdentifiers == [try served.served.identifier(of: "Zoe")])
        #expect(try served.request("GET", book + "lim.vcf", as: "limited").status == 200)
        let changed = card.replacingOccurrences(of: "lim@x.test", with: "lim@y.test")
        #expect(try served.request("PUT", book + "lim.vcf", as: "limited", body: changed).status == 204)
        try await store.setAuthorization(.denied, notesEntitlement: false, forClient: "app.limited")
        let refused = try served.request("PUT", book + "lim.vcf", as: "limited", body: card)
        #expect(refused.status == 403, "\(refused.status) \(refused.text)")
    }

    @Test("sync names a card whose grant was revoked under the href the client holds")
    func revokedInSync() async throws {
        let served = try await CardDAVLedger()
        let card = CardDAVLedger.card(uid: "g", given: "Gina", family: "Grant", email: "g@x.test")
        #expect(try served.request("PUT", served.book + "granted.vcf", body: card).status == 201)
        let identifier = CardDAVCards.identifier(forResource: "granted.vcf")
        let store = served.served.store
        try await store.grantAccess(toContactsWithIdentifiers: [identifier], toClient: "app.limited")
        let book = served.book(of: "limited")
        let sync = { (token: String) in
            CardDAVReportTests.report(
                "sync-collection", "<d:sync-token>\(token)</d:sync-token><d:prop><d:getetag/></d:prop>",
                namespace: "d")
        }
        let first = try served.request("REPORT", book, as: "limited", body: sync(""))
        #expect(CardDAVLedger.cardHrefs(first).contains(book + "granted.vcf"), "\(first.text)")
        let token = try #require(CardDAVLedger.syncToken(first))
        try await store.revokeAccess(toContactsWithIdentifiers: [identifier], fromClient: "app.limited")
        let second = try served.request("REPORT", book, as: "limited", body: sync(token))
        #expect(second.status == 207)
        #expect(CardDAVLedger.missingHrefs(second) == [book + "granted.vcf"], "\(second.text)")
        #expect(try served.request("DELETE", served.book + "granted.vcf").status == 204)
        let third = try served.request("REPORT", served.book, body: sync(token))
        #expect(CardDAVLedger.missingHrefs(third) == [served.book + "granted.vcf"], "\(third.text)")
    }
}
