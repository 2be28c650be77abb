import ContactsLedger
import Foundation
import LedgerAudit
import Testing

/// The result of running the tool.
struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The lines of standard output.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// The lines of standard error.
    var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// Standard output parsed as one JSON value.
    func json() throws -> JSONValue { try JSONValue(parsing: stdout) }

    /// The identifiers a write printed (`VERB ID` lines).
    func identifiers(verb: String) -> [String] {
        lines.compactMap { line in
            line.hasPrefix(verb + " ") ? String(line.dropFirst(verb.count + 1)) : nil
        }
    }

    /// The head sequence a write printed (`head N`).
    var head: UInt64? {
        lines.last { $0.hasPrefix("head ") }.flatMap { UInt64($0.dropFirst("head ".count)) }
    }
}

/// The built `contacts-ledger` binary, found beside the test bundle.
func toolPath() throws -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("contacts-ledger").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    throw CocoaError(
        .fileNoSuchFile, userInfo: [NSFilePathErrorKey: "contacts-ledger near \(CommandLine.arguments[0])"])
}

/// Starts the tool (or `executable`, which is then given the arguments, such as a shell that
/// runs the tool) with arguments in a directory, with `CONTACTS_LEDGER` unset unless given.
func startTool(
    _ arguments: [String], in directory: String, environment: [String: String] = [:], executable: String? = nil
) throws -> (process: Process, stdout: Pipe, stderr: Pipe, stdin: Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try executable ?? toolPath())
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    env["CONTACTS_LEDGER"] = nil
    env["NO_COLOR"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    return (process, out, err, inPipe)
}

/// Runs the tool with arguments (and optional standard input) in a directory, and waits for it.
func runTool(
    _ arguments: [String], in directory: String, input: Data? = nil, environment: [String: String] = [:],
    executable: String? = nil
) throws -> ToolRun {
    let (process, out, err, inPipe) = try startTool(
        arguments, in: directory, environment: environment, executable: executable)
    if let input { inPipe.fileHandleForWriting.write(input) }
    try inPipe.fileHandleForWriting.close()
    // Read both pipes concurrently so that a chatty stderr cannot block the child.
    let errData = LockedData()
    let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    errData.wait()
    return ToolRun(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData.get(), as: UTF8.self))
}

/// Data handed from a reader thread.
final class LockedData: @unchecked Sendable {
    // Thread-safety: `data` is written once before `done` is signalled and read after waiting.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    func set(_ value: Data) {
        data = value
        done.signal()
    }
    func wait() { done.wait() }
    func get() -> Data { data }
}

/// A working directory of its own for one test.
final class WorkDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "contacts-ledger-cli-tests-\(getpid())/\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The default ledger inside it.
    var ledger: String { path + "/contacts.ledger" }

    /// Runs the tool here.
    func run(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> ToolRun {
        try runTool(arguments, in: path, input: input, environment: environment)
    }

    /// Runs the tool here and requires it to succeed.
    @discardableResult
    func succeed(
        _ arguments: [String], input: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ToolRun {
        let result = try run(arguments, input: input)
        try #require(
            result.status == 0, "\(arguments) exited \(result.status): \(result.stderr)", sourceLocation: sourceLocation
        )
        return result
    }

    /// Creates the default ledger.
    @discardableResult
    func initLedger() throws -> WorkDirectory {
        try succeed(["init"])
        return self
    }

    /// Adds a contact with the tool and returns its identifier.
    func add(_ arguments: [String]) throws -> String {
        let result = try succeed(["add"] + arguments)
        let identifiers = result.identifiers(verb: "added")
        try #require(identifiers.count == 1, "add printed \(result.stdout)")
        return identifiers[0]
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Checks a failure: the exit code, and one line on stderr (two for usage errors: the error and
/// the usage line).
func expectFailure(
    _ result: ToolRun, _ status: Int32, mentioning text: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    let lines = result.errorLines
    #expect(
        lines.first?.hasPrefix("contacts-ledger: ") == true, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    if status == 64 {
        #expect(lines.count == 2, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.last?.hasPrefix("Usage: contacts-ledger") == true, sourceLocation: sourceLocation)
    } else {
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    }
    if let text {
        #expect(result.stderr.contains(text), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    }
}

/// The seed of a randomized test: `LEDGER_TEST_SEED` when set, else a new one; printed.
func testSeed(_ name: String) -> UInt64 {
    let seed =
        ProcessInfo.processInfo.environment["LEDGER_TEST_SEED"].flatMap(UInt64.init)
        ?? UInt64.random(in: 1...UInt64.max)
    print("\(name): seed \(seed) (set LEDGER_TEST_SEED=\(seed) to repeat)")
    return seed
}

/// SplitMix64: a small seeded generator, so a failing run can be repeated from its seed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Adds ten contacts, one record each, and flips a byte inside the payload of the fifth
/// record: mid-journal damage, never a torn tail.
func makeCorruptLedger() throws -> WorkDirectory {
    let work = try WorkDirectory().initLedger()
    let store = try ContactStore(ledgerAt: work.ledger, client: .fullAccess("test"), create: false)
    for index in 0..<10 {
        var request = SaveRequest()
        var contact = MutableContact()
        contact.givenName = "Contact \(index)"
        request.add(contact, toContainerWithIdentifier: nil)
        try store.execute(request)
    }
    store.close()
    var fifth: LedgerLocation?
    try JournalReader(at: work.ledger).forEach { record in
        if record.sequence == 5 { fifth = record.location }
    }
    let location = try #require(fifth)
    let path = work.ledger + "/" + location.file
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    // Past the frame header (8 bytes) and into the fixed envelope's payload digest.
    bytes[Int(location.offset) + 8 + 50] ^= 0x5A
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return work
}
