import ContactsLedger
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Follows the commits other processes append to a ledger that a store reads: inotify tells
/// when a journal file changes, and the store's `refresh()` reads the new records and posts its
/// change, which ``ChangeBridge`` reposts as `CNContactStoreDidChange` with
/// `CNNotificationOriginationExternally`.
final class JournalWatcher: Sendable {
    /// The inotify descriptor; closed by the watching thread when it ends.
    private let descriptor: Int32
    /// The watch on the journal directory.
    private let watch: Int32
    /// Set by ``stop()``.
    private let stopped = Atomic<Bool>(false)

    /// Starts following the journal of the ledger at `path` for `store`.
    init(ledgerAt path: String, store: ContactStore) throws {
        // The journal's segments are the files of the ledger's `journal` folder (LogFormat.md).
        let journal = path + "/journal"
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw CNError(.dataAccessError, "inotify_init1 failed (errno \(errno))") }
        let events = UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)
        watch = inotify_add_watch(descriptor, journal, events)
        guard watch >= 0 else {
            let error = errno
            close(descriptor)
            throw CNError(.dataAccessError, "cannot watch \(journal) (errno \(error))")
        }
        let thread = Thread { [self] in follow(store) }
        thread.name = "ContactsCompat.JournalWatcher"
        thread.start()
    }

    /// Refreshes the store after each batch of journal events, until stopped.
    private func follow(_ store: ContactStore) {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        while !stopped.load(ordering: .acquiring) {
            // Blocks until the journal changes; the events themselves need no reading, since a
            // refresh reads whatever complete records there are.
            let events = handle.availableData
            if events.isEmpty || stopped.load(ordering: .acquiring) { break }
            _ = try? store.refresh()
        }
        close(descriptor)
    }

    /// Stops following: removing the watch wakes the thread, which then closes the descriptor.
    func stop() {
        if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        inotify_rm_watch(descriptor, watch)
    }
}
