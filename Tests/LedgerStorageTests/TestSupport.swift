import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// A directory of its own for one test, removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init(_ name: String = "test") {
        let base = NSTemporaryDirectory() + "ledger-storage-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base + "/\(name)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func child(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A seed for a randomized test, from LEDGER_TEST_SEED if set, printed so a failure reproduces.
func testSeed(_ name: String) -> UInt64 {
    let seed =
        ProcessInfo.processInfo.environment["LEDGER_TEST_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 1...UInt64.max)
    print("\(name): seed \(seed) (set LEDGER_TEST_SEED=\(seed) to reproduce)")
    return seed
}

/// A deterministic entry: its payload is derived from its number, so content can be checked on read.
func entry(_ number: Int, payloadBytes: Int = 40, author: String = "tester") -> JournalEntry {
    var id = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)).uuid
    withUnsafeMutableBytes(of: &id) { bytes in
        for index in 0..<8 { bytes[8 + index] |= UInt8(truncatingIfNeeded: number >> (8 * index)) }
    }
    let payload = (0..<payloadBytes).map { UInt8(truncatingIfNeeded: number &* 31 &+ $0) }
    return JournalEntry(requestID: UUID(uuid: id), author: author, schemaVersion: 1, payload: payload)
}

/// Small limits so that tests roll segments after a few records.
let smallLimits = JournalLimits(segmentBytesMax: 4096, recordBytesMax: 2048, groupRecordsMax: 16, groupBytesMax: 4096)

/// Writes a ledger at `path` in the small segments of ``smallLimits``: `count` records whose
/// payloads take 1 to `payloadBytesMax` bytes drawn from `random`, then records of 40 bytes while
/// `wantsMore` says so; returns the payloads, by sequence from 1.
func writeUnevenLedger(
    at path: String, count: Int, payloadBytesMax: Int, random: inout SplitMix64,
    while wantsMore: () throws -> Bool = { false }
) throws -> [[UInt8]] {
    try LedgerDirectory.create(at: path, fileSystem: SystemFileSystem())
    let journal = try Journal.open(at: path, options: JournalOptions(lockWaitSeconds: 2, limits: smallLimits))
    defer { journal.close() }
    var payloads: [[UInt8]] = []
    func append(_ payloadBytes: Int) throws {
        let appended = entry(payloads.count + 1, payloadBytes: payloadBytes)
        _ = try journal.appendAndWait(appended)
        payloads.append(appended.payload)
    }
    for _ in 0..<count { try append(Int(random.next() % UInt64(payloadBytesMax)) + 1) }
    while try wantsMore() { try append(40) }
    return payloads
}

/// Creates a ledger and appends `count` deterministic entries, one group each; returns their receipts.
@discardableResult
func makeLedger(
    at path: String, count: Int, limits: JournalLimits = .standard, fileSystem: any FileSystem = SystemFileSystem(),
    payloadBytes: Int = 40
) throws -> [AppendReceipt] {
    try LedgerDirectory.create(at: path, fileSystem: fileSystem)
    let journal = try Journal.open(
        at: path, options: JournalOptions(lockWaitSeconds: 2, fileSystem: fileSystem, limits: limits))
    defer { journal.close() }
    return try (1...max(1, count)).prefix(count).map {
        try journal.appendAndWait(entry($0, payloadBytes: payloadBytes))
    }
}

/// Creates a ledger and opens its journal for writing.
func createAndOpen(
    _ ledger: String, fileSystem: any FileSystem = SystemFileSystem(), limits: JournalLimits = .standard,
    clock: @escaping @Sendable () -> Int64 = WallClock.nowMicroseconds
) throws -> Journal {
    try LedgerDirectory.create(at: ledger, fileSystem: fileSystem)
    return try Journal.open(
        at: ledger, options: JournalOptions(lockWaitSeconds: 2, fileSystem: fileSystem, limits: limits, clock: clock))
}

