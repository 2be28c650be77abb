import ContactsEngine
import ContactsLedger
import Foundation
import LedgerAudit
import LedgerStorage

/// The tool: its commands, its help, and the dispatch from the command line to a command.
enum Tool {
    /// Every command, in the order the tool's help lists them.
    static let commandTypes: [any ToolCommand.Type] = [
        DemoCommand.self, InitCommand.self, AddCommand.self, UpdateCommand.self, DeleteCommand.self, ShowCommand.self,
        ListCommand.self,
        SearchCommand.self, ImportCommand.self, ExportCommand.self, GroupCreateCommand.self, GroupRenameCommand.self,
        GroupDeleteCommand.self,
        GroupAddMemberCommand.self, GroupRemoveMemberCommand.self, GroupListCommand.self, LogCommand.self,
        HistoryCommand.self, DigestCommand.self, VerifyCommand.self, CheckpointCommand.self, ProveCommand.self,
        VerifyProofCommand.self, RecoverCommand.self, RestoreCommand.self,
        DiffCommand.self, ReplayCommand.self, UndeleteCommand.self, RevertCommand.self, RestoreContactCommand.self,
        ClientsCommand.self, GrantCommand.self, RevokeCommand.self, AuthorizeCommand.self, DuplicatesCommand.self,
        MergeCommand.self, LinkCommand.self, UnlinkCommand.self, HelpCommand.self, CompletionCommand.self,
        ManpageCommand.self, RedactCommand.self, EraseCommand.self,
        ServeCommand.self, CardDAVAccountCommand.self,
    ]

    /// The tool's version, which `--version` prints with the formats it writes.
    static let version = "1.0.0"

    /// What the tool is, for its help and its man page.
    static let description = """
        Keeps an address book as an append-only, checksummed, hash-chained ledger. Every change is one
        record, acknowledged only after it is on disk; the audit log, history and point-in-time views are
        read from the records. The tool acts as the ledger's owner, "contacts-ledger" (ClientContext.owner):
        it sees and changes every contact, and alone grants apps access (`clients`, `grant`).
        """

    /// What identifiers and points the commands accept, for the help and the man page.
    static let conventions = """
        A contact or group identifier may be given in any letter case, or as a unique prefix of at least six
        characters, as git takes commit prefixes; an ambiguous prefix is refused with the candidates listed.
        A POINT in the ledger's history is a sequence number, an RFC 3339 time (2026-12-05T14:30:00Z), a
        local time (2026-12-05T14:30) or a date (2026-12-05, its end in local time; the start for --since).
        """

    static let toolUsage = "contacts-ledger [--ledger PATH] [--wait SECONDS] [--region CC] COMMAND [OPTIONS]"

    /// The tool's help: what it is, its commands, global options and exit codes.
    static func toolHelp() -> String {
        let width = commandTypes.map { $0.name.count }.max() ?? 0
        let list = commandTypes.map { type in
            "  " + type.name + String(repeating: " ", count: width - type.name.count + 2) + type.summary
        }
        return """
            Usage: \(toolUsage)

            \(description)

            Commands:
            \(list.joined(separator: "\n"))

            Run `contacts-ledger COMMAND --help` (or `contacts-ledger help COMMAND`) for a command's options.

            \(conventions)

            \(HelpText.headAndDigest)

            Global options (before or after the command):
            \(HelpText.globalOptions)

            \(ExitCode.helpText)
            """
    }

    /// The help of the `group` commands together.
    static func groupHelp() -> String {
        let groups = commandTypes.filter { $0.name.hasPrefix("group ") }
        return """
            Usage: contacts-ledger [--ledger PATH] group SUBCOMMAND [OPTIONS]

            Creates, renames and deletes groups and changes their members. Subcommands:
            \(groups.map { "  " + $0.usage + "\n      " + $0.summary }.joined(separator: "\n"))

            Run `contacts-ledger group SUBCOMMAND --help` for one subcommand's options.

            \(ExitCode.helpText)
            """
    }

    /// A command's help: its usage, what it does and its options, the global options, the exit codes.
    static func commandHelp(_ type: any ToolCommand.Type) -> String {
        HelpText.wrap("contacts-ledger [--ledger PATH] " + type.usage, prefix: "Usage: ", indent: "           ")
            + "\n\n\(type.help)\n\nGlobal options:\n\(HelpText.globalOptions)\n\n\(ExitCode.helpText)"
    }

