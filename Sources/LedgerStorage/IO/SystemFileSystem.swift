import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `F_OFD_SETLK` from <fcntl.h>, which Glibc's module does not export without `_GNU_SOURCE`.
private let openFileDescriptionSetLock: Int32 = 37

/// The real file system: each method is one system call, with `EINTR` retried here and nowhere else.
public struct SystemFileSystem: FileSystem {
    /// Creates the real file system layer.
    public init() {}

    /// Runs a system call until it stops failing with `EINTR`, and turns any other failure into a typed error.
    @inline(__always)
    private func retryingInterrupts<R: BinaryInteger>(
        _ operation: String, _ path: String, _ call: () -> R
    ) throws(StorageError) -> R {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw StorageError.system(operation: operation, path: path, errno: code)
        }
    }

    /// Opens or creates a file, never through a symbolic link at the path (`O_NOFOLLOW`: a link
    /// there fails with `ELOOP`, and one where a file is to be created is not followed to make
    /// its target).
    public func open(_ path: String, _ mode: OpenMode) throws(StorageError) -> OpenFile {
        let flags: Int32
        var permissions: mode_t = 0
        switch mode {
        case .readOnly: flags = O_RDONLY
        case .readWrite: flags = O_RDWR
        case .createNew(let bits):
            flags = O_RDWR | O_CREAT | O_EXCL
            permissions = mode_t(bits)
        case .createOrOpen(let bits):
            flags = O_RDWR | O_CREAT
            permissions = mode_t(bits)
        }
        let descriptor = try retryingInterrupts("open", path) {
            Glibc.open(path, flags | O_CLOEXEC | O_NOFOLLOW, permissions)
        }
        return OpenFile(descriptor: descriptor, path: path)
    }

    /// Closes a file.
    public func close(_ file: OpenFile) throws(StorageError) {
        // close is not retried on EINTR: on Linux the descriptor is released even then.
        if Glibc.close(file.descriptor) != 0 && Glibc.errno != EINTR {
            throw StorageError.system(operation: "close", path: file.path, errno: Glibc.errno)
        }
    }

    /// Writes all of the bytes at the offset.
    public func write(_ file: OpenFile, _ bytes: RawSpan, at offset: Int64) throws(StorageError) {
        try bytes.withUnsafeBytes { (buffer) throws(StorageError) in
            var done = 0
            while done < buffer.count {
                let written = try retryingInterrupts("write", file.path) {
                    Glibc.pwrite(
                        file.descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
                }
                if written == 0 {
                    throw StorageError.system(operation: "write", path: file.path, errno: EIO)
                }
                done += written
            }
        }
    }

    /// Reads into the buffer from the offset until it is full or the file ends.
    public func read(
        _ file: OpenFile, into buffer: inout MutableRawSpan, at offset: Int64
    )
        throws(StorageError) -> Int
    {
        try buffer.withUnsafeMutableBytes { (buffer) throws(StorageError) in
            var done = 0
            while done < buffer.count {
                let count = try retryingInterrupts("read", file.path) {
                    Glibc.pread(
                        file.descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
                }
                if count == 0 { break }
                done += count
            }
            return done
        }
    }

    /// Backs the pages of the range with memory (`madvise(MADV_POPULATE_WRITE)`, Linux 5.14 and
    /// later; EINVAL before).
    public func populateForWriting(address: UInt, byteCount: Int) throws(StorageError) {
        guard byteCount > 0, let base = UnsafeMutableRawPointer(bitPattern: address) else { return }
        _ = try retryingInterrupts("madvise(MADV_POPULATE_WRITE)", Self.memoryPath) {
            Glibc.madvise(base, byteCount, MADV_POPULATE_WRITE)
        }
    }

    /// What errors about memory name in place of a path.
    package static let memoryPath = "(memory)"

    /// Makes the file's data durable (fdatasync).
    public func synchronizeData(_ file: OpenFile) throws(StorageError) {
        _ = try retryingInterrupts("fdatasync", file.path) { Glibc.fdatasync(file.descriptor) }
    }

    /// Makes the file's data and metadata durable (fsync).
    public func synchronize(_ file: OpenFile) throws(StorageError) {
        _ = try retryingInterrupts("fsync", file.path) { Glibc.fsync(file.descriptor) }
    }

    /// Sets the file's size.
    public func truncate(_ file: OpenFile, to size: Int64) throws(StorageError) {
        _ = try retryingInterrupts("ftruncate", file.path) { Glibc.ftruncate(file.descriptor, off_t(size)) }
    }

    /// The file's size in bytes.
    public func size(of file: OpenFile) throws(StorageError) -> Int64 {
        var status = stat()
        _ = try retryingInterrupts("fstat", file.path) { Glibc.fstat(file.descriptor, &status) }
        return Int64(status.st_size)
    }

    /// Tries to take the exclusive writer lock without waiting.
    public func tryLockExclusive(_ file: OpenFile) throws(StorageError) -> LockAttempt {
        // An open-file-description lock over the whole file: like flock(2) it belongs to the
        // open file, so two opens conflict even inside one process, and it is released when the
        // descriptor is closed or the process dies.
        var request = Self.wholeFileLock(F_WRLCK)
        while true {
            if Glibc.fcntl(file.descriptor, openFileDescriptionSetLock, &request) == 0 { return .acquired }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EACCES { return .heldElsewhere }
            throw StorageError.system(operation: "fcntl(F_OFD_SETLK)", path: file.path, errno: code)
        }
    }

    /// Releases the open file's lock (`F_UNLCK`). The lock belongs to the open file description,
    /// which a forked child shares until its `exec` closes its copy of the descriptor
    /// (`O_CLOEXEC`): unlocking releases it for that copy too, where closing this descriptor
    /// alone would leave the ledger locked until then.
    public func unlock(_ file: OpenFile) throws(StorageError) {
        var request = Self.wholeFileLock(F_UNLCK)
        _ = try retryingInterrupts("fcntl(F_OFD_SETLK)", file.path) {
            Glibc.fcntl(file.descriptor, openFileDescriptionSetLock, &request)
        }
    }

    /// A lock request of `type` (`F_WRLCK`, `F_UNLCK`) over the whole file.
    private static func wholeFileLock(_ type: Int32) -> Glibc.flock {
        var request = Glibc.flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = 0
        request.l_len = 0
        return request
    }

    /// Renames a file over its destination.
    public func rename(_ source: String, to destination: String) throws(StorageError) {
        _ = try retryingInterrupts("rename", source) { Glibc.rename(source, destination) }
    }

    /// Removes a file.
    public func remove(_ path: String) throws(StorageError) {
        _ = try retryingInterrupts("unlink", path) { Glibc.unlink(path) }
    }

    /// Creates a directory; an existing one is fine, but a symbolic link there is not, even to a
    /// directory: what is found is not followed.
    public func makeDirectory(_ path: String, permissions: UInt32) throws(StorageError) {
        while Glibc.mkdir(path, mode_t(permissions)) != 0 {
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EEXIST, (try? status(path, followingLinks: false))?.kind == .directory { return }
            throw StorageError.system(operation: "mkdir", path: path, errno: code)
        }
    }

    /// Makes a directory's entries durable.
    public func synchronizeDirectory(_ path: String) throws(StorageError) {
        let descriptor = try retryingInterrupts("open directory", path) {
            Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        defer { _ = Glibc.close(descriptor) }
        _ = try retryingInterrupts("fsync directory", path) { Glibc.fsync(descriptor) }
    }

    /// The names in a directory.
    public func contentsOfDirectory(_ path: String) throws(StorageError) -> [String] {
        guard let directory = Glibc.opendir(path) else {
            throw StorageError.system(operation: "opendir", path: path, errno: Glibc.errno)
        }
        defer { Glibc.closedir(directory) }
        var names: [String] = []
        while let entry = Glibc.readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether anything exists at the path.
    public func exists(_ path: String) -> Bool {
        var status = stat()
        return Glibc.lstat(path, &status) == 0
    }

    /// The entry at the path (`lstat`, or `stat` when following links); nil when there is none.
    public func status(_ path: String, followingLinks: Bool) throws(StorageError) -> FileStatus? {
        var status = stat()
        while (followingLinks ? stat(path, &status) : lstat(path, &status)) != 0 {
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == ENOENT { return nil }
            throw StorageError.system(operation: followingLinks ? "stat" : "lstat", path: path, errno: code)
        }
        let kind: FileKind
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return FileStatus(kind: kind, permissions: UInt32(status.st_mode & 0o7777), owner: UInt32(status.st_uid))
    }

    /// Sets the permission bits (`chmod`).
    public func setPermissions(_ path: String, _ permissions: UInt32) throws(StorageError) {
        _ = try retryingInterrupts("chmod", path) { Glibc.chmod(path, mode_t(permissions)) }
    }
}
