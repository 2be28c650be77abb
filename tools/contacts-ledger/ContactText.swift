import ContactsLedger
import Foundation

/// Contacts as plain text, for people; scripts use `--json`.
enum ContactText {
    /// The keys `list` and `search` fetch for their one-line summaries.
    static let summaryKeys: [any KeyDescriptor] = [
        ContactFormatter.descriptorForRequiredKeys(for: .fullName), ContactKey.organizationName,
        ContactKey.contactType,
    ]

    /// The contact's name as the formatter writes it, else its organization, else "(no name)".
    static func displayName(_ contact: Contact) -> String {
        if let name = ContactFormatter.string(from: contact, style: .fullName), !name.isEmpty { return name }
        if contact.isKeyAvailable(.organizationName), !contact.organizationName.isEmpty {
            return contact.organizationName
        }
        return "(no name)"
    }

    /// One line: the identifier and the name.
    static func summary(_ contact: Contact) -> String {
        "\(contact.identifier)  \(displayName(contact))"
    }

    private static let names: [ContactKey: String] = [
        .namePrefix: "Prefix", .givenName: "Given name", .middleName: "Middle name", .familyName: "Family name",
        .previousFamilyName: "Previous family name", .nameSuffix: "Suffix", .nickname: "Nickname",
        .phoneticGivenName: "Phonetic given name", .phoneticMiddleName: "Phonetic middle name",
        .phoneticFamilyName: "Phonetic family name", .organizationName: "Organization",
        .phoneticOrganizationName: "Phonetic organization", .departmentName: "Department", .jobTitle: "Job title",
        .note: "Note", .birthday: "Birthday", .nonGregorianBirthday: "Birthday (other calendar)", .dates: "Date",
        .phoneNumbers: "Phone", .emailAddresses: "Email", .postalAddresses: "Address", .urlAddresses: "URL",
        .contactRelations: "Related", .socialProfiles: "Profile", .instantMessageAddresses: "Messaging",
        .imageData: "Image",
    ]

    /// A date as `YYYY-MM-DD`, or `--MM-DD` without a year, with its calendar when not Gregorian.
    static func date(_ components: DateComponents) -> String {
        func two(_ value: Int?) -> String {
            guard let value else { return "??" }
            return value < 10 && value >= 0 ? "0\(value)" : "\(value)"
        }
        var text = (components.year.map { String($0) } ?? "-") + "-" + two(components.month) + "-" + two(components.day)
        if components.isLeapMonth == true { text += " (leap month)" }
        if let calendar = components.calendar, calendar.identifier != .gregorian {
            text += " (\(calendar.identifier) calendar)"
        }
        return text
    }

    /// Every non-empty available property, one per line, after a header with the identifier.
    static func lines(_ contact: Contact) -> [String] {
        let rows = rows(contact)
        // The note may span lines; continuation lines are indented under the value.
        let width = min(24, (rows.map(\.0.count).max() ?? 0) + 2)
        var lines = [Terminal.highlight("contact \(contact.identifier)")]
        for (name, value) in rows {
            let head = "  " + (name + ":").padding(toLength: max(width, name.count + 2), withPad: " ", startingAt: 0)
            let valueLines = value.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append(head + (valueLines.first.map(String.init) ?? ""))
            for more in valueLines.dropFirst() {
                lines.append(String(repeating: " ", count: head.count) + more)
            }
        }
        return lines
    }

    /// The rows of ``lines(_:)``: each non-empty available property's name (with its label, if
    /// any) and value, in key order, after the name and, for an organization, the type.
    private static func rows(_ contact: Contact) -> [(String, String)] {
        var rows: [(String, String)] = [("Name", displayName(contact))]
        if contact.isKeyAvailable(.contactType), contact.contactType == .organization {
            rows.append(("Type", "organization"))
        }
        func add(_ key: ContactKey, _ value: String, label: String? = nil) {
            guard !value.isEmpty else { return }
            let name = names[key] ?? key.rawValue
            let suffix = label.map { LabelNames.display($0) }.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
            rows.append((name + suffix, value))
        }
        for key in ContactKey.allCases where contact.isKeyAvailable(key) {
            switch key {
            case .identifier, .contactType, .thumbnailImageData, .imageDataAvailable: break
            case .birthday: add(key, contact.birthday.map(date) ?? "")
            case .nonGregorianBirthday: add(key, contact.nonGregorianBirthday.map(date) ?? "")
            case .dates: for item in contact.dates { add(key, date(item.value), label: item.label) }
            case .phoneNumbers: for item in contact.phoneNumbers { add(key, item.value.stringValue, label: item.label) }
            case .emailAddresses: for item in contact.emailAddresses { add(key, item.value, label: item.label) }
            case .postalAddresses:
                for item in contact.postalAddresses {
                    let text = PostalAddressFormatter.string(from: item.value, style: .mailingAddress)
                    add(key, text.split(separator: "\n").joined(separator: ", "), label: item.label)
                }
            case .urlAddresses: for item in contact.urlAddresses { add(key, item.value, label: item.label) }
            case .contactRelations:
                for item in contact.contactRelations { add(key, item.value.name, label: item.label) }
            case .socialProfiles:
                for item in contact.socialProfiles { add(key, profileText(item.value), label: item.label) }
            case .instantMessageAddresses:
                for item in contact.instantMessageAddresses { add(key, messagingText(item.value), label: item.label) }
            case .imageData: add(key, contact.imageData.map { "\($0.count) bytes" } ?? "")
            default:
                // Every other key holds text, which its JSON value is.
                if case .string(let text) = ContactJSON.value(of: key, in: contact) { add(key, text) }
            }
        }
        return rows
    }

    /// A social profile as its service, user name and URL, those it has, between spaces.
    private static func profileText(_ profile: SocialProfile) -> String {
        let parts = [SocialProfile.localizedString(forService: profile.service), profile.username, profile.urlString]
        return parts.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// An instant-message address as its service and user name, those it has, between a space.
    private static func messagingText(_ address: InstantMessageAddress) -> String {
        let service = InstantMessageAddress.localizedString(forService: address.service)
        return [service, address.username].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
