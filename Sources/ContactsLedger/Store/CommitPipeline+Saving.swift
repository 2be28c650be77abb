import ContactsEngine
import ContactsInterchange
import ContactsModel
import Dispatch
import Foundation
import LedgerStorage
import Synchronization

/// Saving: planning requests against the state, queueing their records, and finishing each
/// durable group in order.
extension CommitPipeline {
    /// Executes a save request: validates every change, commits them as one record, and returns
    /// after the record is on disk (fdatasync has returned). On any error nothing is written,
    /// nothing changes, and no notification is posted.
    @discardableResult
    package func execute(_ request: SaveRequest) async throws -> SaveResult {
        try await withCheckedThrowingContinuation { continuation in
            submit(request) { continuation.resume(with: $0) }
        }
    }

    /// Executes a save request, blocking the calling thread until the record is on disk.
    ///
    /// Called from an observer of `contactStoreDidChange` while the store posts it, it throws
    /// ``ContactStoreError/Code/dataAccessError``: it could wait for the thread it runs on.
    @discardableResult
    package func execute(_ request: SaveRequest) throws -> SaveResult {
        try wait { self.submit(request, leading: true, completion: $0) }
    }

    /// A save request waiting to be planned, with what was worked out for it before the commit lock.
    struct Submission: Sendable {
        var request: SaveRequest
        var override: SaveClient?
        var prepared: PreparedSaveRequest
        /// For a request that only adds contacts: the event planning makes of it, and its encoding.
        var speculative: (event: LedgerEvent, encoded: EncodedEvent)?
        var completion: @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    }

    /// Validates and queues a request; `completion` runs once it is durable or has failed.
    ///
    /// A `leading` caller blocks until the outcome anyway and calls ``wait(_:)``: the
    /// journal does not wake its writer thread for the record, and the caller writes the group
    /// itself if the writer is idle. An asynchronous caller does not lead, so that no task blocks
    /// a thread of the cooperative pool in fdatasync; nor does it wait for the commit lock: it
    /// leaves its request to the thread planning already, if there is one (see
    /// ``planSubmissions()``).
    func submit(
        _ request: SaveRequest, as override: SaveClient? = nil, leading: Bool = false,
        completion: @escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    ) {
        // What depends only on the request is worked out before the commit lock, which planning
        // against the durable and staged state must hold.
        let prepared = PreparedSaveRequest(request)
        // A request that only adds contacts is encoded before the lock too: if planning accepts
        // it, planning makes exactly this event (see `addOnlyEvent`). A leading caller plans
        // alone and encodes under the lock, without building the event twice.
        let speculative =
            leading
            ? nil
            : prepared.addOnlyEvent(
                createdBy: override?.identifier ?? client.identifier, defaultContainer: defaultContainerID
            ).map { (event: $0, encoded: EventCodec.encodeLocatingAdds($0)) }
        let submission = Submission(
            request: request, override: override, prepared: prepared, speculative: speculative, completion: completion)
        if leading {
            commitLock.lock()
            let answer = submitLocked(submission, leading: true)
            commitLock.unlock()
            answer?()
            return
        }
        submissionLock.lock()
        submissions.append(submission)
        if planning {
            submissionLock.unlock()
            return
        }
        planning = true
        submissionLock.unlock()
        planSubmissions()
    }

    /// Plans and queues the waiting asynchronous submissions, in the order they arrived, under
    /// the commit lock, until none is left; the thread that found no one planning runs it.
    ///
    /// Callers that arrive meanwhile add their requests to the list and return, instead of
    /// blocking a thread of the cooperative pool on the commit lock (and paying for its sleep and
    /// wake-up). Answers that need no journal (errors, committed requests) run after the lock is
    /// released.
    func planSubmissions() {
        var batch: [Submission] = []
        var answers: [() -> Void] = []
        while true {
            commitLock.lock()
            submissionLock.lock()
            swap(&batch, &submissions)
            if batch.isEmpty {
                // Under both locks: a submission that arrives after this finds no one planning
                // and plans itself.
                planning = false
                submissionLock.unlock()
                commitLock.unlock()
                return
            }
            submissionLock.unlock()
            for submission in batch {
                if let answer = submitLocked(submission, leading: false) { answers.append(answer) }
            }
            commitLock.unlock()
            batch.removeAll(keepingCapacity: true)
            for answer in answers { answer() }
            answers.removeAll(keepingCapacity: true)
        }
    }

