import ContactsLedger
import Foundation

/// One command of the tool: parsed and validated from its arguments by `init`, then run.
///
/// A command holds no business logic: `run` translates its arguments into library calls and
/// prints what they return.
protocol ToolCommand: Sendable {
    /// The words that select the command (`"add"`, `"group create"`).
    static var name: String { get }
    /// One line for the tool's command list.
    static var summary: String { get }
    /// The usage line, after `contacts-ledger [--ledger PATH] `.
    static var usage: String { get }
    /// The help text: what the command does and its options, in sentences.
    static var help: String { get }
    /// The options that take a value, besides the global ones.
    static var valued: Set<String> { get }
    /// The flags, besides `--help`.
    static var flags: Set<String> { get }
    /// One-letter options and the long option each stands for (`-n` for `--limit`).
    static var shortOptions: [String: String] { get }

    /// Parses and validates the arguments; throws a usage failure when they are wrong.
    init(_ arguments: Arguments) throws(CommandFailure)

    /// Runs the command.
    func run(_ context: CommandContext) throws

    /// The request id of a command that saves, which a failure names (with whether the request
    /// was saved); nil for a command that saves nothing.
    var requestIdentifier: UUID? { get }
}

extension ToolCommand {
    static var valued: Set<String> { [] }
    static var flags: Set<String> { [] }
    static var shortOptions: [String: String] { [:] }
    var requestIdentifier: UUID? { nil }
}

extension ToolCommand {
    /// The words with each one-letter option spelled as its long option: `-n 5` and `-n5` become
    /// `--limit 5`. A word after `--`, or the value of an option, is left as it is.
    static func expandingShortOptions(_ words: ArraySlice<String>) -> [String] {
        var expanded: [String] = []
        var takesValue = false
        var ended = false
        for word in words {
            let short = !takesValue && !ended && word.count >= 2 && word.hasPrefix("-") && !word.hasPrefix("--")
            if short, let long = shortOptions[String(word.dropFirst().prefix(1))] {
                let rest = String(word.dropFirst(2))
                expanded += rest.isEmpty ? ["--" + long] : ["--" + long, rest]
                takesValue = rest.isEmpty && valued.contains(long)
                continue
            }
            expanded.append(word)
            if !takesValue && word.hasPrefix("--") {
                ended = ended || word == "--"
                takesValue = !ended && !word.contains("=") && valued.contains(String(word.dropFirst(2)))
            } else {
                takesValue = false
            }
        }
        return expanded
    }
}

/// What every command runs with: the ledger, the lock wait, and the client it acts as.
struct CommandContext {
    /// The ledger directory.
    var ledger: String
    /// How long a write waits for another writer to release the ledger.
    var waitSeconds: Double
    /// The region national phone numbers are read in (`--region`, `CONTACTS_LEDGER_REGION`).
    var region: String

    /// The client the tool acts as: `ClientContext.owner("contacts-ledger")`, the ledger's owner,
    /// authorized for every contact, holding the notes entitlement, and alone able to grant. The
    /// tool is its user's own window on the ledger, like a database's shell, so it sees and
    /// changes everything; the transaction author (`--author`) is what the audit log shows.
    var client: ClientContext { .owner("contacts-ledger", region: region) }

    /// Throws "ledger missing" (66) when there is no ledger at the path, so that commands never
    /// create one by accident; only `init` does.
    func requireLedger() throws {
        _ = try LedgerDirectory.identity(at: ledger)
    }

    /// Opens the ledger as its single writer, waiting up to `waitSeconds` for the lock, through
    /// the test hook's file layer when it is set (``TestFaults``).
    func openForWriting() throws -> ContactStore {
        try requireLedger()
        return try ContactStore(
            ledgerAt: ledger, client: client, create: false, lockWaitSeconds: waitSeconds,
            fileSystem: try TestFaults.fileSystem())
    }

    /// Opens the ledger read-only, without the lock: now, or as it was at a point.
    func openForReading(asOf point: LedgerPoint? = nil) throws -> ContactStore {
        try requireLedger()
        let store = try ContactStore(readingLedgerAt: ledger, asOf: point, client: client)
        if case .sequence(let sequence) = point, sequence > store.headDigest.sequence {
            throw CommandFailure(
                .failure, "sequence \(sequence) is after the ledger's head, \(store.headDigest.sequence)")
        }
        return store
    }
}

/// Text shared by the commands' help.
enum HelpText {
    /// The global options, as each command's help lists them.
    static let globalOptions = """
          --ledger PATH        The ledger directory (default: $CONTACTS_LEDGER, else ./contacts.ledger).
          --wait SECONDS       How long a write waits for another writer to release the ledger (default 10).
          --region CC          The region national phone numbers are dialled in, a two-letter ISO 3166 code
                               such as gb (default: $CONTACTS_LEDGER_REGION, else the locale's from
                               LC_ALL, LC_TELEPHONE or LANG, else none); phone search and duplicates read
                               numbers with it.
          --help, -h           Prints this help.
          --version            Prints the tool's version and the formats it writes (before the command).
        """

    /// The `--as-of` option.
    static let asOf = """
          --as-of POINT        Shows the ledger as it was at POINT, read-only: a sequence number, an RFC
                               3339 time (2026-12-05T14:30:00Z), a local time (2026-12-05T14:30) or a
                               date (2026-12-05, its end in local time), inclusive.
        """

    /// The `--json` option.
    static let json = """
          --json               Prints JSON instead of text.
        """

    /// The options of every write.
    static let writeOptions = """
          --author NAME        The transaction author recorded in the ledger and shown by the audit log.
          --request-id UUID    The request's idempotency key: running the same write again with the same id
                               changes nothing and prints the original result.
          --json               Prints {"action", "identifiers", "sequence", "head", "time", "requestId",
                               "alreadyCommitted"} instead of text.
        """

    /// What every write prints.
    static let writeOutput = """
        It prints one line per affected identifier, such as `added ID`, and then `head N`, the new head
        sequence, once the record is on disk.
        """
}

extension HelpText {
    /// Breaks text into lines of at most `width` characters at spaces, after `prefix` (kept as it
    /// is); every line after the first starts with `indent`.
    static func wrap(_ text: String, prefix: String = "", width: Int = 100, indent: String = "") -> String {
        var lines: [String] = []
        var line = prefix
        for word in text.split(separator: " ") {
            if line.count > prefix.count && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent + word
            } else {
                line += (line.count == prefix.count || line.hasSuffix(" ") ? "" : " ") + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}

/// Parses a `--wait` value.
func parseWait(_ text: String) throws(CommandFailure) -> Double {
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
        throw CommandFailure(.usage, "--wait must be a number of seconds, got \(text)")
    }
    return seconds
}

/// Parses a region: a two-letter ISO 3166-1 code, returned in lowercase. A region without
/// numbering data is accepted; national numbers then keep an unknown calling code.
func parseRegion(_ text: String, from source: String) throws(CommandFailure) -> String {
    guard text.count == 2, text.allSatisfy({ $0.isASCII && $0.isLetter }) else {
        throw CommandFailure(.usage, "\(source) must be a two-letter ISO 3166 country code such as gb, got \(text)")
    }
    return text.lowercased()
}

/// Parses a request id.
func parseRequestID(_ text: String?) throws(CommandFailure) -> UUID {
    guard let text else { return UUID() }
    guard let id = UUID(uuidString: text) else {
        throw CommandFailure(.usage, "--request-id must be a UUID, got \(text)")
    }
    return id
}
