import ContactsLedger
import LedgerStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `list`: prints every contact.
struct ListCommand: ToolCommand {
    static let name = "list"
    static let summary = "Lists every contact, sorted."
    static let usage = "list [--sort none|given|family|user] [--as-of POINT] [--json]"
    static let help = """
        Prints every contact, one per line: its identifier and its name. With --json, prints one JSON
        array of contacts, each with every key but the image data (`imageDataAvailable` says whether
        there is an image; `show --json` prints it).

        Options:
          --sort ORDER         none (storage order), given (given name first), family (family name
                               first), or user (the user's default, family name on Linux; the default).
        \(HelpText.asOf)
        \(HelpText.json)
        """
    static let valued: Set<String> = ["as-of", "sort"]
    static let flags: Set<String> = ["json"]

    /// The sort orders by their command-line names.
    static let sortOrders: [(name: String, order: ContactSortOrder)] = [
        ("none", .none), ("given", .givenName), ("family", .familyName), ("user", .userDefault),
    ]

    /// Every key but the image bytes.
    static let listKeys = ContactKeySet.all.subtracting([.imageData, .thumbnailImageData])

    var sort: ContactSortOrder
    var asOf: LedgerPoint?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        sort = .userDefault
        if let text = try arguments.single("sort") {
            guard let found = Self.sortOrders.first(where: { $0.name == text }) else {
                throw CommandFailure(.usage, "--sort must be none, given, family or user, got \(text)")
            }
            sort = found.order
        }
        asOf = try arguments.single("as-of").map { (text) throws(CommandFailure) in
            try parseLedgerPoint(text, option: "as-of")
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let store = try context.openForReading(asOf: asOf)
        let keys: [any KeyDescriptor] = json ? [Self.listKeys] : ContactText.summaryKeys
        let request = ContactFetchRequest(keysToFetch: keys, sortOrder: sort)
        if json {
            var stream = ContactStream.standardOutput(.json)
            return try store.write(request, to: &stream)
        }
        var contacts: [Contact] = []
        try store.enumerateContacts(with: request) { contact, _ in contacts.append(contact) }
        printContacts(contacts, json: false)
    }
}

/// Prints contacts as a JSON array, or one summary line each.
func printContacts(_ contacts: [Contact], json: Bool) {
    if json {
        var stream = ContactStream.standardOutput(.json)
        for contact in contacts { try? stream.write(contact) }
        try? stream.finish()
    } else {
        Terminal.lines(contacts.map(ContactText.summary))
    }
}
