import ContactsEngine
import ContactsModel
import Foundation
import LedgerStorage

/// What a merge saves, worked out before it is saved: the contact kept, the contacts deleted,
/// the kept contact's values afterwards, the groups it takes over, and the one save request
/// that does all of it.
public struct MergePlan: Sendable {
    /// The contact the merge keeps.
    public var keptIdentifier: String
    /// The contacts the merge deletes, in the order they were given.
    public var deletedIdentifiers: [String]
    /// The kept contact as the merge leaves it, with every key.
    public var merged: Contact
    /// The groups the kept contact joins because another contact was a member, sorted.
    public var groupsTakenOver: [String]
    /// The save request: one update of the kept contact (when its values change), a delete of
    /// each other contact, and one membership per group taken over.
    public var request: SaveRequest
}

extension ContactStore {
    /// Works out the merge of contacts into one without saving it (see ``merge(_:keeping:transactionAuthor:requestIdentifier:)``).
    ///
    /// Throws ``ContactStoreError/Code/recordIdentifierInvalid`` for fewer than two contacts, a
    /// contact named twice, or a kept contact that is not among them;
    /// ``ContactStoreError/Code/recordDoesNotExist`` for a contact that does not exist (or that a
    /// limited client does not see); ``ContactStoreError/Code/unauthorizedKeys`` without the notes
    /// entitlement, since a merge keeps conflicting values in the note.
    public func planMerge(
        _ identifiers: [String], keeping kept: String? = nil, transactionAuthor: String? = nil,
        requestIdentifier: UUID = RandomUUID.make()
    ) throws -> MergePlan {
        try Self.checkMergeArguments(identifiers, kept: kept)
        guard client.notesEntitlement else {
            throw ContactStoreError(
                .unauthorizedKeys, "merging needs the notes entitlement: conflicting values are kept in the note",
                keyPaths: [ContactKey.note.rawValue])
        }
        let contacts = try identifiers.map { try unifiedContact(withIdentifier: $0, keysToFetch: [ContactKeySet.all]) }
        let keptIndex = kept.flatMap { identifiers.firstIndex(of: $0) } ?? Self.mostComplete(contacts)
        let others = contacts.enumerated().filter { $0.offset != keptIndex }.map(\.element)
        let merged = mergedValues(contacts[keptIndex], others)
        let groups = readState { projection, _ in
            (
                projection.groups(containing: contacts[keptIndex].identifier),
                others.flatMap { projection.groups(containing: $0.identifier) }
            )
        }
        let takenOver = Set(groups.1).subtracting(groups.0).sorted()
        var request = SaveRequest(requestIdentifier: requestIdentifier, transactionAuthor: transactionAuthor)
        let keptContact = contacts[keptIndex]
        if merged != keptContact.values {
            request.update(
                MutableContact(
                    identifier: keptContact.identifier, values: merged, availableKeys: .all, base: keptContact.values,
                    revision: keptContact.revision))
        }
        for group in takenOver { request.addMember(keptContact, to: Group(identifier: group, name: "")) }
        for other in others { request.delete(other.mutableCopy()) }
        return MergePlan(
            keptIdentifier: keptContact.identifier, deletedIdentifiers: others.map(\.identifier),
            merged: Contact(identifier: keptContact.identifier, values: merged, availableKeys: .all),
            groupsTakenOver: takenOver, request: request)
    }

    /// Merges contacts into one, as one save request: keeps one contact (`kept`, or the one with
    /// the most values), deletes the others, unions their labeled values into the kept one
    /// without repeats, fills its empty single values from theirs, writes their conflicting
    /// single values into its note under a line naming the contact they came from, and makes it
    /// a member of their groups. Returns after the record is on disk; reverting that record
    /// restores every contact as it was, since it holds the kept contact's old values and each
    /// deleted contact's last values and groups.
    @discardableResult
    public func merge(
        _ identifiers: [String], keeping kept: String? = nil, transactionAuthor: String? = nil,
        requestIdentifier: UUID = RandomUUID.make()
    ) throws -> (plan: MergePlan, result: SaveResult) {
        let plan = try planMerge(
            identifiers, keeping: kept, transactionAuthor: transactionAuthor, requestIdentifier: requestIdentifier)
        return (plan, try execute(plan.request))
    }

