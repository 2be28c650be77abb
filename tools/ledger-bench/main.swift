// ledger-bench: measures the library on this machine and prints one JSON object (a readable
// table with --table). Build and run it in release mode:
//
//   swift build -c release --product ledger-bench
//   .build/release/ledger-bench [--quick] [--table] [--dir DIRECTORY] [--keep]
//
// Every figure that depends on the disk or the CPU comes with its baseline from the same run:
// commits beside a raw append+fdatasync on the same filesystem, replay beside reading and
// checksumming the same journal, indexed search beside a linear scan of the same contacts, and
// search through the public API beside SQLite's (tools/sqlite-peer/peer.py) over the same contacts.
// Documentation/Performance.md describes the method and the last full run.
import ContactsEngine
import ContactsLedger
import Foundation
import LedgerStorage

#if canImport(Glibc)
    import Glibc
#endif

let usage = """
    usage: ledger-bench [--quick] [--table] [--dir DIRECTORY] [--keep] [--sizes N,N...] [--commit-only]
                        [--measure-compat PATH] [--measure-cli PATH] [--measure-server PATH]
                        [--measure-public-search PATH] [--sqlite-peer PATH | --no-sqlite-peer]

    Measures commits, group commit, replay, open with a snapshot, search, fetch by identifier,
    memory, the command-line tool, the framework's names (ContactsCompat) beside the native API
    and the web server, and prints one JSON object on standard output (a table with --table).

      --quick          a small version of everything (ledgers of 1,000 and 2,000 contacts), in seconds
      --table          print a readable table instead of JSON
      --dir DIRECTORY  where to write the scratch ledgers (default: the temporary directory); the
                       baseline is measured there too, so it is the same filesystem
      --keep           keep the scratch directory and the ledgers in it
      --sizes N,N...   the contact counts of the generated ledgers (default 100000,1000000; with
                       --quick 1000,2000); search and memory are measured on the last
      --commit-only    measure only the commit figures (single commits beside the fdatasync baseline,
                       and group commit), writing no generated ledgers
      --measure-compat PATH
                       run only the ContactsCompat section (the framework's names beside the native
                       API) on one ledger written by an earlier --keep run
      --measure-cli PATH
                       run only the command-line section on one ledger written by an earlier --keep
                       run (its contacts and records are read from it)
      --measure-server PATH
                       run only the web server section on one ledger written by an earlier --keep run
                       (it commits contacts to it): the list's first page, search as you type and a
                       contact's page timed at the server, and 64 readers while a writer commits
      --measure-ledger PATH [--measure-search | --measure-open-only | --measure-replay-only]
                       measure one ledger written by an earlier --keep run (open, memory, read,
                       replay, and search and fetches with --measure-search; only the open with
                       --measure-open-only; only the replays with --measure-replay-only) in this
                       process and print its figures; the full run does this in a child process,
                       and it is the mode to profile. --measure-search-index-only measures search
                       without the linear scans (no scan ratio), and the fetches, for profiling
      --measure-footprint PATH
                       open one ledger written by an earlier --keep run, in this process and doing
                       nothing else, and print the peak and steady resident memory the open added;
                       the full run does this in a child process for each ledger
      --measure-public-search PATH
                       run only the search through the public API (unifiedContacts and
                       enumerateContacts, given and family names) on one ledger written by an earlier
                       --keep run, beside the SQLite peer unless --no-sqlite-peer
      --sqlite-peer PATH
                       the SQLite peer's script (default: tools/sqlite-peer/peer.py found above the
                       executable or the current directory); it runs with python3 from the PATH and
                       answers the public API's search queries over the same contacts
      --no-sqlite-peer leave the SQLite peer out (no python3 needed; no SQLite figures or ratios)

    Exit codes: 0 success; 64 usage error; 1 any other failure.
    """

/// The region every store of the bench reads phone numbers in: the generator writes NANP numbers
/// mostly, and the figures must not depend on the locale of the machine that runs it.
let benchRegion = "us"

