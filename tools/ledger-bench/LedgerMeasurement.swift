import ContactsEngine
import ContactsLedger
import Foundation
import LedgerStorage

/// The resident set size of this process, from `/proc/self/status` (VmRSS), in bytes.
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
    }
    return 0
}

/// The figures taken on one generated ledger, in a process of their own (see `main.swift`), so
/// that the resident memory is that of an opened ledger and nothing else.
///
/// In order: open with the snapshot the builder's close wrote (time, and VmRSS before and after);
/// search through the projection's indexes, and the same queries by a linear scan over the
/// projection's contacts; fetches by identifier through the store (`FetchBench`); close; the
/// Merkle tree's build, open and proofs (`ProofBench`); then,
/// three times (once with `quick`), read and check the journal (`JournalReader.verify`) and
/// replay it in full with `snapshots/` moved aside (`ContactStore(readingLedgerAt:)`, which then
/// replays every record), reporting the medians.
struct LedgerMeasurement {
    let path: String
    let quick: Bool
    let search: Bool
    /// Stop after the open (and its memory figure): for profiling the open alone.
    var openOnly = false
    /// With `search`, the indexed queries only, without the linear scans beside them.
    var searchIndexOnly = false
    /// Only the replays, each alone (no open, search or read beside them): for profiling and
    /// for comparing two builds of the replay side by side.
    var replayOnly = false
    /// With `search`, the SQLite peer of the search through the public API, or nil to leave it out.
    var sqlitePeer: SQLitePeer?

    func run() throws -> [String: Any] {
        var result: [String: Any] = [:]
        if replayOnly { return try replays(into: &result, withReads: false) }
        try measureOpen(into: &result)
        if openOnly { return result }
        result["merkle_tree"] = try ProofBench(path: path, quick: quick).run()
        return try replays(into: &result, withReads: true)
    }

    /// The open with a snapshot, its memory, and the searches and fetches with `search`. The store and every
    /// copy of its projection are gone when it returns, so that the replays after it run without
    /// them: a copy of the projection kept in `run()` had left 437 MiB resident when the replays
    /// of the 1M ledger began (88 MiB now; the replays' times did not move beyond the noise).
    private func measureOpen(into result: inout [String: Any]) throws {
        let residentBefore = residentBytes()
        let openStart = nanoseconds()
        let store = try ContactStore(ledgerAt: path, client: .fullAccess("bench-open", region: benchRegion))
        defer { store.close() }
        let openSeconds = Double(nanoseconds() - openStart) / 1e9
        let residentAfter = residentBytes()
        let projection = store.withProjection { $0 }
        let contacts = projection.contactCount
        result["contacts"] = contacts
        result["open_with_snapshot_ms"] = openSeconds * 1000
        result["resident_bytes"] = residentAfter - residentBefore
        result["resident_bytes_per_contact"] = Double(residentAfter - residentBefore) / Double(max(1, contacts))
        result["index_bytes_estimate"] = projection.indexes.estimatedBytes
        if search {
            // First, so that its first search is the store's first.
            result["public_search"] = try PublicSearchBench(
                store: store, projection: projection, quick: quick, scratch: Self.scratch(of: path), peer: sqlitePeer
            ).run()
            result["search"] = SearchBench(projection: projection, quick: quick, indexOnly: searchIndexOnly).run()
            result["fetch_by_identifier"] = FetchBench(store: store, projection: projection, quick: quick).run()
        }
    }

    /// The search through the public API alone (``PublicSearchBench``), on a store opened as
    /// ``measureOpen(into:)`` opens it.
    static func publicSearch(path: String, quick: Bool, sqlitePeer: SQLitePeer?) throws -> [String: Any] {
        let store = try ContactStore(ledgerAt: path, client: .fullAccess("bench-open", region: benchRegion))
        defer { store.close() }
        return try PublicSearchBench(
            store: store, projection: store.withProjection { $0 }, quick: quick, scratch: scratch(of: path),
            peer: sqlitePeer
        ).run()
    }

    /// The directory a ledger lies in, where the peer's files are written.
    static func scratch(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// Replays the journal with the snapshots moved aside, three times (once with `quick`), after
    /// a read and check of it each time when `withReads`; adds the figures to `result`.
    private func replays(into result: inout [String: Any], withReads: Bool) throws -> [String: Any] {
        // The read and the replay alternate, three times each in a full run: on this machine a
        // replay's time moves by a fifth from one minute to the next, and the median of three
        // taken side by side with the read's is steadier than one of each.
        let reader = try JournalReader(at: path)
        let snapshots = path + "/snapshots"
        let hidden = path + "/snapshots.hidden"
        var readSeconds: [Double] = []
        var replaySeconds: [Double] = []
        // The memory's latency right before the replays, whose time moves with it (MemoryProbe).
        result["memory_random_read_ns"] = MemoryProbe.figure(quick: quick, seed: 2)
        for _ in 0..<(quick ? 1 : 3) {
            if withReads {
                let verifyStart = nanoseconds()
                let verified = try reader.verify()
                readSeconds.append(Double(nanoseconds() - verifyStart) / 1e9)
                result["records"] = verified.records
            }
            try FileManager.default.moveItem(atPath: snapshots, toPath: hidden)
            defer { try? FileManager.default.moveItem(atPath: hidden, toPath: snapshots) }
            let replayStart = nanoseconds()
            let replayed = try ContactStore(
                readingLedgerAt: path, client: .fullAccess("bench-replay", region: benchRegion))
            replaySeconds.append(Double(nanoseconds() - replayStart) / 1e9)
            result["replayed_contacts"] = replayed.withProjection { $0.contactCount }
            replayed.close()
        }
        if withReads {
            result["read_checksum_seconds"] = percentile(readSeconds, 0.5)
            result["read_checksum_seconds_runs"] = readSeconds
        }
        result["replay_seconds"] = percentile(replaySeconds, 0.5)
        result["replay_seconds_runs"] = replaySeconds
        return result
    }
}
