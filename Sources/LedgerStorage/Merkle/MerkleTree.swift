/// Where a tree's hashes come from: the hash of each perfect subtree, the 2^level leaves from
/// leaf `index << level` on, which is all that RFC 9162's tree heads and proofs are made of.
public protocol MerkleNodeSource {
    /// The number of leaves the source holds.
    var leafCount: UInt64 { get }

    /// The hash of the perfect subtree of 2^`level` leaves that starts at leaf `index << level`.
    mutating func perfectNode(level: Int, index: UInt64) throws(StorageError) -> SHA256Digest
}

/// RFC 9162 section 2.1 over a node source: the tree head MTH(D[n]), the inclusion path
/// PATH(m, D[n]) and the consistency proof PROOF(m, D[n]), for any size up to the source's.
///
/// Every subtree these algorithms name is a perfect subtree the source holds, or is split at its
/// largest power of two into one such subtree and a smaller rest, so a head or a proof costs a
/// number of node reads and hashes that grows with the square of the tree's height at worst,
/// never with its size. ``nodeReads`` and ``hashes`` count them.
public struct MerkleTreeView<Source: MerkleNodeSource> {
    /// The node source.
    public private(set) var source: Source
    /// How many perfect-subtree hashes were read from the source.
    public private(set) var nodeReads = 0
    /// How many interior nodes were hashed.
    public private(set) var hashes = 0

    /// A view over `source`.
    public init(_ source: Source) { self.source = source }

    /// The hash of leaf `index` (from 0), as the source holds it.
    public mutating func leafHash(index: UInt64) throws(StorageError) -> SHA256Digest {
        try checkSize(index + 1)
        nodeReads += 1
        return try source.perfectNode(level: 0, index: index)
    }

    /// MTH(D[size]): the root hash of the tree of the first `size` leaves.
    public mutating func root(size: UInt64) throws(StorageError) -> SHA256Digest {
        try checkSize(size)
        return size == 0 ? MerkleHash.emptyTree : try subtree(start: 0, count: size)
    }

    /// PATH(index, D[size]): the hashes that lead from leaf `index` (from 0) to the root of the
    /// tree of the first `size` leaves, the leaf's sibling first.
    public mutating func inclusionPath(index: UInt64, size: UInt64) throws(StorageError) -> [SHA256Digest] {
        try checkSize(size)
        guard index < size else {
            throw StorageError.invalidArgument("leaf \(index) is not in a tree of \(size) leaves")
        }
        var path: [SHA256Digest] = []
        try appendPath(index, start: 0, count: size, to: &path)
        return path
    }

    /// PROOF(first, D[second]): the hashes that show the tree of the first `first` leaves is a
    /// prefix of the tree of the first `second`; empty when `first` is 0 or equals `second`.
    public mutating func consistencyProof(first: UInt64, second: UInt64) throws(StorageError) -> [SHA256Digest] {
        try checkSize(second)
        guard first <= second else {
            throw StorageError.invalidArgument("a tree of \(first) leaves cannot be a prefix of one of \(second)")
        }
        var proof: [SHA256Digest] = []
        if first > 0 && first < second {
            try appendSubproof(first, start: 0, count: second, whole: true, to: &proof)
        }
        return proof
    }

    private func checkSize(_ size: UInt64) throws(StorageError) {
        guard size <= source.leafCount else {
            throw StorageError.invalidArgument("the tree holds \(source.leafCount) leaves, not \(size)")
        }
    }

    /// MTH(D[start ..< start + count]), where `start` is a multiple of the subtree's largest power of two.
    private mutating func subtree(start: UInt64, count: UInt64) throws(StorageError) -> SHA256Digest {
        if count & (count - 1) == 0 {
            let level = count.trailingZeroBitCount
            nodeReads += 1
            return try source.perfectNode(level: level, index: start >> level)
        }
        let split = Self.largestPowerOfTwo(below: count)
        let left = try subtree(start: start, count: split)
        let right = try subtree(start: start + split, count: count - split)
        hashes += 1
        return MerkleHash.node(left, right)
    }

