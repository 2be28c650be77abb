// contacts-ledger: the command-line tool over a ContactsLedger ledger. Every command is a thin
// call into the library; anything it does, a Swift program can do through the same API.
import ContactsLedger
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let toolHelp = """
    Usage: contacts-ledger [--ledger PATH] COMMAND [OPTIONS]

    Keeps an address book as an append-only, checksummed, hash-chained ledger. The ledger path
    defaults to $CONTACTS_LEDGER, else ./contacts.ledger.

    Commands:
      init      Creates a ledger, or checks and describes the one already there.
      digest    Prints the head digest as SEQUENCE HASH.
      verify    Checks every record's checksum, sequence number and chain link.

    Run `contacts-ledger COMMAND --help` for a command's options.

    \(ExitCode.helpText)
    """

/// Prints one line to stderr.
func printError(_ line: String) {
    FileHandle.standardError.write(Data(("contacts-ledger: " + line + "\n").utf8))
}

/// Runs the tool and returns its exit code.
func run(_ words: [String]) -> ExitCode {
    var words = words
    var ledger = ProcessInfo.processInfo.environment["CONTACTS_LEDGER"] ?? "./contacts.ledger"
    while let first = words.first, first.hasPrefix("--") {
        if first == "--help" || first == "-h" {
            print(toolHelp)
            return .success
        }
        if first == "--ledger", words.count > 1 {
            ledger = words[1]
            words.removeFirst(2)
        } else if first.hasPrefix("--ledger=") {
            ledger = String(first.dropFirst("--ledger=".count))
            words.removeFirst()
        } else {
            printError("unknown option \(first)")
            print("Usage: contacts-ledger [--ledger PATH] COMMAND [OPTIONS]; see --help", to: &standardError)
            return .usage
        }
    }
    guard let name = words.first else {
        printError("no command given")
        print("Usage: contacts-ledger [--ledger PATH] COMMAND [OPTIONS]; see --help", to: &standardError)
        return .usage
    }
    guard let command = commands[name] else {
        printError("unknown command \(name)")
        print("Usage: contacts-ledger [--ledger PATH] COMMAND [OPTIONS]; see --help", to: &standardError)
        return .usage
    }
    let rest = Array(words.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        print(command.help + "\n\n" + ExitCode.helpText)
        return .success
    }
    do {
        let arguments = try Arguments(rest, valued: command.valued, flags: command.flags)
        try command.run(ledger, arguments)
        return .success
    } catch let failure as CommandFailure {
        printError(failure.message)
        if failure.code == .usage {
            print("Usage: \(command.usage); see contacts-ledger \(name) --help", to: &standardError)
        }
        return failure.code
    } catch let error as StorageError {
        printError(error.description)
        return ExitCode(error)
    } catch {
        printError("\(error)")
        return .failure
    }
}

/// Standard error as a text output stream.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) { FileHandle.standardError.write(Data(string.utf8)) }
}
nonisolated(unsafe) var standardError = StandardError()

exit(run(Array(CommandLine.arguments.dropFirst())).rawValue)
