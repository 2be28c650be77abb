import ContactsEngine
import ContactsLedger
import Foundation

/// Search as an app pays for it: through the store's public API, with the keys a contact list
/// shows (given and family name), for each query kind of ``SearchBench``. Each query is timed
/// three ways: `unifiedContacts(matching:keysToFetch:)`, `enumerateContacts(with:usingBlock:)`
/// reading every match, and `enumerateContacts` stopping after a list's first screen
/// (``firstScreen`` contacts). The very first search through the store is timed apart from the
/// rest, which are the steady state: it touches the indexes' memory first. The bench's store has
/// built its indexes before it (the copy of the projection taken with
/// ``ContactStore/withProjection(_:)`` builds them), so it is no scan: a store that searched
/// first would scan the contacts and build the indexes at its second search (decision 0037).
///
/// With a ``SQLitePeer``, the same contacts and queries are written out and the peer answers the
/// queries with SQLite in the same run, returning the same rows (identifier, given name, family
/// name), ``alternation`` queries of the peer's after as many of the ledger's; a query for which
/// it returns a different number of rows fails the bench.
struct PublicSearchBench {
    let store: ContactStore
    let projection: Projection
    let quick: Bool
    /// Where the peer's input files are written (and removed after it ran).
    let scratch: String
    /// The SQLite peer, or nil to leave it out.
    let peer: SQLitePeer?

    /// The keys a contact list shows.
    static let keys: [any KeyDescriptor] = [ContactKey.givenName, ContactKey.familyName]
    /// How many contacts a list's first screen shows.
    static let firstScreen = 25

    /// How many queries of each kind are timed.
    var queriesPerKind: Int { quick ? 50 : 1_000 }

    /// One kind's queries and what the ledger (and the peer) answered.
    struct Measured {
        var unified: [Double] = []
        var enumerated: [Double] = []
        var firstScreen: [Double] = []
        var sqlite: [Double] = []
        var counts: [Int] = []
        /// Queries whose enumeration returned other contacts than `unifiedContacts`.
        var disagreements = 0
    }

    /// How many queries the ledger answers before the peer answers the same: the two alternate,
    /// so that a change of the machine's speed during the run lands on both.
    static let alternation = 25

    func run() throws -> [String: Any] {
        let queries = Self.queries(projection, count: queriesPerKind)
        guard let first = queries.first?.queries.first else { return [:] }
        // The first search, then the same one again: what the second saves is what only the
        // first pays (the memory first touched; the indexes were built with the projection's copy).
        var result: [String: Any] = [:]
        for key in ["first_search_us", "first_search_again_us"] {
            let start = nanoseconds()
            _ = try store.unifiedContacts(matching: Self.predicate(first.kind, first.query), keysToFetch: Self.keys)
            result[key] = Double(nanoseconds() - start) / 1000
        }
        let session = try peer?.start(
            contacts: { try Self.writeContacts(projection, to: $0) },
            queries: queries.flatMap { $0.queries.map { SQLitePeer.Query(kind: $0.kind, text: $0.query) } },
            scratch: scratch)
        result["sqlite_version"] = session?.loaded["sqlite_version"]
        result["sqlite_load_seconds"] = session?.loaded["load_seconds"]
        var offset = 0
        for (kind, kindQueries) in queries {
            result[kind.rawValue] = Self.entry(
                try measure(kind, kindQueries.map(\.query), session: session, offset: offset), sqlite: session != nil)
            offset += kindQueries.count
        }
        try session?.end()
        return result
    }

    /// Times one kind's queries the three ways, and the peer's, `alternation` at a time; the
    /// kind's first query is the peer's query number `offset`.
    private func measure(
        _ kind: SearchBench.Kind, _ queries: [String], session: SQLitePeer.Session?, offset: Int
    ) throws -> Measured {
        var measured = Measured()
        for start in stride(from: 0, to: queries.count, by: Self.alternation) {
            let chunk = queries[start..<min(queries.count, start + Self.alternation)]
            for query in chunk { try measure(kind, query, into: &measured) }
            if let session {
                measured.sqlite += try session.run(
                    first: offset + start, expectedRows: Array(measured.counts[start..<start + chunk.count]))
            }
        }
        return measured
    }

