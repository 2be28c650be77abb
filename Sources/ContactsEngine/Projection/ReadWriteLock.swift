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
    // Inlinable with its lock, so that a store's read, in another module, takes the lock and runs
    // its body in place rather than through a generic call and a closure context.
    @usableFromInline let lock: UnsafeMutablePointer<pthread_rwlock_t>

    package init() {
        lock = .allocate(capacity: 1)
        precondition(pthread_rwlock_init(lock, nil) == 0, "pthread_rwlock_init failed")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` holding the read lock.
    @inlinable
    package func read<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` holding the write lock.
    @inlinable
    package func write<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
