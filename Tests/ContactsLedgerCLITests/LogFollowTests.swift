import ContactsLedger
import Foundation
import Testing

/// What a running process has written so far, read on a thread of its own.
final class GrowingOutput: @unchecked Sendable {
    // Thread-safety: `data` is guarded by `lock`.
    private let lock = NSLock()
    private var data = Data()

    /// Starts reading the pipe until its end.
    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                self.lock.withLock { self.data.append(chunk) }
            }
        }.start()
    }

    /// The complete lines so far.
    var lines: [String] {
        let text = lock.withLock { String(decoding: data, as: UTF8.self) }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until `done` holds for the lines, for at most `seconds`; returns whether it did.
    func wait(seconds: Double = 20, until done: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if done(lines) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return done(lines)
    }
}

/// `log --follow` while other processes commit: every new record is printed once, in order, as
/// it is committed, with inotify and with polling.
@Suite("contacts-ledger: log --follow")
struct LogFollowTests {
    /// The sequences of JSON lines.
    static func sequences(_ lines: [String]) -> [Int64] {
        lines.compactMap { try? JSONValue(parsing: $0)["sequence"]?.intValue }
    }

    @Test("log --follow prints the records another process commits while it runs", arguments: [false, true])
    func follow(polling: Bool) throws {
        let work = try WorkDirectory().initLedger()
        _ = try work.add(["--given", "Before"])
        let environment = polling ? ["CONTACTS_LEDGER_TEST_POLL": "1"] : [:]
        let follower = try startTool(["log", "--follow", "--json"], in: work.path, environment: environment)
        defer {
            if follower.process.isRunning { follower.process.terminate() }
            follower.process.waitUntilExit()
        }
        let output = GrowingOutput(follower.stdout)
        #expect(output.wait { Self.sequences($0) == [1] })
        for index in 0..<3 {
            _ = try work.add(["--given", "After \(index)", "--author", "writer"])
            #expect(output.wait { Self.sequences($0).count == index + 2 }, "lines: \(output.lines)")
        }
        try work.succeed(["update", work.add(["--given", "Last"]), "--job-title", "Follower"])
        #expect(output.wait { Self.sequences($0).count == 6 }, "lines: \(output.lines)")
        #expect(Self.sequences(output.lines) == [1, 2, 3, 4, 5, 6])
        #expect(follower.process.isRunning)
        follower.process.terminate()
        follower.process.waitUntilExit()
        #expect(follower.process.terminationReason == .uncaughtSignal)
    }

    @Test("log --follow keeps to its filters and -n 0 prints only new records, as text")
    func followFiltered() throws {
        let work = try WorkDirectory().initLedger()
        _ = try work.add(["--given", "Old", "--author", "alice"])
        let follower = try startTool(["log", "--follow", "-n", "0", "--author", "alice"], in: work.path)
        defer {
            if follower.process.isRunning { follower.process.terminate() }
            follower.process.waitUntilExit()
        }
        let output = GrowingOutput(follower.stdout)
        _ = try work.add(["--given", "Someone", "--author", "bob"])
        _ = try work.add(["--given", "Wanted", "--author", "alice"])
        #expect(output.wait { $0.contains { $0.contains("+ Given name: Wanted") } }, "lines: \(output.lines)")
        let headers = output.lines.filter { $0.hasPrefix("record ") }
        #expect(headers.count == 1)
        #expect(headers.first?.hasPrefix("record 3 ") == true)
        #expect(!output.lines.contains { $0.contains("Someone") || $0.contains("Old") })
    }
}