    /// Times one query the three ways.
    private func measure(_ kind: SearchBench.Kind, _ query: String, into measured: inout Measured) throws {
        let predicate = Self.predicate(kind, query)
        var start = nanoseconds()
        let contacts = try store.unifiedContacts(matching: predicate, keysToFetch: Self.keys)
        measured.unified.append(Double(nanoseconds() - start) / 1000)
        measured.counts.append(contacts.count)

        let request = ContactFetchRequest(keysToFetch: Self.keys, predicate: predicate)
        var enumerated: [String] = []
        start = nanoseconds()
        try store.enumerateContacts(with: request) { contact, _ in
            enumerated.append(contact.identifier)
            _ = contact.givenName.count + contact.familyName.count
        }
        measured.enumerated.append(Double(nanoseconds() - start) / 1000)
        if enumerated != contacts.map(\.identifier) { measured.disagreements += 1 }

        var shown = 0
        start = nanoseconds()
        try store.enumerateContacts(with: request) { contact, stop in
            _ = contact.givenName.count + contact.familyName.count
            shown += 1
            if shown == Self.firstScreen { stop = true }
        }
        measured.firstScreen.append(Double(nanoseconds() - start) / 1000)
    }

    /// One kind's figures, with the peer's and the ratios when it ran.
    private static func entry(_ measured: Measured, sqlite: Bool) -> [String: Any] {
        var entry: [String: Any] = [
            "mean_matches": Double(measured.counts.reduce(0, +)) / Double(max(1, measured.counts.count)),
            "queries": measured.counts.count,
            "enumerate_disagrees": measured.disagreements,
        ]
        for (name, times) in [
            ("unified", measured.unified), ("enumerate", measured.enumerated),
            ("enumerate_first_screen", measured.firstScreen), ("sqlite", measured.sqlite),
        ] where !times.isEmpty {
            entry[name + "_p50_us"] = percentile(times, 0.5)
            entry[name + "_p99_us"] = percentile(times, 0.99)
        }
        if sqlite {
            // The slower of the two ways of reading every match stands for the ledger.
            entry["sqlite_vs_ledger_p50"] =
                percentile(measured.sqlite, 0.5)
                / max(percentile(measured.unified, 0.5), percentile(measured.enumerated, 0.5))
            entry["sqlite_vs_ledger_p99"] =
                percentile(measured.sqlite, 0.99)
                / max(percentile(measured.unified, 0.99), percentile(measured.enumerated, 0.99))
        }
        return entry
    }

    /// The predicate of a query of a kind.
    static func predicate(_ kind: SearchBench.Kind, _ query: String) -> ContactPredicate {
        switch kind {
        case .nameOneWord, .nameTwoWords: .matchingName(query)
        case .email: .matchingEmailAddress(query)
        case .phone: .matching(PhoneNumber(stringValue: query))
        }
    }

    /// `count` queries of each kind, drawn from the ledger's own contacts as ``SearchBench`` draws
    /// them, in the order of ``SearchBench/Kind/allCases``.
    static func queries(
        _ projection: Projection, count: Int
    ) -> [(kind: SearchBench.Kind, queries: [(kind: SearchBench.Kind, query: String)])] {
        var random = SplitMix64(seed: 9_191)
        let slots = projection.occupiedSlots
        guard !slots.isEmpty else { return [] }
        return SearchBench.Kind.allCases.map { kind in
            var queries: [(kind: SearchBench.Kind, query: String)] = []
            while queries.count < count {
                let slot = slots.randomElement(using: &random)!
                guard let values = projection.state(at: slot)?.values,
                    let query = SearchBench.query(kind, values, &random)
                else { continue }
                queries.append((kind, query))
            }
            return (kind, queries)
        }
    }

    /// Writes every contact for the peer (see `tools/sqlite-peer/peer.py`).
    static func writeContacts(_ projection: Projection, to handle: FileHandle) throws {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for slot in projection.occupiedSlots {
            guard let identifier = projection.identifier(at: slot), let values = projection.state(at: slot)?.values
            else { continue }
            let fields = [
                identifier, SQLitePeer.field(values.givenName), SQLitePeer.field(values.familyName),
                SearchBench.nameWords(values).joined(separator: " "),
                values.emailAddresses.map { SQLitePeer.emailQuery($0.value) }.joined(separator: " "),
                values.phoneNumbers.map { SearchBench.phoneDigits($0.value.stringValue) }.joined(separator: " "),
            ]
            buffer += fields.joined(separator: "\t").utf8
            buffer.append(0x0A)
            if buffer.count >= 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
    }
}
