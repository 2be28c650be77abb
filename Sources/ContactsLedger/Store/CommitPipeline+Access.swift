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

    /// Asks for access: a not-yet-determined client records its request, and the person's answer
    /// at the prompt (its ``ClientContext/accessDecision``) is recorded as the owner's, with the
    /// author ``ClientContext/promptAuthor``. Returns true when the client may reach contacts
    /// (fully or limited); throws ``ContactStoreError/Code/authorizationDenied`` otherwise,
    /// including while the request waits for the owner's answer.
    @discardableResult
    package func requestAccess(for entityType: EntityType = .contacts) async throws -> Bool {
        var decided = authorizationStatus()
        if decided == .notDetermined {
            let requested = projectionLock.read { cell.stateView.access(of: client.identifier) != nil }
            if !requested {
                try await record(
                    [.requestAccess(clientIdentifier: client.identifier, notesEntitlement: client.notesEntitlement)],
                    author: client.identifier)
            }
            decided = client.accessDecision()
            if decided != .notDetermined {
                try await record(
                    [
                        .setAuthorization(
                            clientIdentifier: client.identifier, status: decided,
                            notesEntitlement: client.notesEntitlement)
                    ],
                    author: ClientContext.promptAuthor)
                setStatus(decided)
            }
        }
        switch decided {
        case .authorized, .limited: return true
        case .notDetermined:
            throw ContactStoreError(
                .authorizationDenied, "client \(client.identifier) asked for access; the owner has not answered yet")
        case .denied, .restricted:
            throw ContactStoreError(.authorizationDenied, "client \(client.identifier) is \(decided)")
        }
    }

    func setStatus(_ status: AuthorizationStatus) {
        commitLock.lock()
        // Readers read the access under `projectionLock` alone, with the state it applies to.
        projectionLock.write { access.status = status }
        commitLock.unlock()
    }

    /// Throws unless this store's client is the ledger's owner.
    private func checkOwner(_ action: String) throws(ContactStoreError) {
        guard client.isOwner else {
            throw ContactStoreError(
                .authorizationDenied, "only the ledger's owner \(action); client \(client.identifier) is not the owner")
        }
    }

    /// The owner grants a client these contacts (the picker's work), recorded with the owner as
    /// author; contacts it holds already are left out of the record, and a missing one is refused.
    package func grantAccess(
        toContactsWithIdentifiers identifiers: [String], toClient clientIdentifier: String
    )
        async throws
    {
        guard let operations = try grantOperations(identifiers, clientIdentifier) else { return }
        try await record(operations, author: client.identifier)
    }

    /// Grants as ``grantAccess(toContactsWithIdentifiers:toClient:)`` does, blocking the calling
    /// thread until the record is on disk: for a caller on a thread of its own, which must not
    /// wait for the cooperative pool to run a task.
    package func grantAccessBlocking(
        toContactsWithIdentifiers identifiers: [String], toClient clientIdentifier: String
    )
        throws
    {
        guard let operations = try grantOperations(identifiers, clientIdentifier) else { return }
        try commitOperations(operations, author: client.identifier, requestID: RandomUUID.make())
    }

    /// The record of a grant: the contacts the client does not hold yet, or nil when it holds them all.
    private func grantOperations(_ identifiers: [String], _ clientIdentifier: String) throws -> [LedgerOperation]? {
        try checkOwner("grants access")
        let new: [String] = try readState { projection, _ in
            let held = projection.grants(of: clientIdentifier)
            var new: [String] = []
            for identifier in identifiers where !held.contains(identifier) && !new.contains(identifier) {
                guard projection.contact(identifier, keys: []) != nil else {
                    throw ContactStoreError(
                        .recordDoesNotExist, "contact \(identifier) does not exist", affectedIdentifiers: [identifier])
                }
                new.append(identifier)
            }
            return new
        }
        return new.isEmpty ? nil : [.grantAccess(clientIdentifier: clientIdentifier, contactIdentifiers: new)]
    }

    /// The owner takes these contacts away from a client, recorded with the owner as author;
    /// contacts the client does not hold are left out of the record.
    package func revokeAccess(
        toContactsWithIdentifiers identifiers: [String], fromClient clientIdentifier: String
    )
        async throws
    {
        guard let operations = try revokeOperations(identifiers, clientIdentifier) else { return }
        try await record(operations, author: client.identifier)
    }

    /// Revokes as ``revokeAccess(toContactsWithIdentifiers:fromClient:)`` does, blocking the
    /// calling thread until the record is on disk.
    package func revokeAccessBlocking(
        toContactsWithIdentifiers identifiers: [String], fromClient clientIdentifier: String
    )
        throws
    {
        guard let operations = try revokeOperations(identifiers, clientIdentifier) else { return }
        try commitOperations(operations, author: client.identifier, requestID: RandomUUID.make())
    }

    /// The record of a revocation: the contacts the client holds, or nil when it holds none of them.
    private func revokeOperations(_ identifiers: [String], _ clientIdentifier: String) throws -> [LedgerOperation]? {
        try checkOwner("revokes access")
        let held = readState { projection, _ in projection.grants(of: clientIdentifier) }
        var gone: [String] = []
        for identifier in identifiers where held.contains(identifier) && !gone.contains(identifier) {
            gone.append(identifier)
        }
        return gone.isEmpty ? nil : [.revokeAccess(clientIdentifier: clientIdentifier, contactIdentifiers: gone)]
    }

    /// The owner decides a client's authorization (answering its request, or changing an earlier
    /// answer), recorded with the owner as author.
    package func setAuthorization(
        _ status: AuthorizationStatus, notesEntitlement: Bool, forClient clientIdentifier: String
    ) async throws {
        try checkOwner("decides a client's authorization")
        try await record(
            [.setAuthorization(clientIdentifier: clientIdentifier, status: status, notesEntitlement: notesEntitlement)],
            author: client.identifier)
    }

    /// Every client the ledger knows, with its recorded authorization and grants, for the owner.
    package func clientAccessRecords() throws -> [ClientAccessRecord] {
        try checkOwner("lists the clients' access")
        return readState { projection, _ in
            Set(projection.accessByClient.keys).union(projection.grantsByClient.keys).sorted().map { identifier in
                let recorded = projection.access(of: identifier)
                return ClientAccessRecord(
                    clientIdentifier: identifier, status: recorded?.status,
                    notesEntitlement: recorded?.notesEntitlement ?? false,
                    grantedIdentifiers: projection.grants(of: identifier).sorted())
            }
        }
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

    /// Executes a save request as another client with the access the ledger records for it when
    /// the request is planned (a server writing for a signed-in client): the store's access
    /// rules apply at save time and the client is the creator of what it adds. Blocks until the
    /// record is on disk.
    @discardableResult
    package func execute(_ request: SaveRequest, asClient clientIdentifier: String) throws -> SaveResult {
        var saveClient = SaveClient(
            identifier: clientIdentifier, access: ClientAccess(status: .notDetermined, notesEntitlement: false))
        saveClient.readsRecordedAccess = true
        return try wait { self.submit(request, as: saveClient, leading: true, completion: $0) }
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
