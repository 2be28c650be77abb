import Foundation
import LedgerStorage

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
/// The crash model, which ``simulateCrash(seed:mode:)`` applies to the real files:
///
/// - Durability is tracked per path, for the whole process: every instance shares one record of
///   each file, so a file written through one instance and synced (or not) through another is
///   judged the same way. A file that existed before any instance touched it counts as durable.
/// - The size at the last successful fsync or fdatasync is durable; bytes written after it are
///   not. Bytes of the durable part that are overwritten, and a truncation below the durable
///   size, are undone at a crash until the file is synced again (the layer keeps a copy of the
///   durable bytes they replaced).
/// - An fsync or fdatasync that fails (injected, or from the real call) is "fsyncgate": the bytes
///   written since the last successful sync are lost even if a later sync of the same file, through
///   any descriptor or instance, succeeds. A crash fills them with zeros (a hole), unless they were
///   written again and synced, or truncated away, in the meantime.
/// - A created or renamed file is durable in its directory only after that directory is fsynced.
///   At a crash, an entry that is not durable is lost: a created file disappears, and a file that
///   a rename replaced comes back with the bytes it held when it was replaced. A failed directory
///   fsync makes nothing durable.
/// - ``CrashMode/loseAllUnsynced`` loses every one of those things; ``CrashMode/keepRandomPrefix``
///   loses each with some probability, keeps a random prefix of unsynced appended bytes, the
///   last of which may be garbage (a torn sector), and of unsynced overwrites of durable bytes
///   (such as records written into space filled with zeros ahead) keeps all, none, or those before
///   a random point, the last of them possibly garbage (all or none when an unsynced truncation
///   cut durable bytes too: a size change is kept or lost whole).
///
/// The model's limits: `unlink` and the disappearance of a rename's source are durable at the
/// call; `mkdir` is durable at once (directories are not tracked); metadata other than size and
/// directory entries (permissions, times) is not modelled. A crash applies to the files in the
/// directories this instance has touched, so tests running in parallel in other directories are
/// not affected, and it forgets what ``Journal`` remembers in this process about writers that
/// failed there, since a machine that lost power keeps no process memory.
public final class FaultInjectingFileSystem: FileSystem, @unchecked Sendable {
    // Thread-safety: the instance fields below are guarded by `lock`, which each call holds for
    // its whole duration, so a crash sees this instance's files in a consistent state. The
    // durability record shared by all instances is guarded by `CrashModel.shared.lock`, always
    // taken after `lock`.

