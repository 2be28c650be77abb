import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Random (version 4) UUIDs drawn from the kernel's random number generator.
///
/// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` on every call (three
/// system calls and a file descriptor), and a one-contact save makes several: the request's id,
/// the contact's, and one per labeled value. `SystemRandomNumberGenerator` makes one
/// `getrandom(2)` call per eight bytes, so two per UUID. So the bytes come from ``RandomPool``,
/// which asks `getrandom(2)` for a block at a time.
/// The result is the same kind of UUID: 122 random bits, version 4, RFC 4122 variant.
public enum RandomUUID {
    /// A new random UUID.
    public static func make() -> UUID {
        var bytes: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { RandomPool.shared.fill($0) }
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // variant 10xx (RFC 4122)
            return UUID(
                uuid: (
                    raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10], raw[11],
                    raw[12], raw[13], raw[14], raw[15]
                ))
        }
    }

    /// A new random UUID's canonical upper-case text, as `UUID().uuidString` gives it.
    public static func makeString() -> String {
        withUnsafeBytes(of: make().uuid) { raw in
            // Sixteen bytes, so the formatter always answers.
            raw.withMemoryRebound(to: UInt8.self) { UUIDText.canonical($0) } ?? ""
        }
    }
}

/// The canonical text of a UUID's bytes, as Foundation's `uuidString` writes it (upper-case hex,
/// hyphens after the 4th, 6th, 8th and 10th byte) but without its `sprintf` per byte: new
/// identifiers are made with it, and a replay turns every identifier stored as 16 bytes back
/// into text with it.
public enum UUIDText {
    /// The length of the text.
    public static let length = 36

    /// The text of 16 UUID bytes, or nil if there are not exactly 16.
    public static func canonical(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count == 16 else { return nil }
        return String(unsafeUninitializedCapacity: length) { text in
            write(bytes, into: text)
            return length
        }
    }

    /// Writes the text of 16 UUID bytes into the first 36 bytes of `text`, which must hold them.
    ///
    /// Eight digits at a time, with arithmetic on a 64-bit word rather than a table per digit: a
    /// replay writes the text of every contact's identifier, so a loop of a digit at a time would
    /// be a large part of its applying thread's work.
    public static func write(_ bytes: UnsafeBufferPointer<UInt8>, into text: UnsafeMutableBufferPointer<UInt8>) {
        precondition(bytes.count == 16 && text.count >= length, "a UUID's text needs its 16 bytes and room for 36")
        let source = UnsafeRawPointer(bytes.baseAddress!)
        let target = UnsafeMutableRawPointer(text.baseAddress!)
        let dash = UInt8(ascii: "-")
        /// Stores the eight digits of a word as two groups of four with a dash between them.
        func splitDigits(_ word: UInt64, at offset: Int) {
            target.storeBytes(of: UInt32(truncatingIfNeeded: word).littleEndian, toByteOffset: offset, as: UInt32.self)
            target.storeBytes(of: dash, toByteOffset: offset + 4, as: UInt8.self)
            target.storeBytes(
                of: UInt32(truncatingIfNeeded: word >> 32).littleEndian, toByteOffset: offset + 5, as: UInt32.self)
        }
        // Groups of 8, 4, 4, 4 and 12 digits: the words for bytes 4–7 and 8–11 are split by a dash.
        target.storeBytes(of: hexDigits(source, 0).littleEndian, toByteOffset: 0, as: UInt64.self)
        target.storeBytes(of: dash, toByteOffset: 8, as: UInt8.self)
        splitDigits(hexDigits(source, 4), at: 9)
        target.storeBytes(of: dash, toByteOffset: 18, as: UInt8.self)
        splitDigits(hexDigits(source, 8), at: 19)
        target.storeBytes(of: hexDigits(source, 12).littleEndian, toByteOffset: 28, as: UInt64.self)
    }

    /// The eight upper-case hex digits of the four bytes at `offset`, the first in the word's
    /// lowest byte (stored little-endian, they read in order).
    @inline(__always)
    private static func hexDigits(_ source: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        // Each byte's high nibble in an even byte of the word and its low nibble in the odd one.
        var spread: UInt64 = 0
        for index in 0..<4 {
            let byte = UInt64(source.load(fromByteOffset: offset + index, as: UInt8.self))
            spread |= (byte >> 4 | (byte & 0x0F) << 8) << (16 * index)
        }
        // A nibble of 10 or more carries into bit 4 of its byte when 6 is added: those take
        // 'A' - '0' - 10 = 7 more.
        let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return spread &+ 0x3030_3030_3030_3030 &+ letters &* 7
    }
}

