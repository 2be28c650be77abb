import ContactsLedger
import Foundation
import LedgerServer
import Testing

/// A ledger served with CardDAV accounts: `full` acts as a client with full access, `limited`
/// as a limited client granted one contact (Zoe Adams), `denied` as a denied client.
final class CardDAVLedger: Sendable {
    let served: ServedLedger
    let server: LedgerServer
    /// The address book's path for `full`.
    let book: String
    static let password = "s3cret pass"

    init(limits: HTTPLimits = HTTPLimits()) async throws {
        served = try ServedLedger()
        let store = served.store
        try await store.setAuthorization(.authorized, notesEntitlement: true, forClient: "app.full")
        try await store.setAuthorization(.limited, notesEntitlement: false, forClient: "app.limited")
        try await store.setAuthorization(.denied, notesEntitlement: false, forClient: "app.denied")
        try await store.grantAccess(
            toContactsWithIdentifiers: [try served.identifier(of: "Zoe")], toClient: "app.limited")
        let hash = CardDAVPassword.hash(Self.password)
        let text = ["full app.full", "limited app.limited", "denied app.denied"].map { "\($0) \(hash)" }
        var configuration = LedgerServer.Configuration()
        configuration.port = 0
        configuration.token = served.token
        configuration.limits = limits
        configuration.cardDAVAccounts = try CardDAVAccounts(text: "# accounts\n" + text.joined(separator: "\n") + "\n")
        server = try LedgerServer(store: store, ledgerAt: served.ledger, configuration: configuration)
        server.start()
        book = "/carddav/addressbooks/full/\(store.defaultContainerIdentifier())/"
    }

    deinit { server.stop() }

    /// The address book's path for an account.
    func book(of account: String) -> String {
        "/carddav/addressbooks/\(account)/\(served.store.defaultContainerIdentifier())/"
    }

    /// Sends one request as an account (Basic), or with the token when `account` is nil.
    func request(
        _ method: String, _ target: String, as account: String? = "full", password: String = CardDAVLedger.password,
        headers: [String: String] = [:], body: String = ""
    ) throws -> RawResponse {
        try request(method, target, as: account, password: password, headers: headers, bytes: Array(body.utf8))
    }

    /// Sends one request with a body of bytes.
    func request(
        _ method: String, _ target: String, as account: String?, password: String = CardDAVLedger.password,
        headers: [String: String] = [:], bytes: [UInt8]
    ) throws -> RawResponse {
        let client = try RawClient(port: server.port)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        head += "User-Agent: test-client/1.0 (protocol tests)\r\n"
        if let account {
            head += "Authorization: Basic \(Data("\(account):\(password)".utf8).base64EncodedString())\r\n"
        } else {
            head += "Authorization: Bearer \(served.token.value)\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !bytes.isEmpty || method == "PUT" { head += "Content-Length: \(bytes.count)\r\n" }
        client.send(Array((head + "\r\n").utf8) + bytes)
        return try #require(client.readResponse())
    }

    /// A PROPFIND body asking for properties of the DAV: namespace (and `getctag`).
    static func propfind(_ names: [String]) -> String {
        let properties = names.map { $0 == "getctag" ? "<cs:getctag/>" : "<d:\($0)/>" }.joined()
        return "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\" xmlns:cs=\"http://calendarserver.org/ns/\">"
            + "<d:prop>\(properties)</d:prop></d:propfind>"
    }

    /// The hrefs of the cards a multi-status answer lists with a 200 propstat.
    static func cardHrefs(_ response: RawResponse) -> [String] {
        response.text.components(separatedBy: "<d:response>").dropFirst().compactMap { part in
            guard part.contains("200 OK"), let start = part.range(of: "<d:href>"),
                let end = part.range(of: "</d:href>"), part[start.upperBound..<end.lowerBound].hasSuffix(".vcf")
            else { return nil }
            return String(part[start.upperBound..<end.lowerBound])
        }
    }

    /// The hrefs a multi-status answer lists as 404 (removed or missing members).
    static func missingHrefs(_ response: RawResponse) -> [String] {
        response.text.components(separatedBy: "<d:response>").dropFirst().compactMap { part in
            guard part.contains("<d:status>HTTP/1.1 404 Not Found</d:status></d:response>"),
                !part.contains("<d:propstat>"), let start = part.range(of: "<d:href>"),
                let end = part.range(of: "</d:href>")
            else { return nil }
            return String(part[start.upperBound..<end.lowerBound])
        }
    }

    /// The text between `<d:sync-token>` and its end.
    static func syncToken(_ response: RawResponse) -> String? {
        guard let start = response.text.range(of: "<d:sync-token>"),
            let end = response.text.range(of: "</d:sync-token>", range: start.upperBound..<response.text.endIndex)
        else { return nil }
        return String(response.text[start.upperBound..<end.lowerBound])
    }

    /// ``card(uid:given:family:email:)`` with one more content line before its end.
    static func card(uid: String, given: String, family: String, email: String, adding line: String) -> String {
        card(uid: uid, given: given, family: family, email: email)
            .replacingOccurrences(of: "END:VCARD", with: line + "\r\nEND:VCARD")
    }

    /// A small vCard 3.0 with a UID, an X- property and a group the model does not map.
    static func card(uid: String, given: String, family: String, email: String) -> String {
        [
            "BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "FN:\(given) \(family)", "N:\(family);\(given);;;",
            "EMAIL;TYPE=INTERNET:\(email)", "X-CUSTOM-FLAG;X-PARAM=yes:kept as written", "item9.X-UNKNOWN:grouped",
            "item9.X-ABLabel:odd label", "CATEGORIES:friends,work", "END:VCARD", "",
        ].joined(separator: "\r\n")
    }
}
