import Foundation

/// A projection checkpoint: opaque state as of a sequence number, and the chain hash at that point.
///
/// It names a snapshot file whose header checked out; the state stays in the file until it is
/// read, front to back, with ``openState()``, so that a large state is never held whole beside
/// what is restored from it.
public struct Snapshot: Sendable {
    /// The last record the state includes.
    public let sequence: UInt64
    /// The chain hash of that record, checked against the journal before the snapshot is used.
    public let hash: SHA256Digest
    /// The snapshot file's path.
    public let path: String
    /// The file layer it is read through.
    public let fileSystem: any FileSystem
    /// The state's length in bytes; it starts at ``SnapshotStore/headerBytes``.
    public let stateLength: Int
    /// The masked CRC32C the file's header holds for the state.
    public let stateChecksum: UInt32
    /// Whether the state has already been found to match ``stateChecksum``, so that
    /// ``stateChecksumMatches()`` need not read it again.
    public fileprivate(set) var stateChecked = false

    /// Creates a snapshot of the file at `path`, whose state of `stateLength` bytes follows its
    /// header and has the checksum the header holds.
    public init(
        sequence: UInt64, hash: SHA256Digest, path: String, fileSystem: any FileSystem, stateLength: Int,
        stateChecksum: UInt32
    ) {
        precondition(stateLength >= 0)
        self.sequence = sequence
        self.hash = hash
        self.path = path
        self.fileSystem = fileSystem
        self.stateLength = stateLength
        self.stateChecksum = stateChecksum
    }

    /// A reader of the state from its first byte, which checks it against ``stateChecksum`` as
    /// it goes (``SnapshotStateReader/checksumMatches``).
    public func openState() throws(StorageError) -> SnapshotStateReader {
        try SnapshotStateReader(
            fileSystem: fileSystem, path: path, start: SnapshotStore.headerBytes, length: stateLength,
            checksum: stateChecksum)
    }

    /// Whether the state's bytes match the checksum in the file's header; read a piece at a
    /// time, unless already found to.
    public func stateChecksumMatches() -> Bool {
        if stateChecked { return true }
        guard let reader = try? openState(), (try? reader.readRest()) != nil else { return false }
        return reader.checksumMatches
    }

    /// A copy of the state's bytes.
    public func readState() throws(StorageError) -> [UInt8] {
        try openState().read(count: stateLength)
    }
}

/// Writes and finds snapshots in a ledger's `snapshots/` directory.
///
/// Snapshots are a cache, always safe to delete. A snapshot is written atomically (temporary file,
/// fsync, rename, directory fsync) and is used only if its checksums hold; one that does not is
/// ignored, with the reason, and the caller rebuilds from the journal. A snapshot that checks out
/// also records a head that was durable when it was written, so a journal whose record at its
/// sequence has another chain hash, or that ends before it, is corruption (decision 0018).
///
/// File layout, format version 2 (little-endian): magic `CLSNAPSH` (8), format version (2),
/// reserved (2), ledger id (16), sequence (8), chain hash (32), state length (8), masked CRC32C of
/// the state (4), reserved (4), masked CRC32C of the preceding 84 bytes (4), state. The state
/// starts at byte 88, a multiple of 8. The state is checked with CRC32C rather than SHA-256, which
/// would be a large part of an open's time; a snapshot of another format version is passed over
/// like any unusable one.
public struct SnapshotStore: Sendable {
    /// The eight bytes every snapshot starts with.
    public static let magic: [UInt8] = Array("CLSNAPSH".utf8)
    /// The size of the header before the state.
    public static let headerBytes = 88
    /// The snapshot file format this build writes and reads.
    public static let formatVersion: UInt16 = 2
    /// How many snapshots are kept; older ones are removed after a new one is written. One:
    /// `HEAD` records the durable floor that a second snapshot used to keep when the newest was
    /// damaged, and a damaged newest one costs a full replay, never data (decision 0034).
    public static let keptCount = 1

    /// The ledger's paths.
    public let paths: LedgerPaths
    /// The ledger's identity; a snapshot of another ledger is rejected.
    public let identity: LedgerIdentity
    /// The file layer.
    public let fileSystem: any FileSystem