    /// Validates and queues one submission; call with `commitLock` held. Returns what must still
    /// be done once the lock is released (answering a request that was not queued), or nil when
    /// the request was queued and its completion runs when it is durable.
    func submitLocked(_ submission: Submission, leading: Bool) -> (() -> Void)? {
        let request = submission.request
        let completion = submission.completion
        if let failure {
            return { completion(.failure(failure)) }
        }
        guard case .journal(let journal) = backing else {
            return { completion(.failure(ContactStoreError(.storeNotWritable, "the store is read-only"))) }
        }
        switch repeatAnswer(submission, journal: journal) {
        case .waitsForQueued: return nil
        case .answered(let answer): return answer
        case nil: break
        }
        var planned: (staged: StagedChanges, undo: StagedUndo) = (StagedChanges(), StagedUndo())
        let plan: PlannedSave
        switch planLocked(submission, into: &planned) {
        case .failure(let error):
            restoreStaged(&planned)
            return { completion(.failure(error)) }
        case .success(let value): plan = value
        }
        guard !plan.operations.isEmpty else {
            restoreStaged(&planned)
            return answerUnchanged(completion)
        }
        let event: LedgerEvent
        var encoded: EncodedEvent?
        if let speculative = submission.speculative, speculative.event.operations.count == plan.operations.count {
            assert(speculative.event.operations == plan.operations, "planning changed an add-only request's event")
            event = speculative.event
            encoded = speculative.encoded
        } else {
            event = LedgerEvent(operations: plan.operations)
        }
        if let error = enqueueLocked(
            event, encoded: encoded, requestID: request.requestIdentifier, author: request.transactionAuthor ?? "",
            affected: plan.affected, planned: &planned, journal: journal, leading: leading, completion: completion)
        {
            return { completion(.failure(error)) }
        }
        return nil
    }

    /// What a submission that repeats a request gets instead of being planned.
    enum RepeatAnswer {
        /// The same request is queued already; the submission is answered with its outcome.
        case waitsForQueued
        /// The request was committed before; run this once the lock is released.
        case answered(() -> Void)
    }

    /// The answer to a submission whose request is queued or committed already, or nil for a new
    /// request; call with `commitLock` held. A repeated request is never planned again.
    func repeatAnswer(_ submission: Submission, journal: any JournalStore) -> RepeatAnswer? {
        let requestID = submission.request.requestIdentifier
        let completion = submission.completion
        if pendingRequests[requestID] != nil {
            pendingRequests[requestID]!.append { result in
                completion(
                    result.map {
                        SaveResult(
                            sequence: $0.sequence, commitDate: $0.commitDate,
                            affectedIdentifiers: $0.affectedIdentifiers, wasAlreadyCommitted: true)
                    })
            }
            return .waitsForQueued
        }
        guard let committed = projectionLock.read({ cell.stateView.sequence(ofRequest: requestID) }) else { return nil }
        return .answered {
            let original = Result { try self.originalResult(of: committed, journal: journal) }
            completion(original.mapError { $0 as? ContactStoreError ?? ContactStoreError(.dataAccessError, "\($0)") })
        }
    }

    /// The operations a request plans into and the identifiers they affect.
    typealias PlannedSave = (operations: [LedgerOperation], affected: [String])

    /// Plans a submission against the durable state and the staged changes, which move into the
    /// planner's view and back through `planned`, so the request's effects are written into them
    /// in place; its `undo` takes them out again if the request is not queued. Call with
    /// `commitLock` held; the projection is read under its read lock.
    func planLocked(
        _ submission: Submission, into planned: inout (staged: StagedChanges, undo: StagedUndo)
    ) -> Result<PlannedSave, ContactStoreError> {
        var saveClient = submission.override ?? SaveClient(identifier: client.identifier, access: access)
        return projectionLock.read {
            let view = StagedView(base: cell.stateView, staged: takeStaged())
            if saveClient.readsRecordedAccess {
                saveClient.access =
                    view.access(of: saveClient.identifier)
                    ?? ClientAccess(status: .notDetermined, notesEntitlement: false)
            }
            var planner = SavePlanner(
                state: view, client: saveClient, request: submission.request, sequence: nextSequence)
            let result: Result<PlannedSave, ContactStoreError>
            do throws(ContactStoreError) {
                result = .success(try planner.plan(submission.prepared))
            } catch {
                result = .failure(error)
            }
            planned = planner.state.detach()
            return result
        }
    }