struct Options {
    var quick = false
    var table = false
    var keep = false
    var directory = NSTemporaryDirectory()
    /// Internal: measure one ledger in this process and print its figures as JSON.
    var measure: String?
    var measureSearch = false
    /// Internal, for profiling: with `--measure-ledger`, measure only the open with a snapshot.
    var measureOpenOnly = false
    /// Internal, for profiling: with `--measure-ledger`, measure only the replays.
    var measureReplayOnly = false
    /// Internal, for profiling: with `--measure-search`, leave out the linear scans.
    var measureSearchIndexOnly = false
    /// The contact counts of the generated ledgers; the last one is searched.
    var sizes: [Int]?
    /// Measure only the commit figures.
    var commitOnly = false
    /// Run only the command-line section on this ledger.
    var measureCLI: String?
    /// Run only the ContactsCompat section on this ledger.
    var measureCompat: String?
    /// Run only the web server section on this ledger.
    var measureServer: String?
    /// Internal: open this ledger and print the open's memory (``FootprintBench``).
    var measureFootprint: String?
    /// Run only the search through the public API (and its SQLite peer) on this ledger.
    var measurePublicSearch: String?
    /// The SQLite peer's script, when not the repository's.
    var sqlitePeerScript: String?
    /// Leave the SQLite peer out.
    var noSQLitePeer = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--table": table = true
            case "--keep": keep = true
            case "--dir":
                guard let value = rest.popFirst() else { throw UsageError("--dir needs a directory") }
                directory = value
            case "--measure-ledger":
                guard let value = rest.popFirst() else { throw UsageError("--measure-ledger needs a path") }
                measure = value
            case "--measure-search": measureSearch = true
            case "--measure-footprint":
                guard let value = rest.popFirst() else { throw UsageError("--measure-footprint needs a path") }
                measureFootprint = value
            case "--measure-open-only": measureOpenOnly = true
            case "--measure-replay-only": measureReplayOnly = true
            case "--measure-search-index-only":
                measureSearch = true
                measureSearchIndexOnly = true
            case "--commit-only": commitOnly = true
            case "--measure-cli":
                guard let value = rest.popFirst() else { throw UsageError("--measure-cli needs a path") }
                measureCLI = value
            case "--measure-compat":
                guard let value = rest.popFirst() else { throw UsageError("--measure-compat needs a path") }
                measureCompat = value
            case "--measure-server":
                guard let value = rest.popFirst() else { throw UsageError("--measure-server needs a path") }
                measureServer = value
            case "--measure-public-search":
                guard let value = rest.popFirst() else { throw UsageError("--measure-public-search needs a path") }
                measurePublicSearch = value
            case "--sqlite-peer":
                guard let value = rest.popFirst() else { throw UsageError("--sqlite-peer needs a path") }
                sqlitePeerScript = value
            case "--no-sqlite-peer": noSQLitePeer = true
            case "--sizes":
                guard let value = rest.popFirst(),
                    case let sizes = value.split(separator: ",").compactMap({ Int($0) }), !sizes.isEmpty,
                    sizes.allSatisfy({ $0 >= 100 })
                else { throw UsageError("--sizes needs contact counts of at least 100, separated by commas") }
                self.sizes = sizes
            case "--help", "-h":
                print(usage)
                exit(0)
            default: throw UsageError("unknown argument \(argument)")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs this executable again to measure one ledger in a fresh process; returns its JSON.
func measureInChild(_ path: String, quick: Bool, search: Bool, peer: SQLitePeer?) throws -> [String: Any] {
    try childJSON(
        ["--measure-ledger", path] + (quick ? ["--quick"] : []) + (search ? ["--measure-search"] : [])
            + (peer.map { ["--sqlite-peer", $0.script] } ?? ["--no-sqlite-peer"]))
}

/// Runs this executable again with `arguments` in a fresh process and returns the JSON object it
/// prints.
func childJSON(_ arguments: [String]) throws -> [String: Any] {
    let process = Process()
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
        throw UsageError("\(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
    }
    return object
}

/// The command-line section on one ledger (``CLIBench``), or nil when `contacts-ledger` was not
/// built beside this executable; the contacts and records are counted when not given.
func cliFigures(ledger: String, contacts: Int?, records: UInt64?, quick: Bool) throws -> [String: Any]? {
    guard let tool = CLIBench.toolPath() else {
        FileHandle.standardError.write(Data("ledger-bench: no contacts-ledger beside it; CLI section skipped\n".utf8))
        return nil
    }
    var counted = (contacts: contacts ?? 0, records: records ?? 0)
    if contacts == nil || records == nil {
        let store = try ContactStore(readingLedgerAt: ledger, client: .fullAccess("bench-cli", region: benchRegion))
        defer { store.close() }
        var request = ContactFetchRequest(keysToFetch: [], sortOrder: .none)
        request.unifyResults = false
        var count = 0
        try store.enumerateContacts(with: request) { _, _ in count += 1 }
        counted = (count, store.headDigest.sequence)
    }
    return try CLIBench(ledger: ledger, contacts: counted.contacts, records: counted.records, runs: quick ? 1 : 3)
        .run(tool: tool)
}

func printJSON(_ object: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("ledger-bench: \(error)\n\(usage)\n".utf8))
    exit(64)
}

