import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket: the one place in the server with system calls and pointers (listening,
/// accepting, reading and writing with deadlines), so that everything above it works with
/// arrays and values.
struct Socket: Sendable, Hashable {
    /// The file descriptor.
    let descriptor: Int32

    /// What a read found.
    enum ReadOutcome: Sendable, Equatable {
        /// This many bytes were appended.
        case bytes(Int)
        /// The peer closed its side.
        case closed
        /// Nothing arrived before the deadline.
        case timedOut
        /// The socket failed (reset, or closed by the server).
        case failed
    }

    /// Listens on `host` (a numeric IPv4 or IPv6 address) and `port` (0 for any free one);
    /// returns the socket and the port it is bound to.
    static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws(ServerError) -> (Socket, UInt16) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else {
            throw ServerError("cannot listen on \(host): not a numeric IPv4 or IPv6 address")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0,
            Glibc.listen(descriptor, backlog) == 0
        else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw ServerError("cannot listen on \(host) port \(port): \(reason)")
        }
        return (Socket(descriptor: descriptor), boundPort(descriptor))
    }

    /// The local port a socket is bound to.
    private static func boundPort(_ descriptor: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
    }

    /// Waits up to `milliseconds` for a connection and accepts it; nil when none came or the
    /// listening socket was closed.
    func accept(waitingMilliseconds milliseconds: Int32) -> Socket? {
        guard wait(for: Int16(POLLIN), milliseconds: milliseconds) else { return nil }
        let client = Glibc.accept(descriptor, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return Socket(descriptor: client)
    }

    /// Waits until the socket is ready for `events` or `milliseconds` pass.
    private func wait(for events: Int16, milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: events, revents: 0)
        while true {
            let ready = poll(&poller, 1, max(milliseconds, 0))
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }

    /// Appends what arrives, up to `limit` bytes, waiting up to `milliseconds` for it.
    func read(into buffer: inout [UInt8], limit: Int = 65_536, waitingMilliseconds milliseconds: Int32) -> ReadOutcome {
        guard wait(for: Int16(POLLIN), milliseconds: milliseconds) else { return .timedOut }
        var chunk = [UInt8](repeating: 0, count: max(limit, 1))
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return .closed }
        if count < 0 { return errno == EAGAIN || errno == EINTR ? .bytes(0) : .failed }
        buffer.append(contentsOf: chunk[0..<count])
        return .bytes(count)
    }

    /// Writes every byte, waiting up to `milliseconds` each time the peer's window is full;
    /// false when the peer is gone or too slow.
    func write(_ bytes: [UInt8], waitingMilliseconds milliseconds: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard wait(for: Int16(POLLOUT), milliseconds: milliseconds) else { return false }
            let sent = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Whether the peer has closed its side (or sent something) while nothing is being read: for
    /// a stream that only writes, to notice a client that went away.
    func peerHasClosed() -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var probe = [UInt8](repeating: 0, count: 1)
        let count = probe.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) }
        return count <= 0
    }

    /// Stops reads and writes in both directions, waking any thread blocked on the socket.
    func shutdownBoth() { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Closes the descriptor.
    func close() { _ = Glibc.close(descriptor) }
}

/// A server that cannot start or serve: a message that names the problem.
public struct ServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// An error with a message.
    public init(_ message: String) { self.message = message }

    /// The error as one line.
    public var description: String { message }
}
