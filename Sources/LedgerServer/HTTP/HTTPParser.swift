import Foundation

/// The bounds a connection holds every client to.
public struct HTTPLimits: Sendable, Hashable {
    /// The longest request line, in bytes (414 beyond).
    public var requestLineBytes = 8 * 1024
    /// The longest head (request line and header fields), in bytes (431 beyond).
    public var headBytes = 32 * 1024
    /// The most header fields (431 beyond).
    public var headerFields = 100
    /// The largest body, in bytes (413 beyond): room for a contact with a photo.
    public var bodyBytes = 16 * 1024 * 1024
    /// How long a request may take to arrive once its first byte has (408 after).
    public var readSeconds = 10.0
    /// How long a kept-alive connection may wait for its next request.
    public var idleSeconds = 30.0
    /// How long a write may wait for a client that does not read.
    public var writeSeconds = 10.0
    /// The most connections open at once; more are answered 503 and closed.
    public var connections = 256

    /// The defaults.
    public init() {}
}

/// Reads HTTP/1.1 request heads, strictly: anything malformed is an ``HTTPError`` with a 4xx
/// status that names the problem.
enum HTTPParser {
    /// The end of the head in `bytes` (the index after its blank line), nil when it has not all
    /// arrived. Lines may end in CRLF or, as RFC 9112 allows a server to accept, a bare LF.
    static func headEnd(in bytes: [UInt8], from start: Int = 0) -> Int? {
        var index = max(start, 0)
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count && bytes[index + 1] == 0x0A { return index + 2 }
                if index + 2 < bytes.count && bytes[index + 1] == 0x0D && bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// Refuses a head still arriving that is already too long.
    static func checkPartial(_ bytes: [UInt8], limits: HTTPLimits) throws(HTTPError) {
        let lineEnd = bytes.firstIndex(of: 0x0A) ?? bytes.count
        if lineEnd > limits.requestLineBytes {
            throw HTTPError(
                414, "requestLineTooLong", "the request line is longer than \(limits.requestLineBytes) bytes")
        }
        if bytes.count > limits.headBytes {
            throw HTTPError(431, "headersTooLarge", "the request's header is larger than \(limits.headBytes) bytes")
        }
    }

    /// Parses a complete head (without its blank line) and returns the request and its body's length.
    static func parse(_ head: ArraySlice<UInt8>, limits: HTTPLimits) throws(HTTPError) -> (HTTPRequest, Int) {
        // Split as bytes: a String holds "\r\n" as one character, which no split on "\n" finds.
        var lines: [Substring] = []
        for bytes in head.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = bytes.last == 0x0D ? bytes.dropLast() : bytes
            guard let text = String(validating: line, as: UTF8.self) else {
                throw HTTPError(400, "malformedRequest", "the request's header is not UTF-8")
            }
            lines.append(Substring(text))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw HTTPError(400, "malformedRequest", "the request line is empty") }
        if first.utf8.count > limits.requestLineBytes {
            throw HTTPError(
                414, "requestLineTooLong", "the request line is longer than \(limits.requestLineBytes) bytes")
        }
        var request = try requestLine(first)
        let fields = lines.dropFirst()
        if fields.count > limits.headerFields {
            throw HTTPError(431, "headersTooLarge", "the request has more than \(limits.headerFields) header fields")
        }
        for line in fields { request.headers.append(try field(line)) }
        if request.version == "HTTP/1.1" && request.header("host") == nil {
            throw HTTPError(400, "malformedRequest", "an HTTP/1.1 request needs a Host header field")
        }
        return (request, try bodyLength(request, limits: limits))
    }

    /// `METHOD TARGET VERSION`.
    private static func requestLine(_ line: Substring) throws(HTTPError) -> HTTPRequest {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter), !parts[1].isEmpty else {
            throw HTTPError(400, "malformedRequest", "the request line must be METHOD TARGET HTTP/1.1")
        }
        let version = String(parts[2])
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") {
                throw HTTPError(505, "versionNotSupported", "\(version) is not supported; use HTTP/1.1")
            }
            throw HTTPError(400, "malformedRequest", "the request line must end with HTTP/1.1")
        }
        let target = String(parts[1])
        let (path, query) = try RequestTarget.split(target)
        return HTTPRequest(
            method: String(parts[0]), target: target, path: path, query: query, version: version, headers: [])
    }

    /// `name: value`.
    private static func field(_ line: Substring) throws(HTTPError) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: ":") else {
            throw HTTPError(400, "malformedRequest", "a header field has no colon: \(line.prefix(40))")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
            throw HTTPError(400, "malformedRequest", "a header field's name is malformed: \(name.prefix(40))")
        }
        let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) {
            throw HTTPError(400, "malformedRequest", "header field \(name) holds a control character")
        }
        return (name.lowercased(), value)
    }

    /// The body's length from `Content-Length`; a body in any other framing is refused.
    private static func bodyLength(_ request: HTTPRequest, limits: HTTPLimits) throws(HTTPError) -> Int {
        if request.header("transfer-encoding") != nil {
            throw HTTPError(411, "lengthRequired", "send the body with Content-Length, not Transfer-Encoding")
        }
        let lengths = Set(request.headers.filter { $0.name == "content-length" }.map(\.value))
        guard let text = lengths.first else { return 0 }
        guard lengths.count == 1, !text.isEmpty, text.utf8.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let length = Int(text)
        else {
            throw HTTPError(
                400, "malformedRequest", "Content-Length must be one decimal number, got \(text.prefix(40))")
        }
        if length > limits.bodyBytes {
            throw HTTPError(413, "bodyTooLarge", "the body of \(length) bytes is larger than \(limits.bodyBytes) bytes")
        }
        return length
    }

    /// The characters of a token (RFC 9110): a method or a field name.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let ascii = character.asciiValue else { return false }
        return (ascii >= 0x30 && ascii <= 0x39) || (ascii | 0x20 >= 0x61 && ascii | 0x20 <= 0x7A)
            || "!#$%&'*+-.^_`|~".utf8.contains(ascii)
    }
}

/// Splitting and decoding a request target: the path and the query's parameters.
enum RequestTarget {
    /// The decoded path and query of an origin-form target; refuses other forms, malformed
    /// escapes, and paths that climb (`..`) or hold NUL or a backslash.
    static func split(_ target: String) throws(HTTPError) -> (String, [String: String]) {
        guard target.hasPrefix("/") else {
            throw HTTPError(400, "malformedRequest", "the request target must be a path starting with /")
        }
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = decode(pieces[0], plusIsSpace: false) else {
            throw HTTPError(400, "malformedRequest", "the path has a malformed percent escape")
        }
        if path.contains("\0") || path.contains("\\")
            || path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        {
            throw HTTPError(400, "badPath", "the path may not hold . or .. segments, NUL or backslashes")
        }
        var query: [String: String] = [:]
        if pieces.count == 2 {
            for pair in pieces[1].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = decode(parts[0], plusIsSpace: true),
                    let value = decode(parts.count == 2 ? parts[1] : "", plusIsSpace: true)
                else {
                    throw HTTPError(400, "malformedRequest", "the query has a malformed percent escape")
                }
                query[name] = value
            }
        }
        return (path, query)
    }

    /// Percent-decodes `text` as UTF-8; nil for a malformed escape or invalid UTF-8.
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }
}