do {
    // Found before anything is measured, so that a missing python3 fails the run at once; only
    // the runs that search need it.
    func sqlitePeer() throws -> SQLitePeer? {
        options.noSQLitePeer ? nil : try SQLitePeer(script: options.sqlitePeerScript)
    }
    if let path = options.measure {
        try printJSON(
            LedgerMeasurement(
                path: path, quick: options.quick, search: options.measureSearch,
                openOnly: options.measureOpenOnly, searchIndexOnly: options.measureSearchIndexOnly,
                replayOnly: options.measureReplayOnly,
                sqlitePeer: options.measureSearch ? sqlitePeer() : nil
            )
            .run())
        exit(0)
    }
    if let path = options.measureFootprint {
        try printJSON(try FootprintBench.measureOpen(path: path))
        exit(0)
    }
    if let path = options.measurePublicSearch {
        try printJSON(try LedgerMeasurement.publicSearch(path: path, quick: options.quick, sqlitePeer: sqlitePeer()))
        exit(0)
    }
    if let path = options.measureCompat {
        try printJSON(try await CompatBench(ledger: path, quick: options.quick).run())
        exit(0)
    }
    if let path = options.measureServer {
        try printJSON(try ServerBench(ledger: path, quick: options.quick).run())
        exit(0)
    }
    if let path = options.measureCLI {
        try printJSON(try cliFigures(ledger: path, contacts: nil, records: nil, quick: options.quick) ?? [:])
        exit(0)
    }
    let peer = options.commitOnly ? nil : try sqlitePeer()
    let scratch = options.directory + "/ledger-bench-\(getpid())"
    try? FileManager.default.removeItem(atPath: scratch)
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { if !options.keep { try? FileManager.default.removeItem(atPath: scratch) } }
    let started = Date()
    func progress(_ message: String) {
        let elapsed = String(format: "%7.1fs", Date().timeIntervalSince(started))
        FileHandle.standardError.write(Data("ledger-bench \(elapsed) \(message)\n".utf8))
    }

    // The memory's latency before the commits (see MemoryProbe); each ledger's measuring
    // process takes it again before its replays.
    progress("memory latency")
    let memoryReadNanoseconds = MemoryProbe.figure(quick: options.quick, seed: 1)
    let commit = CommitBench(scratch: scratch, quick: options.quick)
    progress("single commits and the fdatasync baseline")
    let single = try commit.single()
    // Two rounds over the writer counts (one with --quick), summed per count, so that a change
    // of the disk's fdatasync mode during the run lands on every count rather than on one.
    var groups: [CommitBench.Group] = []
    for round in 0..<(options.quick ? 1 : 2) {
        for (index, writers) in [1, 4, 16, 64].enumerated() {
            progress("group commit, \(writers) writers, round \(round + 1)")
            let measured = try await commit.group(writers: writers, round: round)
            if round == 0 {
                groups.append(measured)
            } else {
                groups[index].commits += measured.commits
                groups[index].syncs += measured.syncs
                groups[index].seconds += measured.seconds
                groups[index].cpuSeconds += measured.cpuSeconds
            }
        }
    }
    let vcardBytes = try single.contacts.map { try VCardSerialization.data(with: [$0], version: .v3_0).count }

    let sizes =
        options.commitOnly ? [] : options.sizes ?? (options.quick ? [1_000, 2_000] : [100_000, 1_000_000])
    var ledgers: [(built: LedgerBuilder.Built, measured: [String: Any])] = []
    var cli: [String: Any]?
    var compat: [String: Any]?
    var server: [String: Any]?
    for (index, size) in sizes.enumerated() {
        progress("writing a ledger of \(size) contacts")
        let built = try await LedgerBuilder(
            path: scratch + "/ledger-\(size).ledger", contacts: size, seed: UInt64(size)
        ).build()
        progress("measuring the ledger of \(size) contacts (\(built.records) records, \(built.events) events)")
        var measured = try measureInChild(
            built.path, quick: options.quick, search: index == sizes.count - 1, peer: peer)
        progress("measuring the footprint of the ledger of \(size) contacts")
        measured["footprint"] = try FootprintBench.figures(ledger: built.path, contacts: size)
        ledgers.append((built, measured))
        if index == 0 {
            progress("running contacts-ledger on the ledger of \(size) contacts")
            cli = try cliFigures(ledger: built.path, contacts: size, records: built.records, quick: options.quick)
            progress("ContactsCompat beside the native API on the ledger of \(size) contacts")
            compat = try await CompatBench(ledger: built.path, quick: options.quick).run()
        }
        if index == sizes.count - 1 {
            progress("serving the ledger of \(size) contacts")
            server = try ServerBench(ledger: built.path, quick: options.quick).run()
        }
        if !options.keep { try? FileManager.default.removeItem(atPath: built.path) }
    }
    progress("done")

    let report = Report(
        quick: options.quick, single: single, groups: groups, vcardBytes: vcardBytes, ledgers: ledgers,
        memoryReadNanoseconds: memoryReadNanoseconds, cli: cli, compat: compat, server: server)
    if options.table {
        print(report.table())
    } else {
        try printJSON(report.json())
    }
} catch {
    FileHandle.standardError.write(Data("ledger-bench: \(error)\n".utf8))
    exit(1)
}
