import ContactsLedger
import Foundation

/// `delete ID`: deletes a contact.
struct DeleteCommand: ToolCommand {
    static let name = "delete"
    static let summary = "Deletes a contact (the ledger keeps its last state for the audit log)."
    static let usage = "delete ID [--author NAME] [--request-id UUID]"
    static let help = """
        Deletes the contact with identifier ID, and its group memberships, in one save request. The
        record keeps the contact's last state, so `history`, `log` and `restore` can still show it.

        \(HelpText.writeOutput)

        Options:
        \(HelpText.writeOptions)
        """
    static let valued = WriteOptions.valued
    static let flags = WriteOptions.flags

    var identifier: String
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifier = try arguments.positionals("ID")[0]
        write = try WriteOptions(arguments)
    }

    var requestIdentifier: UUID? { write.requestID }

    func run(_ context: CommandContext) throws {
        try write.save(context, verb: "deleted") { store in
            let contact = try store.unifiedContact(withIdentifier: identifier, keysToFetch: [ContactKey.identifier])
            var request = write.request()
            request.delete(contact.mutableCopy())
            return (request, [identifier])
        }
    }
}