    /// Creates a snapshot store for a ledger.
    public init(paths: LedgerPaths, identity: LedgerIdentity, fileSystem: any FileSystem = SystemFileSystem()) {
        self.paths = paths
        self.identity = identity
        self.fileSystem = fileSystem
    }

    /// The file name of the snapshot at a sequence.
    public static func fileName(sequence: UInt64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".snap"
    }

    /// Writes a snapshot atomically and removes all but the newest ``keptCount``; returns after it is on disk.
    public func write(sequence: UInt64, hash: SHA256Digest, state: [UInt8]) throws(StorageError) {
        try write(sequence: sequence, hash: hash, stateCapacity: state.count) { $0.append(contentsOf: state) }
    }

    /// Writes a snapshot whose state `appendState` appends to the file's bytes, after room left
    /// for the header, so that a large state is encoded where the file will hold it rather than
    /// copied there; reserves `stateCapacity` bytes for it. Atomic, and removes all but the
    /// newest ``keptCount``, as ``write(sequence:hash:state:)``.
    public func write(
        sequence: UInt64, hash: SHA256Digest, stateCapacity: Int, appendState: (inout [UInt8]) -> Void
    ) throws(StorageError) {
        var file: [UInt8] = []
        file.reserveCapacity(Self.headerBytes + stateCapacity)
        file.append(contentsOf: repeatElement(0, count: Self.headerBytes))
        appendState(&file)
        precondition(file.count >= Self.headerBytes, "the state's encoder removed the header's room")
        let stateCRC = CRC32C.checksum(file[Self.headerBytes...])
        var header = ByteWriter(capacity: Self.headerBytes)
        header.write(bytes: Self.magic)
        header.write(Self.formatVersion)
        header.write(UInt16(0))
        header.write(identity.ledgerID)
        header.write(sequence)
        header.write(hash)
        header.write(UInt64(file.count - Self.headerBytes))
        header.write(CRC32C.mask(stateCRC))
        header.write(UInt32(0))
        header.write(CRC32C.mask(CRC32C.checksum(header.bytes)))
        file.replaceSubrange(0..<Self.headerBytes, with: header.bytes)
        try fileSystem.makeDirectory(paths.snapshots, permissions: LedgerDirectory.directoryPermissions)
        try fileSystem.replaceAtomically(
            paths.snapshots + "/" + Self.fileName(sequence: sequence), with: file,
            permissions: LedgerDirectory.filePermissions)
        let old = try sequences().dropLast(Self.keptCount)
        for stale in old { try fileSystem.remove(paths.snapshots + "/" + Self.fileName(sequence: stale)) }
        if !old.isEmpty { try fileSystem.synchronizeDirectory(paths.snapshots) }
    }

    /// The sequences of the snapshot files present, oldest first.
    public func sequences() throws(StorageError) -> [UInt64] {
        guard fileSystem.exists(paths.snapshots) else { return [] }
        return try fileSystem.contentsOfDirectory(paths.snapshots).compactMap { name -> UInt64? in
            guard name.hasSuffix(".snap"), name.count == 25 else { return nil }
            return UInt64(name.dropLast(5))
        }.sorted()
    }

