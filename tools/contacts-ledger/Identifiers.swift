import ContactsLedger
import Foundation

extension ContactStore {
    /// The full identifier that `text` names among `kinds` (any letter case, or a unique prefix of
    /// at least six characters, ``resolveIdentifier(_:kinds:)``), or `text` itself when it names
    /// nothing the tool sees, so that the command's own lookup reports it missing in its words.
    /// An ambiguous prefix is a usage failure that lists the candidates with their names.
    func identifier(_ text: String, _ kinds: IdentifierKinds = .contacts) throws -> String {
        do {
            return try resolveIdentifier(text, kinds: kinds)
        } catch let error as ContactStoreError where error.code == .recordDoesNotExist {
            return UUID(uuidString: text)?.uuidString ?? text
        } catch let error as ContactStoreError where error.code == .recordIdentifierInvalid {
            let lines = error.affectedIdentifiers.map { "  \($0)  \(name(of: $0))" }
            throw CommandFailure(
                .usage, "identifier \(text) is ambiguous; it starts:\n" + lines.joined(separator: "\n"))
        }
    }

    /// The full identifiers of several, as ``identifier(_:_:)`` resolves each.
    func identifiers(_ texts: [String], _ kinds: IdentifierKinds = .contacts) throws -> [String] {
        try texts.map { try identifier($0, kinds) }
    }

    /// A contact's display name or a group's name, for a list of candidates.
    private func name(of identifier: String) -> String {
        if let contact = try? unifiedContact(withIdentifier: identifier, keysToFetch: ContactText.summaryKeys) {
            return ContactText.displayName(contact)
        }
        let group = try? groups(matching: .withIdentifiers([identifier])).first
        return group.map { "group \($0.name)" } ?? ""
    }
}

extension CommandContext {
    /// The full identifier `text` names, for a command that reads the journal rather than the
    /// store (a deleted contact's identifier is kept as given). A full identifier in the store's
    /// own form needs no lookup, so that such commands do not load the state for it.
    func resolvedIdentifier(_ text: String, _ kinds: IdentifierKinds = .contacts) throws -> String {
        if UUID(uuidString: text)?.uuidString == text { return text }
        let store = try openForReading()
        defer { store.close() }
        return try store.identifier(text, kinds)
    }
}