    /// The command that `words` name (`list`, `group create`), or a usage failure that suggests the
    /// nearest name; `group` alone is nil.
    static func lookup(_ words: [String]) throws(CommandFailure) -> (any ToolCommand.Type)? {
        let name = words.joined(separator: " ")
        if let type = commandTypes.first(where: { $0.name == name }) { return type }
        if name == "group" { return nil }
        let candidates: [String]
        if words.first == "group" {
            candidates = commandTypes.map { $0.name }.filter { $0.hasPrefix("group ") }
        } else {
            candidates = Array(Set(commandTypes.map { String($0.name.split(separator: " ")[0]) })).sorted()
        }
        let wanted = words.first == "group" ? name : words[0]
        throw CommandFailure(.usage, "unknown command \(name)" + Spelling.hint(for: wanted, among: candidates))
    }

    /// Prints a usage failure: the error, then the usage line.
    static func reportUsage(_ message: String, usage: String) -> ExitCode {
        Terminal.error(message)
        Terminal.errorLine("Usage: \(usage)")
        return .usage
    }

    /// Where the tool stops before a command has run, with its exit code: after printing help,
    /// or a usage failure.
    private struct Stop: Error {
        let code: ExitCode
    }

    /// The global options: the ledger's path and how long to wait for its lock.
    private struct GlobalOptions {
        var ledger: String
        var waitSeconds = 10.0
        var region = ContactsUserDefaults.shared.countryCode
    }

