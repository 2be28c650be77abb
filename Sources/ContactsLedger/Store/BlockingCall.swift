import Dispatch
import Synchronization

/// Runs one of the store's asynchronous calls (the owner's grants and decisions) to its end
/// from synchronous code, such as a command or a server's connection thread, rethrowing its
/// error. It blocks the calling thread, so it is never called from the cooperative pool.
package enum BlockingCall {
    /// Runs `body` in a task and waits for it.
    package static func wait(_ body: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        Task {
            do { try await body() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
