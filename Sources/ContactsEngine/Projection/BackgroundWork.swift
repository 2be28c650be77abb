import ContactsModel
import Dispatch
import Foundation
import LedgerStorage

/// A value computed on a thread of its own while the caller goes on; ``wait()`` returns it.
/// The snapshot restore reads the index section this way, the bulk index build the names, and a
/// replay applies its records.
@usableFromInline final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // Thread-safety: `value` is written and `work` cleared by the thread before it signals
    // `done`, and neither is touched by anyone else before `wait()` has seen the signal.
    private var value: Value?
    private var work: (@Sendable () -> Value)?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` on a new thread with the given name, which Linux shows (in `top`, `perf`
    /// and debuggers) cut to 15 bytes. The thread names itself (``ThreadName/setCurrent(_:)``):
    /// on Linux a name set before a thread starts never reaches the system.
    ///
    /// What `work` captures is released before ``wait()`` returns, not when the thread ends:
    /// work on a copy of the projection would otherwise still share its arrays for a moment
    /// after the caller released the read lock, and a save in that moment would copy them whole.
    @usableFromInline init(named name: String, _ work: @escaping @Sendable () -> Value) {
        self.work = work
        let thread = Thread { [self] in
            ThreadName.setCurrent(name)
            value = self.work?()
            self.work = nil
            done.signal()
        }
        thread.start()
    }

    /// Waits for the work to finish and returns its value; call once.
    @usableFromInline func wait() -> Value {
        done.wait()
        guard let value else { preconditionFailure("the work signalled without a value") }
        return value
    }
}

/// Bytes that another thread reads while their owner keeps them alive and unchanged, until it
/// has waited for that thread (``BackgroundWork/wait()``).
struct BorrowedBytes: @unchecked Sendable {
    /// The bytes.
    let buffer: UnsafeBufferPointer<UInt8>
}
