import Foundation
import LedgerStorage

/// The system's file layer, counting the data syncs that go through it, so that group commit
/// can be measured through the store (which does not expose its journal's counters).
final class CountingFileSystem: FileSystem, @unchecked Sendable {
    // Thread-safety: `syncs` is guarded by `lock`; `base` is immutable and thread-safe.
    private let base = SystemFileSystem()
    private let lock = NSLock()
    private var syncs = 0

    /// Every fdatasync and fsync of a file so far (directory syncs not included).
    var dataSyncs: Int {
        lock.lock()
        defer { lock.unlock() }
        return syncs
    }

    private func count() {
        lock.lock()
        syncs += 1
        lock.unlock()
    }

    func open(_ path: String, _ mode: OpenMode) throws(StorageError) -> OpenFile { try base.open(path, mode) }
    func close(_ file: OpenFile) throws(StorageError) { try base.close(file) }
    func write(_ file: OpenFile, _ bytes: RawSpan, at offset: Int64) throws(StorageError) {
        try base.write(file, bytes, at: offset)
    }
    func read(_ file: OpenFile, into buffer: inout MutableRawSpan, at offset: Int64) throws(StorageError) -> Int {
        try base.read(file, into: &buffer, at: offset)
    }
    func synchronizeData(_ file: OpenFile) throws(StorageError) {
        count()
        try base.synchronizeData(file)
    }
    func synchronize(_ file: OpenFile) throws(StorageError) {
        count()
        try base.synchronize(file)
    }
    func truncate(_ file: OpenFile, to size: Int64) throws(StorageError) { try base.truncate(file, to: size) }
    func size(of file: OpenFile) throws(StorageError) -> Int64 { try base.size(of: file) }
    func tryLockExclusive(_ file: OpenFile) throws(StorageError) -> LockAttempt { try base.tryLockExclusive(file) }
    func unlock(_ file: OpenFile) throws(StorageError) { try base.unlock(file) }
    func rename(_ source: String, to destination: String) throws(StorageError) {
        try base.rename(source, to: destination)
    }
    func remove(_ path: String) throws(StorageError) { try base.remove(path) }
    func makeDirectory(_ path: String, permissions: UInt32) throws(StorageError) {
        try base.makeDirectory(path, permissions: permissions)
    }
    func synchronizeDirectory(_ path: String) throws(StorageError) { try base.synchronizeDirectory(path) }
    func contentsOfDirectory(_ path: String) throws(StorageError) -> [String] { try base.contentsOfDirectory(path) }
    func exists(_ path: String) -> Bool { base.exists(path) }
    func status(_ path: String, followingLinks: Bool) throws(StorageError) -> FileStatus? {
        try base.status(path, followingLinks: followingLinks)
    }
    func setPermissions(_ path: String, _ permissions: UInt32) throws(StorageError) {
        try base.setPermissions(path, permissions)
    }
}
