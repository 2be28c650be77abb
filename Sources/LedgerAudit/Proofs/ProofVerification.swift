import ContactsLedger

/// Checks a proof offline against checkpoints alone: nothing of the ledger is read.
public enum ProofVerification {
    /// What a proof established, for the one line `verify-proof` prints.
    public struct Outcome: Sendable, Hashable {
        /// The origin of the checkpoints.
        public var origin: String
        /// One sentence: what was proven.
        public var summary: String
    }

    /// Checks `proof` against `checkpoints`: one of the tree's size for an inclusion proof, one of
    /// each size for a consistency proof (in either order), all of the same origin, and of
    /// `origin` when given. Throws, naming what does not hold, when the proof fails.
    public static func verify(
        _ proof: LedgerProof, against checkpoints: [TreeCheckpoint], origin: String? = nil
    ) throws(ProofError) -> Outcome {
        guard let first = checkpoints.first else { throw ProofError("no checkpoint to check the proof against") }
        if let wrong = checkpoints.first(where: { $0.origin != (origin ?? first.origin) }) {
            throw ProofError("the checkpoint of \(wrong.origin) is not of \(origin ?? first.origin)")
        }
        switch proof {
        case .inclusion(let inclusion):
            return Outcome(origin: first.origin, summary: try verifyInclusion(inclusion, checkpoints))
        case .consistency(let consistency):
            return Outcome(origin: first.origin, summary: try verifyConsistency(consistency, checkpoints))
        }
    }

    private static func checkpoint(
        of size: UInt64, in checkpoints: [TreeCheckpoint]
    ) throws(ProofError) -> TreeCheckpoint {
        guard let found = checkpoints.first(where: { $0.size == size }) else {
            let sizes = checkpoints.map { String($0.size) }.joined(separator: ", ")
            throw ProofError("the proof is for a tree of \(size) records, but the checkpoints are of \(sizes)")
        }
        return found
    }

    private static func verifyInclusion(
        _ proof: MerkleInclusionProof, _ checkpoints: [TreeCheckpoint]
    ) throws(ProofError) -> String {
        guard checkpoints.count == 1 else { throw ProofError("an inclusion proof is checked against one checkpoint") }
        let checkpoint = try checkpoint(of: proof.treeSize, in: checkpoints)
        guard proof.verifies(root: checkpoint.rootHash) else {
            throw ProofError(
                "record \(proof.leaf.sequence) is not proven: its leaf and path do not lead to the checkpoint's root "
                    + "hash for \(proof.treeSize) records")
        }
        return "record \(proof.leaf.sequence) is in the tree of \(proof.treeSize) records"
    }

    private static func verifyConsistency(
        _ proof: MerkleConsistencyProof, _ checkpoints: [TreeCheckpoint]
    ) throws(ProofError) -> String {
        guard checkpoints.count == 2 else { throw ProofError("a consistency proof is checked against two checkpoints") }
        let older = try checkpoint(of: proof.firstSize, in: checkpoints)
        let newer = try checkpoint(of: proof.secondSize, in: checkpoints)
        guard older != newer || proof.firstSize == proof.secondSize else {
            throw ProofError("the two checkpoints are the same")
        }
        guard proof.verifies(firstRoot: older.rootHash, secondRoot: newer.rootHash) else {
            throw ProofError(
                "the tree of \(proof.firstSize) records is not proven a prefix of the tree of \(proof.secondSize): "
                    + "the log was rewritten or forked, or the proof does not belong to these checkpoints")
        }
        return "the tree of \(proof.firstSize) records is a prefix of the tree of \(proof.secondSize)"
    }
}