    /// Decodes one snapshot file and checks its checksums, version and ledger id. With
    /// `checkingState` false the state's checksum is left to the caller
    /// (``Snapshot/stateChecksumMatches()``), which may check it while it decodes the state.
    public func read(sequence: UInt64, checkingState: Bool = true) -> Result<Snapshot, DecodeFailure> {
        let path = paths.snapshots + "/" + Self.fileName(sequence: sequence)
        switch readHeader(path: path, sequence: sequence) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let (hash, stateCRC, fileBytes)):
            var snapshot = Snapshot(
                sequence: sequence, hash: hash, path: path, fileSystem: fileSystem,
                stateLength: fileBytes - Self.headerBytes, stateChecksum: stateCRC)
            if checkingState {
                guard snapshot.stateChecksumMatches() else { return .failure(DecodeFailure("state checksum mismatch")) }
                // Restoring it then need not check it again.
                snapshot.stateChecked = true
            }
            return .success(snapshot)
        }
    }

    /// Reads and checks a snapshot file's header alone: its magic, version, checksum, ledger id,
    /// sequence and state length; returns the chain hash, the state's checksum and the file's size.
    private func readHeader(
        path: String, sequence: UInt64
    ) -> Result<(hash: SHA256Digest, stateCRC: UInt32, fileBytes: Int), DecodeFailure> {
        guard let file = try? fileSystem.open(path, .readOnly) else { return .failure(DecodeFailure("cannot be read")) }
        defer { try? fileSystem.close(file) }
        guard let size = try? fileSystem.size(of: file),
            let header = try? fileSystem.read(file, count: Self.headerBytes, at: 0),
            header.count == Self.headerBytes
        else { return .failure(DecodeFailure("not a snapshot (bad magic or too short)")) }
        return decodeHeader(header, fileBytes: Int(size), sequence: sequence).map { ($0.hash, $0.stateCRC, Int(size)) }
    }

    /// The chain hash a snapshot's header records, reading its header alone: what a scan needs of
    /// every snapshot (``DurableHeads``).
    func recordedHash(sequence: UInt64) -> Result<SHA256Digest, DecodeFailure> {
        readHeader(path: paths.snapshots + "/" + Self.fileName(sequence: sequence), sequence: sequence).map(\.hash)
    }

    /// Decodes and checks a snapshot's header bytes, given the file's size.
    private func decodeHeader(
        _ bytes: [UInt8], fileBytes: Int, sequence: UInt64
    ) -> Result<(hash: SHA256Digest, stateCRC: UInt32), DecodeFailure> {
        guard Array(bytes[0..<8]) == Self.magic else {
            return .failure(DecodeFailure("not a snapshot (bad magic or too short)"))
        }
        var reader = ByteReader(bytes, range: 8..<Self.headerBytes)
        do {
            let version = try reader.readUInt16()
            guard version == Self.formatVersion else {
                return .failure(DecodeFailure("format version \(version) is not supported"))
            }
            _ = try reader.readUInt16()
            let id = try reader.readUUID()
            let stored = try reader.readUInt64()
            let hash = try reader.readDigest()
            let length = try reader.readUInt64()
            let stateCRC = try reader.readUInt32()
            _ = try reader.readUInt32()
            let crc = try reader.readUInt32()
            guard CRC32C.mask(CRC32C.checksum(bytes[0..<Self.headerBytes - 4])) == crc else {
                return .failure(DecodeFailure("header checksum mismatch"))
            }
            guard id == identity.ledgerID else { return .failure(DecodeFailure("belongs to another ledger")) }
            guard stored == sequence else { return .failure(DecodeFailure("file name and header disagree")) }
            let present = fileBytes - Self.headerBytes
            guard length == UInt64(present) else {
                return .failure(DecodeFailure("state is \(present) bytes, header says \(length)"))
            }
            return .success((hash, stateCRC))
        } catch {
            return .failure(DecodeFailure("\(error)"))
        }
    }

    /// The newest snapshot that checks out against the journal, and why any newer ones were passed
    /// over; throws ``StorageError/corruption(location:reason:)`` when the journal disagrees with
    /// a snapshot that checks out on its own.
    public func latestUsable(reader: JournalReader) throws(StorageError) -> (snapshot: Snapshot?, rejected: [String]) {
        var rejected: [String] = []
        for sequence in try sequences().reversed() {
            switch read(sequence: sequence) {
            case .failure(let failure):
                rejected.append("snapshot \(sequence): \(failure.reason)")
            case .success(let snapshot):
                let journalHash = try reader.hash(at: sequence)
                // A snapshot that checks out records a head that was durable: a journal without
                // it, or with another hash there, lost or altered acknowledged records.
                guard let journalHash else {
                    throw StorageError.corruption(
                        location: LedgerLocation(file: paths.relative(paths.journal), offset: 0),
                        reason: "snapshot \(sequence) records a head the journal does not reach")
                }
                guard journalHash == snapshot.hash else {
                    throw StorageError.corruption(
                        location: LedgerLocation(file: paths.relative(paths.journal), offset: 0),
                        reason: "snapshot \(sequence)'s chain hash does not match the journal's record \(sequence)")
                }
                return (snapshot, rejected)
            }
        }
        return (nil, rejected)
    }
}
