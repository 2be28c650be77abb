import ContactsLedger

/// `show ID...`: prints contacts with every property.
struct ShowCommand: ToolCommand {
    static let name = "show"
    static let summary = "Prints contacts with every property."
    static let usage = "show ID... [--as-of POINT] [--json]"
    static let help = """
        Prints the contact with identifier ID (in any letter case, or a unique prefix of at least six
        characters), and of every further ID, a blank line between them: its name and every property
        that has a value, one per line. With --json, prints one JSON object per contact, one per line,
        with every key the contact has, by the framework's key names (`identifier`, `givenName`,
        `phoneNumbers` as [{identifier, label, value}], ...), empty values included. A contact that does
        not exist (at that point) exits 67, before anything is printed; when a record deleted it, the
        error says which, when and by whom, and how to bring it back (`undelete`).

        Options:
        \(HelpText.asOf)
        \(HelpText.json)
        """
    static let valued: Set<String> = ["as-of"]
    static let flags: Set<String> = ["json"]

    var identifiers: [String]
    var asOf: LedgerPoint?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifiers = arguments.positionals
        if identifiers.isEmpty { throw CommandFailure(.usage, "missing ID") }
        asOf = try arguments.single("as-of").map { (text) throws(CommandFailure) in
            try parseLedgerPoint(text, option: "as-of")
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let store = try context.openForReading(asOf: asOf)
        let contacts = try store.identifiers(identifiers).map { identifier in
            do {
                return try store.unifiedContact(withIdentifier: identifier, keysToFetch: [ContactKeySet.all])
            } catch let error as ContactStoreError {
                throw DeletedContact.explain(error, identifier: identifier, ledger: context.ledger, asOf: asOf)
            }
        }
        let redacted = try RedactedContacts.reasons(context, asOf: asOf)
        for (index, contact) in contacts.enumerated() {
            if json {
                Terminal.json(ContactJSON.value(for: contact))
            } else {
                Terminal.lines(
                    (index > 0 ? [""] : []) + ContactText.lines(contact)
                        + (redacted[contact.identifier].map { ["  [redacted] \($0)"] } ?? []))
            }
        }
    }
}
