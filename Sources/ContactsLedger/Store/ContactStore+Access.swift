import ContactsEngine
import ContactsModel
import Foundation

/// One client's access as the ledger records it, for the owner.
public struct ClientAccessRecord: Sendable, Hashable {
    /// The client's identifier.
    public var clientIdentifier: String
    /// The recorded authorization: `.notDetermined` while a request waits for the owner's
    /// answer, nil when the ledger holds grants but no decision.
    public var status: AuthorizationStatus?
    /// Whether the recorded decision includes the notes entitlement.
    public var notesEntitlement: Bool
    /// The contacts granted to the client, in identifier order.
    public var grantedIdentifiers: [String]
}

/// Access: the client's authorization, its requests, and the owner's grants (decision 0024).
extension ContactStore {
    /// The client's authorization for contacts.
    public func authorizationStatus(for entityType: EntityType = .contacts) -> AuthorizationStatus {
        pipeline.authorizationStatus(for: entityType)
    }

    /// The client's current access (status and notes entitlement).
    package var currentAccess: ClientAccess { pipeline.currentAccess }

    /// Asks for access: a not-yet-determined client records its request, and the person's answer
    /// at the prompt (its ``ClientContext/accessDecision``) is recorded as the owner's, with the
    /// author ``ClientContext/promptAuthor``. Returns true when the client may reach contacts
    /// (fully or limited); throws ``ContactStoreError/Code/authorizationDenied`` otherwise,
    /// including while the request waits for the owner's answer.
    @discardableResult
    public func requestAccess(for entityType: EntityType = .contacts) async throws -> Bool {
        try await pipeline.requestAccess(for: entityType)
    }

    /// Grants a client these contacts, as the picker does when the person ticks them; recorded
    /// with the owner as author and the client named. Only the owner grants
    /// (``ContactStoreError/Code/authorizationDenied`` otherwise); a missing contact is refused
    /// with ``ContactStoreError/Code/recordDoesNotExist`` and nothing is recorded.
    public func grantAccess(
        toContactsWithIdentifiers identifiers: [String], toClient clientIdentifier: String
    )
        async throws
    {
        try await pipeline.grantAccess(toContactsWithIdentifiers: identifiers, toClient: clientIdentifier)
    }

    /// Takes these contacts away from a client; recorded with the owner as author. Only the owner
    /// revokes.
    public func revokeAccess(
        toContactsWithIdentifiers identifiers: [String], fromClient clientIdentifier: String
    )
        async throws
    {
        try await pipeline.revokeAccess(toContactsWithIdentifiers: identifiers, fromClient: clientIdentifier)
    }

    /// Grants as the asynchronous ``grantAccess(toContactsWithIdentifiers:toClient:)`` does,
    /// blocking the calling thread until the record is on disk, as the blocking `execute` does: for
    /// a caller on a thread of its own (a command, a server's connection), never from a task.
    public func grantAccess(toContactsWithIdentifiers identifiers: [String], toClient clientIdentifier: String) throws {
        try pipeline.grantAccessBlocking(toContactsWithIdentifiers: identifiers, toClient: clientIdentifier)
    }

    /// Revokes as the asynchronous ``revokeAccess(toContactsWithIdentifiers:fromClient:)`` does,
    /// blocking the calling thread until the record is on disk.
    public func revokeAccess(
        toContactsWithIdentifiers identifiers: [String], fromClient clientIdentifier: String
    )
        throws
    {
        try pipeline.revokeAccessBlocking(toContactsWithIdentifiers: identifiers, fromClient: clientIdentifier)
    }

    /// Decides a client's authorization (answering its request, or changing an earlier answer);
    /// recorded with the owner as author. Only the owner decides.
    public func setAuthorization(
        _ status: AuthorizationStatus, notesEntitlement: Bool = false, forClient clientIdentifier: String
    ) async throws {
        try await pipeline.setAuthorization(status, notesEntitlement: notesEntitlement, forClient: clientIdentifier)
    }

    /// Every client the ledger knows, with its recorded authorization and grants; for the owner
    /// alone.
    public func clientAccessRecords() throws -> [ClientAccessRecord] { try pipeline.clientAccessRecords() }
}
