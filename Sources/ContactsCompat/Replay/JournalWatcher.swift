import ContactsLedger
import Foundation
import Synchronization

/// Follows the commits other processes append to a ledger that a store reads: a
/// `DirectoryWatcher` on the journal folder wakes a thread, and the store's `refresh()` reads the
/// new records and posts their change, which ``ChangeBridge`` reposts as `CNContactStoreDidChange`
/// with `CNNotificationOriginationExternally`.
final class JournalWatcher: Sendable {
    /// Set by ``stop()``; the thread sees it within a second.
    private let stopped = Atomic<Bool>(false)

    /// Starts following the journal of the ledger at `path` for `store`.
    init(ledgerAt path: String, store: ContactStore) {
        // The journal's segments are the files of the ledger's `journal` folder (LogFormat.md).
        let watcher = DirectoryWatcher(directory: path + "/journal")
        let thread = Thread { [self] in follow(store, watcher) }
        thread.name = "ContactsCompat.JournalWatcher"
        thread.start()
    }

    /// Refreshes the store after each change, and each second in any case, until stopped: a
    /// refresh reads whatever complete records there are, so a missed wake-up costs a second.
    private func follow(_ store: ContactStore, _ watcher: DirectoryWatcher) {
        while !stopped.load(ordering: .acquiring) {
            watcher.wait()
            if stopped.load(ordering: .acquiring) { break }
            _ = try? store.refresh()
        }
    }

    /// Stops following.
    func stop() { stopped.store(true, ordering: .releasing) }
}
