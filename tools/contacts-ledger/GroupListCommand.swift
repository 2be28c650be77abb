import ContactsLedger

/// `group list`: prints the groups and their members.
struct GroupListCommand: ToolCommand {
    static let name = "group list"
    static let summary = "Lists the groups and their members."
    static let usage = "group list [--as-of POINT] [--json]"
    static let help = """
        Prints each group as `ID  NAME  (N members)`, followed by its members' identifiers and names,
        indented. With --json, prints a JSON array of {identifier, name, members}, members being
        contact identifiers.

        Options:
        \(HelpText.asOf)
        \(HelpText.json)
        """
    static let valued: Set<String> = ["as-of"]
    static let flags: Set<String> = ["json"]

    var asOf: LedgerPoint?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        asOf = try arguments.single("as-of").map { (text) throws(CommandFailure) in
            try parseLedgerPoint(text, option: "as-of")
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let store = try context.openForReading(asOf: asOf)
        var entries: [JSONValue] = []
        var lines: [String] = []
        for group in try store.groups() {
            let members = try store.unifiedContacts(
                matching: .inGroup(withIdentifier: group.identifier), keysToFetch: ContactText.summaryKeys)
            entries.append([
                "identifier": .string(group.identifier), "name": .string(group.name),
                "members": .array(members.map { .string($0.identifier) }),
            ])
            lines.append(
                "\(group.identifier)  \(group.name)  (\(members.count) member\(members.count == 1 ? "" : "s"))")
            lines += members.map { "  " + ContactText.summary($0) }
        }
        if json { Terminal.json(.array(entries)) } else { Terminal.lines(lines) }
    }
}
