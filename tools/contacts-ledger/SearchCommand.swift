import ContactsLedger

/// `search`: finds contacts by name, email address or phone number.
struct SearchCommand: ToolCommand {
    static let name = "search"
    static let summary = "Finds contacts by name, email address or phone number."
    static let usage = "search (--name Q | --email Q | --phone Q) [--as-of POINT] [--json]"
    static let help = """
        Prints the contacts that match, one per line, like `list`, by the search rules. By name,
        every word of Q must begin a word of the contact's names or organization, ignoring case and
        accents; by email, the whole address, ignoring case; by phone, the digits, so a national number
        matches its international form in the region of --region (else $CONTACTS_LEDGER_REGION, else the
        locale's), and the last seven or more digits of a number, written without a prefix, find it in
        any country. Give exactly one of the three. With --json, prints a JSON array of contacts like
        `list --json`.

        Options:
          --name Q             Matches names.
          --email Q            Matches email addresses.
          --phone Q            Matches phone numbers.
        \(HelpText.asOf)
        \(HelpText.json)
        """
    static let valued: Set<String> = ["name", "email", "phone", "as-of"]
    static let flags: Set<String> = ["json"]

    var predicate: ContactPredicate
    var asOf: LedgerPoint?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        var predicates: [ContactPredicate] = []
        if let name = try arguments.single("name") { predicates.append(.matchingName(name)) }
        if let email = try arguments.single("email") { predicates.append(.matchingEmailAddress(email)) }
        if let phone = try arguments.single("phone") { predicates.append(.matching(PhoneNumber(stringValue: phone))) }
        guard predicates.count == 1 else {
            throw CommandFailure(.usage, "search needs exactly one of --name, --email and --phone")
        }
        predicate = predicates[0]
        asOf = try arguments.single("as-of").map { (text) throws(CommandFailure) in
            try parseLedgerPoint(text, option: "as-of")
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let store = try context.openForReading(asOf: asOf)
        let keys: [any KeyDescriptor] = json ? [ListCommand.listKeys] : ContactText.summaryKeys
        printContacts(try store.unifiedContacts(matching: predicate, keysToFetch: keys), json: json)
    }
}
