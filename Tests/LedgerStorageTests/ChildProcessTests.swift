import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

#if canImport(Glibc)
    import Glibc
#endif

/// The path of a product built beside the test bundle.
func builtProduct(_ name: String) throws -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    throw StorageError.invalidArgument("cannot find the built product \(name) near \(CommandLine.arguments[0])")
}

/// A running child process whose stdout lines are collected as they arrive.
final class ChildProcess: @unchecked Sendable {
    // Thread-safety: `lines` and `partial` are guarded by `state`.
    let process = Process()
    private let state = Locked<(lines: [String], partial: String)>(([], ""))

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [state] handle in
            let data = handle.availableData
            state.withLock { state in
                state.partial += String(decoding: data, as: UTF8.self)
                while let newline = state.partial.firstIndex(of: "\n") {
                    state.lines.append(String(state.partial[..<newline]))
                    state.partial = String(state.partial[state.partial.index(after: newline)...])
                }
            }
        }
        try process.run()
    }

    /// The complete lines received so far (a line cut by the kill is not included).
    var lines: [String] { state.withLock { $0.lines } }

    /// Waits until a line satisfying `predicate` arrives, or the deadline passes.
    func waitForLine(timeout: Double = 20, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines.contains(where: predicate) { return true }
            usleep(2_000)
        }
        return false
    }

    /// Kills the child with SIGKILL and waits for it to die.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// The payload the child writes for a request id (mirrors `payload(for:)` in ledger-storage-child).
func childPayload(for id: UUID) -> [UInt8] {
    let digest = withUnsafeBytes(of: id.uuid) { SHA256.hash($0) }.bytes
    let repeats = 1 + Int(digest[0] % 8)
    return Array((0..<repeats).map { _ in digest }.joined())
}

@Suite("Real processes: SIGKILL and the writer lock", .serialized)
struct ChildProcessTests {
    static let childLimits = JournalLimits(
        segmentBytesMax: 64 << 10, recordBytesMax: 8 << 10, groupRecordsMax: 64, groupBytesMax: 64 << 10)

    @Test("A child appending in a loop, killed with SIGKILL at random moments, never loses a reported append")
    func killedChildLosesNothing() throws {
        let seed = testSeed("killedChildLosesNothing")
        var random = SplitMix64(seed: seed)
        let child = try builtProduct("ledger-storage-child")
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        var reported: [UInt64: UUID] = [:]
        for round in 0..<20 {
            let process = try ChildProcess(child, ["append", ledger, String(1 + random.next() % 4)])
            #expect(process.waitForLine { $0.hasPrefix("ACK") || $0.hasPrefix("ERROR") }, "seed \(seed) round \(round)")
            usleep(useconds_t(random.next() % 150_000))
            process.kill()
            for line in process.lines {
                let parts = line.split(separator: " ")
                #expect(parts.first == "ACK", "seed \(seed) round \(round): child said \(line)")
                guard parts.count == 3, let sequence = UInt64(parts[1]), let id = UUID(uuidString: String(parts[2]))
                else { continue }
                #expect(reported[sequence] == nil, "seed \(seed): sequence \(sequence) acknowledged twice")
                reported[sequence] = id
            }
            // Reopen as the next writer would: recovery runs, and every reported append is there.
            let journal = try Journal.open(at: ledger, options: JournalOptions(limits: Self.childLimits))
            journal.close()
            let records = Dictionary(
                uniqueKeysWithValues: try readAll(ledger).map { ($0.sequence, $0) })
            for (sequence, id) in reported {
                let record = try #require(records[sequence], "seed \(seed) round \(round): \(sequence) is missing")
                #expect(record.requestID == id, "seed \(seed): sequence \(sequence) holds another request")
                #expect(record.payload == childPayload(for: id), "seed \(seed): sequence \(sequence) payload differs")
            }
        }
        #expect(reported.count > 20, "seed \(seed): the children acknowledged almost nothing")
    }

    @Test("A journal closed while a child process holds a copy of its lock file's descriptor leaves the ledger free")
    func closeReleasesLockHeldByChildCopy() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        let journal = try Journal.open(at: ledger)
        // The journal's descriptor of the lock file, found as a child spawned by the process
        // would inherit it (the same open file description), given to a child as its stdin.
        let lockPath = URL(fileURLWithPath: LedgerPaths(root: ledger).lock).resolvingSymlinksInPath().path
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init)
        let lockDescriptor = try #require(
            descriptors.first {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == lockPath
            }, "no descriptor of \(lockPath) is open")
        // Close-on-exec, so that no child another test spawns meanwhile inherits it; the child's
        // stdin is a copy without that flag.
        let copy = fcntl(lockDescriptor, F_DUPFD_CLOEXEC, 0)
        try #require(copy >= 0)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        child.standardInput = FileHandle(fileDescriptor: copy, closeOnDealloc: true)
        try child.run()
        defer {
            // SIGKILL: a child can inherit SIGTERM blocked from the thread that spawned it.
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
        }
        #expect(throws: StorageError.locked(path: ledger)) { try Journal.open(at: ledger) }

        journal.close()
        // The child still holds the open file, but not the lock: the next writer opens at once.
        #expect(child.isRunning)
        let reopened = try Journal.open(at: ledger)
        reopened.close()
    }

    @Test("A second writer process is refused while the first holds the lock")
    func secondWriterRefused() throws {
        let child = try builtProduct("ledger-storage-child")
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        let holder = try ChildProcess(child, ["hold", ledger])
        #expect(holder.waitForLine { $0 == "LOCKED" })

        #expect(throws: StorageError.locked(path: ledger)) { try Journal.open(at: ledger) }
        let started = Date()
        #expect(throws: StorageError.locked(path: ledger)) {
            try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 0.3))
        }
        #expect(Date().timeIntervalSince(started) >= 0.3, "the writer did not wait as asked")
        #expect(StorageError.locked(path: ledger).description == "ledger is locked by another process: \(ledger)")

        // Another child is refused the same way, with exit status 75.
        let second = Process()
        second.executableURL = URL(fileURLWithPath: child)
        second.arguments = ["hold", ledger]
        second.standardError = FileHandle.nullDevice
        try second.run()
        second.waitUntilExit()
        #expect(second.terminationStatus == 75)

        // Readers need no lock.
        #expect(try JournalReader(at: ledger).verify().records == 1)

        // When the holder dies, a writer waiting for the lock gets it.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { holder.kill() }
        let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 10))
        #expect(try journal.appendAndWait(entry(2)).sequence == 2)
        journal.close()
    }

    @Test("appendAndWait from a completion stops the process with a clear message instead of hanging")
    func appendAndWaitOnWriterThreadStops() throws {
        let child = try builtProduct("ledger-storage-child")
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try LedgerDirectory.create(at: ledger)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: child)
        process.arguments = ["wait-in-completion", ledger]
        let errors = Pipe()
        let output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            Issue.record("appendAndWait called on the writer thread hung")
            return
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal, "\(message)")
        #expect(!printed.contains("RETURNED"))
        #expect(message.contains("appendAndWait was called on the journal's writer thread"), "\(message)")
    }

    @Test("Two writers in one process are refused the same way")
    func secondWriterInProcessRefused() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 1)
        let first = try Journal.open(at: ledger)
        #expect(throws: StorageError.locked(path: ledger)) { try Journal.open(at: ledger) }
        first.close()
        let again = try Journal.open(at: ledger)
        again.close()
    }
}
