import ContactsLedger
import Foundation

/// The contact properties `add` and `update` set from options.
struct PropertyOptions {
    /// A property set by a string option, with the option's name and the key it writes.
    struct TextProperty: Sendable {
        var option: String
        var key: ContactKey
        var placeholder: String
        var help: String
        var set: @Sendable (inout MutableContact, String) -> Void
    }

    /// The string properties, in the order the help lists them.
    static let textProperties: [TextProperty] = [
        TextProperty(option: "given", key: .givenName, placeholder: "NAME", help: "The given name.") {
            $0.givenName = $1
        },
        TextProperty(option: "middle", key: .middleName, placeholder: "NAME", help: "The middle name.") {
            $0.middleName = $1
        },
        TextProperty(option: "family", key: .familyName, placeholder: "NAME", help: "The family name.") {
            $0.familyName = $1
        },
        TextProperty(option: "nickname", key: .nickname, placeholder: "NAME", help: "The nickname.") {
            $0.nickname = $1
        },
        TextProperty(option: "organization", key: .organizationName, placeholder: "NAME", help: "The organization.") {
            $0.organizationName = $1
        },
        TextProperty(option: "department", key: .departmentName, placeholder: "NAME", help: "The department.") {
            $0.departmentName = $1
        },
        TextProperty(option: "job-title", key: .jobTitle, placeholder: "TITLE", help: "The job title.") {
            $0.jobTitle = $1
        },
        TextProperty(option: "note", key: .note, placeholder: "TEXT", help: "The note.") { $0.note = $1 },
    ]

    /// The option names this type reads.
    static let valued: Set<String> = Set(textProperties.map(\.option)).union(["birthday", "type"])

    /// The lines `--help` shows for these options.
    static let helpLines: String = {
        var lines = textProperties.map { property in
            let head = "  --\(property.option) \(property.placeholder)"
            return head.padding(toLength: 23, withPad: " ", startingAt: 0) + property.help
        }
        lines.append("  --birthday DATE      The birthday: YYYY-MM-DD, or --MM-DD when the year is unknown.")
        lines.append("  --type TYPE          person (the default for new contacts) or organization.")
        return lines.joined(separator: "\n")
    }()

    private var texts: [(TextProperty, String)] = []
    private var birthday: DateComponents?
    private var type: ContactType?

    /// Reads the options from the arguments.
    init(_ arguments: Arguments) throws(CommandFailure) {
        for property in Self.textProperties {
            if let value = try arguments.single(property.option) { texts.append((property, value)) }
        }
        if let text = try arguments.single("birthday") { birthday = try Self.parseDate(text, option: "birthday") }
        if let text = try arguments.single("type") {
            guard let parsed = ContactJSON.contactType(named: text) else {
                throw CommandFailure(.usage, "--type must be person or organization, got \(text)")
            }
            type = parsed
        }
    }

    /// Whether no property option was given.
    var isEmpty: Bool { texts.isEmpty && birthday == nil && type == nil }

    /// The keys these options set.
    var keys: [ContactKey] {
        texts.map(\.0.key) + (birthday == nil ? [] : [.birthday]) + (type == nil ? [] : [.contactType])
    }

    /// Sets the given properties on a contact.
    func apply(to contact: inout MutableContact) {
        for (property, value) in texts { property.set(&contact, value) }
        if let birthday { contact.birthday = birthday }
        if let type { contact.contactType = type }
    }

    /// Parses `YYYY-MM-DD`, `--MM-DD` or `MM-DD` into date components; the store checks the
    /// values (a month 13 or a February 30 is refused there, as a data error).
    static func parseDate(_ text: String, option: String) throws(CommandFailure) -> DateComponents {
        var body = Substring(text)
        if body.hasPrefix("--") { body = body.dropFirst(2) }
        let parts = body.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part in part.allSatisfy(\.isASCII) ? Int(part) : nil }
        switch (parts.count, numbers.count, parts.first?.count) {
        case (3, 3, 4): return DateComponents(year: numbers[0], month: numbers[1], day: numbers[2])
        case (2, 2, _) where !text.hasPrefix("-") || text.hasPrefix("--"):
            return DateComponents(month: numbers[0], day: numbers[1])
        default:
            throw CommandFailure(.usage, "--\(option) must be YYYY-MM-DD or --MM-DD, got \(text)")
        }
    }
}
