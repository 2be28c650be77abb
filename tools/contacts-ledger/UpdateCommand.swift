import ContactsLedger
import Foundation

/// `update ID`: sets or clears properties and adds or removes phone numbers and email addresses.
struct UpdateCommand: ToolCommand {
    static let name = "update"
    static let summary = "Changes a contact's properties, phone numbers and email addresses."
    static let usage = """
        update ID [--given NAME] ... [--clear FIELD]... [--add-phone LABEL=NUMBER]... \
        [--remove-phone NUMBER|ID]... [--add-email LABEL=ADDRESS]... [--remove-email ADDRESS|ID]... \
        [--author NAME] [--request-id UUID]
        """
    static let help = """
        Changes the contact with identifier ID in one save request: the property options set values,
        --clear empties them, and the phone and email options add labeled values or remove them. Only
        the properties named change; a change another writer made meanwhile to other properties is kept.
        A request that changes nothing writes nothing and prints `unchanged ID`.

        \(HelpText.writeOutput)

        Options:
        \(PropertyOptions.helpLines)
        \(HelpText.wrap(
            "Empties a property; repeat for more. FIELD is one of " + clearable.map(\.name).joined(separator: ", ") + ".",
            prefix: "  --clear FIELD        ", indent: String(repeating: " ", count: 23)))
          --add-phone LABEL=NUMBER
                               Adds a phone number; repeat for more.
          --remove-phone NUMBER|ID
                               Removes the phone numbers with this labeled-value identifier, or with this
                               text, or with the same digits.
          --add-email LABEL=ADDRESS
                               Adds an email address; repeat for more.
          --remove-email ADDRESS|ID
                               Removes the email addresses with this identifier or this address (any case).
        \(HelpText.writeOptions)

        \(LabelNames.helpText)
        """
    static let valued = PropertyOptions.valued.union(WriteOptions.valued).union([
        "clear", "add-phone", "remove-phone", "add-email", "remove-email",
    ])
    static let flags = WriteOptions.flags

    /// The fields `--clear` empties, with the key each names.
    static let clearable: [(name: String, key: ContactKey)] =
        PropertyOptions.textProperties.map { ($0.option, $0.key) } + [
            ("birthday", .birthday), ("phones", .phoneNumbers), ("emails", .emailAddresses),
            ("addresses", .postalAddresses), ("urls", .urlAddresses), ("dates", .dates), ("image", .imageData),
        ]

    var identifier: String
    var properties: PropertyOptions
    var clear: [ContactKey]
    var addPhones: [(label: String?, value: String)] = []
    var removePhones: [String]
    var addEmails: [(label: String?, value: String)] = []
    var removeEmails: [String]
    var write: WriteOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifier = try arguments.positionals("ID")[0]
        properties = try PropertyOptions(arguments)
        clear = []
        for name in arguments.values("clear") {
            guard let field = Self.clearable.first(where: { $0.name == name }) else {
                throw CommandFailure(
                    .usage, "--clear takes one of \(Self.clearable.map(\.name).joined(separator: ", ")); got \(name)")
            }
            clear.append(field.key)
        }
        for text in arguments.values("add-phone") {
            addPhones.append(try LabelNames.labeled(text, option: "add-phone"))
        }
        for text in arguments.values("add-email") {
            addEmails.append(try LabelNames.labeled(text, option: "add-email"))
        }
        removePhones = arguments.values("remove-phone")
        removeEmails = arguments.values("remove-email")
        write = try WriteOptions(arguments)
        if let both = properties.keys.first(where: clear.contains) {
            throw CommandFailure(.usage, "\(both.rawValue) is both set and cleared")
        }
        if properties.isEmpty && clear.isEmpty && addPhones.isEmpty && removePhones.isEmpty && addEmails.isEmpty
            && removeEmails.isEmpty
        {
            throw CommandFailure(
                .usage, "update needs something to change: a property option, --clear, or a phone or email option")
        }
    }

    var requestIdentifier: UUID? { write.requestID }

    func run(_ context: CommandContext) throws {
        try write.save(context, verb: "updated") { store in
            var request = write.request()
            let contact = try changedContact(in: store)
            request.update(contact)
            return (request, [contact.identifier])
        }
    }

    /// The contact as the options change it, from its state in the store.
    private func changedContact(in store: ContactStore) throws -> MutableContact {
        var contact = try store.unifiedContact(
            withIdentifier: try store.identifier(identifier), keysToFetch: [ContactKeySet.all]
        ).mutableCopy()
        properties.apply(to: &contact)
        for key in clear {
            switch key {
            case .birthday: contact.birthday = nil
            case .phoneNumbers: contact.phoneNumbers = []
            case .emailAddresses: contact.emailAddresses = []
            case .postalAddresses: contact.postalAddresses = []
            case .urlAddresses: contact.urlAddresses = []
            case .dates: contact.dates = []
            case .imageData: contact.imageData = nil
            default:
                PropertyOptions.textProperties.first { $0.key == key }?.set(&contact, "")
            }
        }
        for wanted in removePhones {
            let digits = PhoneNumber(stringValue: wanted).digits
            let kept = contact.phoneNumbers.filter { phone in
                !(phone.identifier == wanted || phone.value.stringValue == wanted
                    || (!digits.isEmpty && phone.value.digits == digits))
            }
            guard kept.count < contact.phoneNumbers.count else {
                throw CommandFailure(.failure, "contact \(identifier) has no phone number \(wanted)")
            }
            contact.phoneNumbers = kept
        }
        for wanted in removeEmails {
            let kept = contact.emailAddresses.filter { email in
                !(email.identifier == wanted || email.value.caseInsensitiveCompare(wanted) == .orderedSame)
            }
            guard kept.count < contact.emailAddresses.count else {
                throw CommandFailure(.failure, "contact \(identifier) has no email address \(wanted)")
            }
            contact.emailAddresses = kept
        }
        contact.phoneNumbers += addPhones.map {
            LabeledValue(label: $0.label, value: PhoneNumber(stringValue: $0.value))
        }
        contact.emailAddresses += addEmails.map { LabeledValue(label: $0.label, value: $0.value) }
        return contact
    }
}
