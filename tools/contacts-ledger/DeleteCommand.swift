import ContactsLedger
import Foundation

/// `delete ID...`: deletes contacts.
struct DeleteCommand: ToolCommand {
    static let name = "delete"
    static let summary = "Deletes contacts (the ledger keeps their last state for the audit log)."
    static let usage = "delete ID... [--author NAME] [--request-id UUID]"
    static let help = """
        Deletes the contacts with these identifiers (each in any letter case, or a unique prefix of at
        least six characters), and their group memberships, in one save request: all of them or, if
        one does not exist (exit 67), none. The record keeps each contact's last state, so `history`,
        `log`, `undelete` and `restore` can still show it.

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
        if identifiers.isEmpty { throw CommandFailure(.usage, "missing ID") }
        write = try WriteOptions(arguments)
    }

    var requestIdentifier: UUID? { write.requestID }

    func run(_ context: CommandContext) throws {
        try write.save(context, verb: "deleted") { store in
            var request = write.request()
            var deleted: [String] = []
            for identifier in try store.identifiers(identifiers) where !deleted.contains(identifier) {
                let contact = try store.unifiedContact(withIdentifier: identifier, keysToFetch: [ContactKey.identifier])
                request.delete(contact.mutableCopy())
                deleted.append(identifier)
            }
            return (request, deleted)
        }
    }
}
