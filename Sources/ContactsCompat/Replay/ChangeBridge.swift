import ContactsLedger
import Dispatch
import Foundation
import Synchronization

/// The user-info key the framework sets to true for a change made outside the app.
public let CNNotificationOriginationExternally = "CNNotificationOriginationExternally"
/// The user-info key of the identifiers a save of this app changed.
public let CNNotificationSaveIdentifiersKey = "CNNotificationSaveIdentifiersKey"

/// Reposts a store's changes as `CNContactStoreDidChange`, in order, on a queue of its own, so
/// that an observer may fetch or save through the store, as the framework lets it.
///
/// The bridge reads the store's change stream (``ContactStore/changes()``), which costs a save
/// one hand-over, rather than observing the store's own notification, whose observer would run
/// inside every save's notification. Changes are gathered for two milliseconds and posted
/// together, consecutive changes of the same origin in one notification (the framework, too,
/// posts one notification for several changes), so that a burst of saves is a few
/// notifications, not one per save.
final class ChangeBridge: @unchecked Sendable {
    /// The task that reads the store's changes; cancelled by ``stop()``.
    private let reading: Task<Void, Never>

    /// One change as the store reported it.
    private struct Change: Sendable {
        var external: Bool
        var identifiers: [String]
        var authors: [String]
    }

    /// The changes not yet posted, and whether the queue has been asked to post them.
    private final class Pending: Sendable {
        let state = Mutex<(changes: [Change], scheduled: Bool)>(([], false))
    }

    /// How long the queue waits after a change before it posts, gathering the changes that follow.
    private static let gathering = DispatchTimeInterval.milliseconds(2)

    /// Starts reposting the changes of `store`.
    init(store: ContactStore) {
        let queue = DispatchQueue(label: "ContactsCompat.CNContactStoreDidChange")
        let pending = Pending()
        let changes = store.changes()
        reading = Task.detached {
            for await change in changes {
                let gathered = Change(
                    external: change.origin == .otherProcess, identifiers: change.affectedIdentifiers,
                    authors: change.authors)
                let schedules = pending.state.withLock { state in
                    state.changes.append(gathered)
                    defer { state.scheduled = true }
                    return !state.scheduled
                }
                if schedules { queue.asyncAfter(deadline: .now() + Self.gathering) { Self.post(pending) } }
            }
        }
    }

    /// Posts the gathered changes, consecutive ones of the same origin together.
    private static func post(_ pending: Pending) {
        let changes = pending.state.withLock { state in
            defer { state = ([], false) }
            return state.changes
        }
        for change in merged(changes) {
            var userInfo: [AnyHashable: Any] = [
                ContactStoreChangeKey.affectedIdentifiers: change.identifiers,
                ContactStoreChangeKey.authors: change.authors,
            ]
            if change.external {
                userInfo[CNNotificationOriginationExternally] = true
            } else {
                userInfo[CNNotificationSaveIdentifiersKey] = change.identifiers
            }
            NotificationCenter.default.post(name: .CNContactStoreDidChange, object: nil, userInfo: userInfo)
        }
    }

    /// Runs of changes of one origin as one change each: identifiers and authors in the order
    /// they first came, each once.
    private static func merged(_ changes: [Change]) -> [Change] {
        var runs: [Change] = []
        var seen: (identifiers: Set<String>, authors: Set<String>) = ([], [])
        for change in changes {
            if runs.last?.external != change.external {
                runs.append(Change(external: change.external, identifiers: [], authors: []))
                seen = ([], [])
            }
            runs[runs.count - 1].identifiers += change.identifiers.filter { seen.identifiers.insert($0).inserted }
            runs[runs.count - 1].authors += change.authors.filter { seen.authors.insert($0).inserted }
        }
        return runs
    }

    /// Stops reposting.
    func stop() { reading.cancel() }
}
