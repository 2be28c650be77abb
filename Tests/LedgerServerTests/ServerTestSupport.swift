import ContactsLedger
import Foundation
import LedgerAudit
import LedgerServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A response as the raw client read it.
struct RawResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> JSONValue { try JSONValue(parsing: body) }
}

/// A client that speaks HTTP/1.1 over a plain socket, written for the tests so that they see
/// exactly the bytes on the wire: no library fixes up a malformed request or hides a header.
final class RawClient {
    let descriptor: Int32

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ServerError("cannot connect to port \(port)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    private var pending: [UInt8] = []

    /// Reads bytes until `done` says the buffer holds enough, or the peer closes.
    private func fill(until done: ([UInt8]) -> Bool) -> Bool {
        while !done(pending) {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            pending += chunk[0..<count]
        }
        return true
    }

    /// Reads one response with a Content-Length body; nil when the connection closed first.
    func readResponse() -> RawResponse? {
        guard fill(until: { Self.headEnd($0) != nil }), let end = Self.headEnd(pending) else { return nil }
        var response = Self.parseHead(Array(pending[..<end]))
        let length = Int(response.header("content-length") ?? "0") ?? 0
        guard fill(until: { $0.count >= end + length }) else { return nil }
        response.body = Array(pending[end..<(end + length)])
        pending.removeFirst(end + length)
        return response
    }

    private var streamHead: RawResponse?

    /// Reads a stream's head (the first time), then its events until `count` have arrived (or
    /// the connection ends).
    func readEvents(count: Int) -> (RawResponse?, [(event: String, data: String)]) {
        if streamHead == nil {
            guard fill(until: { Self.headEnd($0) != nil }), let end = Self.headEnd(pending) else { return (nil, []) }
            streamHead = Self.parseHead(Array(pending[..<end]))
            pending.removeFirst(end)
        }
        let head = streamHead
        var events: [(String, String)] = []
        while events.count < count {
            guard fill(until: { Self.find([0x0A, 0x0A], in: $0) != nil }),
                let split = Self.find([0x0A, 0x0A], in: pending)
            else { break }
            let block = String(decoding: pending[..<split], as: UTF8.self)
            pending.removeFirst(split + 2)
            var name = "message"
            var data: [String] = []
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if !data.isEmpty { events.append((name, data.joined(separator: "\n"))) }
        }
        return (head, events)
    }

    /// Whether the server closed the connection (a read finds its end).
    func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        find([0x0D, 0x0A, 0x0D, 0x0A], in: bytes).map { $0 + 4 }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in 0...(bytes.count - needle.count) where Array(bytes[index..<(index + needle.count)]) == needle {
            return index
        }
        return nil
    }

    private static func parseHead(_ bytes: [UInt8]) -> RawResponse {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        let headers = lines.dropFirst().map { line -> (String, String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return RawResponse(status: status, headers: headers, body: [])
    }
}

/// A ledger in a temporary directory, served in-process on a free port.
final class ServedLedger: Sendable {
    let directory: String
    let ledger: String
    let store: ContactStore
    let server: LedgerServer
    let token: AccessToken

    /// A new ledger with `contacts` (given, family, email, phone) added by author "setup".
    init(
        contacts: [(String, String, String, String)] = ServedLedger.people, limits: HTTPLimits = HTTPLimits(),
        readOnly: Bool = false
    ) throws {
        directory = NSTemporaryDirectory() + "ledger-server-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        ledger = directory + "/contacts.ledger"
        let writer = try ContactStore(ledgerAt: ledger, client: .owner("contacts-ledger"))
        var request = SaveRequest(transactionAuthor: "setup")
        for (given, family, email, phone) in contacts {
            var contact = MutableContact()
            contact.givenName = given
            contact.familyName = family
            if !email.isEmpty { contact.emailAddresses = [LabeledValue(label: Label.home, value: email)] }
            if !phone.isEmpty {
                contact.phoneNumbers = [
                    LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: phone))
                ]
            }
            request.add(contact, toContainerWithIdentifier: nil)
        }
        if !request.isEmpty { try writer.execute(request) }
        if readOnly {
            writer.close()
            store = try ContactStore(readingLedgerAt: ledger, client: .owner("contacts-ledger"))
        } else {
            store = writer
        }
        token = try AccessToken("test-token-0123456789abcdef")
        var configuration = LedgerServer.Configuration()
        configuration.port = 0
        configuration.token = token
        configuration.limits = limits
        server = try LedgerServer(store: store, ledgerAt: ledger, configuration: configuration)
        server.start()
    }

    deinit {
        server.stop()
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Five people, unsorted.
    static let people: [(String, String, String, String)] = [
        ("Zoe", "Adams", "zoe@example.com", "+44 20 7946 0001"),
        ("Anna", "Young", "anna@example.com", "+44 20 7946 0002"),
        ("Bob", "Martin", "bob@example.com", "+44 20 7946 0003"),
        ("Carl", "Brown", "carl@example.org", "+44 20 7946 0004"),
        ("Dora", "Martin", "dora@example.org", "+44 20 7946 0005"),
    ]

    /// A connection to the server.
    func client() throws -> RawClient { try RawClient(port: server.port) }

    /// Sends one request with the token and reads its response.
    func request(
        _ method: String, _ target: String, json body: JSONValue? = nil, authorized: Bool = true
    ) throws -> RawResponse {
        let client = try client()
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        if authorized { head += "Authorization: Bearer \(token.value)\r\n" }
        let bytes = body.map { $0.serializedBytes() } ?? []
        if body != nil { head += "Content-Type: application/json\r\nContent-Length: \(bytes.count)\r\n" }
        client.send(Array((head + "\r\n").utf8) + bytes)
        return try #require(client.readResponse())
    }

    /// The JSON of a request that must answer `status`.
    func json(_ method: String, _ target: String, body: JSONValue? = nil, status: Int = 200) throws -> JSONValue {
        let response = try request(method, target, json: body)
        #expect(response.status == status, "\(method) \(target): \(response.text)")
        return try response.json()
    }

    /// The identifiers of the listed contacts, in order.
    func listed(_ target: String = "/api/v1/contacts") throws -> [String] {
        try json("GET", target)["contacts"]?.arrayValue?.compactMap { $0["givenName"]?.stringValue } ?? []
    }

    /// The identifier of the contact with this given name.
    func identifier(of given: String) throws -> String {
        let found = try store.unifiedContacts(matching: .matchingName(given), keysToFetch: [ContactKeySet(.identifier)])
        return try #require(found.first?.identifier)
    }
}
