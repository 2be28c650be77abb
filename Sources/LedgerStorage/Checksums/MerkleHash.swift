/// The two hashes of an RFC 9162 (section 2.1) Merkle tree over SHA-256: a leaf is hashed after a
/// 0x00 byte and an interior node after a 0x01 byte, so that no leaf can pass for a node.
public enum MerkleHash {
    /// The hash of the empty tree: SHA-256 of no bytes.
    public static let emptyTree: SHA256Digest = SHA256.hash([])

    /// SHA-256(0x00 ‖ leaf).
    public static func leaf(_ bytes: [UInt8]) -> SHA256Digest {
        var hasher = SHA256()
        bytes.withUnsafeBytes { raw in
            withUnsafeBytes(of: UInt8(0)) { hasher.update($0) }
            hasher.update(raw)
        }
        return hasher.finalize()
    }

    /// SHA-256(0x01 ‖ left ‖ right).
    public static func node(_ left: SHA256Digest, _ right: SHA256Digest) -> SHA256Digest {
        // The 65 bytes on the stack: a proof or a tree update hashes many nodes.
        withUnsafeTemporaryAllocation(byteCount: 65, alignment: 8) { buffer in
            buffer.storeBytes(of: UInt8(1), toByteOffset: 0, as: UInt8.self)
            left.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[1..<33]).copyMemory(from: $0) }
            right.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[33..<65]).copyMemory(from: $0) }
            return SHA256.hash(UnsafeRawBufferPointer(buffer))
        }
    }
}
