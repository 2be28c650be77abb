import ContactsLedger
import Foundation

/// `revoke CLIENT ID...`: the owner takes contacts away from an app.
struct RevokeCommand: ClientContactsCommand {
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
    static let verb = "revoked"

    var client: String
    var identifiers: [String]
    var json: Bool

    static func change(_ store: ContactStore, client: String, identifiers: [String]) async throws {
        try await store.revokeAccess(toContactsWithIdentifiers: identifiers, fromClient: client)
    }
}
