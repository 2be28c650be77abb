import Foundation

/// The perfect-subtree hashes of the `TREE` file, read where they lie.
public struct TreeFileNodes: MerkleNodeSource {
    let fileSystem: any FileSystem
    let file: OpenFile
    /// The leaves the file's header vouches for.
    public let leafCount: UInt64

    /// Reads one node; a node the file does not hold in full is damage to the file.
    public mutating func perfectNode(level: Int, index: UInt64) throws(StorageError) -> SHA256Digest {
        precondition((index + 1) << level <= leafCount, "a node past the tree's leaves")
        let offset = TreeFileLayout.offset(level: level, index: index)
        let bytes = try fileSystem.read(file, count: TreeFileLayout.nodeBytes, at: offset)
        guard bytes.count == TreeFileLayout.nodeBytes else {
            throw StorageError.corruption(
                location: LedgerLocation(file: "TREE", offset: offset), reason: "the tree file ends inside its nodes")
        }
        return SHA256Digest(bytes: bytes[...])
    }
}

/// What opening the tree did to the `TREE` file.
public enum TreeFileUpdate: Sendable, Hashable {
    /// It already covered every record.
    case current
    /// Records committed since were added to it.
    case extended(records: UInt64)
    /// It was missing, or could not be trusted, and was built again from the journal; the reason.
    case rebuilt(reason: String)
}

/// The ledger's RFC 9162 Merkle tree over its records' leaves (``MerkleLeaf``), kept in the
/// derived file `TREE` (LogFormat.md) so that a tree head or a proof reads a few dozen nodes
/// instead of rehashing the log.
///
/// Opening brings the file up to the journal's head under the file's own lock (readers take no
/// other lock): a file that is missing, damaged, of another ledger or not a prefix of this
/// journal (its recorded chain hash is not the journal's at that sequence) is rebuilt; one that
/// is behind is extended with the records after it. Nodes are made durable before the header
/// that counts them, so a crash leaves the old count or the new, never a count over missing
/// nodes. Nothing on the commit path writes it.
public final class LedgerMerkleTree {
    /// The ledger's paths.
    public let paths: LedgerPaths
    /// The ledger's identity.
    public let identity: LedgerIdentity
    /// The journal's head when the tree was brought up to date: its sequence is the tree's size.
    public internal(set) var head: HeadDigest
    /// What opening did to the file.
    public internal(set) var update: TreeFileUpdate
    let fileSystem: any FileSystem
    let reader: JournalReader
    var file: OpenFile?
    var view: MerkleTreeView<TreeFileNodes>

    /// The path of the tree file of the ledger at `root`.
    public static func path(ledgerAt root: String) -> String { LedgerPaths(root: root).root + "/TREE" }

    /// Opens the tree of the ledger at `path` and brings it up to the journal's head, waiting up
    /// to `lockWaitSeconds` for another process doing the same.
    public init(
        ledgerAt path: String, fileSystem: any FileSystem = SystemFileSystem(), lockWaitSeconds: Double = 10
    ) throws(StorageError) {
        reader = try JournalReader(at: path, fileSystem: fileSystem)
        paths = reader.paths
        identity = reader.identity
        self.fileSystem = fileSystem
        let file = try Self.openLocked(Self.path(ledgerAt: path), fileSystem: fileSystem, waitSeconds: lockWaitSeconds)
        self.file = file
        head = .empty
        update = .current
        view = MerkleTreeView(TreeFileNodes(fileSystem: fileSystem, file: file, leafCount: 0))
        do throws(StorageError) {
            try bringUpToDate(file)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Releases the file's lock and closes it; the tree answers nothing after this.
    public func close() {
        guard let file else { return }
        try? fileSystem.unlock(file)
        try? fileSystem.close(file)
        self.file = nil
    }

    /// The tree's size: how many records it holds.
    public var size: UInt64 { head.sequence }

    /// How many nodes were read and hashed for the heads and proofs asked for so far.
    public var cost: (nodeReads: Int, hashes: Int) { (view.nodeReads, view.hashes) }

    /// MTH(D[size]): the root hash of the tree of the first `size` records (all of them by default).
    public func root(size: UInt64? = nil) throws(StorageError) -> SHA256Digest {
        try view.root(size: size ?? head.sequence)
    }

    /// The inclusion proof of the record with sequence `sequence` in the tree of the first `size`
    /// records. The leaf is read from the journal and must be the one the tree holds: read where
    /// the tree recorded the record, and if it is not found there or differs, by a scan of its
    /// segment; if the scanned record differs too, the file is rebuilt from the journal first.
    public func inclusionProof(sequence: UInt64, size: UInt64) throws(StorageError) -> MerkleInclusionProof {
        guard sequence >= 1, sequence <= size else {
            throw StorageError.invalidArgument("record \(sequence) is not in a tree of \(size) records")
        }
        try checkSize(size)
        let stored = try view.leafHash(index: sequence - 1)
        var leaf = recordWhereRecorded(sequence).map(MerkleLeaf.init)
        if leaf?.hash != stored {
            var cursor = try reader.records(from: sequence)
            guard let record = try cursor.next(), record.sequence == sequence else {
                throw StorageError.invalidArgument("the journal holds no record \(sequence)")
            }
            leaf = MerkleLeaf(record)
            if leaf?.hash != stored, let file {
                try rebuild(file, reason: "its leaf for record \(sequence) is not the record's")
            }
        }
        let path = try view.inclusionPath(index: sequence - 1, size: size)
        return MerkleInclusionProof(leaf: leaf!, treeSize: size, path: path, rootHash: try view.root(size: size))
    }

    /// The consistency proof between the trees of the first `first` and the first `second` records.
    public func consistencyProof(first: UInt64, second: UInt64) throws(StorageError) -> MerkleConsistencyProof {
        guard first <= second else {
            throw StorageError.invalidArgument("the first size, \(first), is larger than the second, \(second)")
        }
        try checkSize(second)
        let path = try view.consistencyProof(first: first, second: second)
        return MerkleConsistencyProof(
            firstSize: first, secondSize: second, firstRootHash: try view.root(size: first),
            secondRootHash: try view.root(size: second), path: path)
    }

    private func checkSize(_ size: UInt64) throws(StorageError) {
        guard size <= head.sequence else {
            throw StorageError.invalidArgument("the ledger holds \(head.sequence) records, not \(size)")
        }
    }
}