/// Rewrites the ledger's `HEAD` to record the head at `sequence`, as a writer that died after
/// acknowledging later records leaves it (its open recorded the head it found).
func recordDurableHead(_ ledger: String, sequence: UInt64) throws {
    let identity = try LedgerDirectory.identity(at: ledger)
    let hash = try #require(try JournalReader(at: ledger).hash(at: sequence))
    try DurableHeads.writeMarker(
        HeadDigest(sequence: sequence, hash: hash), LedgerPaths(root: ledger), identity, fileSystem: SystemFileSystem())
}

/// Every record in the ledger, read with a fresh reader.
func readAll(_ path: String) throws -> [JournalRecord] {
    var records: [JournalRecord] = []
    try JournalReader(at: path).forEach { records.append($0) }
    return records
}

/// The segment files of a ledger, in order.
func segmentPaths(_ path: String) throws -> [String] {
    let paths = LedgerPaths(root: path)
    return try LedgerDirectory.segmentSequences(paths, fileSystem: SystemFileSystem()).map {
        paths.segment(firstSequence: $0)
    }
}

/// Reads a file's bytes.
func bytes(of path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

/// Replaces a file's bytes (in place, as damage would: the file keeps a ledger file's mode, 0600,
/// which an open requires).
func overwrite(_ path: String, with bytes: [UInt8]) {
    precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    precondition(chmod(path, 0o600) == 0)
}

/// Copies a checked-in ledger to `destination` with the modes a ledger has (directories 0700,
/// files 0600): git checks files out 0644 and directories 0755, which an open refuses.
func copyLedger(_ source: String, to destination: String) throws {
    try FileManager.default.copyItem(atPath: source, toPath: destination)
    try restrictModes(destination)
}

/// Sets a tree's directories to 0700 and its files to 0600.
func restrictModes(_ root: String) throws {
    precondition(chmod(root, 0o700) == 0)
    for name in try FileManager.default.subpathsOfDirectory(atPath: root) {
        let path = root + "/" + name
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        precondition(chmod(path, isDirectory.boolValue ? 0o700 : 0o600) == 0)
    }
}

/// The frame offsets of the records in one segment file.
func recordOffsets(inSegment path: String) -> [Int] {
    let data = bytes(of: path)
    var offsets: [Int] = []
    var offset = SegmentHeader.encodedBytes
    // A frame's length is never 0: a zero length is where the zeros ahead of the records begin.
    while offset + 8 <= data.count, RecordFrame.readUInt32(data, offset) != 0 {
        offsets.append(offset)
        offset += 8 + Int(RecordFrame.readUInt32(data, offset))
    }
    return offsets
}

/// Whether an error is a corruption error naming this file.
func isCorruption(_ error: any Error, file: String? = nil) -> Bool {
    guard case .corruption(let location, _) = error as? StorageError else { return false }
    return file.map { location.file.hasSuffix($0) } ?? true
}

/// A value shared between tasks or threads, guarded by a lock.
final class Locked<Value>: @unchecked Sendable {
    // Thread-safety: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// The frame size of `entry(_:payloadBytes:)` with the default author, for a sequence below 128
/// (whose varint takes one byte).
func frameBytes(payloadBytes: Int, author: String = "tester") -> Int {
    RecordFrame.frameHeaderBytes + RecordFrame.envelopeFixedBytes + author.utf8.count + payloadBytes
}

/// How many such frames the writer puts in one segment before it rolls.
func recordsPerSegment(_ limits: JournalLimits, payloadBytes: Int) -> Int {
    (limits.segmentBytesMax - SegmentHeader.encodedBytes) / frameBytes(payloadBytes: payloadBytes)
}

/// The relative name of a segment, as errors and reports give it.
func segmentName(_ first: UInt64) -> String { "journal/" + SegmentHeader.fileName(firstSequence: first) }

/// Waits on a semaphore for up to `seconds`; false if it timed out (a hang).
func wait(_ semaphore: DispatchSemaphore, seconds: Double = 10) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}