    /// The answer to a request that changes nothing: the current head, and no record.
    func answerUnchanged(
        _ completion: @escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    ) -> () -> Void {
        let head = projectionLock.read { (cell.projection.head, cell.projection.lastCommitMicroseconds) }
        return {
            completion(
                .success(
                    SaveResult(
                        sequence: head.0.sequence, commitDate: Date(microseconds: head.1),
                        affectedIdentifiers: [], wasAlreadyCommitted: false)))
        }
    }

    /// Moves the staged changes out of the store, for a planner to write into in place; call with
    /// `commitLock` held, and give them back (``restoreStaged(_:)`` or ``enqueueLocked``) before
    /// releasing it.
    func takeStaged() -> StagedChanges {
        var taken = StagedChanges()
        swap(&taken, &staged)
        return taken
    }

    /// Gives planned staged changes back to the store without the request's effects.
    func restoreStaged(_ planned: inout (staged: StagedChanges, undo: StagedUndo)) {
        planned.undo.rollBack(&planned.staged)
        swap(&staged, &planned.staged)
    }

    /// Encodes (unless `encoded` is its encoding already) and queues an event whose effects are
    /// planned into `planned`, and gives the staged changes back to the store: with the event's
    /// effects when the journal took the record, without them (and with the error returned) when
    /// it refused it. Call with `commitLock` held.
    func enqueueLocked(
        _ event: LedgerEvent, encoded given: EncodedEvent? = nil, requestID: UUID, author: String, affected: [String],
        planned: inout (staged: StagedChanges, undo: StagedUndo), journal: any JournalStore, leading: Bool,
        completion: @escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    ) -> ContactStoreError? {
        let sequence = nextSequence
        let encoded = given ?? EventCodec.encodeLocatingAdds(event)
        let entry = JournalEntry(
            requestID: requestID, author: author, schemaVersion: EventCodec.currentSchemaVersion,
            payload: encoded.payload)
        let undo = planned.undo
        do {
            let assigned = try journal.enqueue(entry, deferringWrite: leading) { [self] result in
                // The group is finished as a whole, in `finishGroup`, once all its records are here.
                let record = CompletedRecord(
                    event: event, encoded: encoded, requestID: requestID, author: author, affected: affected,
                    staged: undo, result: result)
                completedLock.lock()
                completed.append(record)
                completedLock.unlock()
            }
            precondition(assigned == sequence, "the journal assigned \(assigned) where the store expected \(sequence)")
            enqueuedThrough.store(assigned, ordering: .releasing)
        } catch {
            restoreStaged(&planned)
            return ContactStoreError(error)
        }
        swap(&staged, &planned.staged)
        nextSequence += 1
        pendingRequests[requestID] = [completion]
        return nil
    }

    /// Plans requests one after another, each seeing the ones before it, against the durable and
    /// staged state, without committing anything: the first failure throws.
    @discardableResult
    package func dryRun(_ requests: [SaveRequest]) throws(ContactStoreError) -> [[LedgerOperation]] {
        commitLock.lock()
        defer { commitLock.unlock() }
        let saveClient = SaveClient(identifier: client.identifier, access: access)
        var planned: [[LedgerOperation]] = []
        let outcome: ContactStoreError? = projectionLock.read {
            var view = StagedView(base: cell.stateView, staged: staged)
            var sequence = nextSequence
            for request in requests {
                var planner = SavePlanner(state: view, client: saveClient, request: request, sequence: sequence)
                do throws(ContactStoreError) {
                    planned.append(try planner.plan().operations)
                } catch {
                    return error
                }
                view = planner.state
                sequence += 1
            }
            return nil
        }
        if let outcome { throw outcome }
        return planned
    }