    /// Runs the tool and returns its exit code.
    static func run(_ words: [String]) -> ExitCode {
        var words = words[...]
        let environment = ProcessInfo.processInfo.environment
        var options = GlobalOptions(
            ledger: environment["CONTACTS_LEDGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "./contacts.ledger")
        let command: any ToolCommand
        let usage: String
        do throws(Stop) {
            if let region = environment["CONTACTS_LEDGER_REGION"], !region.isEmpty {
                options.region = try globalRegion(region, from: "CONTACTS_LEDGER_REGION")
            }
            try readGlobalOptions(&words, into: &options)
            let type = try commandType(&words)
            usage = "contacts-ledger [--ledger PATH] \(type.usage)"
            command = try makeCommand(type, words, usage: usage, options: &options)
        } catch {
            return error.code
        }
        return execute(command, usage: usage, options: options)
    }

    /// Reads the global options before the command, taking them off `words`.
    private static func readGlobalOptions(
        _ words: inout ArraySlice<String>, into options: inout GlobalOptions
    ) throws(Stop) {
        while let first = words.first, first.hasPrefix("-") {
            if first == "--help" || first == "-h" {
                Terminal.line(toolHelp())
                throw Stop(code: .success)
            }
            if first == "--version" {
                Terminal.line(versionText)
                throw Stop(code: .success)
            }
            let (name, inline) = splitOption(first)
            let known = ["--ledger", "--wait", "--region", "--help", "--version"]
            guard known.prefix(3).contains(name) else {
                throw Stop(
                    code: reportUsage(
                        "unknown option \(first)" + Spelling.hint(for: name, among: known),
                        usage: toolUsage + "; see contacts-ledger --help"))
            }
            words.removeFirst()
            guard let value = inline ?? words.popFirst() else {
                throw Stop(code: reportUsage("\(name) needs a value", usage: toolUsage))
            }
            if name == "--ledger" {
                options.ledger = value
            } else if name == "--region" {
                options.region = try globalRegion(value, from: "--region")
            } else {
                do throws(CommandFailure) {
                    options.waitSeconds = try parseWait(value)
                } catch {
                    throw Stop(code: reportUsage(error.message, usage: toolUsage))
                }
            }
        }
    }

    /// Takes the command's name (two words for a `group` command) off `words` and returns its type.
    private static func commandType(_ words: inout ArraySlice<String>) throws(Stop) -> any ToolCommand.Type {
        guard var name = words.popFirst() else {
            throw Stop(code: reportUsage("no command given", usage: toolUsage + "; see contacts-ledger --help"))
        }
        if name == "group" {
            guard let sub = words.first, !sub.hasPrefix("-") else {
                if words.first == "--help" || words.first == "-h" {
                    Terminal.line(groupHelp())
                    throw Stop(code: .success)
                }
                throw Stop(
                    code: reportUsage(
                        "group needs a subcommand: create, rename, delete, add-member, remove-member or list",
                        usage:
                            "contacts-ledger [--ledger PATH] group SUBCOMMAND [OPTIONS]; see contacts-ledger group --help"
                    ))
            }
            name += " " + sub
            words.removeFirst()
        }
        do throws(CommandFailure) {
            // `group` alone was answered above.
            return try lookup(name.split(separator: " ").map(String.init))!
        } catch {
            throw Stop(code: reportUsage(error.message, usage: toolUsage + "; see contacts-ledger --help"))
        }
    }

    /// Reads the command's arguments, global options among them, and makes the command; prints
    /// its help instead when asked.
    private static func makeCommand(
        _ type: any ToolCommand.Type, _ words: ArraySlice<String>, usage: String, options: inout GlobalOptions
    ) throws(Stop) -> any ToolCommand {
        let failureUsage = usage + "; see contacts-ledger \(type.name) --help"
        let arguments: Arguments
        do throws(CommandFailure) {
            arguments = try Arguments(
                type.expandingShortOptions(words), valued: type.valued.union(["ledger", "wait", "region"]),
                flags: type.flags.union(["help"]))
        } catch {
            throw Stop(code: reportUsage(error.message, usage: failureUsage))
        }
        if arguments.has("help") {
            Terminal.line(commandHelp(type))
            throw Stop(code: .success)
        }
        do throws(CommandFailure) {
            if let path = try arguments.single("ledger") { options.ledger = path }
            if let wait = try arguments.single("wait") { options.waitSeconds = try parseWait(wait) }
            if let region = try arguments.single("region") {
                options.region = try parseRegion(region, from: "--region")
            }
            return try type.init(arguments)
        } catch {
            throw Stop(code: reportUsage(error.message, usage: failureUsage))
        }
    }

    /// Runs the command and returns the exit code that fits how it ended, printing any error: one
    /// line, which for a command that saves names its request and whether it was saved.
    private static func execute(_ command: any ToolCommand, usage: String, options: GlobalOptions) -> ExitCode {
        do {
            try command.run(
                CommandContext(ledger: options.ledger, waitSeconds: options.waitSeconds, region: options.region))
            return .success
        } catch {
            if let failure = error as? CommandFailure, failure.code == .usage {
                return reportUsage(failure.message, usage: usage)
            }
            let (code, message) = describe(error)
            if let requestID = command.requestIdentifier, (error as? CommandFailure)?.namesRequest != true {
                Terminal.error(WriteOptions.failureLine(message, code: code, requestID: requestID))
            } else {
                Terminal.error(message)
            }
            return code
        }
    }

    /// The exit code and the message that fit an error a command threw.
    static func describe(_ error: any Error) -> (ExitCode, String) {
        switch error {
        case let failure as CommandFailure: (failure.code, failure.message)
        case let error as StorageError: (ExitCode(error), error.description)
        case let error as ContactStoreError: (ExitCode(error), error.message)
        case let error as ContactJSONError: (.dataError, "malformed contact JSON: \(error)")
        case let error as VCardCardError: (.dataError, "malformed vCard: \(error)")
        case let error as LedgerInconsistency: (.dataError, "the ledger is inconsistent: \(error)")
        case let error as UndoError:
            ([.contactMissing, .notAtPoint, .notDeleted].contains(error.code) ? .notFound : .failure, error.message)
        case let error as EventDecodingError: (.dataError, "a record cannot be decoded: \(error)")
        case let error as RedactionError:
            ([.recordMissing, .nothingToRedact].contains(error.code) ? .notFound : .failure, error.message)
        default: (.failure, "\(error)")
        }
    }

    /// Reads a region given before the command, as a usage failure when it is malformed.
    private static func globalRegion(_ text: String, from source: String) throws(Stop) -> String {
        do throws(CommandFailure) {
            return try parseRegion(text, from: source)
        } catch {
            throw Stop(code: reportUsage(error.message, usage: toolUsage))
        }
    }

    /// What `--version` prints: the version and the formats it reads and writes.
    static var versionText: String {
        "contacts-ledger \(version) (journal format \(SegmentHeader.currentFormatVersion), "
            + "event schema \(EventCodec.currentSchemaVersion))"
    }

    /// Splits `--name=value` into its name and value.
    static func splitOption(_ word: String) -> (name: String, value: String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

}
