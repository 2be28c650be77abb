import ContactsLedger
import Foundation

/// `group add-member GROUP CONTACT`: makes a contact a member of a group.
struct GroupAddMemberCommand: ToolCommand {
    static let name = "group add-member"
    static let summary = "Makes a contact a member of a group."
    static let usage = "group add-member GROUP CONTACT [--author NAME] [--request-id UUID]"
    static let help = """
        Makes the contact with identifier CONTACT a member of the group with identifier GROUP. It prints
        `added-member GROUP` and `added-member CONTACT`, then `head N`.

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
        try change.run(context, verb: "added-member") { request, contact, group in request.addMember(contact, to: group)
        }
    }
}
