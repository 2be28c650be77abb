import ContactsLedger
import Foundation

/// `unlink ID`: takes a contact out of its link set.
struct UnlinkCommand: ToolCommand {
    static let name = "unlink"
    static let summary = "Takes a contact out of the contacts it is linked to."
    static let usage = "unlink ID [--author NAME] [--request-id UUID] [--json]"
    static let help = """
        Takes the contact with identifier ID out of its link set, recorded in the ledger: it is shown as
        itself again, and the contacts it was linked to stay linked to each other when two or more remain.
        Unlinking a contact that is linked to none records nothing. See `link`.

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
        try write.commit(context, verb: "unlinked") { store in
            let identifier = try store.identifier(identifier)
            let result = try store.unlink(
                identifier, transactionAuthor: write.author, requestIdentifier: write.requestID)
            return (result, result.affectedIdentifiers.isEmpty ? [identifier] : nil)
        }
    }
}
