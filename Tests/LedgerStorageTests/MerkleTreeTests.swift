import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// RFC 9162 section 2.1's definitions, written as the RFC states them (recursively, over every
/// leaf), to check the incremental tree and its proofs against.
enum ReferenceTree {
    static func largestPowerOfTwo(below n: Int) -> Int {
        var k = 1
        while k << 1 < n { k <<= 1 }
        return k
    }

    static func mth(_ leaves: ArraySlice<[UInt8]>) -> SHA256Digest {
        if leaves.isEmpty { return SHA256.hash([]) }
        if leaves.count == 1 { return MerkleHash.leaf(leaves.first!) }
        let k = largestPowerOfTwo(below: leaves.count)
        let start = leaves.startIndex
        return MerkleHash.node(mth(leaves[start..<start + k]), mth(leaves[(start + k)...]))
    }

    static func path(_ m: Int, _ leaves: ArraySlice<[UInt8]>) -> [SHA256Digest] {
        if leaves.count <= 1 { return [] }
        let k = largestPowerOfTwo(below: leaves.count)
        let start = leaves.startIndex
        if m < k { return path(m, leaves[start..<start + k]) + [mth(leaves[(start + k)...])] }
        return path(m - k, leaves[(start + k)...]) + [mth(leaves[start..<start + k])]
    }

    static func subproof(_ m: Int, _ leaves: ArraySlice<[UInt8]>, _ whole: Bool) -> [SHA256Digest] {
        if m == leaves.count { return whole ? [] : [mth(leaves)] }
        let k = largestPowerOfTwo(below: leaves.count)
        let start = leaves.startIndex
        if m <= k { return subproof(m, leaves[start..<start + k], whole) + [mth(leaves[(start + k)...])] }
        return subproof(m - k, leaves[(start + k)...], false) + [mth(leaves[start..<start + k])]
    }
}

/// A node source over leaves in memory, computing each perfect subtree on demand.
struct MemoryNodes: MerkleNodeSource {
    var leaves: [[UInt8]]
    var leafCount: UInt64 { UInt64(leaves.count) }

    mutating func perfectNode(level: Int, index: UInt64) throws(StorageError) -> SHA256Digest {
        let start = Int(index) << level
        return ReferenceTree.mth(leaves[start..<start + (1 << level)])
    }
}

/// A node source of any size whose nodes are made up: for counting the work of a proof.
struct CountingNodes: MerkleNodeSource {
    var leafCount: UInt64
    mutating func perfectNode(level: Int, index: UInt64) throws(StorageError) -> SHA256Digest {
        SHA256.hash(Array("\(level)/\(index)".utf8))
    }
}

private func digest(_ hex: String) -> SHA256Digest { SHA256Digest(hex: hex)! }

