import ContactsInterchange
import Foundation

/// One HTTP request, as the parser read it.
public struct HTTPRequest: Sendable {
    /// The method, as sent (`GET`, `POST`, ...).
    public var method: String
    /// The request target, as sent (`/api/v1/contacts?q=ann`).
    public var target: String
    /// The path, percent-decoded, without the query.
    public var path: String
    /// The query's parameters, percent-decoded; a repeated name keeps its last value.
    public var query: [String: String]
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The header fields, names in lowercase, in the order sent.
    public var headers: [(name: String, value: String)]
    /// The body (empty without `Content-Length`).
    public var body: [UInt8] = []

    /// A request as a client would send it, for answering without a socket
    /// (``LedgerServer/respond(to:)``); the target is split and decoded as the parser does.
    public init(
        method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []
    ) throws(HTTPError) {
        let (path, query) = try RequestTarget.split(target)
        self.init(
            method: method, target: target, path: path, query: query, version: "HTTP/1.1",
            headers: headers.map { ($0.name.lowercased(), $0.value) }, body: body)
    }

    /// A request from its parsed parts.
    init(
        method: String, target: String, path: String, query: [String: String], version: String,
        headers: [(name: String, value: String)], body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The value of a header field (the first, for a repeated name), by its lowercase name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        let tokens = connection.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }
}

/// A request refused before it reached a handler, or by one: the status and a message that
/// names the problem.
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status code (4xx or 5xx).
    public var status: Int
    /// A short code for programs (`malformedRequest`, `headersTooLarge`, ...).
    public var code: String
    /// What is wrong, for people.
    public var message: String

    /// An error with a status, a code and a message.
    public init(_ status: Int, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The error as one line.
    public var description: String { "\(status) \(code): \(message)" }
}

/// One HTTP response: a status, header fields and a body, or a stream that writes events.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields besides those the connection adds (`Content-Length`, `Connection`,
    /// `Date`, the security headers).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]
    /// For a stream (Server-Sent Events): called after the head is written, on the connection's
    /// thread, until it returns; the connection closes afterwards.
    public var stream: (@Sendable (EventSink) -> Void)?

    /// A response with a body of a content type.
    public init(status: Int = 200, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
        self.stream = nil
    }

    /// A JSON response.
    public static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        var bytes = value.serializedBytes()
        bytes.append(0x0A)
        return HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: bytes)
    }

    /// An error as JSON: `{error, message}` and any further members.
    public static func error(_ error: HTTPError, extra: [(String, JSONValue)] = []) -> HTTPResponse {
        let members: [(String, JSONValue)] = [("error", .string(error.code)), ("message", .string(error.message))]
        return json(.object(JSONObject(members + extra)), status: error.status)
    }

    /// A stream of Server-Sent Events, written by `body`.
    public static func eventStream(_ body: @escaping @Sendable (EventSink) -> Void) -> HTTPResponse {
        var response = HTTPResponse(
            contentType: "text/event-stream; charset=utf-8", body: [], headers: [("Cache-Control", "no-store")])
        response.stream = body
        return response
    }

    /// The reason phrase of a status code.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 207: "Multi-Status"
        case 301: "Moved Permanently"
        case 303: "See Other"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}

/// Where a stream writes its events; each write says whether the client is still there.
public final class EventSink: Sendable {
    private let socket: Socket
    private let server: HTTPServer
    private let writeMilliseconds: Int32

    init(socket: Socket, server: HTTPServer, writeMilliseconds: Int32) {
        self.socket = socket
        self.server = server
        self.writeMilliseconds = writeMilliseconds
    }

    /// Whether the client is still there and the server still running.
    public var isOpen: Bool { !server.isStopping && !socket.peerHasClosed() }

    /// Writes one event (`event:` when a name is given, `id:`, and `data:` lines); false when the
    /// client is gone, too slow, or the server is stopping.
    @discardableResult
    public func send(event name: String? = nil, id: String? = nil, data: String) -> Bool {
        var text = ""
        if let name { text += "event: \(name)\n" }
        if let id { text += "id: \(id)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return write(text + "\n")
    }

    /// Writes a comment line, which keeps idle connections and proxies from timing out.
    @discardableResult
    public func keepAlive() -> Bool { write(": keep-alive\n\n") }

    private func write(_ text: String) -> Bool {
        guard !server.isStopping else { return false }
        return socket.write(Array(text.utf8), waitingMilliseconds: writeMilliseconds)
    }
}