#if canImport(Glibc)
    // The process's pool and its set-up, as globals with constant initial values (set when the
    // program is loaded, without a lazy initialiser), so that a forked child never waits on a
    // Swift `once` that a thread of the parent was in the middle of.
    private nonisolated(unsafe) var sharedPoolOnce = pthread_once_t()
    private nonisolated(unsafe) var sharedPool: RandomPool? = nil
    private nonisolated(unsafe) var sharedPoolHandlersRegistered = false
#endif

/// Random bytes from `getrandom(2)`, asked for ``blockBytes`` at a time and handed out in order,
/// each byte once; shared by the process's threads under a lock.
///
/// A forked child must not hand out the bytes its parent will also hand out, so a
/// `pthread_atfork` handler empties the child's pool (and the lock is held across the fork, so
/// that the child's copy of it is not left locked by a thread that no longer exists).
final class RandomPool: @unchecked Sendable {
    // Thread-safety: `buffer` and `position` are guarded by `mutex`.
    /// The pool's size: a refill is one system call per 256 UUIDs.
    static let blockBytes = 4096

    #if canImport(Glibc)
        /// The process's pool, made at its first use under `pthread_once`, which (unlike a Swift
        /// lazy global) starts again in a child forked while another thread of the parent was
        /// making it, instead of waiting for that thread for ever.
        static var shared: RandomPool {
            pthread_once(&sharedPoolOnce) {
                // A child that starts the set-up again keeps the parent's pool (empty and
                // unlocked: nobody could use it before the set-up finished), and registers the
                // handlers only if the parent had not: twice would lock the mutex twice at the
                // child's own next fork. The flag comes first for the same reason; a fork between
                // it and the registration leaves that one child without handlers.
                if sharedPool == nil { sharedPool = RandomPool() }
                if !sharedPoolHandlersRegistered {
                    sharedPoolHandlersRegistered = true
                    pthread_atfork(
                        { sharedPool?.lock() }, { sharedPool?.unlock() },
                        {
                            sharedPool?.emptyAfterFork()
                            sharedPool?.unlock()
                        })
                }
            }
            guard let pool = sharedPool else { preconditionFailure("the random pool was not made") }
            return pool
        }
    #else
        /// The process's pool.
        static let shared = RandomPool()
    #endif

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let buffer: UnsafeMutableRawBufferPointer
    /// The next byte to hand out; ``blockBytes`` when the pool is empty.
    private var position: Int

    /// An empty pool, filled at the first ``fill(_:)``.
    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        buffer = .allocate(byteCount: Self.blockBytes, alignment: 16)
        position = Self.blockBytes
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        buffer.deallocate()
    }

    /// Fills `destination` (at most ``blockBytes`` bytes) with random bytes never handed out before.
    func fill(_ destination: UnsafeMutableRawBufferPointer) {
        precondition(destination.count <= Self.blockBytes, "ask the pool for at most a block at a time")
        lock()
        defer { unlock() }
        if Self.blockBytes - position < destination.count {
            Self.randomBytes(into: buffer)
            position = 0
        }
        destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[position..<position + destination.count]))
        // What was handed out is not kept.
        UnsafeMutableRawBufferPointer(rebasing: buffer[position..<position + destination.count]).initializeMemory(
            as: UInt8.self, repeating: 0)
        position += destination.count
    }

    /// The bytes not handed out yet (for tests).
    var remainingBytes: Int {
        lock()
        defer { unlock() }
        return Self.blockBytes - position
    }

    /// Forgets the pool's bytes, as the `pthread_atfork` handler does in a child (for tests,
    /// which call it with the lock held, as the handler runs).
    func emptyAfterFork() {
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        position = Self.blockBytes
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// glibc's `getrandom`, which Swift's Glibc module does not declare; looked up once.
    private typealias GetRandom = @convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int
    #if canImport(Glibc)
        private static let getRandom: GetRandom? = dlsym(nil, "getrandom").map { unsafeBitCast($0, to: GetRandom.self) }
    #else
        private static let getRandom: GetRandom? = nil
    #endif

    /// Fills `buffer` from `getrandom(2)`, retrying when a signal cuts a call short; where the
    /// call is unavailable, from `SystemRandomNumberGenerator` (which falls back to
    /// `/dev/urandom`, and stops the process if no source works).
    private static func randomBytes(into buffer: UnsafeMutableRawBufferPointer) {
        var filled = 0
        if let getRandom {
            while filled < buffer.count {
                let got = getRandom(buffer.baseAddress! + filled, buffer.count - filled, 0)
                if got > 0 {
                    filled += got
                } else if got < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        while filled < buffer.count {
            var word = generator.next() as UInt64
            let count = min(8, buffer.count - filled)
            withUnsafeBytes(of: &word) {
                UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<filled + count]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: $0[0..<count]))
            }
            filled += count
        }
    }
}
