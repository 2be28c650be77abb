import ContactsLedger
import Dispatch
import Foundation
import Synchronization

/// The user-info key the framework sets to true for a change made outside the app.
public let CNNotificationOriginationExternally = "CNNotificationOriginationExternally"
/// The user-info key of the identifiers a save of this app changed.
public let CNNotificationSaveIdentifiersKey = "CNNotificationSaveIdentifiersKey"

/// Reposts a store's `contactStoreDidChange` as `CNContactStoreDidChange`, in order, on a queue
/// of its own, so that an observer may fetch or save through the store, as the framework lets it.
///
/// The store's notification only queues the change; the queue posts what has gathered when it
/// runs, consecutive changes of the same origin in one notification (the framework, too, posts
/// one notification for several changes). A save therefore costs its caller one append, and a
/// burst of saves a few notifications rather than one each.
final class ChangeBridge: @unchecked Sendable {
    /// The observer of the native notification; removed by ``stop()``.
    private let token: any NSObjectProtocol

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

    /// Starts reposting the changes of `store`.
    init(store: ContactStore) {
        let queue = DispatchQueue(label: "ContactsCompat.CNContactStoreDidChange")
        let pending = Pending()
        token = NotificationCenter.default.addObserver(forName: .contactStoreDidChange, object: store, queue: nil) {
            note in
            let info = note.userInfo ?? [:]
            let change = Change(
                external: info[ContactStoreChangeKey.originatedExternally] as? Bool ?? false,
                identifiers: info[ContactStoreChangeKey.affectedIdentifiers] as? [String] ?? [],
                authors: info[ContactStoreChangeKey.authors] as? [String] ?? [])
            let schedules = pending.state.withLock { state in
                state.changes.append(change)
                defer { state.scheduled = true }
                return !state.scheduled
            }
            if schedules { queue.async { Self.post(pending) } }
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
    func stop() { NotificationCenter.default.removeObserver(token) }
}