/// The test vectors of transparency-dev/merkle (proof/verify_test.go, Apache License 2.0): eight
/// leaves, the root of each prefix, and inclusion and consistency proofs between them.
enum PublishedVectors {
    static let leaves: [[UInt8]] = [
        [], [0x00], [0x10], [0x20, 0x21], [0x30, 0x31], [0x40, 0x41, 0x42, 0x43], Array(0x50...0x57),
        Array(0x60...0x6f),
    ]
    static let roots = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ].map(digest)
    /// (leaf, from 1; tree size; path)
    static let inclusion: [(UInt64, UInt64, [String])] = [
        (1, 1, []),
        (
            1, 8,
            [
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ]
        ),
        (
            6, 8,
            [
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ]
        ),
        (3, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
        (
            2, 5,
            [
                "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            ]
        ),
    ]
    /// (first size, second size, proof)
    static let consistency: [(UInt64, UInt64, [String])] = [
        (1, 1, []),
        (
            1, 8,
            [
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ]
        ),
        (
            6, 8,
            [
                "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ]
        ),
        (
            2, 5,
            [
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            ]
        ),
        (
            6, 7,
            [
                "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ]
        ),
    ]
}

@Suite("Merkle tree: RFC 9162 heads, proofs and their verification")
struct MerkleTreeTests {
    @Test("The tree heads, inclusion paths and consistency proofs are the published vectors")
    func publishedVectors() throws {
        var view = MerkleTreeView(MemoryNodes(leaves: PublishedVectors.leaves))
        #expect(try view.root(size: 0) == digest("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        for (index, root) in PublishedVectors.roots.enumerated() {
            #expect(try view.root(size: UInt64(index + 1)) == root)
        }
        for (leaf, size, path) in PublishedVectors.inclusion {
            #expect(try view.inclusionPath(index: leaf - 1, size: size) == path.map(digest))
            let leafHash = MerkleHash.leaf(PublishedVectors.leaves[Int(leaf - 1)])
            #expect(
                MerkleProofCheck.inclusion(
                    leafHash: leafHash, index: leaf - 1, size: size, path: path.map(digest),
                    root: PublishedVectors.roots[Int(size - 1)]))
        }
        for (first, second, proof) in PublishedVectors.consistency {
            #expect(try view.consistencyProof(first: first, second: second) == proof.map(digest))
            #expect(
                MerkleProofCheck.consistency(
                    first: first, second: second, firstRoot: PublishedVectors.roots[Int(first - 1)],
                    secondRoot: PublishedVectors.roots[Int(second - 1)], proof: proof.map(digest)))
        }
    }

    @Test("Every proof of every tree up to 40 leaves is the RFC's and verifies; every altered one fails")
    func everySmallTree() throws {
        let leaves = (0..<40).map { Array("leaf \($0)".utf8) }
        var view = MerkleTreeView(MemoryNodes(leaves: leaves))
        for size in 1...leaves.count {
            let root = ReferenceTree.mth(leaves[0..<size])
            #expect(try view.root(size: UInt64(size)) == root)
            for index in 0..<size {
                let path = try view.inclusionPath(index: UInt64(index), size: UInt64(size))
                #expect(path == ReferenceTree.path(index, leaves[0..<size]))
                let leafHash = MerkleHash.leaf(leaves[index])
                let check = { (i: Int, s: Int, p: [SHA256Digest], r: SHA256Digest) in
                    MerkleProofCheck.inclusion(leafHash: leafHash, index: UInt64(i), size: UInt64(s), path: p, root: r)
                }
                #expect(check(index, size, path, root))
                #expect(!check(index ^ 1, size, path, root) || size == 1 || index ^ 1 >= size)
                #expect(!check(index, size, path + [root], root))
                if !path.isEmpty { #expect(!check(index, size, Array(path.dropLast()), root)) }
            }
            for first in 1...size {
                let proof = try view.consistencyProof(first: UInt64(first), second: UInt64(size))
                #expect(proof == (first == size ? [] : ReferenceTree.subproof(first, leaves[0..<size], true)))
                let firstRoot = ReferenceTree.mth(leaves[0..<first])
                #expect(
                    MerkleProofCheck.consistency(
                        first: UInt64(first), second: UInt64(size), firstRoot: firstRoot, secondRoot: root, proof: proof
                    ))
                if first < size {
                    #expect(
                        !MerkleProofCheck.consistency(
                            first: UInt64(first), second: UInt64(size), firstRoot: root, secondRoot: firstRoot,
                            proof: proof))
                }
            }
        }
    }

    @Test("A head and both proofs at a million leaves read and hash a few dozen nodes, not the log")
    func costAtAMillion() throws {
        var view = MerkleTreeView(CountingNodes(leafCount: 1_000_000))
        var generator = SplitMix64(seed: testSeed("costAtAMillion"))
        var most = (nodeReads: 0, hashes: 0)
        let sizes =
            [1_000_000, (1 << 19) - 1, (1 << 19) + 1]
            + (0..<300).map { _ in Int.random(in: 1...1_000_000, using: &generator) }
        for size in sizes.map(UInt64.init) {
            let index = UInt64.random(in: 0..<size, using: &generator)
            let first = UInt64.random(in: 0...size, using: &generator)
            let before = (view.nodeReads, view.hashes)
            _ = try view.root(size: size)
            _ = try view.inclusionPath(index: index, size: size)
            _ = try view.consistencyProof(first: first, second: size)
            most.nodeReads = max(most.nodeReads, view.nodeReads - before.0)
            most.hashes = max(most.hashes, view.hashes - before.1)
        }
        // The tree is 20 levels high: a root reads at most one perfect subtree a level (20 reads,
        // 19 hashes); an inclusion path holds at most one subtree that is not perfect (40, 19), a
        // consistency proof two (60, 38).
        print(
            "costAtAMillion: at most \(most.nodeReads) node reads and \(most.hashes) hashes for a head and both proofs")
        #expect(most.nodeReads <= 120)
        #expect(most.hashes <= 80)
    }
}
