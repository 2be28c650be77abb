import ContactsLedger
import Foundation
import LedgerAudit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `log --follow`: prints the records other processes commit, as they are committed, until the
/// tool is interrupted or its reader goes away.
///
/// It waits on inotify for changes in the journal directory (a record appended, a segment
/// created) and reads the records after the last one it has seen; where inotify is missing it
/// looks every quarter of a second. It only reads, so it never holds up a writer.
struct LogFollower {
    let auditor: LedgerAuditor
    let filter: AuditFilter
    /// The last record already read.
    var after: UInt64

    /// The environment variable that makes it poll even where inotify works, so that tests can
    /// try the polling path.
    static let pollVariable = "CONTACTS_LEDGER_TEST_POLL"

    /// Follows the journal until the output is closed.
    func run(_ output: AuditOutput) throws {
        Self.allowInterruption()
        output.flush()
        let polling = !(ProcessInfo.processInfo.environment[Self.pollVariable] ?? "").isEmpty
        let watcher = DirectoryWatcher(directory: auditor.reader.paths.root + "/journal", polling: polling)
        var last = after
        while !output.isClosed {
            watcher.wait()
            var next = filter
            next.fromSequence = max(last + 1, filter.fromSequence ?? 1)
            guard try auditor.reader.head().sequence > last else { continue }
            let read = try auditor.forEachEntry(matching: next) { entry in
                output.write(entry)
                return !output.isClosed
            }
            last = max(last, read)
            output.flush()
        }
    }

    /// Unblocks the signals that end it (Ctrl-C, `kill`, a closed terminal, a closed pipe), which
    /// a process may inherit blocked from the one that started it.
    static func allowInterruption() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&signals, signal) }
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }
}
