import Foundation

/// The paths inside a ledger directory.
public struct LedgerPaths: Sendable, Hashable {
    /// The ledger directory itself.
    public let root: String

    /// Names the paths of the ledger at `root`.
    public init(root: String) {
        var trimmed = root
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
    }

    /// The identity file.
    public var identity: String { root + "/LEDGER" }
    /// The writer's advisory lock file.
    public var lock: String { root + "/LOCK" }
    /// The marker of the highest head known to be durable (``HeadMarker``).
    public var headMarker: String { root + "/HEAD" }
    /// The directory of journal segments.
    public var journal: String { root + "/journal" }
    /// The directory of snapshots.
    public var snapshots: String { root + "/snapshots" }

    /// The path of the segment whose first record has this sequence number.
    public func segment(firstSequence: UInt64) -> String {
        journal + "/" + SegmentHeader.fileName(firstSequence: firstSequence)
    }

    /// A path relative to the ledger directory, as errors name files.
    public func relative(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}

/// Creating a ledger directory and reading its identity.
public enum LedgerDirectory {
    /// Permission bits for every file a ledger creates: owner read and write only.
    public static let filePermissions: UInt32 = 0o600
    /// Permission bits for every directory a ledger creates: owner only.
    public static let directoryPermissions: UInt32 = 0o700

    /// Creates a new, empty ledger at `path`.
    ///
    /// The directory may exist if it is empty and belongs to this user; its group and other
    /// permission bits are then cleared, since an open refuses a ledger they reach. Every file
    /// and directory is made durable (file fsync, then directory fsync) before this returns.
    @discardableResult
    public static func create(
        at path: String, fileSystem: any FileSystem = SystemFileSystem(), ledgerID: UUID = RandomUUID.make(),
        createdMicroseconds: Int64? = nil
    ) throws(StorageError) -> LedgerIdentity {
        let paths = LedgerPaths(root: path)
        let existed = fileSystem.exists(paths.root)
        if existed {
            let contents = try fileSystem.contentsOfDirectory(paths.root)
            if !contents.isEmpty { throw StorageError.alreadyExists(path: paths.root) }
            try closeToOthers(existingRoot: paths.root, fileSystem: fileSystem)
        } else {
            try fileSystem.makeDirectory(paths.root, permissions: directoryPermissions)
            try fileSystem.synchronizeDirectory(parentDirectory(of: paths.root))
        }
        try fileSystem.makeDirectory(paths.journal, permissions: directoryPermissions)
        try fileSystem.makeDirectory(paths.snapshots, permissions: directoryPermissions)
        let lock = try fileSystem.open(paths.lock, .createOrOpen(permissions: filePermissions))
        try fileSystem.close(lock)
        let identity = LedgerIdentity(
            ledgerID: ledgerID, createdMicroseconds: createdMicroseconds ?? WallClock.nowMicroseconds())
        // The identity file is written last, through a rename, so that a directory without a
        // complete LEDGER file is never mistaken for a ledger.
        try fileSystem.replaceAtomically(paths.identity, with: identity.encoded(), permissions: filePermissions)
        try fileSystem.synchronizeDirectory(paths.root)
        return identity
    }

    /// Clears the group and other permission bits of an existing, empty directory a ledger is
    /// about to be created in (as `mkdir` leaves them under the usual umask), after checking that
    /// it belongs to this user: another user's directory is refused like one of a ledger.
    private static func closeToOthers(existingRoot root: String, fileSystem: any FileSystem) throws(StorageError) {
        guard let status = try fileSystem.status(root, followingLinks: true) else {
            throw StorageError.system(operation: "stat", path: root, errno: ENOENT)
        }
        try check(status, at: root, expected: .directory, modes: false)
        if status.permissions & 0o077 != 0 {
            try fileSystem.setPermissions(root, status.permissions & ~0o077)
        }
    }

    /// Refuses, with ``StorageError/unsafeFile(path:reason:)``, a ledger that could send a write
    /// outside it or that other users could change under it (decision 0020): the ledger
    /// directory, every entry in it, and every entry of `journal/` and `snapshots/` must belong to
    /// this user and have no group or other permission bits, and none but the ledger directory
    /// itself (whose path the user gave) may be a symbolic link. `journal/` and `snapshots/` must
    /// be directories; every other entry checked, a regular file or (in the ledger directory) a
    /// directory. Every entry is checked, not only those the format names, so that a file a
    /// later version adds is covered too. What is missing is left to the caller to report.
    public static func checkAccess(_ paths: LedgerPaths, fileSystem: any FileSystem) throws(StorageError) {
        try checkEntry(paths.root, expected: .directory, followingLinks: true, fileSystem)
        let named: [String: FileKind] = [
            paths.identity: .regular, paths.lock: .regular, paths.journal: .directory, paths.snapshots: .directory,
        ]
        for name in try fileSystem.contentsOfDirectory(paths.root).sorted() {
            let path = paths.root + "/" + name
            guard let status = try fileSystem.status(path, followingLinks: false) else { continue }
            try check(status, at: path, expected: named[path] ?? (status.kind == .directory ? .directory : .regular))
        }
        for directory in [paths.journal, paths.snapshots] where fileSystem.exists(directory) {
            for name in try fileSystem.contentsOfDirectory(directory).sorted() {
                try checkEntry(directory + "/" + name, expected: .regular, fileSystem)
            }
        }
    }

