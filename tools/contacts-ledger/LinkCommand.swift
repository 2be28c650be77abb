import ContactsLedger
import Foundation

/// `link ID ID...`: links contacts into one unified contact.
struct LinkCommand: ToolCommand {
    static let name = "link"
    static let summary = "Links contacts that are one person, so that `list` and `search` show them as one."
    static let usage = "link ID ID... [--author NAME] [--request-id UUID] [--json]"
    static let help = """
        Links the contacts with these identifiers (and any they are linked to already) into one link set,
        recorded in the ledger; each contact stays as it is. `list`, `search` and `group list` then show
        the set as one unified contact: the identifier of its first member, the first member's name and
        other single values, and every member's phone numbers, addresses and other labeled values without
        repeats. `show ID` and `export` still give each contact as itself. Linking contacts linked already records
        nothing. See `unlink`.

        \(HelpText.writeOutput)

        Options:
        \(HelpText.writeOptions)
        """
    static let valued = WriteOptions.valued
    static let flags = WriteOptions.flags

    var identifiers: [String]
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifiers = arguments.positionals
        guard identifiers.count >= 2 else {
            throw CommandFailure(.usage, "link needs at least two contact identifiers, got \(identifiers.count)")
        }
        write = try WriteOptions(arguments)
    }

    var requestIdentifier: UUID? { write.requestID }

    func run(_ context: CommandContext) throws {
        try write.commit(context, verb: "linked") { store in
            let identifiers = try store.identifiers(identifiers)
            let result = try store.link(
                identifiers, transactionAuthor: write.author, requestIdentifier: write.requestID)
            return (result, result.affectedIdentifiers.isEmpty ? identifiers : nil)
        }
    }
}
