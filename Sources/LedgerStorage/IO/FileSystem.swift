#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file: its descriptor and the path it was opened at, so that every error can name the file.
public struct OpenFile: Sendable, Hashable {
    /// The kernel's file descriptor number.
    public let descriptor: Int32
    /// The path the file was opened at.
    public let path: String

    /// Wraps a descriptor and the path it belongs to.
    public init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }
}

/// How a file is to be opened.
public enum OpenMode: Sendable, Hashable {
    /// Read only; the file must exist.
    case readOnly
    /// Read and write; the file must exist.
    case readWrite
    /// Read and write; the file must not exist yet, and is created with the given permission bits.
    case createNew(permissions: UInt32)
    /// Read and write; created with the given permission bits if missing.
    case createOrOpen(permissions: UInt32)
}

/// What kind of entry a path names, as `lstat` (or `stat`) reports it.
public enum FileKind: Sendable, Hashable {
    /// A regular file.
    case regular
    /// A directory.
    case directory
    /// A symbolic link (reported only when links are not followed).
    case symbolicLink
    /// Anything else: a device, a FIFO, a socket.
    case other
}

/// The kind, permission bits and owner of a file system entry.
public struct FileStatus: Sendable, Hashable {
    /// What the entry is.
    public let kind: FileKind
    /// The permission bits (`st_mode & 0o7777`).
    public let permissions: UInt32
    /// The user id of the entry's owner.
    public let owner: UInt32

    /// Describes an entry.
    public init(kind: FileKind, permissions: UInt32, owner: UInt32) {
        self.kind = kind
        self.permissions = permissions
        self.owner = owner
    }
}

/// The result of trying to take a lock without waiting.
public enum LockAttempt: Sendable, Hashable {
    /// The lock is now held through this file.
    case acquired
    /// Another open file description holds it.
    case heldElsewhere
}

/// The one layer through which the storage code reaches the operating system.
///
/// Every system call the journal makes goes through a `FileSystem`, so that `EINTR` is
/// retried in one place, every failure becomes a ``StorageError`` naming the path and
/// errno, and tests can substitute a layer that fails chosen calls, tears writes and loses
/// unsynced data.
///
/// Files are opened without following a symbolic link at the path (`O_NOFOLLOW`): every file
/// the layer opens is inside a ledger or is one it creates, and a link planted there must not
/// send a write outside (decision 0020). Directories are followed, since the ledger's own path
/// may be a link; the ledger checks its directories with ``status(_:followingLinks:)``.
///
/// Bytes cross the layer as spans: a write borrows the caller's bytes and a read fills the
/// caller's memory, so neither copies, and a layer that wraps another (to count or to fail
/// calls) passes them on without touching a pointer. The pointer code is in this directory.
public protocol FileSystem: Sendable {
    /// Opens or creates a file.
    func open(_ path: String, _ mode: OpenMode) throws(StorageError) -> OpenFile
    /// Closes a file; errors from close are reported, but data durability never depends on them.
    func close(_ file: OpenFile) throws(StorageError)
    /// Writes all of `bytes` at `offset`, looping over short writes.
    func write(_ file: OpenFile, _ bytes: RawSpan, at offset: Int64) throws(StorageError)
    /// Reads up to `buffer.byteCount` bytes at `offset` into the start of `buffer`, looping until
    /// the buffer is full or the file ends; returns how many bytes it read.
    func read(_ file: OpenFile, into buffer: inout MutableRawSpan, at offset: Int64) throws(StorageError) -> Int
    /// Makes the file's data (and the metadata needed to read it) durable.
    func synchronizeData(_ file: OpenFile) throws(StorageError)
    /// Makes the file's data and all of its metadata durable.
    func synchronize(_ file: OpenFile) throws(StorageError)
    /// Cuts or extends the file to `size` bytes.
    func truncate(_ file: OpenFile, to size: Int64) throws(StorageError)
    /// The file's current size in bytes.
    func size(of file: OpenFile) throws(StorageError) -> Int64
    /// Tries to take an exclusive advisory lock (flock) without waiting.
    func tryLockExclusive(_ file: OpenFile) throws(StorageError) -> LockAttempt
    /// Releases the lock ``tryLockExclusive(_:)`` took, before the file is closed: closing
    /// releases it only once no descriptor of the open file is left, and a child process forked
    /// at that moment holds a copy of the descriptor until it executes its program.
    func unlock(_ file: OpenFile) throws(StorageError)
    /// Renames a file, replacing any file at the destination.
    func rename(_ source: String, to destination: String) throws(StorageError)
    /// Removes a file.
    func remove(_ path: String) throws(StorageError)
    /// Creates a directory with the given permission bits; an existing directory is not an error.
    func makeDirectory(_ path: String, permissions: UInt32) throws(StorageError)
    /// Makes a directory's entries (creations, renames, removals) durable.
    func synchronizeDirectory(_ path: String) throws(StorageError)
    /// The names in a directory, without `.` and `..`.
    func contentsOfDirectory(_ path: String) throws(StorageError) -> [String]
    /// Whether anything exists at the path (a symbolic link counts, whatever it points to).
    func exists(_ path: String) -> Bool
    /// The kind, permissions and owner of what is at `path`, or nil when nothing is there:
    /// the link itself when one is there (`lstat`), or what it points to when `followingLinks`
    /// (`stat`).
    func status(_ path: String, followingLinks: Bool) throws(StorageError) -> FileStatus?
    /// Sets the permission bits of the file or directory at `path` (`chmod`, which follows a
    /// link there).
    func setPermissions(_ path: String, _ permissions: UInt32) throws(StorageError)
    /// Backs the whole pages of `byteCount` bytes of this process's memory at `address` with
    /// memory now, as writing them would, without changing a byte
    /// (`madvise(MADV_POPULATE_WRITE)`): a hint for memory about to be filled, whose pages are
    /// dear to fault in one by one. The range must lie in memory the process has mapped
    /// writable; the system checks it, and nothing here reads or writes it. The default does
    /// nothing.
    func populateForWriting(address: UInt, byteCount: Int) throws(StorageError)
    /// Whether this layer has simulated a power cut: the process memory that stands for the
    /// machine is gone then, so a writer that fails afterwards must not leave a note for a later
    /// open in this process. Only a layer that simulates crashes says so; the default is false.
    var hasSimulatedCrash: Bool { get }
}

