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
/// projection's contacts; close; read and check the journal (`JournalReader.verify`); and a full
/// replay with `snapshots/` moved aside (`ContactStore(readingLedgerAt:)`, which then replays
/// every record).
struct LedgerMeasurement {
    let path: String
    let quick: Bool
    let search: Bool
    /// Stop after the open (and its memory figure): for profiling the open alone.
    var openOnly = false

    func run() throws -> [String: Any] {
        var result: [String: Any] = [:]
        let residentBefore = residentBytes()
        let openStart = nanoseconds()
        let store = try ContactStore(ledgerAt: path, client: .fullAccess("bench-open"))
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
            result["search"] = SearchBench(projection: projection, quick: quick).run()
        }
        store.close()
        if openOnly { return result }

        let reader = try JournalReader(at: path)
        let verifyStart = nanoseconds()
        let verified = try reader.verify()
        result["read_checksum_seconds"] = Double(nanoseconds() - verifyStart) / 1e9
        result["records"] = verified.records

        let snapshots = path + "/snapshots"
        let hidden = path + "/snapshots.hidden"
        try FileManager.default.moveItem(atPath: snapshots, toPath: hidden)
        defer { try? FileManager.default.moveItem(atPath: hidden, toPath: snapshots) }
        let replayStart = nanoseconds()
        let replayed = try ContactStore(readingLedgerAt: path, client: .fullAccess("bench-replay"))
        result["replay_seconds"] = Double(nanoseconds() - replayStart) / 1e9
        result["replayed_contacts"] = replayed.withProjection { $0.contactCount }
        replayed.close()
        return result
    }
}
