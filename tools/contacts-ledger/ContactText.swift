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
        .vCardExtensions: "Other vCard properties",
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
        for key in ContactKey.allCases where contact.isKeyAvailable(key) {
            for item in items(key, of: contact) {
                let suffix = item.label.map { LabelNames.display($0) }.flatMap { $0.isEmpty ? nil : " (\($0))" }
                rows.append((name(of: key) + (suffix ?? ""), item.value))
            }
        }
        return rows
    }

    /// A property's name as people read it ("Phone", "Given name").
    static func name(of key: ContactKey) -> String { names[key] ?? key.rawValue }

    /// A property's non-empty values as text, each with its label (nil when it has none or is
    /// not a list); nothing for the keys `show` leaves out (identifier, type, thumbnails).
    static func items(_ key: ContactKey, of contact: Contact) -> [(label: String?, value: String)] {
        func labeled<Value>(_ list: [LabeledValue<Value>], _ text: (Value) -> String) -> [(String?, String)] {
            list.map { ($0.label, text($0.value)) }.filter { !$0.1.isEmpty }
        }
        func single(_ text: String) -> [(String?, String)] { text.isEmpty ? [] : [(nil, text)] }
        switch key {
        case .identifier, .contactType, .thumbnailImageData, .imageDataAvailable: return []
        case .birthday: return single(contact.birthday.map(date) ?? "")
        case .nonGregorianBirthday: return single(contact.nonGregorianBirthday.map(date) ?? "")
        case .dates: return labeled(contact.dates, date)
        case .phoneNumbers: return labeled(contact.phoneNumbers, \.stringValue)
        case .emailAddresses: return labeled(contact.emailAddresses) { $0 }
        case .postalAddresses:
            return labeled(contact.postalAddresses) {
                PostalAddressFormatter.string(from: $0, style: .mailingAddress).split(separator: "\n").joined(
                    separator: ", ")
            }
        case .urlAddresses: return labeled(contact.urlAddresses) { $0 }
        case .vCardExtensions: return labeled(contact.vCardExtensions) { $0 }
        case .contactRelations: return labeled(contact.contactRelations, \.name)
        case .socialProfiles: return labeled(contact.socialProfiles, profileText)
        case .instantMessageAddresses: return labeled(contact.instantMessageAddresses, messagingText)
        case .imageData: return single(contact.imageData.map { "\($0.count) bytes" } ?? "")
        default:
            // Every other key holds text, which its JSON value is.
            if case .string(let text) = ContactJSON.value(of: key, in: contact) { return single(text) }
            return []
        }
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
