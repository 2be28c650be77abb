import ContactsLedger
import Dispatch
import Foundation
import LedgerServer

#if canImport(Glibc)
    import Glibc
#endif

/// `serve`: the ledger in a browser, and its JSON API, until Ctrl-C.
struct ServeCommand: ToolCommand {
    static let name = "serve"
    static let summary = "Serves the ledger as a web application and a JSON API."
    static let usage =
        "serve [--bind ADDRESS] [--port PORT] [--token-file FILE] [--carddav-accounts FILE] [--read-only]"
    static let help = """
        Serves the address book, its audit and the access picker as pages, and the JSON API under
        /api/v1/ (Documentation/HTTP.md), over HTTP/1.1 until Ctrl-C. It prints the address to open,
        which carries a fresh access token; every request must carry the token (the first visit
        trades it for a cookie; programs send Authorization: Bearer TOKEN). The server is the
        ledger's writer, so another writer waits for the lock and fails as it does for any
        writer; with --read-only it only reads, beside another writer, and refuses writes.

        Options:
          --bind ADDRESS       The numeric address to listen on (default 127.0.0.1). An address
                               beyond this machine is refused unless --token-file is given.
          --port PORT          The port (default 8080; 0 picks a free one, which the address shows).
          --token-file FILE    Takes the token from FILE, or writes a fresh one there (mode 0600)
                               when FILE is missing or empty, so that it stays the same across runs.
          --read-only          Opens the ledger without the writer lock; writes are refused.
          --carddav-accounts FILE
                               The accounts that may sign in to the CardDAV address books at
                               /carddav/ with a password (lines ACCOUNT CLIENT HASH, made by
                               `contacts-ledger carddav-account`); the token's holder always may.
        """
    static let valued: Set<String> = ["bind", "port", "token-file", "carddav-accounts"]
    static let flags: Set<String> = ["read-only"]

    var host: String
    var port: UInt16
    var tokenFile: String?
    var readOnly: Bool
    var cardDAVAccounts: String?

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        host = try arguments.single("bind") ?? "127.0.0.1"
        let portText = try arguments.single("port") ?? "8080"
        guard let port = UInt16(portText) else {
            throw CommandFailure(.usage, "--port must be a number from 0 to 65535, got \(portText)")
        }
        self.port = port
        tokenFile = try arguments.single("token-file")
        readOnly = arguments.has("read-only")
        cardDAVAccounts = try arguments.single("carddav-accounts")
    }

    func run(_ context: CommandContext) throws {
        var configuration = LedgerServer.Configuration()
        configuration.host = host
        configuration.port = port
        if let tokenFile {
            configuration.token = try AccessToken.stored(at: tokenFile)
            configuration.allowsRemote = true
        }
        if let cardDAVAccounts {
            do {
                configuration.cardDAVAccounts = try CardDAVAccounts(contentsOf: cardDAVAccounts)
            } catch let error as ServerError {
                throw CommandFailure(.usage, error.message)
            }
        }
        let store = try readOnly ? context.openForReading() : context.openForWriting()
        defer { store.close() }
        let server: LedgerServer
        do {
            server = try LedgerServer(store: store, ledgerAt: context.ledger, configuration: configuration)
        } catch let error as ServerError {
            throw CommandFailure(.failure, error.message)
        }
        server.start()
        Terminal.line("serving \(context.ledger)\(readOnly ? " read-only" : "") at \(server.url)")
        Terminal.line("press Ctrl-C to stop")
        Self.waitForInterruption()
        server.stop()
        Terminal.line("stopped")
    }

    /// Returns when the process is interrupted (Ctrl-C) or asked to end (`kill`).
    private static func waitForInterruption() {
        LogFollower.allowInterruption()
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        sources.forEach { $0.cancel() }
    }
}
