import ContactsEngine
import ContactsModel
import Foundation
import LedgerStorage

/// Store-level operations planned against the state they change: links between contacts.
extension CommitPipeline {
    /// What plans store-level operations: given the durable state seen through the staged
    /// changes, and the client's access, the operations to record (none: nothing to change).
    typealias OperationPlan = (StagedView<ProjectionStateView>, ClientAccess) throws(ContactStoreError) ->
        [LedgerOperation]

    /// Plans operations with `plan` under the commit lock, against the durable state and every
    /// queued request, and commits them as one record; blocks until it is on disk. A request id
    /// already committed returns that record's result; a plan of no operations records nothing
    /// and returns the head.
    func commitPlanned(
        author: String, requestID: UUID, _ plan: OperationPlan
    ) throws -> SaveResult {
        if let earlier = try committedResult(ofRequest: requestID) { return earlier }
        return try wait { completion in
            submitPlanned(author: author, requestID: requestID, plan, completion: completion)
        }
    }

    /// Plans and queues the operations of ``commitPlanned(author:requestID:_:)``.
    private func submitPlanned(
        author: String, requestID: UUID, _ plan: OperationPlan,
        completion: @escaping @Sendable (Result<SaveResult, ContactStoreError>) -> Void
    ) {
        guard case .journal(let journal) = backing else {
            return completion(.failure(ContactStoreError(.storeNotWritable, "the store is read-only")))
        }
        commitLock.lock()
        if let failure {
            commitLock.unlock()
            return completion(.failure(failure))
        }
        var planned = (staged: StagedChanges(), undo: StagedUndo())
        let outcome: Result<LedgerEvent, ContactStoreError> = projectionLock.read {
            var view = StagedView(base: cell.stateView, staged: takeStaged())
            defer { planned = view.detach() }
            do throws(ContactStoreError) {
                let event = LedgerEvent(operations: try plan(view, access))
                view.apply(event, sequence: nextSequence, requestID: requestID)
                return .success(event)
            } catch {
                return .failure(error)
            }
        }
        guard case .success(let event) = outcome, !event.operations.isEmpty else {
            restoreStaged(&planned)
            let answer = answerUnchanged(completion)
            commitLock.unlock()
            if case .failure(let error) = outcome { return completion(.failure(error)) }
            return answer()
        }
        let error = enqueueLocked(
            event, requestID: requestID, author: author, affected: event.affectedIdentifiers, planned: &planned,
            journal: journal, leading: true, completion: completion)
        commitLock.unlock()
        if let error { completion(.failure(error)) }
    }
}
