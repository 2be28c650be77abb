import Foundation
import LedgerStorage

/// The Merkle tree's figures on a generated ledger: building `TREE` from the journal (what the
/// first checkpoint or proof costs on a ledger that has none), opening it when it is current
/// (what each later command pays before it answers), and the medians of a root, an inclusion
/// proof (which reads its record from the journal) and a consistency proof at random points.
struct ProofBench {
    let path: String
    let quick: Bool

    func run() throws -> [String: Any] {
        let file = LedgerMerkleTree.path(ledgerAt: path)
        try? FileManager.default.removeItem(atPath: file)
        var start = nanoseconds()
        try LedgerMerkleTree(ledgerAt: path).close()
        let buildMilliseconds = Self.milliseconds(since: start)
        start = nanoseconds()
        let tree = try LedgerMerkleTree(ledgerAt: path)
        defer { tree.close() }
        let openMilliseconds = Self.milliseconds(since: start)
        var figures: [String: [Double]] = ["root": [], "inclusion": [], "consistency": []]
        let size = tree.size
        for _ in 0..<(quick ? 20 : 200) where size > 0 {
            start = nanoseconds()
            _ = try tree.root(size: size)
            figures["root"]!.append(Self.milliseconds(since: start))
            start = nanoseconds()
            _ = try tree.inclusionProof(sequence: UInt64.random(in: 1...size), size: size)
            figures["inclusion"]!.append(Self.milliseconds(since: start))
            start = nanoseconds()
            _ = try tree.consistencyProof(first: UInt64.random(in: 1...size), second: size)
            figures["consistency"]!.append(Self.milliseconds(since: start))
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        return [
            "records": size, "tree_bytes": bytes, "tree_build_ms": buildMilliseconds,
            "tree_open_current_ms": openMilliseconds, "root_ms": Self.median(figures["root"]!),
            "inclusion_proof_ms": Self.median(figures["inclusion"]!),
            "consistency_proof_ms": Self.median(figures["consistency"]!),
        ]
    }

    private static func milliseconds(since start: UInt64) -> Double { Double(nanoseconds() - start) / 1e6 }

    private static func median(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }
}
