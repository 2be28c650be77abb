import ContactsEngine
import ContactsModel
import Foundation

/// What one client may see of a state: the single rule that fetches, change history,
/// notifications, results and the audit library apply (decision 0024).
///
/// A client sees a contact when it has full access, created the contact, or holds a grant for it
/// in the state read; a deleted contact is judged by the same rule, with the creator its delete
/// recorded. Groups and containers are seen by every client that may read; another client's
/// authorization, requests and grants are seen by the owner alone. A client without the notes
/// entitlement does not see a change that touched the note alone.
package struct ClientView: Sendable {
    /// The client's identifier.
    package let clientIdentifier: String
    /// The client's access in the state read.
    package let access: ClientAccess
    /// Whether the client is the ledger's owner.
    package let isOwner: Bool
    /// The contacts granted to the client in the state read.
    package let grants: Set<String>

    /// The view of `client` with `access`, over the grants of `state`.
    package init(client: ClientContext, access: ClientAccess, in state: borrowing Projection) {
        clientIdentifier = client.identifier
        self.access = access
        isOwner = client.isOwner
        grants = access.status == .limited ? state.grants(of: client.identifier) : []
    }

    /// Whether the client may read at all.
    package var canRead: Bool { access.status == .authorized || access.status == .limited }

    /// Whether the client sees a contact created by `createdBy`, under the grants read.
    package func sees(_ identifier: String, createdBy: String) -> Bool {
        sees(createdBy: createdBy, granted: grants.contains(identifier))
    }

    /// Whether the client sees a contact created by `createdBy`, granted to it or not.
    package func sees(createdBy: String, granted: Bool) -> Bool {
        switch access.status {
        case .authorized: return true
        case .limited: return granted || createdBy == clientIdentifier
        case .notDetermined, .denied, .restricted: return false
        }
    }

    /// Whether the client sees a contact that the state holds (false for one it does not).
    package func sees(_ identifier: String, in state: borrowing Projection) -> Bool {
        guard let contact = state.contact(identifier, keys: []) else { return false }
        return sees(identifier, createdBy: contact.createdBy)
    }

    /// Whether the client sees a change of these keys (one of the note alone needs the entitlement).
    package func seesChange(of keys: ContactKeySet) -> Bool {
        access.notesEntitlement || !keys.subtracting(ContactKeySet(.note)).isEmpty
    }

    /// The identifiers an event touches that the client sees, in order, judged against `state`
    /// (the state after the event): what a notification or a result may tell the client.
    package func visibleIdentifiers(of event: LedgerEvent, in state: borrowing Projection) -> [String] {
        if isOwner { return event.affectedIdentifiers }
        // The creator of every contact the event names: from its add or delete, else the state.
        var creators: [String: String] = [:]
        for operation in event.operations {
            switch operation {
            case .addContact(let identifier, _, let createdBy, _),
                .deleteContact(let identifier, _, let createdBy, _, _):
                creators[identifier] = createdBy
            case .updateContact(let identifier, _, _, _), .addMember(let identifier, _),
                .removeMember(let identifier, _):
                if creators[identifier] == nil, let contact = state.contact(identifier, keys: []) {
                    creators[identifier] = contact.createdBy
                }
            case .linkContacts(let contacts), .unlinkContact(_, let contacts):
                var named = contacts
                if case .unlinkContact(let contact, _) = operation { named.append(contact) }
                for identifier in named where creators[identifier] == nil {
                    if let contact = state.contact(identifier, keys: []) { creators[identifier] = contact.createdBy }
                }
            default: continue
            }
        }
        let seen = { (identifier: String) -> Bool in
            guard let creator = creators[identifier] else { return grants.contains(identifier) }
            return sees(identifier, createdBy: creator)
        }
        var result: [String] = []
        var added: Set<String> = []
        func add(_ identifier: String) { if added.insert(identifier).inserted { result.append(identifier) } }
        for operation in event.operations {
            for identifier in visibleIdentifiers(of: operation, seen: seen) { add(identifier) }
        }
        return result
    }

    /// The identifiers one operation touches that the client sees.
    private func visibleIdentifiers(of operation: LedgerOperation, seen: (String) -> Bool) -> [String] {
        switch operation {
        case .addContact(let identifier, _, _, _), .deleteContact(let identifier, _, _, _, _):
            return seen(identifier) ? [identifier] : []
        case .updateContact(let identifier, let keys, _, _):
            return seen(identifier) && seesChange(of: keys) ? [identifier] : []
        case .addGroup(let identifier, _, _), .updateGroup(let identifier, _, _),
            .deleteGroup(let identifier, _, _, _, _, _), .addContainer(let identifier, _, _, _):
            return [identifier]
        case .addMember(let contact, let group), .removeMember(let contact, let group):
            return seen(contact) ? [group, contact] : []
        case .addSubgroup(let child, let parent), .removeSubgroup(let child, let parent):
            return [parent, child]
        case .setAuthorization(let client, _, _), .requestAccess(let client, _):
            return client == clientIdentifier ? [client] : []
        case .grantAccess(let client, let contacts), .revokeAccess(let client, let contacts):
            return client == clientIdentifier ? [client] + contacts : []
        case .linkContacts(let contacts):
            return contacts.filter(seen)
        case .unlinkContact(let contact, let linked):
            return ([contact] + linked).filter(seen)
        case .redacted(let standIn):
            return seen(standIn.contactIdentifier) ? [standIn.contactIdentifier] : []
        case .undo, .redaction:
            return []
        }
    }
}
