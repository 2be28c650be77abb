import ContactsLedger
import Foundation
import LedgerServer

/// `carddav-account`: a line of the CardDAV accounts file, the password salted and hashed.
struct CardDAVAccountCommand: ToolCommand {
    static let name = "carddav-account"
    static let summary = "Prints a CardDAV account line (ACCOUNT CLIENT HASH) for serve --carddav-accounts."
    static let usage = "carddav-account ACCOUNT [--client APP]"
    static let help = """
        Reads a password from the first line of standard input and prints the line that lets
        ACCOUNT sign in to the CardDAV address books of `serve --carddav-accounts FILE` with it:
        `ACCOUNT CLIENT HASH`, the hash salted and iterated SHA-256. Append the line to FILE; the
        password itself is kept nowhere. The account acts as the store client CLIENT (ACCOUNT when
        --client is not given), whose access the owner sets with `authorize` and `grant`: a
        limited client sees only the contacts it was granted or created.

        Options:
          --client APP         The store client the account acts as (default: ACCOUNT).
        """
    static let valued: Set<String> = ["client"]

    var account: String
    var client: String

    init(_ arguments: Arguments) throws(CommandFailure) {
        account = try arguments.positionals("ACCOUNT")[0]
        guard CardDAVAccounts.isName(account) else {
            throw CommandFailure(
                .usage, "an account name is 1 to 64 letters, digits, -, _, . or @, got \(account.debugDescription)")
        }
        guard !CardDAVAccounts.reservedNames.contains(account) else {
            throw CommandFailure(
                .usage, "the account name \(account) is reserved for the holder of the server's token; choose another")
        }
        client = try arguments.single("client") ?? account
        guard !client.isEmpty, !client.contains(where: \.isWhitespace) else {
            throw CommandFailure(.usage, "--client must be a client identifier without spaces")
        }
    }

    func run(_ context: CommandContext) throws {
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw CommandFailure(.usage, "give the password on the first line of standard input")
        }
        Terminal.line("\(account) \(client) \(CardDAVPassword.hash(password))")
    }
}
