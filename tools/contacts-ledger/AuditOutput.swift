import ContactsLedger
import Foundation
import LedgerAudit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `log` and `history` write: standard output, through a pager when it is a terminal,
/// a record at a time in buffered writes so that a long log neither waits nor piles up in memory.
final class AuditOutput {
    private let json: Bool
    private var pager: Pager?
    private var buffer: [UInt8] = []
    private var count = 0
    /// JSON lines, formatted a batch of records at a time on every processor.
    private var jsonLines = ParallelText<AuditEntry, Never>(weight: { max(1, $0.changes.count) }) { entry, _, output in
        AuditJSON.write(entry, to: &output)
        output.append(UInt8(ascii: "\n"))
    }
    /// JSON lines of records decoded as they are formatted, a batch at a time on every processor.
    /// A batch weighs about as much as one of entries: an operation is a few hundred bytes.
    private var recordLines = ParallelText<AuditRecord, any Error>(weight: { max(1, $0.payloadCount / 256) }) {
        record, _, output in
        guard let entry = try record.entry() else { return }
        AuditJSON.write(entry, to: &output)
        output.append(UInt8(ascii: "\n"))
    }
    /// Whether a write failed: the reader (a pager quit early, `head`) is gone.
    private(set) var isClosed = false

    /// Starts the pager when asked for and standard output is a terminal.
    init(json: Bool, paged: Bool) {
        self.json = json
        pager = paged ? Pager.start() : nil
        buffer.reserveCapacity(Self.flushSize)
    }

    /// How many bytes are gathered before they are written.
    private static let flushSize = 1 << 16

    /// Writes one record of the audit log: a JSON line, or its text after a blank line.
    func write(_ entry: AuditEntry) {
        guard json else { return add(AuditText.lines(entry)) }
        count += 1
        jsonLines.add(entry, to: &buffer)
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Writes one record of the audit log as a JSON line, decoding it with others on every
    /// processor; throws if a record cannot be decoded, after the lines of those before it.
    func writeJSON(_ record: AuditRecord) throws {
        count += 1
        try recordLines.add(record, to: &buffer)
        // The batches still in formatting are left to it: a batch's text is written as it comes,
        // never gathered behind the others into one buffer copied as it grows.
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Writes what is gathered now, the records included; throws as ``writeJSON(_:)``.
    func flushRecords() throws {
        do {
            try recordLines.drain(to: &buffer)
        } catch {
            flush()
            throw error
        }
        flush()
    }

    /// Writes one revision of a contact: a JSON line, or its text after a blank line.
    func write(_ revision: ContactRevision) {
        add(json ? [AuditJSON.value(for: revision).serialized()] : AuditText.lines(revision))
    }

    private func add(_ lines: [String]) {
        if count > 0 && !json { buffer.append(UInt8(ascii: "\n")) }
        count += 1
        for line in lines {
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
        }
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Writes what is gathered now (`log --follow` after each batch of new records).
    func flush() {
        jsonLines.drain(to: &buffer)
        guard !buffer.isEmpty else { return }
        do { try StreamOutput.writeAll(buffer, to: STDOUT_FILENO) } catch { isClosed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the rest and waits for the pager, if one runs, to be quit.
    func finish() {
        flush()
        pager?.finish()
        pager = nil
    }
}

/// The pager `log` and `history` write through on a terminal, as `git log` does: `$PAGER`, or
/// `less -R` when it is unset; an empty `$PAGER` or `cat` means none. `LESS` defaults to `FRX`,
/// so that less quits at once when everything fits on one screen and passes colour through.
struct Pager {
    private let process: Process
    private let savedOutput: Int32

    /// Starts the pager with standard output of this process going into it, or returns nil when
    /// standard output is not a terminal, no pager is wanted, or it cannot be started.
    static func start() -> Pager? {
        guard Terminal.stdoutIsTerminal else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let command = environment["PAGER"] ?? "less -R"
        guard !command.trimmingCharacters(in: .whitespaces).isEmpty, command != "cat" else { return nil }
        // Decided now, while standard output is still the terminal.
        _ = Terminal.colourOnStdout
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var childEnvironment = environment
        if childEnvironment["LESS"] == nil { childEnvironment["LESS"] = "FRX" }
        process.environment = childEnvironment
        let pipe = Pipe()
        process.standardInput = pipe
        do { try process.run() } catch { return nil }
        let saved = dup(STDOUT_FILENO)
        dup2(pipe.fileHandleForWriting.fileDescriptor, STDOUT_FILENO)
        try? pipe.fileHandleForWriting.close()
        // A pager quit early closes the pipe; the writes then fail quietly instead of killing
        // the tool.
        signal(SIGPIPE, SIG_IGN)
        return Pager(process: process, savedOutput: saved)
    }

    /// Ends the pager's input and waits until it is quit, then gives standard output back.
    func finish() {
        dup2(savedOutput, STDOUT_FILENO)
        close(savedOutput)
        process.waitUntilExit()
    }
}

extension HelpText {
    /// What `head N` and the digest are, said once in the tool's help.
    static let headAndDigest = """
        Every write ends with `head N` once its record is on disk: N is the ledger's head, the sequence
        number of its newest record, which counts every request ever saved. `digest` prints the head as
        `N HASH`, the newest record's chain hash, which covers that record and, through the hash before
        it, every record up to it. Keep a digest somewhere else; `verify --digest N:HASH` later proves
        that nothing up to N was altered, dropped or reordered. A sequence names a point in the ledger's
        history wherever one is asked for (`--as-of N`, `log --from N`, `restore --sequence N`).
        """

    /// The `--no-pager` option of `log` and `history`.
    static let pager = """
          --no-pager           Writes straight to the terminal instead of through $PAGER (default
                               `less -R`); piped or redirected output is never paged.
        """
}
