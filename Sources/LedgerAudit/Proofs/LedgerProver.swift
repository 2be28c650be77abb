import ContactsLedger

/// Tree heads and proofs of a ledger, from its `TREE` file brought up to the journal's head.
public struct LedgerProver {
    /// The tree, open and up to date.
    public let tree: LedgerMerkleTree

    /// Opens the tree of the ledger at `path` (building or extending `TREE` as needed).
    public init(
        ledgerAt path: String, fileSystem: any FileSystem = SystemFileSystem(), lockWaitSeconds: Double = 10
    )
        throws(StorageError)
    {
        tree = try LedgerMerkleTree(ledgerAt: path, fileSystem: fileSystem, lockWaitSeconds: lockWaitSeconds)
    }

    /// The checkpoint of the tree of the first `size` records (all of them by default), named
    /// `origin` or the ledger's default origin.
    public func checkpoint(size: UInt64? = nil, origin: String? = nil) throws(StorageError) -> TreeCheckpoint {
        let size = size ?? tree.size
        guard size <= tree.size else {
            throw StorageError.invalidArgument("the ledger holds \(tree.size) records, not \(size)")
        }
        return TreeCheckpoint(
            origin: origin ?? TreeCheckpoint.defaultOrigin(ledgerID: tree.identity.ledgerID), size: size,
            rootHash: try tree.root(size: size))
    }

    /// The inclusion proof of record `sequence` in the tree of the first `size` records (all by default).
    public func inclusion(sequence: UInt64, size: UInt64? = nil) throws(StorageError) -> LedgerProof {
        .inclusion(try tree.inclusionProof(sequence: sequence, size: size ?? tree.size))
    }

    /// The consistency proof from the tree of the first `first` records to that of the first `second`.
    public func consistency(first: UInt64, second: UInt64) throws(StorageError) -> LedgerProof {
        .consistency(try tree.consistencyProof(first: first, second: second))
    }
}
