import ContactsLedger
import Foundation

/// `grant CLIENT ID...`: the owner grants an app contacts.
struct GrantCommand: ClientContactsCommand {
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
    static let verb = "granted"

    var client: String
    var identifiers: [String]
    var json: Bool

    static func change(_ store: ContactStore, client: String, identifiers: [String]) async throws {
        try await store.grantAccess(toContactsWithIdentifiers: identifiers, toClient: client)
    }
}
