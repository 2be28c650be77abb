import Foundation

/// The header of the `TREE` file: how many leaves the file's nodes cover, and the chain hash of
/// the record with that sequence, which ties the file to the journal it was built from.
///
/// Layout (72 bytes, little-endian, as `HEAD`'s with its own magic): magic `CLMERKLE` (8), format version 1 (2), reserved zero (2),
/// ledger id (16), leaf count (8), chain hash of record `leaf count`, or zero for none (32), masked
/// CRC32C of the preceding 68 bytes (4). The nodes and record offsets follow from offset 72
/// (``TreeFileLayout``).
struct TreeFileHeader: Hashable {
    static let magic: [UInt8] = Array("CLMERKLE".utf8)
    static let encodedBytes = HeadMarker.encodedBytes

    /// The ledger the tree belongs to.
    var ledgerID: UUID
    /// The leaf count and the chain hash of the record with that sequence.
    var head: HeadDigest

    func encoded() -> [UInt8] {
        HeadMarker.encode(magic: Self.magic, ledgerID: ledgerID, head: head)
    }

    /// Decodes and checks a header, naming what is wrong when it does not check out.
    static func decode(_ bytes: [UInt8]) -> Result<TreeFileHeader, DecodeFailure> {
        HeadMarker.decode(bytes, magic: magic, name: "TREE").map {
            TreeFileHeader(ledgerID: $0.ledgerID, head: $0.head)
        }
    }
}

/// Where the `TREE` file keeps each node: every perfect subtree's hash, 32 bytes, in the order
/// the subtrees complete as leaves are appended (post-order), each leaf's hash preceded by the
/// offset of its record in its segment (8 bytes), so the file only ever grows at its end.
/// Appending leaf `i` writes its record's offset, its hash, and then the hash of each subtree it
/// completes, lowest first; `k` leaves take `2k − popcount(k)` nodes and `k` offsets.
enum TreeFileLayout {
    static let nodeBytes = 32
    static let offsetBytes = 8

    /// How many nodes the perfect subtrees of `leaves` leaves number.
    static func nodeCount(leaves: UInt64) -> UInt64 {
        2 * leaves - UInt64(leaves.nonzeroBitCount)
    }

    /// The bytes of a file that holds `leaves` leaves, its header included.
    static func fileBytes(leaves: UInt64) -> Int64 {
        Int64(TreeFileHeader.encodedBytes) + Int64(nodeCount(leaves: leaves)) * Int64(nodeBytes)
            + Int64(leaves) * Int64(offsetBytes)
    }

    /// Where the perfect subtree of 2^`level` leaves from leaf `index << level` is: after the
    /// nodes and offsets of the leaves before its last one, that leaf's offset, and its levels below.
    static func offset(level: Int, index: UInt64) -> Int64 {
        let lastLeaf = (index + 1) << level - 1
        return fileBytes(leaves: lastLeaf) + Int64(offsetBytes) + Int64(level) * Int64(nodeBytes)
    }

    /// Where the offset of leaf `leaf`'s record in its segment is.
    static func recordOffset(leaf: UInt64) -> Int64 {
        fileBytes(leaves: leaf)
    }
}
