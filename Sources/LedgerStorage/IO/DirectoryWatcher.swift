#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for files in a directory to change: with inotify where the system has it, else by
/// sleeping a quarter of a second. A reader that looks at the directory again after each
/// ``wait()`` sees every change, at worst a second late: what followers of a journal need
/// (`log --follow`, and a read-only store that posts other processes' commits).
public final class DirectoryWatcher: Sendable {
    /// The inotify descriptor, or -1 when it polls.
    private let descriptor: Int32

    /// Watches `directory` for files written, created or moved in; `polling` leaves inotify out,
    /// so that tests can try the path systems without it take.
    public init(directory: String, polling: Bool = false) {
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

    /// Returns after a change, or after a second in any case (a change inotify missed, such as a
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
