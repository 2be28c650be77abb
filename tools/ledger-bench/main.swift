// ledger-bench: measures the ledger on this machine against baselines taken in the same run, and
// prints one JSON object (a readable table with --table). Build it in release mode:
//
//   swift run -c release ledger-bench [--quick] [--table] [--dir DIRECTORY]
//
// Every figure that depends on the disk comes with the raw append+fdatasync baseline measured on
// the same filesystem, so ratios hold on a noisy machine.
import Foundation
import LedgerStorage

#if canImport(Glibc)
    import Glibc
#endif

let words = Set(CommandLine.arguments.dropFirst())
let quick = words.contains("--quick")
let table = words.contains("--table")
var scratchParent = NSTemporaryDirectory()
if let index = CommandLine.arguments.firstIndex(of: "--dir"), index + 1 < CommandLine.arguments.count {
    scratchParent = CommandLine.arguments[index + 1]
}
let scratch = scratchParent + "/ledger-bench-\(getpid())"
try? FileManager.default.removeItem(atPath: scratch)
try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }

/// The payload size of a typical record: one contact with a few labeled values.
let typicalPayloadBytes = 320
let iterations = quick ? 40 : 400

func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}

/// The physical limit: append a typical record's bytes to a file and fdatasync, in a loop.
func baselineAppendFdatasync() throws -> [Double] {
    let fileSystem = SystemFileSystem()
    let file = try fileSystem.open(scratch + "/baseline", .createNew(permissions: 0o600))
    defer { try? fileSystem.close(file) }
    let bytes = [UInt8](repeating: 0x5A, count: typicalPayloadBytes + RecordFrame.envelopeFixedBytes + 8)
    var offset: Int64 = 0
    var samples: [Double] = []
    for _ in 0..<iterations {
        let start = nanoseconds()
        try bytes.withUnsafeBytes { try fileSystem.write(file, $0, at: offset) }
        try fileSystem.synchronizeData(file)
        samples.append(Double(nanoseconds() - start) / 1000)
        offset += Int64(bytes.count)
    }
    return samples
}

/// One writer appending one record at a time, each acknowledged after fdatasync.
func journalSingle() throws -> [Double] {
    let path = scratch + "/single.ledger"
    try LedgerDirectory.create(at: path)
    let journal = try Journal.open(at: path)
    defer { journal.close() }
    let payload = [UInt8](repeating: 0x41, count: typicalPayloadBytes)
    var samples: [Double] = []
    for _ in 0..<iterations {
        let start = nanoseconds()
        _ = try journal.appendAndWait(JournalEntry(author: "bench", schemaVersion: 1, payload: payload))
        samples.append(Double(nanoseconds() - start) / 1000)
    }
    return samples
}

/// `writers` threads appending concurrently for a fixed number of records each.
func groupCommit(writers: Int) throws -> [String: Double] {
    let path = scratch + "/group-\(writers).ledger"
    try LedgerDirectory.create(at: path)
    let journal = try Journal.open(at: path)
    defer { journal.close() }
    let perWriter = max(4, (quick ? 80 : 800) / writers)
    let payload = [UInt8](repeating: 0x42, count: typicalPayloadBytes)
    let start = nanoseconds()
    DispatchQueue.concurrentPerform(iterations: writers) { _ in
        for _ in 0..<perWriter {
            _ = try? journal.appendAndWait(JournalEntry(author: "bench", schemaVersion: 1, payload: payload))
        }
    }
    let seconds = Double(nanoseconds() - start) / 1e9
    let statistics = journal.statistics
    return [
        "writers": Double(writers), "commits_per_s": Double(statistics.records) / seconds,
        "fsyncs_per_s": Double(statistics.dataSyncs) / seconds,
    ]
}

let baseline = try baselineAppendFdatasync()
let single = try journalSingle()
let baselineMedian = percentile(baseline, 0.5)
let singleMedian = percentile(single, 0.5)
var groups: [[String: Double]] = []
for writers in [1, 4, 16, 64] { groups.append(try groupCommit(writers: writers)) }

let result: [String: Any] = [
    "scope": "journal (LedgerStorage) only; store-level figures arrive with the contact store",
    "quick": quick,
    "baseline_append_fdatasync_us": baselineMedian,
    "journal_append_single_us_p50": singleMedian,
    "journal_append_single_us_p99": percentile(single, 0.99),
    "journal_append_single_vs_baseline": singleMedian / baselineMedian,
    "journal_group_commit": groups,
    "crc32c_hardware": CRC32C.isHardwareAccelerated,
    "sha256_hardware": SHA256.isHardwareAccelerated,
]

if table {
    print(String(format: "%-40@ %12.1f", "baseline append+fdatasync (us)" as NSString, baselineMedian))
    print(String(format: "%-40@ %12.1f", "journal append p50 (us)" as NSString, singleMedian))
    print(String(format: "%-40@ %12.1f", "journal append p99 (us)" as NSString, percentile(single, 0.99)))
    print(String(format: "%-40@ %12.2f", "journal append / baseline" as NSString, singleMedian / baselineMedian))
    for group in groups {
        print(
            String(
                format: "%-40@ %12.0f commits/s %10.0f fsyncs/s",
                "group commit, \(Int(group["writers"]!)) writers" as NSString, group["commits_per_s"]!,
                group["fsyncs_per_s"]!))
    }
} else {
    let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}