    /// A record the journal has completed (made durable, or failed), waiting for its group to be finished.
    struct CompletedRecord {
        var event: LedgerEvent
        /// The event as its record holds it, with where its added contacts lie.
        var encoded: EncodedEvent
        var requestID: UUID
        var author: String
        var affected: [String]
        /// Its writes to the staged changes, released once it is applied.
        var staged: StagedUndo
        var result: Result<AppendReceipt, StorageError>
    }

    /// Whether the calling thread is finishing a group (running an observer of its notification).
    var callerIsFinishing: Bool {
        // The lock is recursive: only the thread finishing, or a thread when none is, gets it.
        guard finishLock.try() else { return false }
        defer { finishLock.unlock() }
        return finishDepth > 0
    }

    /// The sequence of the last record this store queued in its journal (durable or not).
    var queuedThrough: UInt64 { enqueuedThrough.load(ordering: .acquiring) }

    /// Runs on the thread holding the journal's writer role after the completions of a group
    /// (records made durable by one fdatasync, or failed together), and decides who finishes it
    /// (decision 0013).
    ///
    /// When records are queued behind the group, the group is handed to the store's finishing
    /// queue, so that the journal writes and syncs the next group while this one is applied and
    /// its callers are answered. Otherwise the thread finishes the group itself, since nothing
    /// waits to be written and a hand-off would only add a thread wake-up to the caller's wait (a
    /// lone writer's save pays none), unless an earlier group is being finished: the journal's
    /// writer never waits for a finish.
    func groupCompleted() {
        completedLock.lock()
        var last: UInt64?
        if case .success(let receipt)? = completed.last?.result { last = receipt.sequence }
        completedLock.unlock()
        let queuedBehind = last.map { queuedThrough > $0 } ?? false
        if queuedBehind || !finishGroup(waitingForTurn: false) {
            finisher.async { self.finishGroup() }
        }
    }

    /// Finishes the groups completed so far, in sequence order: advances the projection by them
    /// under one acquisition of the locks, then, record by record, posts the changes and
    /// completes the callers. Groups are finished one at a time (`finishLock`), so a call that
    /// finds its records taken by an earlier one does nothing. Without `waitingForTurn`, returns
    /// false at once if another thread is finishing.
    @discardableResult
    func finishGroup(waitingForTurn: Bool = true) -> Bool {
        if waitingForTurn {
            finishLock.lock()
        } else if !finishLock.try() {
            return false
        }
        finishDepth += 1
        defer {
            finishDepth -= 1
            finishLock.unlock()
        }
        completedLock.lock()
        let records = completed
        completed = []
        completedLock.unlock()
        guard !records.isEmpty else { return true }
        commitLock.lock()
        applyDurable(records)
        let (waiting, outcomes) = settleLocked(records)
        commitLock.unlock()
        // Architecture.md's commit path: the projection has advanced; the changes are published
        // (one per record on the streams, one for the whole group in a notification, decision
        // 0012), then the callers return.
        publish(records)
        for index in outcomes.indices {
            for completion in waiting[index] { completion(outcomes[index]) }
        }
        catchUpIndexes()
        return true
    }

    /// Advances the projection by the durable records of a finished group, under one write
    /// acquisition, leaving their index changes pending; call with `commitLock` held. The records
    /// are read in place, by index: one copied out of the array is a dozen references to retain
    /// and release.
    func applyDurable(_ records: [CompletedRecord]) {
        guard records.contains(where: { if case .success = $0.result { true } else { false } }) else { return }
        projectionLock.write {
            // The index changes are applied after the callers are answered (decision 0014):
            // readers that need the indexes apply them first.
            var operations = 0
            var payloadBytes = 0
            applyLeavingIndexChangesPending {
                for index in records.indices {
                    guard case .success(let receipt) = records[index].result else { continue }
                    cell.projection.apply(
                        records[index].event, encoded: records[index].encoded, receipt: receipt,
                        requestID: records[index].requestID)
                    operations += records[index].event.operations.count
                    payloadBytes += records[index].encoded.payload.count
                }
            }
            snapshotter?.applied(
                operations: operations, payloadBytes: payloadBytes,
                contacts: cell.read { projection, _ in projection.contactCount }
            ) {
                projectionForSnapshot()
            }
        }
    }