extension FileSystem {
    /// Does nothing: not every layer can advise the system about memory.
    public func populateForWriting(address: UInt, byteCount: Int) throws(StorageError) {}

    /// Backs the whole pages of `region` with memory (``populateForWriting(address:byteCount:)``).
    public func populateForWriting(_ region: UnsafeMutableRawBufferPointer) throws(StorageError) {
        guard let base = region.baseAddress, region.count > 0 else { return }
        try populateForWriting(address: UInt(bitPattern: base), byteCount: region.count)
    }

    /// False: a layer over a real machine never loses power under the process.
    public var hasSimulatedCrash: Bool { false }

    /// Reads a whole file into memory.
    public func readAll(_ path: String) throws(StorageError) -> [UInt8] {
        var bytes: [UInt8] = []
        try readAll(path, into: &bytes)
        return bytes
    }

    /// Reads a whole file into `bytes`, replacing what it held but keeping its storage when it is
    /// large enough: a journal scan reads a segment it must judge whole (one with a torn or
    /// damaged record) into the buffer it read its chunks into. On an error `bytes` is left empty.
    public func readAll(_ path: String, into bytes: inout [UInt8]) throws(StorageError) {
        let file = try open(path, .readOnly)
        defer { try? close(file) }
        let count = Int(try size(of: file))
        var failure: StorageError?
        func readFile(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            var span = buffer.mutableBytes
            do throws(StorageError) {
                return try read(file, into: &span, at: 0)
            } catch {
                failure = error
                return 0
            }
        }
        if bytes.capacity < count {
            // Read straight into uninitialized storage: a segment or snapshot is tens or hundreds
            // of megabytes, and filling it with zeros first would touch every page twice.
            bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                initialized = readFile(into: UnsafeMutableRawBufferPointer(buffer))
            }
        } else {
            // Within the storage: only the bytes beyond what it held are zeroed before the read.
            if bytes.count < count {
                bytes.append(contentsOf: repeatElement(0, count: count - bytes.count))
            } else {
                bytes.removeLast(bytes.count - count)
            }
            let read = bytes.withUnsafeMutableBytes { readFile(into: $0) }
            bytes.removeLast(count - read)
        }
        if let failure {
            bytes.removeAll(keepingCapacity: true)
            throw failure
        }
    }

    /// Reads up to `count` bytes at `offset` into a new array, which holds as many as the file had.
    public func read(_ file: OpenFile, count: Int, at offset: Int64) throws(StorageError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try read(file, into: &bytes, at: offset)
        bytes.removeLast(count - read)
        return bytes
    }

    /// Reads at `offset` into `bytes` from index `start` to its end, until that part is full or
    /// the file ends; returns how many bytes it read. The array keeps its count.
    public func read(
        _ file: OpenFile, into bytes: inout [UInt8], from start: Int = 0, at offset: Int64
    ) throws(StorageError) -> Int {
        precondition(start >= 0 && start <= bytes.count, "a read into the array from outside it")
        let result: Result<Int, StorageError> = bytes.withUnsafeMutableBytes { buffer in
            var span = UnsafeMutableRawBufferPointer(rebasing: buffer[start...]).mutableBytes
            do throws(StorageError) { return .success(try read(file, into: &span, at: offset)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Writes all of a byte array at `offset`.
    public func write(_ file: OpenFile, _ bytes: [UInt8], at offset: Int64) throws(StorageError) {
        try write(file, bytes.span.bytes, at: offset)
    }

    /// Writes all of a slice's bytes at the offset.
    public func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>, at offset: Int64) throws(StorageError) {
        try write(file, bytes.span.bytes, at: offset)
    }

    /// Replaces (or creates) a file atomically: write a temporary file, fsync it, rename it over
    /// the destination, fsync the directory. On failure the temporary file is removed, so that a
    /// full disk keeps neither a part-written file nor its space.
    public func replaceAtomically(
        _ path: String, with bytes: [UInt8], permissions: UInt32 = 0o600
    )
        throws(StorageError)
    {
        let temporary = path + ".tmp"
        if exists(temporary) { try remove(temporary) }
        let file = try open(temporary, .createNew(permissions: permissions))
        do {
            try write(file, bytes, at: 0)
            try synchronize(file)
        } catch {
            try? close(file)
            // A full disk must not keep the part written: removing it frees the space again.
            try? remove(temporary)
            throw error
        }
        do {
            try close(file)
            try rename(temporary, to: path)
        } catch {
            try? remove(temporary)
            throw error
        }
        try synchronizeDirectory(parentDirectory(of: path))
    }
}

/// The directory part of a path (`.` for a bare name).
public func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
}

/// The effective user id of this process: the user a ledger's files must belong to.
public func effectiveUserID() -> UInt32 {
    UInt32(geteuid())
}

/// The canonical form of a path (symbolic links resolved), or the path itself if it cannot be resolved.
package func canonicalPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}
