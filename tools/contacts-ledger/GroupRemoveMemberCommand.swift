import ContactsLedger
import Foundation

/// `group remove-member GROUP CONTACT`: takes a contact out of a group.
struct GroupRemoveMemberCommand: ToolCommand {
    static let name = "group remove-member"
    static let summary = "Takes a contact out of a group; the contact stays."
    static let usage = "group remove-member GROUP CONTACT [--author NAME] [--request-id UUID]"
    static let help = """
        Takes the contact with identifier CONTACT out of the group with identifier GROUP; the contact is
        not deleted. It prints `removed-member GROUP` and `removed-member CONTACT`, then `head N`.

        Options:
        \(HelpText.writeOptions)
        """
    static let valued = WriteOptions.valued
    static let flags = WriteOptions.flags

    var change: GroupMembershipChange

    init(_ arguments: Arguments) throws(CommandFailure) {
        change = try GroupMembershipChange(arguments)
    }

    var requestIdentifier: UUID? { change.write.requestID }

    func run(_ context: CommandContext) throws {
        try change.run(context, verb: "removed-member") { request, contact, group in
            request.removeMember(contact, from: group)
        }
    }
}
