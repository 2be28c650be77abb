import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file layer over real files that fails chosen calls, tears writes, and on request loses
/// what was not yet made durable, the way a machine that loses power would.
///
/// It is the only fake the tests use: everything else is real files and real fsync. Faults are
/// driven by a seed, so a failing test can be reproduced from the seed it prints.
///
/// Durability is tracked per file: the size at the last fsync or fdatasync is durable; bytes
/// written after it are not. A file created (or renamed into place) is durable in its directory
/// only after that directory is fsynced. ``simulateCrash(seed:mode:)`` applies those rules to the
/// real files and then fails every further call, as a dead machine would.
public final class FaultInjectingFileSystem: FileSystem, @unchecked Sendable {
    // Thread-safety: every field below is guarded by `lock`; each call holds it for its whole
    // duration, so a crash sees the files in a consistent state.

    /// The calls that can be made to fail.
    public enum Operation: String, Sendable, CaseIterable {
        case open, close, write, read, synchronizeData, synchronize, truncate, size, lock, rename, remove
        case makeDirectory, synchronizeDirectory, contentsOfDirectory

        /// The system call this operation stands for, as errors name it.
        public var systemCall: String {
            switch self {
            case .open: "open"
            case .close: "close"
            case .write: "write"
            case .read: "read"
            case .synchronizeData: "fdatasync"
            case .synchronize: "fsync"
            case .truncate: "ftruncate"
            case .size: "fstat"
            case .lock: "fcntl(F_OFD_SETLK)"
            case .rename: "rename"
            case .remove: "unlink"
            case .makeDirectory: "mkdir"
            case .synchronizeDirectory: "fsync directory"
            case .contentsOfDirectory: "opendir"
            }
        }
    }

    /// What an injected fault does to the call it hits.
    public enum Effect: Sendable, Hashable {
        /// The call fails with this errno and does nothing.
        case fail(errno: Int32)
        /// A write stores only its first `keepBytes` bytes, then fails with EIO.
        case tearWrite(keepBytes: Int)
    }

    /// One fault: which call, how many matching calls to let through first, and its effect.
    public struct Fault: Sendable, Hashable {
        /// The call to fail.
        public var operation: Operation
        /// Only calls whose path contains this text match; nil matches every path.
        public var pathContains: String?
        /// How many matching calls pass before the fault fires.
        public var skip: Int
        /// What happens to the call it fires on.
        public var effect: Effect

        /// Creates a fault that fires once.
        public init(_ operation: Operation, pathContains: String? = nil, skip: Int = 0, effect: Effect) {
            self.operation = operation
            self.pathContains = pathContains
            self.skip = skip
            self.effect = effect
        }
    }

    /// How much unsynced data a simulated crash keeps.
    public enum CrashMode: Sendable, Hashable {
        /// Every byte written after the last sync is lost.
        case loseAllUnsynced
        /// A random prefix of each file's unsynced bytes survives, and its last bytes may be garbage (a torn sector).
        case keepRandomPrefix
    }

    private struct Tracked {
        var durableSize: Int64
        var durableInDirectory: Bool
    }

    private let base = SystemFileSystem()
    private let lock = NSLock()
    private var faults: [Fault] = []
    private var crashed = false
    private var tracked: [String: Tracked] = [:]
    private var counts: [Operation: Int] = [:]

    private let gate = NSCondition()
    private var syncsHeld = false
    private var syncsWaiting = 0

    /// Creates a fault-injecting layer with no faults armed.
    public init() {}

    /// Makes every fdatasync wait until ``releaseDataSyncs()``, so a test can queue work behind a sync in progress.
    public func holdDataSyncs() {
        gate.lock()
        syncsHeld = true
        gate.unlock()
    }

    /// Lets held and later fdatasync calls proceed.
    public func releaseDataSyncs() {
        gate.lock()
        syncsHeld = false
        gate.broadcast()
        gate.unlock()
    }

    /// How many fdatasync calls are waiting at the gate.
    public var dataSyncsWaiting: Int {
        gate.lock()
        defer { gate.unlock() }
        return syncsWaiting
    }

    /// Arms a fault; faults fire in the order they were armed.
    public func inject(_ fault: Fault) {
        lock.lock()
        defer { lock.unlock() }
        faults.append(fault)
    }

