import Foundation
import Synchronization
import Testing

/// What a program printed and how it ended.
struct ProgramRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The package's root directory, from this file's path.
func packageRoot() -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}

/// A new directory of its own for one test.
func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "ledger-server-cli-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The built `contacts-ledger`, beside the test bundle.
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

/// Runs the tool in a directory and waits for it.
func runTool(_ arguments: [String], in directory: String) throws -> ProgramRun {
    try runProgram(try toolPath(), arguments, in: directory)
}

/// Runs a program in a directory, reading both its outputs as it goes, and waits for it.
func runProgram(_ path: String, _ arguments: [String], in directory: String) throws -> ProgramRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    environment["CONTACTS_LEDGER"] = nil
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errors = Mutex(Data())
    let reader = Thread { errors.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
    reader.start()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while reader.isExecuting || !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    return ProgramRun(
        status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
        stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self))
}

/// `contacts-ledger serve --port 0` running in the background: its address, read from the
/// first line it prints, and Ctrl-C to stop it.
final class ServeProcess {
    private let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    private var printed = Data()
    /// The address it printed, token included.
    private(set) var url = ""

    init(ledger: String, in directory: String) throws {
        process.executableURL = URL(fileURLWithPath: try toolPath())
        process.arguments = ["--ledger", ledger, "serve", "--port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !String(decoding: printed, as: UTF8.self).contains("\n") && Date() < deadline && process.isRunning {
            printed += out.fileHandleForReading.availableData
        }
        let line = String(decoding: printed, as: UTF8.self).split(separator: "\n").first ?? ""
        guard let range = line.range(of: "http://") else {
            let errors = String(decoding: err.fileHandleForReading.availableData, as: UTF8.self)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve printed \(line) \(errors)"])
        }
        url = String(line[range.lowerBound...])
    }

    /// Interrupts it as Ctrl-C does and returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Everything it printed on standard output (after it stopped).
    func output() -> String {
        printed += out.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: printed, as: UTF8.self)
    }

    deinit { stop() }
}
