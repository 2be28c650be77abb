import ContactsLedger
import Dispatch
import Foundation
import LedgerServer
import Synchronization

/// The web server's section: the answers timed at the server (``LedgerServer/respond(to:)``,
/// no socket), on a ledger an earlier run wrote, opened as its writer.
///
/// The bars: the list's first page and a search-as-you-type query in under 50 ms, a contact's
/// page in under 20 ms; with 64 readers asking for pages, searches and contacts while a writer
/// commits, every answer arrives and the commit rate stays within 20% of the writer's alone.
struct ServerBench {
    /// The ledger's path.
    let ledger: String
    /// Fewer runs and commits.
    let quick: Bool

    /// Readers beside the writer.
    static let readers = 64
    private static let token = "ledger-bench-token-0123456789"

    /// Measures and returns the report's `server` object.
    func run() throws -> [String: Any] {
        let store = try ContactStore(
            ledgerAt: ledger, client: .owner("contacts-ledger", region: benchRegion), create: false)
        defer { store.close() }
        var configuration = LedgerServer.Configuration()
        configuration.port = 0
        configuration.token = try AccessToken(Self.token)
        let server = try LedgerServer(store: store, ledgerAt: ledger, configuration: configuration)
        defer { server.stop() }
        let runs = quick ? 5 : 21
        var figures: [String: Any] = [:]
        figures["list_build_ms"] = try time { try get(server, "/api/v1/contacts?limit=50") }
        figures["list_first_page_ms"] = try median(runs) { try get(server, "/api/v1/contacts?limit=50") }
        let (identifier, name) = try sample(server)
        figures["contact_page_ms"] = try median(runs) { try get(server, "/api/v1/contacts/\(identifier)") }
        var searches: [String: Double] = [:]
        for length in 1...min(4, name.count) {
            let query = String(name.prefix(length)).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            searches[String(name.prefix(length))] = try median(runs) {
                try get(server, "/api/v1/contacts?limit=50&q=\(query)")
            }
        }
        figures["search_as_you_type_ms"] = searches
        figures["search_slowest_ms"] = searches.values.max() ?? Double.nan
        figures["list_after_commit_ms"] = try time {
            try post(server, "after-commit")
            try get(server, "/api/v1/contacts?limit=50")
        }
        figures["concurrent"] = try concurrent(server, identifier: identifier, name: name)
        return figures
    }

    /// 64 readers while a writer commits, beside the writer alone.
    private func concurrent(_ server: LedgerServer, identifier: String, name: String) throws -> [String: Any] {
        let commits = quick ? 20 : 200
        let alone = try time { for index in 0..<commits { try post(server, "alone-\(index)") } }
        let done = Atomic(false)
        let answers = Atomic(0)
        let failures = Atomic(0)
        let readers = DispatchGroup()
        let targets = [
            "/api/v1/contacts?limit=50", "/api/v1/contacts?limit=50&q=\(name.prefix(2))",
            "/api/v1/contacts/\(identifier)", "/api/v1/contacts?offset=1000&limit=50",
        ]
        for reader in 0..<Self.readers {
            readers.enter()
            Thread.detachNewThread {
                var turn = reader
                while !done.load(ordering: .acquiring) {
                    let ok = (try? get(server, targets[turn % targets.count])) != nil
                    if ok { answers.add(1, ordering: .relaxed) } else { failures.add(1, ordering: .relaxed) }
                    turn += 1
                }
                readers.leave()
            }
        }
        let together = try time { for index in 0..<commits { try post(server, "together-\(index)") } }
        done.store(true, ordering: .releasing)
        readers.wait()
        let aloneRate = Double(commits) / (alone / 1000)
        let togetherRate = Double(commits) / (together / 1000)
        return [
            "readers": Self.readers, "commits": commits, "commits_per_s_alone": aloneRate,
            "commits_per_s_with_readers": togetherRate, "commit_rate_ratio": togetherRate / aloneRate,
            "reader_answers": answers.load(ordering: .relaxed), "reader_failures": failures.load(ordering: .relaxed),
        ]
    }

    /// The first contact of the list: its identifier and given name.
    private func sample(_ server: LedgerServer) throws -> (String, String) {
        let page = try JSONValue(parsing: try get(server, "/api/v1/contacts?limit=1"))
        guard let contact = page["contacts"]?.arrayValue?.first, let identifier = contact["identifier"]?.stringValue
        else { throw UsageError("the server listed no contacts") }
        let name = contact["givenName"]?.stringValue ?? ""
        return (identifier, name.isEmpty ? "a" : name)
    }

    /// The body of a GET that must answer 200.
    @discardableResult
    private func get(_ server: LedgerServer, _ target: String) throws -> [UInt8] {
        try answer(server, try HTTPRequest(method: "GET", target: target, headers: headers))
    }

    /// Adds a contact through the API.
    private func post(_ server: LedgerServer, _ name: String) throws {
        let body = JSONValue.object(["contact": ["givenName": .string(name), "familyName": "Bench"]]).serializedBytes()
        let request = try HTTPRequest(
            method: "POST", target: "/api/v1/contacts", headers: headers + [("Content-Type", "application/json")],
            body: body)
        _ = try answer(server, request)
    }

    private var headers: [(name: String, value: String)] { [("Authorization", "Bearer " + Self.token)] }

    private func answer(_ server: LedgerServer, _ request: HTTPRequest) throws -> [UInt8] {
        let response = server.respond(to: request)
        guard response.status < 300 else {
            throw UsageError("\(request.method) \(request.target) answered \(response.status)")
        }
        return response.body
    }

    /// The wall time of `body`, in milliseconds.
    private func time(_ body: () throws -> Void) throws -> Double {
        let started = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
    }

    /// The median of `runs` timings of `body`, in milliseconds.
    private func median(_ runs: Int, _ body: () throws -> Void) throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try time(body)) }
        return times.sorted()[times.count / 2]
    }
}
