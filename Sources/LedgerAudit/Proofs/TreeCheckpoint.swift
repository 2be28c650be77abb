import ContactsLedger
import Foundation

/// A tree head in the C2SP tlog-checkpoint form: the origin line, the tree size in decimal and the
/// root hash in standard base64, each ending in a newline, then any extension lines.
///
/// This is the body of a signed note; the ledger signs it with an SSH key instead
/// (``CheckpointSigning``), so a parsed checkpoint ends at its last line or at the blank line
/// before a note's signatures.
public struct TreeCheckpoint: Sendable, Hashable {
    /// The log's name: by default `contacts-ledger/` and the ledger's id.
    public var origin: String
    /// The tree's size, in records.
    public var size: UInt64
    /// MTH(D[size]).
    public var rootHash: SHA256Digest
    /// Lines after the root hash, kept as they were read.
    public var extensions: [String]

    /// Creates a checkpoint.
    public init(origin: String, size: UInt64, rootHash: SHA256Digest, extensions: [String] = []) {
        self.origin = origin
        self.size = size
        self.rootHash = rootHash
        self.extensions = extensions
    }

    /// The origin a ledger's checkpoints carry unless another is given.
    public static func defaultOrigin(ledgerID: UUID) -> String {
        "contacts-ledger/" + ledgerID.uuidString.lowercased()
    }

    /// Whether `origin` can be an origin line: not empty, no white space, no `+` (C2SP).
    public static func isValidOrigin(_ origin: String) -> Bool {
        !origin.isEmpty && !origin.unicodeScalars.contains { $0 == "+" || $0.properties.isWhitespace }
    }

    /// The checkpoint's text, every line ending in a newline.
    public var text: String {
        let root = Data(rootHash.bytes).base64EncodedString()
        return ([origin, String(size), root] + extensions).map { $0 + "\n" }.joined()
    }

    /// Reads a checkpoint's text, naming the line that is wrong.
    public init(parsing text: String) throws(ProofError) {
        guard text.hasSuffix("\n") else { throw ProofError("a checkpoint's last line must end in a newline") }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        if let blank = lines.firstIndex(of: "") { lines = Array(lines[..<blank]) }
        guard lines.count >= 3 else {
            throw ProofError(
                "a checkpoint has an origin line, a tree size line and a root hash line; this has \(lines.count)")
        }
        guard Self.isValidOrigin(lines[0]) else {
            throw ProofError("the checkpoint's origin line \"\(lines[0])\" is empty or holds a space or a +")
        }
        let sizeLine = lines[1]
        guard let size = UInt64(sizeLine), sizeLine.allSatisfy(\.isASCII), sizeLine == String(size) else {
            throw ProofError("the checkpoint's tree size \"\(sizeLine)\" is not a decimal number without leading zeros")
        }
        guard let data = Data(base64Encoded: lines[2]), data.count == 32, data.base64EncodedString() == lines[2] else {
            throw ProofError("the checkpoint's root hash \"\(lines[2])\" is not 32 bytes in standard base64")
        }
        self.init(
            origin: lines[0], size: size, rootHash: SHA256Digest(bytes: Array(data)[...]),
            extensions: Array(lines[3...]))
    }
}
