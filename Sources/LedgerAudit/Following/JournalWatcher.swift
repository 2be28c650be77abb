import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for a change in a directory: with inotify when the system has it, else for a quarter
/// of a second.
public final class JournalWatcher: Sendable {
    private let descriptor: Int32

    /// Watches the journal directory of the ledger at `path` for files written, created or moved
    /// in; with `polling`, looks every quarter of a second instead, as where inotify is missing.
    public init(ledgerAt path: String, polling: Bool = false) {
        let directory = path + "/journal"
        #if os(Linux)
            var descriptor = polling ? -1 : inotify_init1(Int32(IN_CLOEXEC))
            let mask = UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)
            if descriptor >= 0, inotify_add_watch(descriptor, directory, mask) < 0 {
                close(descriptor)
                descriptor = -1
            }
            self.descriptor = descriptor
        #else
            descriptor = -1
        #endif
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Returns after a change, or after a while in any case (a change inotify missed, such as a
    /// journal replaced by a restore, is then still seen).
    public func wait() {
        guard descriptor >= 0 else {
            usleep(250_000)
            return
        }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) > 0 else { return }
        var events = [UInt8](repeating: 0, count: 4096)
        _ = read(descriptor, &events, events.count)
    }
}
