import ContactsLedger
import Foundation

/// `group rename ID NAME`: renames a group.
struct GroupRenameCommand: ToolCommand {
    static let name = "group rename"
    static let summary = "Renames a group."
    static let usage = "group rename ID NAME [--author NAME] [--request-id UUID]"
    static let help = """
        Gives the group with identifier ID the name NAME.

        \(HelpText.writeOutput)

        Options:
        \(HelpText.writeOptions)
        """
    static let valued = WriteOptions.valued
    static let flags = WriteOptions.flags

    var identifier: String
    var newName: String
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        let words = try arguments.positionals("ID", "NAME")
        identifier = words[0]
        newName = words[1]
        write = try WriteOptions(arguments)
    }

    var requestIdentifier: UUID? { write.requestID }

    func run(_ context: CommandContext) throws {
        try write.save(context, verb: "renamed") { store in
            var group = try existingGroup(identifier, in: store).mutableCopy()
            group.name = newName
            var request = write.request()
            request.update(group)
            return (request, [group.identifier])
        }
    }
}