    /// Refuses a merge of fewer than two contacts, of a contact with itself, or keeping a
    /// contact that is not merged.
    private static func checkMergeArguments(_ identifiers: [String], kept: String?) throws(ContactStoreError) {
        try checkSeveral(identifiers, action: "merge", verb: "merged")
        if let kept, !identifiers.contains(kept) {
            throw ContactStoreError(
                .recordIdentifierInvalid, "the kept contact \(kept) is not one of the contacts merged",
                affectedIdentifiers: [kept])
        }
    }

    /// Refuses fewer than two contacts, or a contact named twice, for an action on several
    /// contacts at once ("a merge", "merged with itself").
    static func checkSeveral(_ identifiers: [String], action: String, verb: String) throws(ContactStoreError) {
        if let repeated = identifiers.enumerated().first(where: { identifiers[..<$0.offset].contains($0.element) }) {
            throw ContactStoreError(
                .recordIdentifierInvalid, "contact \(repeated.element) cannot be \(verb) with itself",
                affectedIdentifiers: [repeated.element])
        }
        guard identifiers.count >= 2 else {
            throw ContactStoreError(
                .recordIdentifierInvalid, "a \(action) needs at least two contacts, got \(identifiers.count)",
                affectedIdentifiers: identifiers)
        }
    }

    /// The index of the contact with the most values (single values set, plus labeled values);
    /// the first of those with as many.
    static func mostComplete(_ contacts: [Contact]) -> Int {
        let counts = contacts.map { contact in
            ContactCombination.singleKeys.count { !contact.values.hasSameValue(as: ContactValues(), for: $0) }
                + (contact.note.isEmpty ? 0 : 1)
                + ContactCombination.listKeys.count { !contact.values.hasSameValue(as: ContactValues(), for: $0) }
        }
        return counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) } ?? 0
    }

    /// The kept contact's values after the merge: combined with the others', and the others'
    /// conflicting single values and notes written into its note.
    private func mergedValues(_ kept: Contact, _ others: [Contact]) -> ContactValues {
        let combination = ContactCombination(region: client.region)
        var (values, conflicts) = combination.combine(kept.values, others.map(\.values), keys: .all)
        var sections: [String] = []
        for (other, keys) in zip(others, conflicts) {
            var lines = keys.map { "\(Self.propertyName($0)): \(Self.noteText(of: $0, in: other))" }
            let note = other.note.trimmingCharacters(in: .whitespacesAndNewlines)
            if !note.isEmpty && !values.note.contains(note) { lines.append("Note: \(note)") }
            guard !lines.isEmpty else { continue }
            sections.append(([Self.mergeNoteHeader(other)] + lines).joined(separator: "\n"))
        }
        if !sections.isEmpty {
            let existing = values.note.trimmingCharacters(in: .newlines)
            values.note = ([existing].filter { !$0.isEmpty } + sections).joined(separator: "\n\n")
        }
        return values
    }

    /// The line that opens a merged contact's section of the note: `Merged from NAME (ID):`,
    /// the name as the formatter writes it, else the organization, else the identifier alone.
    static func mergeNoteHeader(_ contact: Contact) -> String {
        var name = ContactFormatter.string(from: contact, style: .fullName) ?? ""
        if name.isEmpty { name = contact.organizationName }
        return name.isEmpty ? "Merged from \(contact.identifier):" : "Merged from \(name) (\(contact.identifier)):"
    }

    /// A property's name as the note shows it: its localized name, capitalized.
    private static func propertyName(_ key: ContactKey) -> String {
        let name = Contact.localizedString(forKey: key)
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// A single value as the note shows it.
    private static func noteText(of key: ContactKey, in contact: Contact) -> String {
        switch ContactKeyTable.kind(of: key) {
        case .string: return contact.values[string: key]
        case .contactType: return contact.contactType == .organization ? "organization" : "person"
        case .imageData: return "an image of \(contact.imageData?.count ?? 0) bytes"
        case .date, .nonGregorianDate: return contact.values[date: key].map(Self.dateText) ?? ""
        default: return ""
        }
    }

    /// A date as `YYYY-MM-DD` (`--MM-DD` without a year), with its calendar when not Gregorian.
    private static func dateText(_ components: DateComponents) -> String {
        func two(_ value: Int?) -> String { value.map { $0 < 10 && $0 >= 0 ? "0\($0)" : "\($0)" } ?? "??" }
        var text = (components.year.map(String.init) ?? "-") + "-" + two(components.month) + "-" + two(components.day)
        if let calendar = components.calendar, calendar.identifier != .gregorian {
            text += " (\(calendar.identifier) calendar)"
        }
        return text
    }
}
