import ContactsLedger
import Foundation
import LedgerAudit

extension ContactStore {
    /// The full identifier that `text` names among `kinds` (any letter case, or a unique prefix of
    /// at least six characters, ``resolveIdentifier(_:kinds:)``), or `text` itself when it names
    /// nothing the tool sees, so that the command's own lookup reports it missing in its words.
    /// An ambiguous prefix is a usage failure that names the candidates with their names.
    func identifier(_ text: String, _ kinds: IdentifierKinds = .contacts) throws -> String {
        do {
            return try resolveIdentifier(text, kinds: kinds)
        } catch let error as ContactStoreError where error.code == .recordDoesNotExist {
            return UUID(uuidString: text)?.uuidString ?? text
        } catch let error as ContactStoreError where error.code == .recordIdentifierInvalid {
            // One line, as every error: the first ten candidates with their names.
            let shown = error.affectedIdentifiers.prefix(10).map { "\($0) (\(name(of: $0)))" }
            let more = error.affectedIdentifiers.count > 10 ? ", and \(error.affectedIdentifiers.count - 10) more" : ""
            throw CommandFailure(
                .usage, "identifier \(text) is ambiguous: it starts " + shown.joined(separator: ", ") + more)
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
        return group.map { "group \($0.name)" } ?? "unnamed"
    }
}

extension CommandContext {
    /// The full identifier `text` names, for a command that reads the journal rather than the
    /// store, so that it may name a deleted contact: first among the records there are now, then
    /// among every identifier the journal's records name. A full identifier in the store's own
    /// form needs no lookup, so that such commands do not load the state for it.
    func resolvedIdentifier(_ text: String, _ kinds: IdentifierKinds = .contacts) throws -> String {
        if UUID(uuidString: text)?.uuidString == text { return text }
        let store = try openForReading()
        defer { store.close() }
        do {
            return try store.resolveIdentifier(text, kinds: kinds)
        } catch let error as ContactStoreError where error.code == .recordDoesNotExist {
            let given = UUID(uuidString: text)?.uuidString ?? text
            guard text.count >= ContactStore.minimumIdentifierPrefixLength else { return given }
            return try journalIdentifier(text) ?? given
        } catch {
            return try store.identifier(text, kinds)
        }
    }

    /// The one identifier among those the journal's records name that equals `text` in another
    /// case or starts with it; nil for none, a usage failure for several.
    private func journalIdentifier(_ text: String) throws -> String? {
        let folded = text.uppercased()
        var found = Set<String>()
        for entry in try LedgerAuditor(ledgerAt: ledger).entries() {
            for identifier in entry.affectedIdentifiers where identifier.uppercased().hasPrefix(folded) {
                found.insert(identifier)
            }
        }
        if let exact = found.first(where: { $0.uppercased() == folded }) { return exact }
        guard found.count <= 1 else {
            throw CommandFailure(
                .usage, "identifier \(text) is ambiguous: it starts " + found.sorted().joined(separator: ", "))
        }
        return found.first
    }
}
