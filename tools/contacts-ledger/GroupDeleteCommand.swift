import ContactsLedger
import Foundation

/// `group delete ID`: deletes a group, not its members.
struct GroupDeleteCommand: ToolCommand {
    static let name = "group delete"
    static let summary = "Deletes a group; its member contacts stay."
    static let usage = "group delete ID [--author NAME] [--request-id UUID]"
    static let help = """
        Deletes the group with identifier ID. Its member contacts are not deleted.

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
            let group = try existingGroup(identifier, in: store)
            var request = write.request()
            request.delete(group.mutableCopy())
            return (request, [group.identifier])
        }
    }
}
