import ContactsLedger
import Foundation

/// `export`: every contact as vCard or JSON.
struct ExportCommand: ToolCommand {
    static let name = "export"
    static let summary = "Prints every contact as a vCard file, or as JSON."
    static let usage = "export [--vcard-version 3.0|4.0] [--as-of POINT] [--json]"
    static let help = """
        Prints every contact, in storage order, as one vCard file (version 3.0 the way Apple's Contacts
        writes it, or 4.0), notes and photos included; or, with --json, as one JSON array of contacts
        with every key, image data included. Redirect it to a file to keep a copy, or to import it into
        another address book.

        Options:
          --vcard-version V    3.0 (the default) or 4.0.
        \(HelpText.asOf)
          --json               Prints a JSON array of contacts instead of vCards.
        """
    static let valued: Set<String> = ["vcard-version", "as-of"]
    static let flags: Set<String> = ["json"]

    var version: VCardVersion
    var asOf: LedgerPoint?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        version = .v3_0
        if let text = try arguments.single("vcard-version") {
            guard let parsed = VCardVersion(rawValue: text) else {
                throw CommandFailure(.usage, "--vcard-version must be 3.0 or 4.0, got \(text)")
            }
            version = parsed
        }
        asOf = try arguments.single("as-of").map { (text) throws(CommandFailure) in
            try parseLedgerPoint(text, option: "as-of")
        }
        json = arguments.has("json")
        if json && arguments.hasAny(["vcard-version"]) {
            throw CommandFailure(.usage, "--vcard-version is for vCard output, not --json")
        }
    }

    func run(_ context: CommandContext) throws {
        let store = try context.openForReading(asOf: asOf)
        var contacts: [Contact] = []
        let keys = json ? ContactKeySet.all : VCardSerialization.descriptorForRequiredKeys().union([.note])
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: [keys])) { contact, _ in
            contacts.append(contact)
        }
        if json {
            Terminal.json(.array(contacts.map(ContactJSON.value(for:))))
        } else {
            Terminal.output(
                String(decoding: try VCardSerialization.data(with: contacts, version: version), as: UTF8.self))
        }
    }
}
