import ContactsLedger
import Foundation

/// `revoke CLIENT ID...`: the owner takes contacts away from an app.
struct RevokeCommand: ToolCommand {
    static let name = "revoke"
    static let summary = "Takes contacts away from an app with limited access."
    static let usage = "revoke CLIENT ID... [--json]"
    static let help = """
        Takes the contacts with these identifiers away from the app CLIENT: one record with the tool,
        the ledger's owner, as author. Contacts the app does not hold are left out of it. Prints
        `revoked ID` per contact and `head N`.

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
        try AccessChange.run(context, json: json, verb: "revoked", client: client, identifiers: identifiers) {
            try await $0.revokeAccess(toContactsWithIdentifiers: identifiers, fromClient: client)
        }
    }
}
