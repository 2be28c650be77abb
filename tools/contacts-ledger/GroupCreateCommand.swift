import ContactsLedger
import Foundation

/// `group create NAME`: creates a group.
struct GroupCreateCommand: ToolCommand {
    static let name = "group create"
    static let summary = "Creates a group."
    static let usage = "group create NAME [--author NAME] [--request-id UUID]"
    static let help = """
        Creates a group named NAME in the default container and prints its new identifier as
        `created ID`, then `head N`.

        Options:
        \(HelpText.writeOptions)
        """
    static let valued = WriteOptions.valued
    static let flags = WriteOptions.flags

    var groupName: String
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        groupName = try arguments.positionals("NAME")[0]
        write = try WriteOptions(arguments)
    }

    var requestIdentifier: UUID? { write.requestID }

    func run(_ context: CommandContext) throws {
        try write.save(context, verb: "created") { _ in
            let group = MutableGroup(name: groupName)
            var request = write.request()
            request.add(group, toContainerWithIdentifier: nil)
            return (request, [group.identifier])
        }
    }
}

/// The group that `text` names (its identifier in any case, or a unique prefix), or a failure
/// (exit 67) naming it.
func existingGroup(_ text: String, in store: ContactStore) throws -> Group {
    let identifier = try store.identifier(text, .groups)
    guard let group = try store.groups(matching: .withIdentifiers([identifier])).first else {
        throw CommandFailure(.notFound, "group \(identifier) does not exist")
    }
    return group
}
