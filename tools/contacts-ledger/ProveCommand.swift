import ContactsLedger
import LedgerAudit

/// `prove`: prints an RFC 9162 inclusion or consistency proof as JSON.
struct ProveCommand: ToolCommand {
    static let name = "prove"
    static let summary = "Prints a Merkle proof as JSON: that a record is in a tree, or that a tree grew from another."
    static let usage = "prove inclusion SEQUENCE [--size N] | prove consistency M N"
    static let help = """
        Prints an RFC 9162 proof over the ledger's Merkle tree as JSON, with hex hashes, for
        `verify-proof` (or any RFC 9162 verifier) to check offline against checkpoints.

        `prove inclusion SEQUENCE` proves that record SEQUENCE is in the tree of the first N records:
        {"proof": "inclusion", "sequence", "leafIndex", "treeSize", "leaf", "leafHash", "path",
        "rootHash"}. The leaf is the record's canonical form (its sequence, time, request id, schema
        version, author and payload lengths, payload digest and author; LogFormat.md), so the proof
        also shows what the record was.

        `prove consistency M N` proves that the tree of the first M records is a prefix of the tree
        of the first N, so nothing in the first M was changed, dropped or reordered: {"proof":
        "consistency", "firstSize", "secondSize", "firstRootHash", "secondRootHash", "path"}.

        Options:
          --size N             The tree's size for an inclusion proof (default: every record); it
                               must match the checkpoint the proof will be checked against.
        """
    static let valued: Set<String> = ["size"]

    enum Kind {
        case inclusion(sequence: UInt64, size: UInt64?)
        case consistency(first: UInt64, second: UInt64)
    }

    var kind: Kind

    init(_ arguments: Arguments) throws(CommandFailure) {
        guard let what = arguments.positionals.first else {
            throw CommandFailure(.usage, "missing the kind of proof: inclusion or consistency")
        }
        switch what {
        case "inclusion":
            let words = try arguments.positionals("inclusion", "SEQUENCE")
            let size = try arguments.single("size").map { text throws(CommandFailure) in try parseCount(text, "--size")
            }
            kind = .inclusion(sequence: try parseCount(words[1], "SEQUENCE"), size: size)
        case "consistency":
            let words = try arguments.positionals("consistency", "M", "N")
            guard arguments.value("size") == nil else {
                throw CommandFailure(.usage, "--size goes with prove inclusion")
            }
            kind = .consistency(first: try parseCount(words[1], "M"), second: try parseCount(words[2], "N"))
        default:
            throw CommandFailure(
                .usage,
                "unknown proof \(what)" + Spelling.hint(for: what, among: ["inclusion", "consistency"])
                    + "; give inclusion or consistency")
        }
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        let prover = try LedgerProver(ledgerAt: context.ledger, lockWaitSeconds: context.waitSeconds)
        defer { prover.tree.close() }
        let proof = try outOfRange { () throws(StorageError) in
            switch kind {
            case .inclusion(let sequence, let size): try prover.inclusion(sequence: sequence, size: size)
            case .consistency(let first, let second): try prover.consistency(first: first, second: second)
            }
        }
        Terminal.json(proof.json)
    }
}
