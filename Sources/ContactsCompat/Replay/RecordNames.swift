import ContactsLedger
import Foundation
import LedgerAudit

/// The names of the contacts and groups a ledger's records mention, so that the lines of issued
/// requests name them as a person would, and stay the same from run to run.
struct RecordNames {
    /// The last name known for each contact.
    private var contacts: [String: String] = [:]
    /// The name parts known for each contact, to follow a rename of one part.
    private var parts: [String: [ContactKey: String]] = [:]
    /// The last name known for each group.
    private var groups: [String: String] = [:]

    /// The keys a contact's name is made of, in the order they are shown.
    private static let nameKeys: [ContactKey] = [.givenName, .familyName, .organizationName]

    /// The name of a contact from the name keys it holds, or nil when it holds none that is set.
    static func name(of contact: Contact) -> String? {
        name(
            from: Dictionary(
                uniqueKeysWithValues: nameKeys.filter(contact.isKeyAvailable).map { key in
                    (key, value(of: key, in: contact))
                }))
    }

    /// The name made of `parts`: given and family name, or else the organization.
    private static func name(from parts: [ContactKey: String]) -> String? {
        let person = [parts[.givenName], parts[.familyName]].compactMap { $0 }.filter { !$0.isEmpty }
        if !person.isEmpty { return person.joined(separator: " ") }
        if let organization = parts[.organizationName], !organization.isEmpty { return organization }
        return nil
    }

    /// The value of a name key.
    private static func value(of key: ContactKey, in contact: Contact) -> String {
        switch key {
        case .givenName: contact.givenName
        case .familyName: contact.familyName
        default: contact.organizationName
        }
    }

    /// Learns the names a change mentions.
    mutating func learn(_ change: AuditChange) {
        switch change {
        case .addContact(let contact, _), .deleteContact(let contact):
            for key in Self.nameKeys where contact.isKeyAvailable(key) {
                parts[contact.identifier, default: [:]][key] = Self.value(of: key, in: contact)
            }
            contacts[contact.identifier] = Self.name(from: parts[contact.identifier] ?? [:])
        case .updateContact(let identifier, let changes):
            for change in changes where Self.nameKeys.contains(change.key) {
                parts[identifier, default: [:]][change.key] = Self.value(of: change.key, in: change.newValue)
            }
            contacts[identifier] = Self.name(from: parts[identifier] ?? [:])
        case .addGroup(let identifier, let name, _), .deleteGroup(let identifier, let name, _):
            groups[identifier] = name
        case .renameGroup(let identifier, _, let name): groups[identifier] = name
        default: break
        }
    }

    /// A contact in quotes by name, or its identifier when no name is known.
    func contact(_ identifier: String, fallback: String? = nil) -> String {
        (contacts[identifier] ?? fallback).map { "\"\($0)\"" } ?? identifier
    }

    /// A group in quotes by name, or its identifier when no name is known.
    func group(_ identifier: String, fallback: String? = nil) -> String {
        (groups[identifier] ?? fallback).map { "\"\($0)\"" } ?? identifier
    }

    /// A committed change in words.
    func describe(_ change: AuditChange) -> String {
        switch change {
        case .addContact(let contact, _): "add contact \(self.contact(contact.identifier))"
        case .updateContact(let identifier, let changes):
            "update contact \(contact(identifier)) (\(changes.map(\.key.rawValue).joined(separator: ", ")))"
        case .deleteContact(let contact): "delete contact \(self.contact(contact.identifier))"
        case .addGroup(let identifier, _, _): "add group \(group(identifier))"
        case .renameGroup(_, let old, let new): "rename group \"\(old)\" to \"\(new)\""
        case .deleteGroup(let identifier, _, _): "delete group \(group(identifier))"
        case .addMember(let member, let target): "add member \(contact(member)) to group \(group(target))"
        case .removeMember(let member, let target): "remove member \(contact(member)) from group \(group(target))"
        case .addSubgroup(let subgroup, let target): "add subgroup \(group(subgroup)) to group \(group(target))"
        case .removeSubgroup(let subgroup, let target):
            "remove subgroup \(group(subgroup)) from group \(group(target))"
        case .addContainer(let container): "add container \"\(container.name)\""
        default: "\(change)"
        }
    }

    /// A call of a failed request in words, in the words of ``describe(_:)-(AuditChange)``.
    func describe(_ asked: AskedOperation) -> String {
        let named = asked.subjects.map { subject in
            subject.isGroup
                ? group(subject.identifier, fallback: subject.name)
                : contact(subject.identifier, fallback: subject.name)
        }
        switch asked.verb {
        case "add member", "add subgroup": return "\(asked.verb) \(named[0]) to group \(named[1])"
        case "remove member", "remove subgroup": return "\(asked.verb) \(named[0]) from group \(named[1])"
        default: return "\(asked.verb) \(named[0])"
        }
    }
}
