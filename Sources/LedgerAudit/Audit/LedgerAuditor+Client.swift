import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

/// What a client given to the auditor may see of the history: the store's rule (decision 0024),
/// applied to recorded operations instead of a state.
///
/// The client's access and grants are those the ledger records at the head when the auditor is
/// made; a contact is seen when the client has full access, created it, or holds a grant for it
/// then. The note is left out of everything without the notes entitlement, and other clients'
/// authorizations, requests and grants are left out for every client but the owner.
package struct AuditLens: Sendable {
    /// The client's identifier.
    let clientIdentifier: String
    /// The client's access at the head.
    let access: ClientAccess
    /// The contacts a limited client sees: those it created and those granted to it.
    let seen: Set<String>

    /// Reads the client's access, grants and creations from the whole journal.
    init(client: ClientContext, auditor: LedgerAuditor) throws {
        var recorded: ClientAccess?
        var granted: Set<String> = []
        var created: Set<String> = []
        try auditor.forEachEvent { _, event in
            for operation in event.operations {
                switch operation {
                case .addContact(let identifier, _, let createdBy, _) where createdBy == client.identifier:
                    created.insert(identifier)
                case .setAuthorization(client.identifier, let status, let notes):
                    recorded = ClientAccess(status: status, notesEntitlement: notes)
                case .requestAccess(client.identifier, let notes) where recorded == nil:
                    recorded = ClientAccess(status: .notDetermined, notesEntitlement: notes)
                case .grantAccess(client.identifier, let contacts): granted.formUnion(contacts)
                case .revokeAccess(client.identifier, let contacts): granted.subtract(contacts)
                default: continue
                }
            }
            return true
        }
        var access = ClientAccess(status: client.authorization, notesEntitlement: client.notesEntitlement)
        if client.authorization == .notDetermined, let recorded { access = recorded }
        guard access.status == .authorized || access.status == .limited else {
            throw ContactStoreError(
                .authorizationDenied, "client \(client.identifier) is \(access.status), not authorized")
        }
        clientIdentifier = client.identifier
        self.access = access
        seen = access.status == .limited ? granted.union(created) : []
    }

    /// Whether the client sees a contact.
    func sees(_ identifier: String) -> Bool { access.status == .authorized || seen.contains(identifier) }

    /// The keys whose values the client may read.
    var readableKeys: ContactKeySet {
        var keys = ContactKeySet.all
        if !access.notesEntitlement { keys.remove(.note) }
        return keys
    }

    /// Values with what the client may not read left at their defaults.
    func readable(_ values: ContactValues) -> ContactValues {
        access.notesEntitlement ? values : values.keeping(readableKeys)
    }

    /// The operations the client sees, with what it may not read taken out of them; an undo's
    /// mark is kept only beside an effect the client sees.
    func visible(_ operations: [LedgerOperation]) -> [LedgerOperation] {
        let seen = operations.compactMap(visible)
        return seen.contains(where: { if case .undo = $0 { false } else { true } }) ? seen : []
    }

    /// One operation as the client sees it, or nil when it sees nothing of it.
    private func visible(_ operation: LedgerOperation) -> LedgerOperation? {
        switch operation {
        case .addContact(let identifier, let container, let createdBy, let values):
            guard sees(identifier) else { return nil }
            return .addContact(
                identifier: identifier, containerIdentifier: container, createdBy: createdBy, values: readable(values))
        case .updateContact(let identifier, var keys, let old, let new):
            guard sees(identifier) else { return nil }
            if !access.notesEntitlement { keys.remove(.note) }
            guard !keys.isEmpty else { return nil }
            return .updateContact(identifier: identifier, keys: keys, old: readable(old), new: readable(new))
        case .deleteContact(let identifier, let container, let createdBy, let groups, let last):
            guard sees(identifier) else { return nil }
            return .deleteContact(
                identifier: identifier, containerIdentifier: container, createdBy: createdBy, groupIdentifiers: groups,
                last: readable(last))
        case .deleteGroup(let identifier, let container, let name, let members, let subgroups, let parents):
            return .deleteGroup(
                identifier: identifier, containerIdentifier: container, name: name,
                memberIdentifiers: members.filter(sees), subgroupIdentifiers: subgroups,
                parentGroupIdentifiers: parents)
        case .addMember(let contact, _), .removeMember(let contact, _):
            return sees(contact) ? operation : nil
        case .addGroup, .updateGroup, .addSubgroup, .removeSubgroup, .addContainer, .undo:
            return operation
        case .redacted(let standIn):
            return sees(standIn.contactIdentifier) ? operation : nil
        case .redaction:
            return nil
        case .setAuthorization(let client, _, _), .requestAccess(let client, _), .grantAccess(let client, _),
            .revokeAccess(let client, _):
            return client == clientIdentifier ? operation : nil
        case .linkContacts(let contacts):
            // The members it sees; a link of fewer than two of them tells it nothing.
            let seen = contacts.filter(sees)
            return seen.count > 1 ? .linkContacts(contactIdentifiers: seen) : nil
        case .unlinkContact(let contact, let linked):
            return sees(contact)
                ? .unlinkContact(contactIdentifier: contact, linkedIdentifiers: linked.filter(sees)) : nil
        }
    }

    /// Refuses what reads every record whole (verification, restore, replay checks): only the
    /// owner, or an auditor given no client, may run it.
    func refuse(_ action: String) -> ContactStoreError {
        ContactStoreError(
            .authorizationDenied, "\(action) reads every record; client \(clientIdentifier) is not the owner")
    }
}

extension LedgerAuditor {
    /// Opens the ledger at `path` for auditing on behalf of a client: the log, revisions and
    /// differences show only what the client may see (decision 0024), and verification,
    /// restore and replay checks are refused unless the client is the owner. Throws
    /// ``ContactStoreError/Code/authorizationDenied`` for a client that may not read.
    public init(ledgerAt path: String, client: ClientContext) throws {
        try self.init(ledgerAt: path)
        if !client.isOwner { lens = try AuditLens(client: client, auditor: self) }
    }

    /// Throws unless the auditor may read every record whole.
    func checkReadsEverything(_ action: String) throws {
        if let lens { throw lens.refuse(action) }
    }
}
