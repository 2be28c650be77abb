import ContactsEngine
import ContactsInterchange
import ContactsModel
import Dispatch
import Foundation
import LedgerStorage
import Synchronization

/// Access: the client's authorization, requests for access, and grants.
extension CommitPipeline {
    /// The client's authorization for contacts.
    package func authorizationStatus(for entityType: EntityType = .contacts) -> AuthorizationStatus {
        currentAccess.status
    }

    /// The client's current access (status and notes entitlement).
    package var currentAccess: ClientAccess { projectionLock.read { access } }

    /// Asks for access: a not-yet-determined client gets the decision of its
    /// ``ClientContext/accessDecision``, recorded in the ledger. Returns true when the client may
    /// reach contacts (fully or limited); throws ``ContactStoreError/Code/authorizationDenied`` otherwise.
    @discardableResult
    package func requestAccess(for entityType: EntityType = .contacts) async throws -> Bool {
        let current = authorizationStatus()
        var decided = current
        if current == .notDetermined {
            decided = client.accessDecision()
            try await record(
                [
                    .setAuthorization(
                        clientIdentifier: client.identifier, status: decided, notesEntitlement: client.notesEntitlement)
                ],
                author: client.identifier)
            setStatus(decided)
        }
        switch decided {
        case .authorized, .limited: return true
        case .notDetermined, .denied, .restricted:
            throw ContactStoreError(.authorizationDenied, "client \(client.identifier) is \(decided)")
        }
    }

    func setStatus(_ status: AuthorizationStatus) {
        commitLock.lock()
        // Readers read the access under `projectionLock` alone, with the state it applies to.
        projectionLock.write { access.status = status }
        commitLock.unlock()
    }

    /// Grants a limited client these contacts (the contact picker's stand-in), recorded in the ledger.
    package func grantAccess(toContactsWithIdentifiers identifiers: [String]) async throws {
        try await record(
            [.grantAccess(clientIdentifier: client.identifier, contactIdentifiers: identifiers)],
            author: client.identifier)
    }

    /// Takes these contacts away from a limited client, recorded in the ledger.
    package func revokeAccess(toContactsWithIdentifiers identifiers: [String]) async throws {
        try await record(
            [.revokeAccess(clientIdentifier: client.identifier, contactIdentifiers: identifiers)],
            author: client.identifier)
    }

    /// Commits store-level operations (access decisions and grants) as one record, staged like a
    /// save so that saves queued behind it see it; returns after it is on disk.
    func record(_ operations: [LedgerOperation], author: String) async throws {
        let _: SaveResult = try await withCheckedThrowingContinuation { continuation in
            submitOperations(operations, author: author, requestID: RandomUUID.make()) { continuation.resume(with: $0) }
        }
    }

    /// Queues already-planned store-level operations as one record.
    func submitOperations(
        _ operations: [LedgerOperation], author: String, requestID: UUID, leading: Bool = false,
        completion: @escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    ) {
        guard case .journal(let journal) = backing else {
            return completion(.failure(ContactStoreError(.storeNotWritable, "the store is read-only")))
        }
        let event = LedgerEvent(operations: operations)
        commitLock.lock()
        if let failure {
            commitLock.unlock()
            return completion(.failure(failure))
        }
        var planned = projectionLock.read {
            var view = StagedView(base: cell.stateView, staged: takeStaged())
            view.apply(event, sequence: nextSequence, requestID: requestID)
            return view.detach()
        }
        let error = enqueueLocked(
            event, requestID: requestID, author: author, affected: event.affectedIdentifiers, planned: &planned,
            journal: journal, leading: leading, completion: completion)
        commitLock.unlock()
        if let error { completion(.failure(error)) }
    }

    /// Executes a save request on behalf of another client with full access (replaying a
    /// recording into a scratch store); blocks until the record is on disk.
    @discardableResult
    package func execute(_ request: SaveRequest, onBehalfOf clientIdentifier: String) throws -> SaveResult {
        try wait {
            self.submit(
                request,
                as: SaveClient(
                    identifier: clientIdentifier, access: ClientAccess(status: .authorized, notesEntitlement: true)),
                leading: true, completion: $0)
        }
    }

    /// Commits store-level operations verbatim (replaying a recording); blocks until on disk.
    @discardableResult
    package func commitOperations(_ operations: [LedgerOperation], author: String, requestID: UUID) throws -> SaveResult
    {
        try wait {
            self.submitOperations(operations, author: author, requestID: requestID, leading: true, completion: $0)
        }
    }

    /// Runs a leading submission and blocks the calling thread for its result: the thread writes
    /// the group that holds its record itself when the journal's writer is idle, so a lone
    /// blocking caller pays no thread wake-ups; otherwise the busy writer takes the record.
    ///
    /// Refused on a thread that is finishing a group (an observer of `contactStoreDidChange`):
    /// the save could wait for that very thread, and would never return.
    func wait(
        _ start: (@escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void) -> Void
    ) throws -> SaveResult {
        if callerIsFinishing {
            throw ContactStoreError(
                .dataAccessError,
                "a blocking save from within a change notification would wait for the thread posting it; "
                    + "save from a task of its own instead")
        }
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<SaveResult>()
        start { result in
            box.set(result)
            done.signal()
        }
        if case .journal(let journal) = backing { journal.writeQueued() }
        done.wait()
        return try box.get()
    }
}
