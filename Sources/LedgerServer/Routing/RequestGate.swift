import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Admits requests so that a writer keeps its commit rate among many readers.
///
/// Reads run at most one fewer at once than there are processors (at least one): a read is
/// work for the processors alone, so more at once only slows each, and a commit passes through
/// several threads (planning, the journal's writer, the finishing thread) that would otherwise
/// each wait behind every reader ready to run. Waiting readers queue on a semaphore, which wakes
/// one at a time. While a write is in flight, an admitted read gives way (up to
/// ``readPatience``) before it starts: the store's projection lock lets readers in ahead of a
/// waiting writer, so reads that kept overlapping would hold a commit back. Writes never wait here.
final class RequestGate: Sendable {
    /// The most reads at once.
    let readLimit = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    private let permits: DispatchSemaphore
    private let writes = Atomic(0)
    /// How long a read gives way to writes in flight, so that a steady stream of writes cannot
    /// starve the readers.
    static let readPatience = 0.02

    init() {
        permits = DispatchSemaphore(value: readLimit)
    }

    /// Runs a read once it is admitted.
    func read<R>(_ body: () throws -> R) rethrows -> R {
        permits.wait()
        defer { permits.signal() }
        let patience = DispatchTime.now().uptimeNanoseconds + UInt64(Self.readPatience * 1e9)
        while writes.load(ordering: .acquiring) > 0 && DispatchTime.now().uptimeNanoseconds < patience {
            usleep(100)
        }
        return try body()
    }

    /// Runs a write; reads admitted meanwhile give way to it.
    func write<R>(_ body: () throws -> R) rethrows -> R {
        writes.add(1, ordering: .releasing)
        defer { writes.subtract(1, ordering: .releasing) }
        return try body()
    }
}
