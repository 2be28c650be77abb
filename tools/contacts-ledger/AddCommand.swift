import ContactsLedger
import Foundation

/// `add`: adds a contact from options, or contacts from JSON.
struct AddCommand: ToolCommand {
    static let name = "add"
    static let summary = "Adds a contact from options, or contacts from JSON."
    static let usage = """
        add [--given NAME] [--family NAME] [--organization NAME] [--job-title TITLE] [--note TEXT] \
        [--phone LABEL=NUMBER]... [--email LABEL=ADDRESS]... [--author NAME] [--request-id UUID] | \
        add --from-json FILE|-
        """
    static let help = """
        Adds one new contact, with the properties the options give, as one save request; or, with
        --from-json, the contact (a JSON object) or contacts (an array of objects) in FILE, or on standard
        input for `-`, in the form `show --json` prints, all in one save request. Unknown keys and values of
        the wrong type are refused (exit 65) with the key path. A JSON object's `identifier` is kept, so a
        contact printed by `show --json` can be added again as itself.

        \(HelpText.writeOutput)

        Options:
        \(PropertyOptions.helpLines)
          --phone LABEL=NUMBER A phone number; repeat for more.
          --email LABEL=ADDRESS
                               An email address; repeat for more.
          --from-json FILE     Reads the contact or contacts from a JSON file, or standard input for `-`.
        \(HelpText.writeOptions)

        \(LabelNames.helpText)
        """
    static let valued = PropertyOptions.valued.union(WriteOptions.valued).union(["phone", "email", "from-json"])
    static let flags = WriteOptions.flags

    var properties: PropertyOptions
    var phones: [(label: String?, value: String)]
    var emails: [(label: String?, value: String)]
    var jsonSource: String?
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        properties = try PropertyOptions(arguments)
        phones = []
        for text in arguments.values("phone") { phones.append(try LabelNames.labeled(text, option: "phone")) }
        emails = []
        for text in arguments.values("email") { emails.append(try LabelNames.labeled(text, option: "email")) }
        jsonSource = try arguments.single("from-json")
        write = try WriteOptions(arguments)
        let hasOptions = !properties.isEmpty || !phones.isEmpty || !emails.isEmpty
        if jsonSource != nil && hasOptions {
            throw CommandFailure(.usage, "--from-json cannot be combined with property options")
        }
        if jsonSource == nil && !hasOptions {
            throw CommandFailure(.usage, "add needs at least one property option, or --from-json")
        }
    }

    func run(_ context: CommandContext) throws {
        let contacts: [MutableContact]
        if let jsonSource {
            contacts = try ContactJSON.mutableContacts(parsing: try readInput(jsonSource))
            guard !contacts.isEmpty else { throw CommandFailure(.dataError, "\(jsonSource) holds no contacts") }
        } else {
            var contact = MutableContact()
            properties.apply(to: &contact)
            contact.phoneNumbers = phones.map {
                LabeledValue(label: $0.label, value: PhoneNumber(stringValue: $0.value))
            }
            contact.emailAddresses = emails.map { LabeledValue(label: $0.label, value: $0.value) }
            contacts = [contact]
        }
        let store = try context.openForWriting()
        defer { store.close() }
        var request = write.request()
        for contact in contacts { request.add(contact, toContainerWithIdentifier: nil) }
        try write.execute(request, on: store, verb: "added", identifiers: contacts.map(\.identifier))
    }
}

/// Reads a whole input file, or standard input for `-`; a missing file exits 66.
func readInput(_ path: String) throws -> [UInt8] {
    if path == "-" {
        return Array(FileHandle.standardInput.readDataToEndOfFile())
    }
    guard FileManager.default.fileExists(atPath: path) else {
        throw CommandFailure(.noInput, "no such file: \(path)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CommandFailure(.noInput, "cannot read \(path)")
    }
    return Array(data)
}
