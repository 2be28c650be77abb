import Dispatch
import Foundation
import Synchronization

/// An HTTP/1.1 server on the toolchain alone: a listening socket, a thread per connection,
/// keep-alive, and the bounds of ``HTTPLimits`` on every request and connection.
///
/// It knows nothing of the ledger: each request goes to the handler it was given.
public final class HTTPServer: Sendable {
    /// Answers a request.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private let limits: HTTPLimits
    private let handler: Handler
    private let listener: Socket
    /// The port the server listens on.
    public let port: UInt16
    private let state = Mutex(State())
    private let finished = DispatchGroup()

    private struct State {
        var stopping = false
        var open: Set<Socket> = []
    }

    /// Listens on `host` and `port` (0 for any free port); serving starts with ``start()``.
    public init(host: String, port: UInt16, limits: HTTPLimits = HTTPLimits(), handler: @escaping Handler) throws {
        self.limits = limits
        self.handler = handler
        (listener, self.port) = try Socket.listen(host: host, port: port)
    }

    /// Whether ``stop()`` has been called.
    public var isStopping: Bool { state.withLock { $0.stopping } }

    /// The number of connections open now.
    public var openConnections: Int { state.withLock { $0.open.count } }

    /// Accepts connections on a thread of its own until ``stop()``.
    public func start() {
        finished.enter()
        Thread.detachNewThread { [self] in
            acceptLoop()
            finished.leave()
        }
    }

    /// Stops accepting, closes every connection (a stream ends at its next write), and returns
    /// once every connection's thread has finished; calling it again does nothing more.
    public func stop() {
        let (open, first) = state.withLock { state in
            defer { state.stopping = true }
            return (state.open, !state.stopping)
        }
        for socket in open { socket.shutdownBoth() }
        finished.wait()
        // Only the first call closes the descriptor: a second close could close one the process
        // has reused since.
        if first { listener.close() }
    }

    private func acceptLoop() {
        while !isStopping {
            guard let client = listener.accept(waitingMilliseconds: 100) else { continue }
            let admitted = state.withLock { state in
                guard !state.stopping, state.open.count < limits.connections else { return false }
                state.open.insert(client)
                return true
            }
            guard admitted else {
                refuse(client)
                continue
            }
            finished.enter()
            Thread.detachNewThread { [self] in
                HTTPConnection(socket: client, limits: limits, server: self, handler: handler).run()
                state.withLock { _ = $0.open.remove(client) }
                client.close()
                finished.leave()
            }
        }
    }

    /// Answers a connection beyond the limit with 503 and closes it.
    private func refuse(_ client: Socket) {
        let error = HTTPError(503, "tooManyConnections", "the server has \(limits.connections) connections open; retry")
        _ = client.write(
            HTTPConnection.serialize(.error(error), keepAlive: false, headOnly: false), waitingMilliseconds: 1000)
        client.close()
    }
}
