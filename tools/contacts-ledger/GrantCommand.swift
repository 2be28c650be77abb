import ContactsLedger
import Foundation

/// `grant CLIENT ID...`: the owner grants an app contacts.
struct GrantCommand: ToolCommand {
    static let name = "grant"
    static let summary = "Grants an app with limited access these contacts."
    static let usage = "grant CLIENT ID... [--json]"
    static let help = """
        Grants the app CLIENT (its client identifier, for example a bundle identifier) access to the
        contacts with these identifiers, as the contact access picker does when the person ticks them.
        The grant is one record with the tool, the ledger's owner, as author and the app named; contacts
        the app holds already are left out of it. A missing contact is refused and nothing is recorded.
        Prints `granted ID` per contact and `head N`.

        Options:
        \(HelpText.json)
        """
    static let flags: Set<String> = ["json"]

    var client: String
    var identifiers: [String]
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        (client, identifiers) = try clientAndContacts(arguments)
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let (client, identifiers) = (client, identifiers)
        try AccessChange.run(context, json: json, verb: "granted", client: client, identifiers: identifiers) {
            try await $0.grantAccess(toContactsWithIdentifiers: identifiers, toClient: client)
        }
    }
}
