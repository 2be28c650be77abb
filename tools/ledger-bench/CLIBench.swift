import Foundation
import LedgerAudit

/// The command-line section: runs the built `contacts-ledger` (found beside this executable) on a
/// ledger the bench wrote, as a person would, and times each command from start to exit, ledger
/// open included. Output goes to a pipe that is read and counted, not to a terminal.
///
/// The bars: `list --json`, `log --json` and `export` write at least 200,000 contacts or
/// operations a second (`log --json`'s rate counts the operations of its records, since one record
/// can add thousands of contacts); `show`, `search`, `history`, `log -n 20` and `digest` finish in
/// under 100 ms.
struct CLIBench {
    /// The ledger's path, its contacts and its records.
    let ledger: String
    let contacts: Int
    let records: UInt64
    /// How many times each command runs; the median counts.
    let runs: Int

    /// One command's figure.
    struct Figure {
        var name: String
        var seconds: Double
        var outputBytes: Int
        /// Contacts or records a second, for the commands that write every one of them.
        var perSecond: Double?
        /// The exit status; a command that failed has no time.
        var status: Int32
    }

    /// The tool beside this executable, or nil when it was not built.
    static func toolPath() -> String? {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(
            "contacts-ledger"
        ).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Runs every command and returns their figures as the report's `cli` object.
    func run(tool: String) throws -> [String: Any] {
        let (identifier, name) = try sampleContact(tool: tool)
        let operations = try operationCount()
        let commands: [(String, [String], Double?)] = [
            ("list_json", ["list", "--json"], Double(contacts)),
            ("log_json", ["log", "--json"], Double(operations)),
            ("export", ["export"], Double(contacts)),
            ("show", ["show", identifier], nil),
            ("search", ["search", "--name", name], nil),
            ("history", ["history", identifier], nil),
            ("log_n_20", ["log", "-n", "20"], nil),
            ("digest", ["digest"], nil),
        ]
        var figures: [String: Any] = [
            "contacts": contacts, "records": records, "operations": operations, "runs": runs,
        ]
        for (key, arguments, count) in commands {
            let figure = try measure(key, arguments, tool: tool, count: count)
            guard figure.status == 0 else {
                // A tool built without the command (or option) says so instead of a time.
                figures[key] = ["exit_status": figure.status]
                continue
            }
            var entry: [String: Any] = ["seconds": figure.seconds, "output_bytes": figure.outputBytes]
            if let perSecond = figure.perSecond { entry["per_second"] = perSecond }
            figures[key] = entry
        }
        return figures
    }

    /// How many operations the ledger's records hold, read through the audit library.
    private func operationCount() throws -> Int {
        var count = 0
        _ = try LedgerAuditor(ledgerAt: ledger).forEachEntry { entry in
            count += entry.changes.count
            return true
        }
        return count
    }

    /// The first contact in storage order: its identifier and its given name, to show and search.
    private func sampleContact(tool: String) throws -> (String, String) {
        let (output, _) = try Self.execute(
            tool, ["--ledger", ledger, "--region", benchRegion, "list", "--sort", "none"])
        let line = String(decoding: output.prefix { $0 != 0x0A }, as: UTF8.self)
        let identifier = String(line.prefix(36))
        let name = line.dropFirst(38).split(separator: " ").first.map(String.init) ?? "a"
        guard UUID(uuidString: identifier) != nil else { throw UsageError("contacts-ledger list printed \(line)") }
        return (identifier, name)
    }

    /// The median wall time of `runs` runs of one command, and its output's size.
    private func measure(_ name: String, _ arguments: [String], tool: String, count: Double?) throws -> Figure {
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<runs {
            let started = DispatchTime.now().uptimeNanoseconds
            let (output, status) = try Self.execute(tool, ["--ledger", ledger, "--region", benchRegion] + arguments)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            guard status == 0 else { return Figure(name: name, seconds: .nan, outputBytes: 0, status: status) }
            bytes = output.count
        }
        let seconds = times.sorted()[times.count / 2]
        return Figure(
            name: name, seconds: seconds, outputBytes: bytes, perSecond: count.map { $0 / seconds }, status: 0)
    }

    /// Runs the tool and returns its standard output and exit status; standard error is dropped.
    private static func execute(_ tool: String, _ arguments: [String]) throws -> (Data, Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, process.terminationStatus)
    }
}
