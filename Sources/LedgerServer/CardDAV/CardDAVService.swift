import ContactsLedger
import Foundation
import Synchronization

/// Who a CardDAV request comes from: an account of the accounts file, or the holder of the
/// server's token (the owner), and the program that sent it.
struct CardDAVPrincipal: Sendable {
    /// The path segment of the principal and its address books: the account, or `owner`.
    var name: String
    /// The store client an account acts as; nil for the owner.
    var client: String?
    /// The product the request's `User-Agent` names first (`vdirsyncer/0.19.0`), if any.
    var product: String?
    /// The account whose address books the request browses, when the owner browses another's.
    var browsed: String?

    /// The path segment of the address books the request is about: the browsed account's, or
    /// the principal's own.
    var homeName: String { browsed ?? name }

    /// The author recorded for the principal's writes: `carddav:ACCOUNT (PRODUCT)`.
    var author: String {
        let base = "carddav:\(name)"
        guard let product, !product.isEmpty else { return base }
        return "\(base) (\(product))"
    }

    /// The first product of a `User-Agent` value, at most 64 characters.
    static func product(of userAgent: String?) -> String? {
        guard let first = userAgent?.split(separator: " ").first else { return nil }
        return String(first.prefix(64))
    }
}

/// The CardDAV face of the server (RFC 6352, RFC 6578, `Documentation/CardDAV.md`): one address
/// book per container under `/carddav/addressbooks/PRINCIPAL/`, answered through the store as
/// the signed-in account's client sees it, every change a save request with the account as
/// author.
final class CardDAVService: Sendable {
    /// The path every CardDAV resource lives under.
    static let root = "/carddav/"

    let store: ContactStore
    let ledgerPath: String
    private let token: AccessToken
    let accounts: CardDAVAccounts
    private let clientStores = Mutex<[String: ContactStore]>([:])

    init(store: ContactStore, ledgerPath: String, token: AccessToken, accounts: CardDAVAccounts) {
        self.store = store
        self.ledgerPath = ledgerPath
        self.token = token
        self.accounts = accounts
    }

    /// Whether a path belongs to CardDAV.
    static func serves(_ path: String) -> Bool {
        path == "/carddav" || path.hasPrefix(root) || path == "/.well-known/carddav" || path == "/.well-known/carddav/"
    }

    /// Answers a CardDAV request; `gate` admits reads and writes as it does for the API.
    func handle(_ request: HTTPRequest, gate: RequestGate) -> HTTPResponse {
        if request.path.hasPrefix("/.well-known/") {
            return HTTPResponse(
                status: 301, contentType: "text/plain; charset=utf-8", body: Array("See \(Self.root)\n".utf8),
                headers: [("Location", Self.root)])
        }
        guard let principal = authenticate(request) else { return Self.challenge() }
        let work = { () -> HTTPResponse in
            do {
                return try self.route(request, principal)
            } catch {
                return CardDAVErrors.response(for: error)
            }
        }
        switch request.method {
        case "PUT", "DELETE": return gate.write(work)
        default: return gate.read(work)
        }
    }

    /// The principal of a request: the token as Bearer is the owner; a Basic credential must
    /// name an account whose password matches. Nothing else signs in here: not the pages'
    /// cookie, which a page of another site could make a browser send, nor a token in the
    /// query, which logs and histories keep.
    private func authenticate(_ request: HTTPRequest) -> CardDAVPrincipal? {
        let product = CardDAVPrincipal.product(of: request.header("user-agent"))
        guard let authorization = request.header("authorization") else { return nil }
        if authorization.lowercased().hasPrefix("bearer ") {
            let presented = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            return token.matches(presented) ? CardDAVPrincipal(name: "owner", client: nil, product: product) : nil
        }
        guard authorization.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let user = String(text[..<colon])
        guard let account = accounts.account(user: user, password: String(text[text.index(after: colon)...])) else {
            return nil
        }
        return CardDAVPrincipal(name: account.name, client: account.client, product: product)
    }

    /// 401 with the challenges a client can answer.
    private static func challenge() -> HTTPResponse {
        HTTPResponse(
            status: 401, contentType: "text/plain; charset=utf-8",
            body: Array("sign in with an account of the server's accounts file, or send its token as Bearer\n".utf8),
            headers: [("WWW-Authenticate", "Basic realm=\"contacts-ledger\", charset=\"UTF-8\"")])
    }