    /// How many times each operation has been called.
    public func callCount(_ operation: Operation) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[operation, default: 0]
    }

    /// Whether a crash has been simulated.
    public var hasCrashed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return crashed
    }

    /// Applies the loss a power cut would cause to every file written through this layer, then
    /// makes every further call fail with EIO (closing still releases descriptors).
    ///
    /// Returns a line per file saying what was kept, for the test's failure message.
    @discardableResult
    public func simulateCrash(seed: UInt64, mode: CrashMode) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        crashed = true
        var random = SplitMix64(seed: seed)
        var report: [String] = []
        for (path, file) in tracked.sorted(by: { $0.key < $1.key }) {
            guard base.exists(path) else { continue }
            if !file.durableInDirectory && random.next() % 2 == 0 {
                _ = unlink(path)
                report.append("\(path): removed (its directory entry was never synced)")
                continue
            }
            guard let handle = try? base.open(path, .readWrite) else { continue }
            defer { try? base.close(handle) }
            let size = (try? base.size(of: handle)) ?? 0
            guard size > file.durableSize else { continue }
            var keep = file.durableSize
            if mode == .keepRandomPrefix {
                keep += Int64(random.next() % UInt64(size - file.durableSize + 1))
            }
            try? base.truncate(handle, to: keep)
            var garbage = 0
            if mode == .keepRandomPrefix && keep > file.durableSize && random.next() % 3 == 0 {
                garbage = Int(min(keep - file.durableSize, Int64(1 + random.next() % 16)))
                let bytes = (0..<garbage).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                bytes.withUnsafeBytes { try? base.write(handle, $0, at: keep - Int64(garbage)) }
            }
            try? base.synchronize(handle)
            report.append("\(path): kept \(keep) of \(size) bytes (durable \(file.durableSize), garbage \(garbage))")
        }
        return report
    }

    /// Counts the call, fires a matching fault if one is due, and fails everything after a crash.
    private func check(_ operation: Operation, _ path: String) throws(StorageError) -> Effect? {
        counts[operation, default: 0] += 1
        if crashed { throw StorageError.system(operation: operation.systemCall, path: path, errno: EIO) }
        guard
            let index = faults.firstIndex(where: {
                $0.operation == operation && ($0.pathContains.map { path.contains($0) } ?? true)
            })
        else { return nil }
        if faults[index].skip > 0 {
            faults[index].skip -= 1
            return nil
        }
        let effect = faults.remove(at: index).effect
        if case .fail(let code) = effect {
            throw StorageError.system(operation: operation.systemCall, path: path, errno: code)
        }
        return effect
    }

    private func markDurable(_ file: OpenFile) throws(StorageError) {
        let size = try base.size(of: file)
        tracked[file.path, default: Tracked(durableSize: 0, durableInDirectory: true)].durableSize = size
    }

    /// Opens or creates a file.
    public func open(_ path: String, _ mode: OpenMode) throws(StorageError) -> OpenFile {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.open, path)
        let existed = base.exists(path)
        let file = try base.open(path, mode)
        if !existed {
            tracked[path] = Tracked(durableSize: 0, durableInDirectory: false)
        }
        return file
    }

    /// Closes a file.
    public func close(_ file: OpenFile) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        counts[.close, default: 0] += 1
        // A descriptor is always released, even after a crash, so that locks are freed.
        try base.close(file)
    }

    /// Writes all of the bytes at the offset.
    public func write(_ file: OpenFile, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        if tracked[file.path] == nil {
            // A file that existed before this layer saw it: what is there now counts as durable.
            tracked[file.path] = Tracked(durableSize: try base.size(of: file), durableInDirectory: true)
        }
        if case .tearWrite(let keep) = try check(.write, file.path) {
            let kept = max(0, min(keep, bytes.count))
            try base.write(file, UnsafeRawBufferPointer(rebasing: bytes[0..<kept]), at: offset)
            throw StorageError.system(operation: "write", path: file.path, errno: EIO)
        }
        try base.write(file, bytes, at: offset)
    }

    /// Reads into the buffer from the offset until it is full or the file ends.
    public func read(
        _ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64
    )
        throws(StorageError) -> Int
    {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.read, file.path)
        return try base.read(file, into: buffer, at: offset)
    }

    /// Makes the file's data durable (fdatasync).
    public func synchronizeData(_ file: OpenFile) throws(StorageError) {
        gate.lock()
        syncsWaiting += 1
        while syncsHeld { gate.wait() }
        syncsWaiting -= 1
        gate.unlock()
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.synchronizeData, file.path)
        try base.synchronizeData(file)
        try markDurable(file)
    }

    /// Makes the file's data and metadata durable (fsync).
    public func synchronize(_ file: OpenFile) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.synchronize, file.path)
        try base.synchronize(file)
        try markDurable(file)
    }

    /// Sets the file's size.
    public func truncate(_ file: OpenFile, to size: Int64) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.truncate, file.path)
        try base.truncate(file, to: size)
        if var entry = tracked[file.path] {
            entry.durableSize = min(entry.durableSize, size)
            tracked[file.path] = entry
        }
    }

    /// The file's size in bytes.
    public func size(of file: OpenFile) throws(StorageError) -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.size, file.path)
        return try base.size(of: file)
    }

    /// Tries to take the exclusive writer lock without waiting.
    public func tryLockExclusive(_ file: OpenFile) throws(StorageError) -> LockAttempt {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.lock, file.path)
        return try base.tryLockExclusive(file)
    }

    /// Renames a file over its destination.
    public func rename(_ source: String, to destination: String) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.rename, source)
        try base.rename(source, to: destination)
        var entry = tracked.removeValue(forKey: source) ?? Tracked(durableSize: 0, durableInDirectory: false)
        entry.durableInDirectory = false
        tracked[destination] = entry
    }

    /// Removes a file.
    public func remove(_ path: String) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.remove, path)
        try base.remove(path)
        tracked[path] = nil
    }

    /// Creates a directory; an existing one is fine.
    public func makeDirectory(_ path: String, permissions: UInt32) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.makeDirectory, path)
        try base.makeDirectory(path, permissions: permissions)
    }

    /// Makes a directory's entries durable.
    public func synchronizeDirectory(_ path: String) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.synchronizeDirectory, path)
        try base.synchronizeDirectory(path)
        for (name, var entry) in tracked where parentDirectory(of: name) == path {
            entry.durableInDirectory = true
            tracked[name] = entry
        }
    }

    /// The names in a directory.
    public func contentsOfDirectory(_ path: String) throws(StorageError) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.contentsOfDirectory, path)
        return try base.contentsOfDirectory(path)
    }

    /// Whether anything exists at the path.
    public func exists(_ path: String) -> Bool {
        base.exists(path)
    }
}

/// A small, fast, seedable random number generator (SplitMix64), for reproducible fault schedules.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed; the same seed gives the same numbers.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