    /// The calls that can be made to fail.
    public enum Operation: String, Sendable, CaseIterable {
        case open, close, write, read, synchronizeData, synchronize, truncate, size, lock, rename, remove
        case makeDirectory, synchronizeDirectory, contentsOfDirectory
        /// ``FileSystem/populateForWriting(address:byteCount:)``, whose path is `(memory)`.
        case populateMemory

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
            case .populateMemory: "madvise(MADV_POPULATE_WRITE)"
            }
        }
    }

    /// What an injected fault does to the call it hits.
    public enum Effect: Sendable, Hashable {
        /// The call fails with this errno and does nothing.
        case fail(errno: Int32)
        /// A write stores only its first `keepBytes` bytes, then fails with EIO.
        case tearWrite(keepBytes: Int)
        /// A read returns zeros for the file's bytes in this range, as a read racing a writer
        /// that has not yet copied those pages would; the file is unchanged.
        case readZeros(Range<Int64>)
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
        /// Every byte written after the last sync is lost, and so is every unsynced directory entry.
        case loseAllUnsynced
        /// A random prefix of each file's unsynced bytes survives, and its last bytes may be garbage
        /// (a torn sector); each unsynced directory entry and undone change survives or not at random.
        case keepRandomPrefix
    }

    private let base = SystemFileSystem()
    private let lock = NSLock()
    private var faults: [Fault] = []
    private var crashed = false
    private var counts: [Operation: Int] = [:]
    private var openFiles: Set<OpenFile> = []
    private var refusedCloses: [OpenFile] = []
    private var largestReads: [String: Int] = [:]
    /// The directories this instance has touched: the scope of a simulated crash.
    private var directories: Set<String> = []

    private let gate = NSCondition()
    private var syncsHeld = false
    private var syncsWaiting = 0
    private var syncsToPass = 0

    /// Creates a fault-injecting layer with no faults armed.
    public init() {}

    /// Makes every fdatasync wait until ``releaseDataSyncs()``, so a test can queue work behind a sync in progress.
    public func holdDataSyncs() {
        gate.lock()
        syncsHeld = true
        syncsToPass = 0
        gate.unlock()
    }

    /// Lets `count` held (or later) fdatasync calls proceed and keeps holding the ones after them.
    public func passDataSyncs(_ count: Int) {
        gate.lock()
        syncsToPass += count
        gate.broadcast()
        gate.unlock()
    }

    /// Lets held and later fdatasync calls proceed.
    public func releaseDataSyncs() {
        gate.lock()
        syncsHeld = false
        syncsToPass = 0
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

    /// Whether a crash has been simulated: a journal whose writer fails afterwards leaves no
    /// note of it for a later open, since the process would have died with the machine.
    public var hasSimulatedCrash: Bool { hasCrashed }

    /// How many files opened through this layer are still open.
    public var openFileCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return openFiles.count
    }

    /// The most bytes one read asked for from a file whose path contains `pathContains`: whether
    /// a reader holds a file a piece at a time or whole.
    public func largestRead(pathContains: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return largestReads.filter { $0.key.contains(pathContains) }.values.max() ?? 0
    }

    /// Every close of a descriptor this layer did not have open (closed twice, or never opened
    /// here). Such a close is refused with EBADF and leaves the descriptor alone, because the
    /// number may by then belong to another file.
    public var refusedCloseCalls: [OpenFile] {
        lock.lock()
        defer { lock.unlock() }
        return refusedCloses
    }

    /// Applies the loss a power cut would cause to every file in the directories this layer has
    /// touched (see the crash model above), then makes every further call fail with EIO (closing
    /// still releases descriptors).
    ///
    /// Returns a line per file saying what was kept, for the test's failure message.
    @discardableResult
    public func simulateCrash(seed: UInt64, mode: CrashMode) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        crashed = true
        let scope = directories
        let report = CrashModel.shared.crash(
            inDirectories: scope, seed: seed, mode: mode, base: base)
        // The process that held them died with the machine.
        FailedWriterRegistry.shared.forget(underAny: Set(scope.map(canonicalPath)))
        return report
    }

    /// Counts the call, notes its directory, fires a matching fault if one is due, and fails
    /// everything after a crash.
    private func check(
        _ operation: Operation, _ path: String, isDirectory: Bool = false
    ) throws(StorageError)
        -> Effect?
    {
        counts[operation, default: 0] += 1
        // Memory is not a file: it widens no crash's scope.
        if operation != .populateMemory { directories.insert(isDirectory ? path : parentDirectory(of: path)) }
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

    /// Opens or creates a file.
    public func open(_ path: String, _ mode: OpenMode) throws(StorageError) -> OpenFile {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.open, path)
        let existed = base.exists(path)
        let file = try base.open(path, mode)
        if !existed { CrashModel.shared.created(path) }
        openFiles.insert(file)
        return file
    }

    /// Closes a file; a descriptor this layer does not have open is refused (see ``refusedCloseCalls``).
    public func close(_ file: OpenFile) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        counts[.close, default: 0] += 1
        guard openFiles.remove(file) != nil else {
            refusedCloses.append(file)
            throw StorageError.system(operation: "close", path: file.path, errno: EBADF)
        }
        // A descriptor is always released, even after a crash, so that locks are freed.
        try base.close(file)
    }

    /// Writes all of the bytes at the offset.
    public func write(_ file: OpenFile, _ bytes: RawSpan, at offset: Int64) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        let effect = try check(.write, file.path)
        var kept = bytes.byteCount
        if case .tearWrite(let keep) = effect { kept = max(0, min(keep, bytes.byteCount)) }
        try CrashModel.shared.willChange(file, range: offset..<offset + Int64(kept), base: base)
        try base.write(file, bytes.extracting(0..<kept), at: offset)
        if kept < bytes.byteCount { throw StorageError.system(operation: "write", path: file.path, errno: EIO) }
    }

    /// Reads into the buffer from the offset until it is full or the file ends.
    public func read(
        _ file: OpenFile, into buffer: inout MutableRawSpan, at offset: Int64
    )
        throws(StorageError) -> Int
    {
        lock.lock()
        defer { lock.unlock() }
        let effect = try check(.read, file.path)
        largestReads[file.path] = max(largestReads[file.path, default: 0], buffer.byteCount)
        let count = try base.read(file, into: &buffer, at: offset)
        if case .readZeros(let range) = effect {
            let read = offset..<offset + Int64(count)
            let zeroed = range.clamped(to: read)
            for position in zeroed {
                buffer.storeBytes(of: 0, toByteOffset: Int(position - offset), as: UInt8.self)
            }
        }
        return count
    }

    /// Makes the file's data durable (fdatasync).
    public func synchronizeData(_ file: OpenFile) throws(StorageError) {
        gate.lock()
        syncsWaiting += 1
        while syncsHeld && syncsToPass == 0 { gate.wait() }
        if syncsHeld { syncsToPass -= 1 }
        syncsWaiting -= 1
        gate.unlock()
        try synchronize(file, .synchronizeData)
    }

    /// Makes the file's data and metadata durable (fsync).
    public func synchronize(_ file: OpenFile) throws(StorageError) {
        try synchronize(file, .synchronize)
    }

    private func synchronize(_ file: OpenFile, _ operation: Operation) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        do {
            _ = try check(operation, file.path)
            if operation == .synchronizeData {
                try base.synchronizeData(file)
            } else {
                try base.synchronize(file)
            }
        } catch {
            if !crashed { CrashModel.shared.syncFailed(file.path) }
            throw error
        }
        CrashModel.shared.synced(file.path, size: try base.size(of: file))
    }

    /// Sets the file's size; until the file is synced, a crash undoes it.
    public func truncate(_ file: OpenFile, to size: Int64) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.truncate, file.path)
        try CrashModel.shared.willTruncate(file, to: size, base: base)
        try base.truncate(file, to: size)
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

    /// Releases the lock; a fault of ``Operation/lock`` fails it too (the same system call).
    public func unlock(_ file: OpenFile) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.lock, file.path)
        try base.unlock(file)
    }

    /// Renames a file over its destination; until the directory is synced, a crash undoes it at the destination.
    public func rename(_ source: String, to destination: String) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.rename, source)
        directories.insert(parentDirectory(of: destination))
        let previous = CrashModel.shared.durableContent(replacedAt: destination, base: base)
        try base.rename(source, to: destination)
        CrashModel.shared.renamed(source, to: destination, replacing: previous, base: base)
    }

    /// Removes a file (durably at once: the model does not bring removed files back).
    public func remove(_ path: String) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.remove, path)
        try base.remove(path)
        CrashModel.shared.removed(path)
    }

    /// Creates a directory; an existing one is fine (durably at once: directories are not tracked).
    public func makeDirectory(_ path: String, permissions: UInt32) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.makeDirectory, path, isDirectory: true)
        try base.makeDirectory(path, permissions: permissions)
    }

    /// Makes a directory's entries durable.
    public func synchronizeDirectory(_ path: String) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.synchronizeDirectory, path, isDirectory: true)
        try base.synchronizeDirectory(path)
        CrashModel.shared.directorySynced(path)
    }

    /// The names in a directory.
    public func contentsOfDirectory(_ path: String) throws(StorageError) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.contentsOfDirectory, path, isDirectory: true)
        return try base.contentsOfDirectory(path)
    }

    /// Whether anything exists at the path.
    public func exists(_ path: String) -> Bool {
        base.exists(path)
    }

    /// The entry at the path, from the real file system: like ``exists(_:)`` it is never failed,
    /// and permissions are not part of the crash model.
    public func status(_ path: String, followingLinks: Bool) throws(StorageError) -> FileStatus? {
        try base.status(path, followingLinks: followingLinks)
    }

    /// Sets the permission bits on the real file (durably at once: the crash model does not
    /// track permissions).
    public func setPermissions(_ path: String, _ permissions: UInt32) throws(StorageError) {
        try base.setPermissions(path, permissions)
    }

    /// Backs memory through the layer below, unless a fault for ``Operation/populateMemory`` fires.
    public func populateForWriting(address: UInt, byteCount: Int) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try check(.populateMemory, SystemFileSystem.memoryPath)
        try base.populateForWriting(address: address, byteCount: byteCount)
    }
}
