import ContactsLedger
import Foundation
import LedgerAudit

/// A local web application over a ledger: the JSON API under `/api/v1/`, live events, and the
/// pages, served over HTTP/1.1 to holders of the access token (`Documentation/HTTP.md`).
///
/// It serves through a store it is given, which it neither opens nor closes: a program that
/// has its ledger open embeds the server beside its own work, and `contacts-ledger serve` is
/// a thin command over it.
public final class LedgerServer: Sendable {
    /// Where and how the server listens, and whom it lets in.
    public struct Configuration: Sendable {
        /// The numeric address to listen on; beyond loopback only with ``allowsRemote``.
        public var host = "127.0.0.1"
        /// The port; 0 for any free one (``LedgerServer/port`` says which).
        public var port: UInt16 = 8080
        /// The token every request must carry.
        public var token = AccessToken.fresh()
        /// Whether an address beyond loopback is allowed: only with a token the user keeps
        /// (`--token-file`), never with one printed on a terminal.
        public var allowsRemote = false
        /// The author recorded for a write that names none.
        public var defaultAuthor = "web"
        /// The bounds on requests and connections.
        public var limits = HTTPLimits()
        /// The accounts that may sign in to the CardDAV address books with a password, besides
        /// the token's holder (`Documentation/CardDAV.md`).
        public var cardDAVAccounts = CardDAVAccounts()

        /// The defaults: loopback, port 8080, a fresh token.
        public init() {}
    }

    private let http: HTTPServer
    private let configuration: Configuration
    private let application: ServerApplication

    /// Serves the ledger at `path` through `store` (the ledger's writer, or a read-only store,
    /// whose writes are refused); listening starts here, serving with ``start()``.
    public init(store: ContactStore, ledgerAt path: String, configuration: Configuration) throws {
        guard configuration.allowsRemote || Self.isLoopback(configuration.host) else {
            throw ServerError(
                "refusing to listen on \(configuration.host), beyond this machine, without a token file (--token-file)")
        }
        self.configuration = configuration
        let application = ServerApplication(
            store: store, ledgerPath: path, token: configuration.token, defaultAuthor: configuration.defaultAuthor,
            cardDAVAccounts: configuration.cardDAVAccounts)
        self.application = application
        http = try HTTPServer(host: configuration.host, port: configuration.port, limits: configuration.limits) {
            application.handle($0)
        }
    }

    /// Answers a request as a connection would, without a socket: for a program that carries
    /// requests its own way, and for timing the answers alone.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        application.handle(request)
    }

    /// The port the server listens on.
    public var port: UInt16 { http.port }

    /// The address to open, token included: the first visit trades it for a cookie.
    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)/?token=\(configuration.token.value)"
    }

    /// Starts serving on threads of its own, and builds the sorted list of contacts in the
    /// background.
    public func start() {
        application.prepare()
        http.start()
    }

    /// Stops: no new connections, every open one closed, live streams ended; returns when all
    /// have finished. The store stays open for its owner to close.
    public func stop() {
        http.stop()
        application.close()
    }

    /// Whether `host` is a loopback address.
    static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host.hasPrefix("127.") || host == "localhost"
    }
}