    /// Takes each record's waiting callers and computes their outcome, releasing the staged
    /// changes of durable records and failing the store closed on a failed one; call with
    /// `commitLock` held.
    func settleLocked(
        _ records: [CompletedRecord]
    ) -> (
        waiting: [[@Sendable (Result<SaveResult, ContactStoreError>) -> Void]],
        outcomes: [Result<SaveResult, ContactStoreError>]
    ) {
        var waiting: [[@Sendable (Result<SaveResult, ContactStoreError>) -> Void]] = []
        var outcomes: [Result<SaveResult, ContactStoreError>] = []
        waiting.reserveCapacity(records.count)
        outcomes.reserveCapacity(records.count)
        for index in records.indices {
            waiting.append(pendingRequests.removeValue(forKey: records[index].requestID) ?? [])
            switch records[index].result {
            case .success(let receipt):
                staged.release(records[index].staged)
                outcomes.append(
                    .success(
                        SaveResult(
                            sequence: receipt.sequence, commitDate: Date(microseconds: receipt.commitMicroseconds),
                            affectedIdentifiers: records[index].affected, wasAlreadyCommitted: false)))
            case .failure(let error):
                // Fail closed: nothing queued can be trusted; reads keep serving the durable state.
                failure = ContactStoreError(
                    .storeNotWritable, "a write to the ledger failed; reopen the store to recover: \(error)")
                staged = StagedChanges()
                outcomes.append(.failure(ContactStoreError(error)))
            }
        }
        return (waiting, outcomes)
    }

    /// Publishes a finished group's durable records: one change per record on the streams, one
    /// notification for the whole group.
    func publish(_ records: [CompletedRecord]) {
        let streams = observingStreams()
        var commits: [(sequence: UInt64, author: String, affected: [String])] = []
        commits.reserveCapacity(records.count)
        for index in records.indices {
            guard case .success(let receipt) = records[index].result else { continue }
            commits.append((receipt.sequence, records[index].author, records[index].affected))
            if streams.isEmpty { continue }
            let change = StoreChange(
                sequences: receipt.sequence...receipt.sequence, authors: [records[index].author],
                affectedIdentifiers: records[index].affected, origin: .thisStore)
            for stream in streams { stream.yield(change) }
        }
        if let change = StoreChange(covering: commits, origin: .thisStore) { post(change) }
    }

    /// The result of a request whose record is durable, rebuilt from the record as a retry would
    /// get it, or nil when no durable record holds the request.
    package func committedResult(ofRequest requestID: UUID) throws -> SaveResult? {
        guard let sequence = projectionLock.read({ cell.stateView.sequence(ofRequest: requestID) }) else { return nil }
        var found: SaveResult?
        try forEachRecord(from: sequence) { record in
            found = try repeatedResult(of: record)
            return false
        }
        return found
    }

    /// The result a committed request had, rebuilt from its record.
    func originalResult(of sequence: UInt64, journal: any JournalStore) throws -> SaveResult {
        var found: SaveResult?
        try journal.forEachRecord(from: sequence) { record in
            found = try repeatedResult(of: record)
            return false
        }
        guard let found else {
            throw ContactStoreError(.dataAccessError, "record \(sequence) of a committed request cannot be read")
        }
        return found
    }

    /// A committed record's result as a repeat of its request gets it: the identifiers it
    /// touched that this client sees now, so that a request identifier learned elsewhere tells
    /// a client nothing it could not fetch (decision 0024).
    private func repeatedResult(of record: JournalRecord) throws -> SaveResult {
        let event = try EventCodec.decode(record.payload, schemaVersion: record.payloadSchemaVersion)
        let affected = projectionLock.read {
            cell.read { projection, _ in
                ClientView(client: client, access: access, in: projection).visibleIdentifiers(of: event, in: projection)
            }
        }
        return SaveResult(
            sequence: record.sequence, commitDate: record.commitDate, affectedIdentifiers: affected,
            wasAlreadyCommitted: true)
    }
}
