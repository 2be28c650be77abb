import ContactsLedger

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
        request.removeMember(contact, from: group)
        try write.execute(
            request, on: store, verb: "removed-member", identifiers: [groupIdentifier, contactIdentifier])
    }
}
