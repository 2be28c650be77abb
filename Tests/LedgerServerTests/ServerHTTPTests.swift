import ContactsLedger
import Foundation
import LedgerAudit
import LedgerServer
import Synchronization
import Testing

@Suite("Server: HTTP, limits and the token")
struct ServerHTTPTests {
    @Test("every request needs the token: bearer, cookie, or the first visit's query")
    func token() throws {
        let served = try ServedLedger()
        let refused = try served.request("GET", "/api/v1/contacts", authorized: false)
        #expect(refused.status == 401)
        #expect(try refused.json()["error"]?.stringValue == "unauthorized")
        #expect(try served.request("GET", "/", authorized: false).status == 401)
        let client = try served.client()
        client.send("GET /?token=\(served.token.value) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let first = try #require(client.readResponse())
        #expect(first.status == 303)
        #expect(first.header("Location") == "/")
        let cookie = try #require(first.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let pair = String(cookie.split(separator: ";")[0])
        client.send("GET /api/v1/digest HTTP/1.1\r\nHost: localhost\r\nCookie: \(pair)\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        client.send(
            "GET /api/v1/digest HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer wrong-token-0000000000\r\n\r\n")
        #expect(client.readResponse()?.status == 401)
    }

    @Test("pages carry a strict Content-Security-Policy and their content types")
    func pagesAndHeaders() throws {
        let served = try ServedLedger()
        let page = try served.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
        #expect(page.text.contains("<script src=\"/app.js\"></script>"))
        #expect(try served.request("GET", "/app.js").header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(try served.request("GET", "/app.css").header("Content-Type") == "text/css; charset=utf-8")
        // The SVG namespace is a name, not an address; no other absolute address is in the script.
        let script = try served.request("GET", "/app.js").text.replacingOccurrences(
            of: "http://www.w3.org/2000/svg", with: "")
        #expect(!script.contains("http://") && !script.contains("https://") && !script.contains("//cdn"))
    }

    @Test("keep-alive: several requests on one connection; Connection: close ends it")
    func keepAlive() throws {
        let served = try ServedLedger()
        let client = try served.client()
        let auth = "Authorization: Bearer \(served.token.value)\r\n"
        for _ in 0..<3 {
            client.send("GET /api/v1/digest HTTP/1.1\r\nHost: localhost\r\n\(auth)\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 200)
            #expect(response.header("Connection") == "keep-alive")
        }
        client.send("GET /api/v1/digest HTTP/1.1\r\nHost: localhost\r\n\(auth)Connection: close\r\n\r\n")
        #expect(client.readResponse()?.header("Connection") == "close")
        #expect(client.isClosedByServer())
    }

    @Test(
        "malformed requests get a 4xx that names the problem, and the connection closes",
        arguments: [
            ("GARBAGE\r\n\r\n", 400, "malformedRequest"),
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, "versionNotSupported"),
            ("GET / HTTP/1.1\r\n\r\n", 400, "malformedRequest"),
            ("GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", 400, "malformedRequest"),
            ("GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400, "malformedRequest"),
            ("POST /api/v1/contacts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 411, "lengthRequired"),
            ("POST /api/v1/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: -4\r\n\r\n", 400, "malformedRequest"),
            ("POST /api/v1/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n", 413, "bodyTooLarge"),
            ("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "malformedRequest"),
            ("GET http://elsewhere/ HTTP/1.1\r\nHost: x\r\n\r\n", 400, "malformedRequest"),
        ])
    func malformed(request: String, status: Int, code: String) throws {
        let served = try ServedLedger(contacts: [])
        let client = try served.client()
        client.send(request)
        let response = try #require(client.readResponse())
        #expect(response.status == status)
        #expect(try response.json()["error"]?.stringValue == code)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByServer())
    }

    @Test("oversized request lines, headers and bodies are refused")
    func oversized() throws {
        var limits = HTTPLimits()
        limits.bodyBytes = 1000
        let served = try ServedLedger(contacts: [], limits: limits)
        let long = try served.client()
        long.send("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n")
        #expect(long.readResponse()?.status == 414)
        let headers = try served.client()
        headers.send(
            "GET / HTTP/1.1\r\nHost: x\r\n"
                + String(repeating: "X-Filler: \(String(repeating: "b", count: 1000))\r\n", count: 40))
        #expect(headers.readResponse()?.status == 431)
        let many = try served.client()
        many.send("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: 1\r\n", count: 150) + "\r\n")
        #expect(many.readResponse()?.status == 431)
        let body = try served.client()
        body.send("POST /api/v1/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n")
        #expect(body.readResponse()?.status == 413)
    }

    @Test("paths that climb, unknown paths, wrong methods and bodies that are not JSON")
    func pathsMethodsBodies() throws {
        let served = try ServedLedger()
        for path in ["/../etc/passwd", "/%2e%2e/etc/passwd", "/api/v1/../../etc/passwd", "/a%00b", "/a%5cb"] {
            let response = try served.request("GET", path)
            #expect(response.status == 400, "\(path)")
            #expect(try response.json()["error"]?.stringValue == "badPath", "\(path)")
        }
        #expect(try served.request("GET", "/etc/passwd").status == 404)
        let wrong = try served.request("PUT", "/api/v1/contacts")
        #expect(wrong.status == 405)
        #expect(try wrong.json()["message"]?.stringValue?.contains("GET, POST") == true)
        let client = try served.client()
        client.send(
            "POST /api/v1/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(served.token.value)\r\n"
                + "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}")
        #expect(client.readResponse()?.status == 415)
        client.send(
            "POST /api/v1/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(served.token.value)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 5\r\n\r\n{\"a\":")
        let bad = try #require(client.readResponse())
        #expect(bad.status == 400)
        #expect(try bad.json()["error"]?.stringValue == "malformedJSON")
        let limit = try served.request("GET", "/api/v1/contacts?limit=100000")
        #expect(limit.status == 400)
        #expect(try limit.json()["message"]?.stringValue?.contains("limit") == true)
    }

    @Test("a slow client is cut off at the read deadline; an idle one at the idle deadline")
    func slowClients() throws {
        var limits = HTTPLimits()
        limits.readSeconds = 0.5
        limits.idleSeconds = 0.5
        let served = try ServedLedger(contacts: [], limits: limits)
        let slow = try served.client()
        let started = Date()
        slow.send("GET / HTTP/1.1\r\nHost: x\r\n")
        Thread.sleep(forTimeInterval: 0.3)
        slow.send("X-Slow: 1\r\n")
        let response = try #require(slow.readResponse())
        #expect(response.status == 408)
        #expect(Date().timeIntervalSince(started) < 5)
        let slowBody = try served.client()
        slowBody.send("POST /api/v1/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{")
        #expect(slowBody.readResponse()?.status == 408)
        let idle = try served.client()
        Thread.sleep(forTimeInterval: 1)
        #expect(idle.isClosedByServer())
    }

    @Test("connections beyond the limit are answered 503")
    func connectionLimit() throws {
        var limits = HTTPLimits()
        limits.connections = 2
        let served = try ServedLedger(contacts: [], limits: limits)
        let first = try served.client()
        let second = try served.client()
        Thread.sleep(forTimeInterval: 0.3)
        let third = try served.client()
        #expect(third.readResponse()?.status == 503)
        first.send("GET /api/v1/digest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(served.token.value)\r\n\r\n")
        #expect(first.readResponse()?.status == 200)
        _ = second
    }

    @Test("an address beyond loopback is refused without a token file")
    func remoteRefused() throws {
        let store = ContactStore.inMemory()
        var configuration = LedgerServer.Configuration()
        configuration.host = "0.0.0.0"
        configuration.port = 0
        #expect(throws: ServerError.self) {
            _ = try LedgerServer(store: store, ledgerAt: "/nonexistent", configuration: configuration)
        }
        configuration.allowsRemote = true
        let server = try LedgerServer(store: store, ledgerAt: "/nonexistent", configuration: configuration)
        #expect(server.port > 0)
        server.stop()
    }

    @Test("64 clients read while writes land: every answer arrives and every write is seen")
    func concurrentReadersAndWriter() throws {
        let served = try ServedLedger()
        let failures = Mutex(0)
        let answers = Mutex(0)
        let group = DispatchGroup()
        // A thread each, so that all 64 readers are connected at once, not a pool's few at a time.
        for index in 0..<65 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                work(index)
            }
        }
        @Sendable func work(_ index: Int) {
            if index == 64 {
                for number in 0..<40 {
                    let written = try? served.request(
                        "POST", "/api/v1/contacts", json: ["contact": ["givenName": .string("Writer\(number)")]])
                    if written?.status != 201 { failures.withLock { $0 += 1 } }
                }
                return
            }
            for round in 0..<5 {
                let target = round % 2 == 0 ? "/api/v1/contacts?limit=20" : "/api/v1/contacts?q=writer"
                let response = try? served.request("GET", target)
                if response?.status == 200 { answers.withLock { $0 += 1 } } else { failures.withLock { $0 += 1 } }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == 0)
        #expect(answers.withLock { $0 } == 320)
        #expect(try served.json("GET", "/api/v1/contacts")["total"]?.intValue == 45)
        #expect(try served.listed("/api/v1/contacts?q=writer&limit=100").count == 40)
    }
}
