/// RFC 9162's inclusion proof for one record: its leaf, where it sits and the path to the root.
public struct MerkleInclusionProof: Sendable, Hashable {
    /// The record's leaf (``MerkleLeaf``), whose hash the path starts from.
    public var leaf: MerkleLeaf
    /// The tree's size, in records.
    public var treeSize: UInt64
    /// PATH(leaf index, D[tree size]), the leaf's sibling first.
    public var path: [SHA256Digest]
    /// The root hash of the tree of `treeSize` records, as the ledger computed it.
    public var rootHash: SHA256Digest

    /// Creates a proof.
    public init(leaf: MerkleLeaf, treeSize: UInt64, path: [SHA256Digest], rootHash: SHA256Digest) {
        self.leaf = leaf
        self.treeSize = treeSize
        self.path = path
        self.rootHash = rootHash
    }

    /// The leaf's index in the tree: the record's sequence less one.
    public var leafIndex: UInt64 { leaf.sequence &- 1 }

    /// Whether the path leads from the leaf's hash to `root` in a tree of `treeSize` records.
    public func verifies(root: SHA256Digest) -> Bool {
        leaf.sequence > 0
            && MerkleProofCheck.inclusion(
                leafHash: leaf.hash, index: leafIndex, size: treeSize, path: path, root: root)
    }
}

/// RFC 9162's consistency proof: that the tree of the first `firstSize` records is a prefix of the
/// tree of the first `secondSize`, so the log only grew between them.
public struct MerkleConsistencyProof: Sendable, Hashable {
    /// The smaller tree's size.
    public var firstSize: UInt64
    /// The larger tree's size.
    public var secondSize: UInt64
    /// The smaller tree's root hash, as the ledger computed it.
    public var firstRootHash: SHA256Digest
    /// The larger tree's root hash, as the ledger computed it.
    public var secondRootHash: SHA256Digest
    /// PROOF(first size, D[second size]).
    public var path: [SHA256Digest]

    /// Creates a proof.
    public init(
        firstSize: UInt64, secondSize: UInt64, firstRootHash: SHA256Digest, secondRootHash: SHA256Digest,
        path: [SHA256Digest]
    ) {
        self.firstSize = firstSize
        self.secondSize = secondSize
        self.firstRootHash = firstRootHash
        self.secondRootHash = secondRootHash
        self.path = path
    }

    /// Whether the path shows a tree with root `firstRoot` is a prefix of one with root `secondRoot`.
    public func verifies(firstRoot: SHA256Digest, secondRoot: SHA256Digest) -> Bool {
        MerkleProofCheck.consistency(
            first: firstSize, second: secondSize, firstRoot: firstRoot, secondRoot: secondRoot, proof: path)
    }
}
