import ContactsModel
import LedgerStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A readers-writer lock: many readers at once, or one writer.
///
/// Fetches read the projection under the read lock; applying a committed record takes the write
/// lock, so readers never see a record half-applied.
package final class ReadWriteLock: @unchecked Sendable {
    // Thread-safety: the pthread lock is what makes this safe; it is allocated once and never moved.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    package init() {
        lock = .allocate(capacity: 1)
        precondition(pthread_rwlock_init(lock, nil) == 0, "pthread_rwlock_init failed")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` holding the read lock.
    package func read<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` holding the write lock.
    package func write<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
