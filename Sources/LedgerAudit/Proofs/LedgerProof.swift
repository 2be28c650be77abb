import ContactsLedger
import LedgerStorage

/// An inclusion or a consistency proof as `prove` prints it and `verify-proof` reads it: JSON
/// whose hashes are lowercase hex.
///
/// Inclusion: `{"proof": "inclusion", "sequence", "leafIndex", "treeSize", "leaf", "leafHash",
/// "path", "rootHash"}`, where `leaf` is the record's leaf bytes (``MerkleLeaf``).
/// Consistency: `{"proof": "consistency", "firstSize", "secondSize", "firstRootHash",
/// "secondRootHash", "path"}`.
public enum LedgerProof: Sendable, Hashable {
    /// That a record is in a tree.
    case inclusion(MerkleInclusionProof)
    /// That one tree is a prefix of another.
    case consistency(MerkleConsistencyProof)

    /// The proof as JSON.
    public var json: JSONValue {
        switch self {
        case .inclusion(let proof):
            [
                "proof": "inclusion", "sequence": .integer(proof.leaf.sequence), "leafIndex": .integer(proof.leafIndex),
                "treeSize": .integer(proof.treeSize), "leaf": .string(HexText.text(proof.leaf.bytes)),
                "leafHash": .string(proof.leaf.hash.hex), "path": .array(proof.path.map { .string($0.hex) }),
                "rootHash": .string(proof.rootHash.hex),
            ]
        case .consistency(let proof):
            [
                "proof": "consistency", "firstSize": .integer(proof.firstSize),
                "secondSize": .integer(proof.secondSize), "firstRootHash": .string(proof.firstRootHash.hex),
                "secondRootHash": .string(proof.secondRootHash.hex), "path": .array(proof.path.map { .string($0.hex) }),
            ]
        }
    }

    /// Reads a proof's JSON, naming the field that is missing or wrong.
    public init(parsing text: String) throws(ProofError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw ProofError("the proof is not JSON: \(error)")
        }
        let fields = ProofFields(value)
        switch value["proof"]?.stringValue {
        case "inclusion": self = .inclusion(try Self.inclusion(fields))
        case "consistency": self = .consistency(try Self.consistency(fields))
        default: throw ProofError("the proof's \"proof\" field must be \"inclusion\" or \"consistency\"")
        }
    }

    private static func inclusion(_ fields: ProofFields) throws(ProofError) -> MerkleInclusionProof {
        let leafBytes = try fields.bytes("leaf")
        let leaf: MerkleLeaf
        do {
            leaf = try MerkleLeaf(decoding: leafBytes)
        } catch {
            throw ProofError("the proof's leaf is not a record's leaf: \(error)")
        }
        let sequence = try fields.size("sequence")
        guard leaf.sequence == sequence, try fields.size("leafIndex") == sequence &- 1, sequence > 0 else {
            throw ProofError("the proof's sequence, leaf index and leaf do not name the same record")
        }
        guard try fields.digest("leafHash") == leaf.hash else {
            throw ProofError("the proof's leafHash is not the hash of its leaf")
        }
        return MerkleInclusionProof(
            leaf: leaf, treeSize: try fields.size("treeSize"), path: try fields.path(),
            rootHash: try fields.digest("rootHash"))
    }

    private static func consistency(_ fields: ProofFields) throws(ProofError) -> MerkleConsistencyProof {
        MerkleConsistencyProof(
            firstSize: try fields.size("firstSize"), secondSize: try fields.size("secondSize"),
            firstRootHash: try fields.digest("firstRootHash"), secondRootHash: try fields.digest("secondRootHash"),
            path: try fields.path())
    }
}

/// The typed fields of a proof's JSON object.
private struct ProofFields {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    func size(_ key: String) throws(ProofError) -> UInt64 {
        guard let number = value[key]?.intValue, number >= 0 else {
            throw ProofError("the proof's \"\(key)\" must be a whole number, at least 0")
        }
        return UInt64(number)
    }

    func digest(_ key: String) throws(ProofError) -> SHA256Digest {
        guard let text = value[key]?.stringValue, let digest = SHA256Digest(hex: text) else {
            throw ProofError("the proof's \"\(key)\" must be 64 hex digits")
        }
        return digest
    }

    func bytes(_ key: String) throws(ProofError) -> [UInt8] {
        guard let text = value[key]?.stringValue, let bytes = HexText.bytes(text) else {
            throw ProofError("the proof's \"\(key)\" must be hex digits")
        }
        return bytes
    }

    func path() throws(ProofError) -> [SHA256Digest] {
        guard let items = value["path"]?.arrayValue, items.count <= 128 else {
            throw ProofError("the proof's \"path\" must be an array of at most 128 hashes")
        }
        var path: [SHA256Digest] = []
        for item in items {
            guard let text = item.stringValue, let digest = SHA256Digest(hex: text) else {
                throw ProofError("the proof's \"path\" holds \(item.serialized()), not 64 hex digits")
            }
            path.append(digest)
        }
        return path
    }
}