    /// The store to read as the principal: the server's own for the owner, else a read-only
    /// store of the ledger with the account's client, which sees what that client may see.
    /// Each is brought up to the ledger's head first.
    func readingStore(for principal: CardDAVPrincipal) throws -> ContactStore {
        guard let client = principal.client else {
            try store.refresh()
            return store
        }
        if let open = clientStores.withLock({ $0[client] }) {
            try open.refresh()
            return open
        }
        // Not determined: the store reads the client's access (its notes entitlement among it)
        // from the ledger at every refresh, so a change by the owner applies at once.
        let context = ClientContext(identifier: client, authorization: .notDetermined, notesEntitlement: false)
        let opened = try ContactStore(readingLedgerAt: ledgerPath, client: context)
        let kept = clientStores.withLock { stores in
            if let earlier = stores[client] { return earlier }
            stores[client] = opened
            return opened
        }
        if kept !== opened { opened.close() }
        try kept.refresh()
        return kept
    }

    /// Closes the accounts' stores.
    func close() {
        let stores = clientStores.withLock { stores in
            defer { stores = [:] }
            return Array(stores.values)
        }
        stores.forEach { $0.close() }
    }

    private func route(_ request: HTTPRequest, _ principal: CardDAVPrincipal) throws -> HTTPResponse {
        var principal = principal
        let segments = request.path.split(separator: "/")
        if principal.client == nil, segments.count >= 3, segments[0] == "carddav", segments[1] == "addressbooks" {
            // The owner's answers name the book by the path it asked for, not by `owner`.
            principal.browsed = String(segments[2])
        }
        let resource = try CardDAVResource(path: request.path, principal: principal)
        let exchange = CardDAVExchange(service: self, request: request, principal: principal, resource: resource)
        switch request.method {
        case "OPTIONS": return CardDAVExchange.options()
        case "PROPFIND": return try exchange.propfind()
        case "REPORT": return try exchange.report()
        case "GET", "HEAD": return try exchange.get()
        case "PUT": return try exchange.put()
        case "DELETE": return try exchange.delete()
        default:
            throw HTTPError(
                405, "methodNotAllowed", "\(request.path) takes \(CardDAVExchange.methods), not \(request.method)")
        }
    }
}

/// What a CardDAV path names.
enum CardDAVResource: Sendable, Hashable {
    /// `/carddav/`: where discovery starts.
    case root
    /// `/carddav/principals/NAME/`.
    case principal
    /// `/carddav/addressbooks/NAME/`: the address book home.
    case home
    /// `/carddav/addressbooks/NAME/CONTAINER/`: one container's address book.
    case book(String)
    /// `/carddav/addressbooks/NAME/CONTAINER/RESOURCE`: one card.
    case card(String, String)

    /// The resource at `path`; another principal's resources are 403, except to the owner,
    /// who sees every contact anyway.
    init(path: String, principal: CardDAVPrincipal) throws(HTTPError) {
        let segments = path.split(separator: "/").map(String.init)
        guard segments.first == "carddav" else { throw HTTPError(404, "notFound", "nothing at \(path)") }
        let rest = Array(segments.dropFirst())
        if rest.isEmpty {
            self = .root
            return
        }
        guard rest.count >= 2, rest[0] == "principals" || rest[0] == "addressbooks" else {
            throw HTTPError(404, "notFound", "nothing at \(path)")
        }
        guard rest[1] == principal.name || principal.client == nil else {
            throw HTTPError(403, "forbidden", "\(path) belongs to another account")
        }
        switch (rest[0], rest.count) {
        case ("principals", 2): self = .principal
        case ("addressbooks", 2): self = .home
        case ("addressbooks", 3): self = .book(rest[2])
        case ("addressbooks", 4): self = .card(rest[2], rest[3])
        default: throw HTTPError(404, "notFound", "nothing at \(path)")
        }
    }

    /// The principal's URL.
    static func principalPath(_ principal: CardDAVPrincipal) -> String {
        "\(CardDAVService.root)principals/\(principal.name)/"
    }

    /// The address book home's URL.
    static func homePath(_ principal: CardDAVPrincipal) -> String {
        "\(CardDAVService.root)addressbooks/\(principal.homeName)/"
    }

    /// An address book's URL.
    static func bookPath(_ principal: CardDAVPrincipal, _ container: String) -> String {
        homePath(principal) + percentEncoded(container) + "/"
    }

    /// A card's URL: the address book's and the card's name.
    static func cardPath(_ principal: CardDAVPrincipal, _ container: String, _ name: String) -> String {
        bookPath(principal, container) + percentEncoded(name)
    }

    /// A path segment with every character outside RFC 3986's unreserved set escaped.
    static func percentEncoded(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: unreserved) ?? segment
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@")
}
