import ContactsLedger
import Foundation
import LedgerAudit

/// The server's answer to every request: the token first, then the pages or the API, every
/// failure as ``ErrorResponses`` says.
final class ServerApplication: Sendable {
    private let token: AccessToken
    private let router: Router
    private let gate = RequestGate()
    private let ledger: LedgerContext
    private let cardDAV: CardDAVService

    init(
        store: ContactStore, ledgerPath: String, token: AccessToken, defaultAuthor: String,
        cardDAVAccounts: CardDAVAccounts = CardDAVAccounts()
    ) {
        self.token = token
        cardDAV = CardDAVService(store: store, ledgerPath: ledgerPath, token: token, accounts: cardDAVAccounts)
        let ledger = LedgerContext(
            store: store, ledgerPath: ledgerPath, defaultAuthor: defaultAuthor, listing: ContactListing(),
            pastStores: PastStores(ledgerPath: ledgerPath, client: store.client))
        var router = Router()
        Pages.register(&router)
        ContactsAPI.register(&router, ledger)
        GroupsAPI.register(&router, ledger)
        AuditAPI.register(&router, ledger)
        AccessAPI.register(&router, ledger)
        EventsAPI.register(&router, ledger)
        self.router = router
        self.ledger = ledger
    }

    /// Builds the sorted list in the background, so that the first page a person asks for is
    /// not the one that waits for it (a few seconds at a million contacts); a request that
    /// comes first waits for the same build rather than starting another.
    func prepare() {
        let ledger = self.ledger
        DispatchQueue.global(qos: .utility).async {
            _ = try? ledger.listing.page(of: ledger.store, auditor: nil, offset: 0, limit: 0)
        }
    }

    /// Answers a request.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        // CardDAV signs its clients in itself: with the token, or an account's password.
        if CardDAVService.serves(request.path) { return cardDAV.handle(request, gate: gate) }
        guard token.admits(request) else { return refusal(request) }
        let isPage = !request.path.hasPrefix("/api/")
        if isPage && request.method == "GET" && token.isInQuery(request) {
            // The first visit: the token moves into a cookie and out of the address bar.
            return HTTPResponse(
                status: 303, contentType: "text/plain; charset=utf-8", body: Array("See \(request.path)\n".utf8),
                headers: [("Location", request.path), ("Set-Cookie", token.cookie)])
        }
        let answer = { () -> HTTPResponse in
            do {
                let (handler, parameters) = try self.router.match(request)
                return try handler(RouteRequest(http: request, parameters: parameters))
            } catch {
                return ErrorResponses.response(for: error)
            }
        }
        return request.method == "GET" || request.method == "HEAD" ? gate.read(answer) : gate.write(answer)
    }

    /// Closes what the application opened beside the store it was given.
    func close() { cardDAV.close() }

    /// 401: JSON for the API, a short page for a browser.
    private func refusal(_ request: HTTPRequest) -> HTTPResponse {
        let error = HTTPError(
            401, "unauthorized",
            "this server needs its access token: open the address it printed, or send Authorization: Bearer TOKEN")
        if request.path.hasPrefix("/api/") { return .error(error) }
        return HTTPResponse(
            status: 401, contentType: "text/html; charset=utf-8", body: Array(Pages.unauthorized.utf8))
    }
}
