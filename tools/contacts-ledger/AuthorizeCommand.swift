import ContactsLedger
import Foundation
import LedgerAudit

/// `authorize CLIENT STATUS`: the owner answers an app's request for access, or changes it.
struct AuthorizeCommand: ToolCommand {
    static let name = "authorize"
    static let summary = "Answers an app's request for access, or changes the answer."
    static let usage = "authorize CLIENT STATUS [--notes] [--json]"
    static let help = """
        Records the owner's decision for the app CLIENT: STATUS is authorized, limited, denied,
        restricted or notDetermined (which asks the app to request again). With --notes the app also
        holds the notes entitlement. Prints `authorized CLIENT STATUS` and `head N`.

        Options:
          --notes              The app may read and write the note.
        \(HelpText.json)
        """
    static let flags: Set<String> = ["notes", "json"]

    var client: String
    var status: AuthorizationStatus
    var notes: Bool
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        let words = try arguments.positionals("CLIENT", "STATUS")
        client = words[0]
        let statuses: [AuthorizationStatus] = [.authorized, .limited, .denied, .restricted, .notDetermined]
        guard let status = statuses.first(where: { AuditJSON.statusName($0) == words[1] }) else {
            throw CommandFailure(
                .usage,
                "unknown status \(words[1]); use \(statuses.map(AuditJSON.statusName).joined(separator: ", "))")
        }
        self.status = status
        notes = arguments.has("notes")
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let (client, status, notes) = (client, status, notes)
        let name = AuditJSON.statusName(status)
        try AccessChange.run(
            context, json: json, verb: "authorized", client: client, identifiers: ["\(client) \(name)"]
        ) {
            try await $0.setAuthorization(status, notesEntitlement: notes, forClient: client)
        }
    }
}
