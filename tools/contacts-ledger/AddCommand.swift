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

    var requestIdentifier: UUID? { write.requestID }

    func run(_ context: CommandContext) throws {
        let contacts: [MutableContact]
        if let jsonSource {
            contacts = try ContactJSON.mutableContacts(
                parsing: Array(try readInput(jsonSource, bytesMax: JSONValue.ParseLimits().bytesMax)))
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
        try write.save(context, verb: "added") { _ in
            var request = write.request()
            for contact in contacts { request.add(contact, toContainerWithIdentifier: nil) }
            return (request, contacts.map(\.identifier))
        }
    }
}

/// Reads a whole input file, or standard input for `-`: a missing file exits 66, and one over
/// `bytesMax` bytes exits 65 without being read whole (a file's size is looked up first; from
/// standard input or a file that grows, no more than one byte past the limit is read).
func readInput(_ path: String, bytesMax: Int) throws -> Data {
    func tooLarge(_ name: String) -> CommandFailure {
        CommandFailure(.dataError, "\(name) is larger than the limit of \(bytesMax) bytes")
    }
    if path == "-" {
        var data = Data()
        while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            if data.count > bytesMax { throw tooLarge("standard input") }
        }
        return data
    }
    guard FileManager.default.fileExists(atPath: path) else {
        throw CommandFailure(.noInput, "no such file: \(path)")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
    if let size, size.int64Value > Int64(bytesMax) {
        throw CommandFailure(
            .dataError, "\(path) is \(size.int64Value) bytes, larger than the limit of \(bytesMax) bytes")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw CommandFailure(.noInput, "cannot read \(path)")
    }
    defer { try? handle.close() }
    let data = try handle.read(upToCount: bytesMax + 1) ?? Data()
    if data.count > bytesMax { throw tooLarge(path) }
    return data
}