    /// Checks one entry of a ledger, if there is one.
    private static func checkEntry(
        _ path: String, expected: FileKind, followingLinks: Bool = false, _ fileSystem: any FileSystem
    ) throws(StorageError) {
        guard let status = try fileSystem.status(path, followingLinks: followingLinks) else { return }
        try check(status, at: path, expected: expected)
    }

    /// Refuses an entry that is a link, is not of the expected kind, belongs to another user or
    /// (when `modes` is true) has group or other permission bits.
    private static func check(
        _ status: FileStatus, at path: String, expected: FileKind, modes: Bool = true
    ) throws(StorageError) {
        let user = effectiveUserID()
        if status.kind == .symbolicLink {
            throw StorageError.unsafeFile(
                path: path, reason: "is a symbolic link: nothing inside a ledger is reached through a link")
        }
        guard status.kind == expected else {
            throw StorageError.unsafeFile(
                path: path, reason: expected == .directory ? "is not a directory" : "is not a regular file")
        }
        guard status.owner == user else {
            throw StorageError.unsafeFile(
                path: path, reason: "belongs to user \(status.owner), not to this user (\(user))")
        }
        guard !modes || status.permissions & 0o077 == 0 else {
            let mode = String(status.permissions, radix: 8)
            let wanted = expected == .directory ? "0700" : "0600"
            throw StorageError.unsafeFile(
                path: path,
                reason: "has mode \(String(repeating: "0", count: max(0, 4 - mode.count)) + mode), open to other "
                    + "users; it must have no group or other permissions (\(wanted), chmod go-rwx)")
        }
    }

    /// Reads and checks the identity file of the ledger at `path`, after checking that nothing in
    /// the ledger is a link or open to other users (``checkAccess(_:fileSystem:)``).
    public static func identity(
        at path: String, fileSystem: any FileSystem = SystemFileSystem()
    )
        throws(StorageError) -> LedgerIdentity
    {
        let paths = LedgerPaths(root: path)
        guard fileSystem.exists(paths.root) else {
            throw StorageError.notALedger(path: paths.root, reason: "no such directory")
        }
        guard fileSystem.exists(paths.identity) else {
            throw StorageError.notALedger(path: paths.root, reason: "no LEDGER file")
        }
        try checkAccess(paths, fileSystem: fileSystem)
        let bytes = try fileSystem.readAll(paths.identity)
        switch LedgerIdentity.decode(bytes) {
        case .success(let identity): return identity
        case .failure(let failure): throw StorageError.notALedger(path: paths.root, reason: "LEDGER file: \(failure)")
        }
    }

    /// The bytes of the segments that hold records from `sequence` on (the segment holding it
    /// and every later one), for sizing what a replay builds; 0 when they cannot be read (the
    /// replay itself then reports why).
    public static func segmentBytes(
        _ paths: LedgerPaths, from sequence: UInt64 = 1, fileSystem: any FileSystem
    ) -> Int {
        guard let sequences = try? segmentSequences(paths, fileSystem: fileSystem) else { return 0 }
        let first = sequences.lastIndex { $0 <= sequence } ?? 0
        var total = 0
        for firstSequence in sequences[first...] {
            guard let file = try? fileSystem.open(paths.segment(firstSequence: firstSequence), .readOnly) else {
                continue
            }
            total += Int((try? fileSystem.size(of: file)) ?? 0)
            try? fileSystem.close(file)
        }
        return total
    }

    /// The first sequence numbers of the segments in the journal directory, in order.
    static func segmentSequences(_ paths: LedgerPaths, fileSystem: any FileSystem) throws(StorageError) -> [UInt64] {
        try fileSystem.contentsOfDirectory(paths.journal).compactMap(SegmentHeader.firstSequence(fromFileName:))
            .sorted()
    }
}

/// The wall clock in microseconds since the Unix epoch.
public enum WallClock {
    /// The current time in microseconds since the Unix epoch.
    public static func nowMicroseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}
