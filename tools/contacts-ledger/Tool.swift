import ContactsEngine
import ContactsLedger
import Foundation
import LedgerAudit

/// The tool: its commands, its help, and the dispatch from the command line to a command.
enum Tool {
    /// Every command, in the order the tool's help lists them.
    static let commandTypes: [any ToolCommand.Type] = [
        DemoCommand.self, InitCommand.self, AddCommand.self, UpdateCommand.self, DeleteCommand.self, ShowCommand.self,
        ListCommand.self,
        SearchCommand.self, ImportCommand.self, ExportCommand.self, GroupCreateCommand.self, GroupRenameCommand.self,
        GroupDeleteCommand.self,
        GroupAddMemberCommand.self, GroupRemoveMemberCommand.self, GroupListCommand.self, LogCommand.self,
        HistoryCommand.self, DigestCommand.self, VerifyCommand.self, RecoverCommand.self, RestoreCommand.self,
        DiffCommand.self, ReplayCommand.self,
    ]

    static let toolUsage = "contacts-ledger [--ledger PATH] [--wait SECONDS] COMMAND [OPTIONS]"

    /// The tool's help: what it is, its commands, global options and exit codes.
    static func toolHelp() -> String {
        let width = commandTypes.map { $0.name.count }.max() ?? 0
        let list = commandTypes.map { type in
            "  " + type.name + String(repeating: " ", count: width - type.name.count + 2) + type.summary
        }
        return """
            Usage: \(toolUsage)

            Keeps an address book as an append-only, checksummed, hash-chained ledger. Every change is one
            record, acknowledged only after it is on disk; the audit log, history and point-in-time views are
            read from the records. The tool acts as the client "contacts-ledger" with full access and the notes
            entitlement (ClientContext.fullAccess), so it sees and changes every contact.

            Commands:
            \(list.joined(separator: "\n"))

            Run `contacts-ledger COMMAND --help` for a command's options.

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

    /// Prints a usage failure: the error, then the usage line.
    static func reportUsage(_ message: String, usage: String) -> ExitCode {
        Terminal.error(message)
        Terminal.errorLine("Usage: \(usage)")
        return .usage
    }

    /// Runs the tool and returns its exit code.
    static func run(_ words: [String]) -> ExitCode {
        var words = words[...]
        let environment = ProcessInfo.processInfo.environment
        var ledger = environment["CONTACTS_LEDGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "./contacts.ledger"
        var waitSeconds = 10.0
        // Global options before the command.
        while let first = words.first, first.hasPrefix("-") {
            if first == "--help" || first == "-h" {
                Terminal.line(toolHelp())
                return .success
            }
            do throws(CommandFailure) {
                let (name, inline) = splitOption(first)
                guard name == "--ledger" || name == "--wait" else {
                    return reportUsage("unknown option \(first)", usage: toolUsage + "; see contacts-ledger --help")
                }
                words.removeFirst()
                guard let value = inline ?? words.popFirst() else {
                    return reportUsage("\(name) needs a value", usage: toolUsage)
                }
                if name == "--ledger" { ledger = value } else { waitSeconds = try parseWait(value) }
            } catch {
                return reportUsage(error.message, usage: toolUsage)
            }
        }
        guard var name = words.popFirst() else {
            return reportUsage("no command given", usage: toolUsage + "; see contacts-ledger --help")
        }
        if name == "group" {
            guard let sub = words.first, !sub.hasPrefix("-") else {
                if words.first == "--help" || words.first == "-h" {
                    Terminal.line(groupHelp())
                    return .success
                }
                return reportUsage(
                    "group needs a subcommand: create, rename, delete, add-member, remove-member or list",
                    usage:
                        "contacts-ledger [--ledger PATH] group SUBCOMMAND [OPTIONS]; see contacts-ledger group --help")
            }
            name += " " + sub
            words.removeFirst()
        }
        guard let type = commandTypes.first(where: { $0.name == name }) else {
            return reportUsage("unknown command \(name)", usage: toolUsage + "; see contacts-ledger --help")
        }
        let usage = "contacts-ledger [--ledger PATH] \(type.usage)"
        let command: any ToolCommand
        do throws(CommandFailure) {
            let arguments = try Arguments(
                words, valued: type.valued.union(["ledger", "wait"]), flags: type.flags.union(["help"]))
            if arguments.has("help") {
                Terminal.line(
                    HelpText.wrap(usage, prefix: "Usage: ", indent: "           ")
                        + "\n\n\(type.help)\n\nGlobal options:\n\(HelpText.globalOptions)\n\n\(ExitCode.helpText)"
                )
                return .success
            }
            if let path = try arguments.single("ledger") { ledger = path }
            if let wait = try arguments.single("wait") { waitSeconds = try parseWait(wait) }
            command = try type.init(arguments)
        } catch {
            return reportUsage(error.message, usage: usage + "; see contacts-ledger \(name) --help")
        }
        do {
            try command.run(CommandContext(ledger: ledger, waitSeconds: waitSeconds))
            return .success
        } catch let failure as CommandFailure {
            if failure.code == .usage { return reportUsage(failure.message, usage: usage) }
            Terminal.error(failure.message)
            return failure.code
        } catch let error as StorageError {
            Terminal.error(error.description)
            return ExitCode(error)
        } catch let error as ContactStoreError {
            Terminal.error(error.message)
            return ExitCode(error)
        } catch let error as ContactJSONError {
            Terminal.error("malformed contact JSON: \(error)")
            return .dataError
        } catch let error as VCardCardError {
            Terminal.error("malformed vCard: \(error)")
            return .dataError
        } catch let error as LedgerInconsistency {
            Terminal.error("the ledger is inconsistent: \(error)")
            return .dataError
        } catch let error as EventDecodingError {
            Terminal.error("a record cannot be decoded: \(error)")
            return .dataError
        } catch {
            Terminal.error("\(error)")
            return .failure
        }
    }

    /// Splits `--name=value` into its name and value.
    static func splitOption(_ word: String) -> (name: String, value: String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

}
