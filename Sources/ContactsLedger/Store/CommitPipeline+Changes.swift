import ContactsEngine
import ContactsInterchange
import ContactsModel
import Dispatch
import Foundation
import LedgerStorage
import Synchronization

/// Refreshing a read-only store and telling observers about committed changes.
extension CommitPipeline {
    /// Reads records another process appended since this read-only store last looked, applies
    /// them, and posts a change for those that touch what the client sees; returns how many
    /// of those there were. A client without full access is told nothing of the others: no
    /// notification, no identifier, no author, no count (decision 0024).
    @discardableResult
    package func refresh() throws -> Int {
        guard case .reader(let reader) = backing else { return 0 }
        let from = headDigest.sequence + 1
        var applied: [(JournalRecord, LedgerEvent)] = []
        do {
            try reader.forEach(from: from) { record in
                let event = try EventCodec.decode(record.payload, schemaVersion: record.payloadSchemaVersion)
                applied.append((record, event))
            }
        } catch let error as StorageError {
            throw ContactStoreError(error)
        }
        guard !applied.isEmpty else { return 0 }
        commitLock.lock()
        let commits = projectionLock.write {
            applyLeavingIndexChangesPending {
                for (record, event) in applied { cell.projection.apply(event, record: record) }
            }
            // A client that had not decided reads the owner's answer from the records.
            if client.authorization == .notDetermined, let recorded = cell.stateView.access(of: client.identifier) {
                access = recorded
            }
            return cell.read { projection, _ in
                let view = ClientView(client: client, access: access, in: projection)
                return applied.compactMap { record, event in
                    let visible = view.visibleIdentifiers(of: event, in: projection)
                    return visible.isEmpty ? nil : (sequence: record.sequence, author: record.author, affected: visible)
                }
            }
        }
        commitLock.unlock()
        catchUpIndexes()
        guard let change = StoreChange(covering: commits, origin: .otherProcess) else { return 0 }
        for stream in observingStreams() { stream.yield(change) }
        post(change)
        return commits.count
    }

    /// A stream of the changes committed after the call, in order: one per save this store
    /// commits, one per ``refresh()`` that reads records; it ends when the store closes.
    package func changes() -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream<StoreChange>.makeStream(bufferingPolicy: .unbounded)
        let key = RandomUUID.make()
        observerLock.lock()
        observers[key] = continuation
        observerLock.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.observerLock.lock()
            self.observers[key] = nil
            self.observerLock.unlock()
        }
        return stream
    }

    /// The change streams open now.
    func observingStreams() -> [AsyncStream<StoreChange>.Continuation] {
        observerLock.lock()
        defer { observerLock.unlock() }
        // No array for the common case of no streams: this runs once per group of commits.
        return observers.isEmpty ? [] : Array(observers.values)
    }

    /// Posts `contactStoreDidChange` for `change`.
    func post(_ change: StoreChange) {
        NotificationCenter.default.post(
            name: .contactStoreDidChange, object: notificationObject ?? self, userInfo: change.userInfo)
    }
}
