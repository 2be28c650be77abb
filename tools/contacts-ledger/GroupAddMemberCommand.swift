import ContactsLedger

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

    var groupIdentifier: String
    var contactIdentifier: String
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        let words = try arguments.positionals("GROUP", "CONTACT")
        groupIdentifier = words[0]
        contactIdentifier = words[1]
        write = try WriteOptions(arguments)
    }

    func run(_ context: CommandContext) throws {
        let store = try context.openForWriting()
        defer { store.close() }
        let group = try existingGroup(groupIdentifier, in: store)
        let contact = try store.unifiedContact(withIdentifier: contactIdentifier, keysToFetch: [ContactKey.identifier])
        var request = write.request()
        request.addMember(contact, to: group)
        try write.execute(request, on: store, verb: "added-member", identifiers: [groupIdentifier, contactIdentifier])
    }
}
