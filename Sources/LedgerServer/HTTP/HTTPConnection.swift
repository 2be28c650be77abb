import Foundation

/// One client's connection: reads requests within the limits and deadlines, answers each with
/// the handler, and keeps the connection for the next until the client closes it, goes idle,
/// breaks a rule, or the server stops.
struct HTTPConnection {
    let socket: Socket
    let limits: HTTPLimits
    let server: HTTPServer
    let handler: HTTPServer.Handler

    /// The header fields every response carries: no caching of ledger data, no sniffing, no
    /// framing, and a policy under which the pages load nothing from anywhere but this server.
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
        ("Cache-Control", "no-store"),
    ]

    /// Serves requests until the connection ends.
    func run() {
        var buffer: [UInt8] = []
        while !server.isStopping {
            let request: HTTPRequest
            do throws(HTTPError) {
                guard let next = try readRequest(&buffer) else { return }
                request = next
            } catch {
                _ = socket.write(
                    Self.serialize(.error(error), keepAlive: false, headOnly: false),
                    waitingMilliseconds: milliseconds(limits.writeSeconds))
                return
            }
            let response = handler(request)
            let keepAlive = request.keepsAlive && response.stream == nil && !server.isStopping
            let bytes = Self.serialize(response, keepAlive: keepAlive, headOnly: request.method == "HEAD")
            guard socket.write(bytes, waitingMilliseconds: milliseconds(limits.writeSeconds)) else { return }
            if let stream = response.stream {
                stream(EventSink(socket: socket, server: server, writeMilliseconds: milliseconds(limits.writeSeconds)))
                return
            }
            if !keepAlive { return }
        }
    }

    /// Reads the next request off the connection; nil when the client closed it or stayed idle
    /// between requests. Throws for a request that breaks a rule or arrives too slowly.
    private func readRequest(_ buffer: inout [UInt8]) throws(HTTPError) -> HTTPRequest? {
        var scanned = 0
        var deadline: Date? = buffer.isEmpty ? nil : Date().addingTimeInterval(limits.readSeconds)
        let idleUntil = Date().addingTimeInterval(limits.idleSeconds)
        while true {
            if let end = HTTPParser.headEnd(in: buffer, from: scanned - 2) {
                let (request, length) = try HTTPParser.parse(buffer[..<end], limits: limits)
                return try readBody(request, length: length, after: end, &buffer)
            }
            try HTTPParser.checkPartial(buffer, limits: limits)
            scanned = buffer.count
            let waitUntil = deadline ?? idleUntil
            switch socket.read(into: &buffer, waitingMilliseconds: milliseconds(waitUntil.timeIntervalSinceNow)) {
            case .bytes:
                if deadline == nil && !buffer.isEmpty { deadline = Date().addingTimeInterval(limits.readSeconds) }
            case .closed, .failed: return nil
            case .timedOut:
                if deadline == nil { return nil }
                throw HTTPError(408, "requestTimeout", "the request did not arrive within \(limits.readSeconds) s")
            }
            if server.isStopping { return nil }
        }
    }

    /// Reads a body of `length` bytes after the head, within the read deadline, and takes the
    /// request off the buffer.
    private func readBody(
        _ request: HTTPRequest, length: Int, after end: Int, _ buffer: inout [UInt8]
    ) throws(HTTPError) -> HTTPRequest {
        let limit = Date().addingTimeInterval(limits.readSeconds)
        while buffer.count < end + length {
            switch socket.read(
                into: &buffer, limit: min(end + length - buffer.count, 1 << 20),
                waitingMilliseconds: milliseconds(limit.timeIntervalSinceNow))
            {
            case .bytes: continue
            case .closed, .failed:
                throw HTTPError(400, "malformedRequest", "the connection closed before the body's \(length) bytes")
            case .timedOut:
                throw HTTPError(408, "requestTimeout", "the body did not arrive within \(limits.readSeconds) s")
            }
        }
        var complete = request
        complete.body = Array(buffer[end..<(end + length)])
        buffer.removeFirst(end + length)
        return complete
    }

    private func milliseconds(_ seconds: Double) -> Int32 {
        Int32(max(0, min(seconds * 1000, Double(Int32.max))))
    }

    /// The bytes of a response: status line, header fields, and the body unless `headOnly`.
    static func serialize(_ response: HTTPResponse, keepAlive: Bool, headOnly: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        var fields = response.headers
        if response.stream == nil { fields.append(("Content-Length", String(response.body.count))) }
        fields.append(("Connection", keepAlive ? "keep-alive" : "close"))
        let named = Set(fields.map { $0.name.lowercased() })
        fields += securityHeaders.filter { !named.contains($0.0.lowercased()) }
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (headOnly ? [] : response.body)
    }
}
