import ContactsEngine
import ContactsModel
import Foundation
import LedgerStorage

/// Linked contacts, as the framework has them: contacts that stand for one person (cards of one
/// person from several accounts) are linked into a link set, and a fetch that unifies returns the
/// set as one unified contact, while each contact stays in the store as itself.
///
/// A link set is kept in the order its members joined. The unified contact has the identifier of
/// its first member the client may see, and the values of every member the client may see,
/// combined as ``ContactCombination`` does: the first member's single values win, labeled values
/// are unioned without repeats. A deleted contact leaves its link set.
extension ContactStore {
    /// Links contacts into one link set (joining the sets they are in already), recorded as one
    /// record; blocks until it is on disk. Linking contacts that are all in one set already
    /// records nothing.
    ///
    /// Throws ``ContactStoreError/Code/recordIdentifierInvalid`` for fewer than two contacts or
    /// a contact named twice, and ``ContactStoreError/Code/recordDoesNotExist`` for a contact
    /// that does not exist (or that a limited client does not see).
    @discardableResult
    public func link(
        _ identifiers: [String], transactionAuthor: String? = nil, requestIdentifier: UUID = RandomUUID.make()
    ) throws -> SaveResult {
        let client = client.identifier
        return try pipeline.commitPlanned(author: transactionAuthor ?? "", requestID: requestIdentifier) {
            view, access throws(ContactStoreError) in
            try Self.linkOperations(identifiers, in: view, client: client, access: access)
        }
    }

    /// Takes a contact out of its link set, recorded as one record; the contacts it was linked to
    /// stay linked to each other when two or more remain. Blocks until it is on disk. Unlinking a
    /// contact that is linked to none records nothing.
    ///
    /// Throws ``ContactStoreError/Code/recordDoesNotExist`` for a contact that does not exist (or
    /// that a limited client does not see).
    @discardableResult
    public func unlink(
        _ identifier: String, transactionAuthor: String? = nil, requestIdentifier: UUID = RandomUUID.make()
    ) throws -> SaveResult {
        let client = client.identifier
        return try pipeline.commitPlanned(author: transactionAuthor ?? "", requestID: requestIdentifier) {
            view, access throws(ContactStoreError) in
            try Self.checkVisible(identifier, in: view, client: client, access: access)
            let members = view.links(of: identifier)
            guard !members.isEmpty else { return [] }
            return [
                .unlinkContact(contactIdentifier: identifier, linkedIdentifiers: members.filter { $0 != identifier })
            ]
        }
    }

    /// The identifiers of the contacts linked with a contact, itself included, in link order;
    /// empty when it is linked to none. A limited client is told only of those it may see.
    public func linkedContactIdentifiers(of identifier: String) throws -> [String] {
        try readStateAndAccess { projection, _, access in
            try checkCanRead(access)
            let view = ClientView(client: client, access: access, in: projection)
            return projection.links(of: identifier).filter { view.sees($0, in: projection) }
        }
    }

    /// The operations that link `identifiers`: one link with the joined set, or none when they
    /// are in one set already.
    private static func linkOperations(
        _ identifiers: [String], in view: some LedgerStateReading, client: String, access: ClientAccess
    ) throws(ContactStoreError) -> [LedgerOperation] {
        try checkSeveral(identifiers, action: "link", verb: "linked")
        for identifier in identifiers { try checkVisible(identifier, in: view, client: client, access: access) }
        var joined: [String] = []
        for identifier in identifiers {
            let members = view.links(of: identifier)
            for member in members.isEmpty ? [identifier] : members where !joined.contains(member) {
                joined.append(member)
            }
        }
        return joined == view.links(of: identifiers[0]) ? [] : [.linkContacts(contactIdentifiers: joined)]
    }

    /// Throws unless the client may save and the contact exists and is one it sees.
    private static func checkVisible(
        _ identifier: String, in view: some LedgerStateReading, client: String, access: ClientAccess
    ) throws(ContactStoreError) {
        switch access.status {
        case .authorized, .limited: break
        case .notDetermined, .denied, .restricted:
            throw ContactStoreError(
                .authorizationDenied, "client \(client) is \(access.status), not authorized to save")
        }
        guard let contact = view.contact(identifier),
            access.status == .authorized || contact.createdBy == client
                || view.grants(of: client).contains(identifier)
        else {
            throw ContactStoreError(
                .recordDoesNotExist, "contact \(identifier) does not exist", affectedIdentifiers: [identifier])
        }
    }

    /// The contacts of ordered slots with the values of `keys`, a linked contact given as its
    /// link set's unified contact, once, where its first selected member stands. A unified
    /// contact combines only the members the client sees.
    func unifiedContacts(
        at slots: [ContactSlot], in projection: borrowing Projection, keys: ContactKeySet, _ access: ClientAccess
    ) -> [Contact] {
        let combination = ContactCombination(region: client.region)
        let view = ClientView(client: client, access: access, in: projection)
        var given = Set<String>()
        var result: [Contact] = []
        for slot in slots {
            guard let owner = projection.owner(at: slot) else { continue }
            let members = projection.links(of: owner.identifier).filter { view.sees($0, in: projection) }
            guard let first = members.first else {
                guard let state = projection.state(at: slot, keys: keys) else { continue }
                result.append(
                    Contact(
                        identifier: owner.identifier, limitedValues: state.values, availableKeys: keys,
                        revision: state.revision))
                continue
            }
            guard given.insert(first).inserted else { continue }
            let states = members.compactMap { projection.contact($0, keys: keys) }
            let values = combination.combine(states[0].values, states.dropFirst().map(\.values), keys: keys).values
            result.append(
                Contact(
                    identifier: first, values: values, availableKeys: keys,
                    revision: states.map(\.revision).max() ?? 0))
        }
        return result
    }
}