    /// PATH(m, D[start ..< start + count]), appended bottom first.
    private mutating func appendPath(
        _ m: UInt64, start: UInt64, count: UInt64, to path: inout [SHA256Digest]
    ) throws(StorageError) {
        guard count > 1 else { return }
        let split = Self.largestPowerOfTwo(below: count)
        if m < split {
            try appendPath(m, start: start, count: split, to: &path)
            path.append(try subtree(start: start + split, count: count - split))
        } else {
            try appendPath(m - split, start: start + split, count: count - split, to: &path)
            path.append(try subtree(start: start, count: split))
        }
    }

    /// SUBPROOF(m, D[start ..< start + count], whole), appended bottom first.
    private mutating func appendSubproof(
        _ m: UInt64, start: UInt64, count: UInt64, whole: Bool, to proof: inout [SHA256Digest]
    ) throws(StorageError) {
        if m == count {
            if !whole { proof.append(try subtree(start: start, count: count)) }
            return
        }
        let split = Self.largestPowerOfTwo(below: count)
        if m <= split {
            try appendSubproof(m, start: start, count: split, whole: whole, to: &proof)
            proof.append(try subtree(start: start + split, count: count - split))
        } else {
            try appendSubproof(m - split, start: start + split, count: count - split, whole: false, to: &proof)
            proof.append(try subtree(start: start, count: split))
        }
    }

    /// The largest power of two strictly below `count`, which must be at least 2.
    static func largestPowerOfTwo(below count: UInt64) -> UInt64 {
        UInt64(1) << (63 - (count - 1).leadingZeroBitCount)
    }
}

/// The verification algorithms of RFC 9162 sections 2.1.3.2 and 2.1.4.2: they need only the
/// hashes a proof carries and the tree heads it is checked against, never the log.
public enum MerkleProofCheck {
    /// Whether `path` proves that the leaf whose hash is `leafHash`, at `index` (from 0), is in
    /// the tree of `size` leaves whose root hash is `root` (RFC 9162 section 2.1.3.2).
    public static func inclusion(
        leafHash: SHA256Digest, index: UInt64, size: UInt64, path: [SHA256Digest], root: SHA256Digest
    ) -> Bool {
        guard index < size else { return false }
        var fn = index
        var sn = size - 1
        var r = leafHash
        for p in path {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                r = MerkleHash.node(p, r)
                shiftToOddOrZero(&fn, &sn)
            } else {
                r = MerkleHash.node(r, p)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 && r == root
    }

    /// Whether `proof` shows that the tree of `first` leaves with root `firstRoot` is a prefix of
    /// the tree of `second` leaves with root `secondRoot` (RFC 9162 section 2.1.4.2). The empty
    /// tree is a prefix of every tree, and a tree of itself, with an empty proof.
    public static func consistency(
        first: UInt64, second: UInt64, firstRoot: SHA256Digest, secondRoot: SHA256Digest, proof: [SHA256Digest]
    ) -> Bool {
        guard first <= second else { return false }
        if first == 0 { return proof.isEmpty && (second > 0 || firstRoot == secondRoot) }
        if first == second { return proof.isEmpty && firstRoot == secondRoot }
        guard !proof.isEmpty else { return false }
        var path = proof
        if first & (first - 1) == 0 { path.insert(firstRoot, at: 0) }
        var fn = first - 1
        var sn = second - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var fr = path[0]
        var sr = path[0]
        for c in path.dropFirst() {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                fr = MerkleHash.node(c, fr)
                sr = MerkleHash.node(c, sr)
                shiftToOddOrZero(&fn, &sn)
            } else {
                sr = MerkleHash.node(sr, c)
            }
            fn >>= 1
            sn >>= 1
        }
        return fr == firstRoot && sr == secondRoot && sn == 0
    }

    /// The step both algorithms take after hashing a left sibling: unless `fn` is odd, shift both
    /// until it is, or is 0.
    private static func shiftToOddOrZero(_ fn: inout UInt64, _ sn: inout UInt64) {
        while fn & 1 == 0 && fn != 0 {
            fn >>= 1
            sn >>= 1
        }
    }
}
