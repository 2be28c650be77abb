import ContactsLedger

/// What `group add-member` and `group remove-member` share: the `GROUP CONTACT` arguments, the
/// write options, and a save request that changes the contact's membership of the group.
struct GroupMembershipChange {
    var groupIdentifier: String
    var contactIdentifier: String
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        let words = try arguments.positionals("GROUP", "CONTACT")
        groupIdentifier = words[0]
        contactIdentifier = words[1]
        write = try WriteOptions(arguments)
    }

    /// Finds the group and the contact, lets `change` add the membership change to the request,
    /// saves it, and prints `verb GROUP`, `verb CONTACT` and the head.
    func run(
        _ context: CommandContext, verb: String, _ change: (inout SaveRequest, Contact, Group) -> Void
    ) throws {
        try write.save(context, verb: verb) { store in
            let group = try existingGroup(groupIdentifier, in: store)
            let contact = try store.unifiedContact(
                withIdentifier: try store.identifier(contactIdentifier), keysToFetch: [ContactKey.identifier])
            var request = write.request()
            change(&request, contact, group)
            return (request, [group.identifier, contact.identifier])
        }
    }
}
