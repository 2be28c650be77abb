import ContactsEngine
import ContactsModel

/// The kinds of record an identifier given by a person may name.
public struct IdentifierKinds: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a set from its raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Contacts.
    public static let contacts = IdentifierKinds(rawValue: 1)
    /// Groups.
    public static let groups = IdentifierKinds(rawValue: 2)
}

extension ContactStore {
    /// The fewest characters an identifier prefix must have to be resolved: shorter ones would
    /// match too many identifiers to be useful, as with commit prefixes.
    public static let minimumIdentifierPrefixLength = 6

    /// The full identifier of the one contact or group, of `kinds`, that `text` names: the
    /// identifier itself, the identifier in another letter case, or a unique prefix of at least
    /// ``minimumIdentifierPrefixLength`` characters in any letter case.
    ///
    /// Only records the client sees are candidates (decision 0024), so a limited client learns
    /// nothing of other contacts from which prefixes resolve. Throws
    /// ``ContactStoreError/Code/recordDoesNotExist`` when none matches, and
    /// ``ContactStoreError/Code/recordIdentifierInvalid`` when a prefix matches several, with
    /// the candidates, sorted, as the error's affected identifiers.
    public func resolveIdentifier(_ text: String, kinds: IdentifierKinds = [.contacts, .groups]) throws -> String {
        let candidates: [String] = try readStateAndAccess(usingIndexes: false) { projection, _, access in
            try checkCanRead(access)
            let view = ClientView(client: client, access: access, in: projection)
            if kinds.contains(.contacts), view.sees(text, in: projection) { return [text] }
            if kinds.contains(.groups), projection.group(text) != nil { return [text] }
            return Self.matches(of: text, kinds: kinds, in: projection, view: view)
        }
        return try Self.single(of: candidates, for: text, kinds: kinds)
    }

    /// The identifiers the client sees that equal `text` in another letter case or, when it is
    /// long enough, start with it; an exact match in another case wins over prefixes.
    private static func matches(
        of text: String, kinds: IdentifierKinds, in projection: borrowing Projection, view: ClientView
    ) -> [String] {
        let folded = text.uppercased()
        let allowPrefix = text.count >= minimumIdentifierPrefixLength
        var found: [String] = []
        func consider(_ identifier: String) {
            let upper = identifier.uppercased()
            if upper == folded || (allowPrefix && upper.hasPrefix(folded)) { found.append(identifier) }
        }
        if kinds.contains(.contacts) {
            for slot in projection.occupiedSlots {
                guard let owner = projection.owner(at: slot), view.sees(owner.identifier, createdBy: owner.createdBy)
                else { continue }
                consider(owner.identifier)
            }
        }
        if kinds.contains(.groups) { projection.groupIdentifiers.forEach(consider) }
        let exact = found.filter { $0.uppercased() == folded }
        return exact.count == 1 ? exact : found.sorted()
    }

    /// The one candidate, or the error that says there is none or more than one.
    private static func single(of candidates: [String], for text: String, kinds: IdentifierKinds) throws -> String {
        if candidates.count == 1 { return candidates[0] }
        let noun = kinds == .contacts ? "contact" : kinds == .groups ? "group" : "contact or group"
        guard !candidates.isEmpty else {
            let short =
                text.count < minimumIdentifierPrefixLength
                ? " (a prefix needs at least \(minimumIdentifierPrefixLength) characters)" : ""
            throw ContactStoreError(
                .recordDoesNotExist, "\(noun) \(text) does not exist\(short)", affectedIdentifiers: [text])
        }
        throw ContactStoreError(
            .recordIdentifierInvalid,
            "identifier \(text) is ambiguous: it starts \(candidates.count) identifiers, "
                + candidates.joined(separator: ", "),
            affectedIdentifiers: candidates)
    }
}
