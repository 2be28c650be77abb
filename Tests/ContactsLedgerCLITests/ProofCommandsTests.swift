import ContactsLedger
import Foundation
import Testing

/// The package's root: the directory above this file that holds `Package.swift`.
private func packageRoot() throws -> URL {
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
        let parent = directory.deletingLastPathComponent()
        try #require(parent.path != directory.path, "no Package.swift above \(#filePath)")
        directory = parent
    }
    return directory
}

/// Runs a program to its end with `input`, returning its status and output.
private func runProgram(_ path: String, _ arguments: [String], input: Data = Data()) throws -> ToolRun {
    try runTool(arguments, in: NSTemporaryDirectory(), input: input, executable: path)
}

/// A Python 3 that has pymerkle: Debian's /usr/bin/python3 first (where `.ci/run` installs it),
/// then the first python3 on PATH.
private func pythonWithPymerkle() throws -> String {
    var candidates = ["/usr/bin/python3"]
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        candidates.append(String(directory) + "/python3")
    }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
        if try runProgram(candidate, ["-c", "import pymerkle"]).status == 0 { return candidate }
    }
    Issue.record(
        "no python3 with pymerkle: run `python3 -m pip install pymerkle==7.0.0` (.ci/run does) to check the tree against it"
    )
    throw CocoaError(.executableNotLoadable)
}

/// The ssh-keygen the tests sign and verify with.
private func sshKeygen() throws -> String {
    for candidate in ["/usr/bin/ssh-keygen", "/bin/ssh-keygen", "/usr/local/bin/ssh-keygen"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
        return candidate
    }
    Issue.record("ssh-keygen is missing: install OpenSSH's client (apt-get install -y openssh-client; .ci/run does)")
    throw CocoaError(.executableNotLoadable)
}

extension WorkDirectory {
    /// Adds `count` contacts, one record each.
    func addContacts(_ count: Int, prefix: String = "Person") throws {
        for index in 0..<count { _ = try add(["--given", "\(prefix)\(index)", "--family", "Proof"]) }
    }

    /// The checkpoint of the tree of the first `size` records, written to `name` in this directory.
    @discardableResult
    func checkpoint(_ size: UInt64, to name: String) throws -> String {
        try succeed(["checkpoint", "--size", String(size), "--output", name])
        return path + "/" + name
    }

    /// Writes text to a file in this directory and returns its path.
    func write(_ text: String, to name: String) throws -> String {
        try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
        return path + "/" + name
    }
}

/// Changes the last payload byte of record `sequence` in the ledger's only segment and gives
/// the frame a fresh CRC: an edit only the chain can catch.
private func tamperWithRecord(_ sequence: Int, ledger: String) throws {
    let segment = ledger + "/journal/00000000000000000001.seg"
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
    var offset = 72
    for _ in 1..<sequence {
        offset += 8 + Int(UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16)
    }
    let length = Int(UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16)
    bytes[offset + 8 + length - 1] ^= 0x01
    let crc = CRC32C.mask(
        CRC32C.extend(CRC32C.checksum(bytes[offset..<offset + 4]), Array(bytes[offset + 8..<offset + 8 + length])))
    for index in 0..<4 { bytes[offset + 4 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
    try Data(bytes).write(to: URL(fileURLWithPath: segment))
}

@Suite("contacts-ledger: checkpoints and Merkle proofs")
struct ProofCommandsTests {
    @Test("checkpoint prints the C2SP form: origin, decimal size, base64 root, each line ending in a newline")
    func checkpointForm() throws {
        let work = try WorkDirectory().initLedger()
        try work.addContacts(3)
        let text = try work.succeed(["checkpoint"]).stdout
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 4 && lines[3].isEmpty && text.hasSuffix("\n"))
        #expect(lines[0].hasPrefix("contacts-ledger/") && lines[0].count == "contacts-ledger/".count + 36)
        #expect(lines[1] == "3")
        #expect(Data(base64Encoded: lines[2])?.count == 32)
        let custom = try work.succeed(["checkpoint", "--size", "2", "--origin", "example.com/contacts"]).lines
        #expect(custom[0] == "example.com/contacts" && custom[1] == "2" && custom[2] != lines[2])
        expectFailure(try work.run(["checkpoint", "--size", "4"]), 1, mentioning: "holds 3 records")
        expectFailure(try work.run(["checkpoint", "--origin", "a b"]), 64, mentioning: "--origin")
        expectFailure(try work.run(["checkpoint", "--sign", "key"]), 64, mentioning: "--sign needs")
    }

    @Test("Every head and proof agrees with pymerkle and with RFC 9162's verification written in Python")
    func agreesWithPymerkle() throws {
        let python = try pythonWithPymerkle()
        let work = try WorkDirectory().initLedger()
        try work.addContacts(13)
        var leaves: [JSONValue] = []
        var proofs: [JSONValue] = []
        var checkpoints: [JSONValue] = []
        for sequence in 1...13 {
            let proof = try work.succeed(["prove", "inclusion", String(sequence)]).json()
            leaves.append(try #require(proof["leaf"]))
        }
        for size in 1...13 {
            let lines = try work.succeed(["checkpoint", "--size", String(size)]).lines
            let root = try #require(Data(base64Encoded: lines[2]))
            checkpoints.append([
                "size": .integer(size), "root": .string(root.map { String(format: "%02x", $0) }.joined()),
            ])
            for sequence in 1...size {
                proofs.append(
                    try work.succeed(["prove", "inclusion", String(sequence), "--size", String(size)]).json())
            }
            for first in 0...size {
                proofs.append(try work.succeed(["prove", "consistency", String(first), String(size)]).json())
            }
        }
        let input: JSONValue = ["leaves": .array(leaves), "checkpoints": .array(checkpoints), "proofs": .array(proofs)]
        let script = try packageRoot().appendingPathComponent("Tests/Fixtures/merkle/merkle_peer.py").path
        let peer = try runProgram(python, [script], input: Data(input.serialized().utf8))
        #expect(peer.status == 0, "\(peer.stdout)\(peer.stderr)")
        #expect(peer.stdout == "ok \(13 + proofs.count)\n")
    }

    @Test("verify-proof accepts the ledger's proofs and refuses them against other checkpoints")
    func verifyProof() throws {
        let work = try WorkDirectory().initLedger()
        try work.addContacts(6)
        let six = try work.checkpoint(6, to: "six")
        let four = try work.checkpoint(4, to: "four")
        let inclusion = try work.write(try work.succeed(["prove", "inclusion", "3", "--size", "6"]).stdout, to: "p3")
        let ok = try work.succeed(["verify-proof", inclusion, "--checkpoint", six])
        #expect(ok.stdout.contains("record 3 is in the tree of 6 records of contacts-ledger/"))
        let piped = try work.run(
            ["verify-proof", "-", "--checkpoint", six], input: try Data(contentsOf: URL(fileURLWithPath: inclusion)))
        #expect(piped.status == 0, "\(piped.stderr)")
        let json = try work.succeed(["verify-proof", inclusion, "--checkpoint", six, "--json"]).json()
        #expect(json["ok"] == true)
        expectFailure(
            try work.run(["verify-proof", inclusion, "--checkpoint", four]), 65, mentioning: "tree of 6 records")
        let consistency = try work.write(try work.succeed(["prove", "consistency", "4", "6"]).stdout, to: "c46")
        try work.succeed(["verify-proof", consistency, "--checkpoint", six, "--checkpoint", four])
        expectFailure(
            try work.run(["verify-proof", consistency, "--checkpoint", six, "--checkpoint", four, "--origin", "x/y"]),
            65, mentioning: "x/y")
        expectFailure(
            try work.run(["verify-proof", consistency, "--checkpoint", six]), 65, mentioning: "two checkpoints")
        let bad = try work.write("contacts-ledger/x\n06\nAAAA\n", to: "bad")
        expectFailure(try work.run(["verify-proof", inclusion, "--checkpoint", bad]), 65, mentioning: "leading zeros")
        expectFailure(try work.run(["verify-proof", "missing", "--checkpoint", six]), 66, mentioning: "missing")
        expectFailure(try work.run(["prove", "inclusion", "7"]), 1, mentioning: "not in a tree of 6")
        expectFailure(try work.run(["prove", "inclusion", "0"]), 1)
        expectFailure(try work.run(["prove", "consistency", "5", "4"]), 1, mentioning: "larger")
        expectFailure(try work.run(["prove", "inclusions", "1"]), 64, mentioning: "inclusion")
    }

    @Test("A proof whose leaf or path was changed fails, and so does one for a record edited with a fresh CRC")
    func tamperedRecord() throws {
        let work = try WorkDirectory().initLedger()
        try work.addContacts(8)
        let checkpoint = try work.checkpoint(8, to: "eight")
        let proof = try work.succeed(["prove", "inclusion", "5"]).stdout
        // Another payload digest in the leaf: a record that is not the one the tree holds.
        var value = try JSONValue(parsing: proof)
        var leaf = try #require(value["leaf"]?.stringValue)
        let digestStart = leaf.index(leaf.startIndex, offsetBy: 2 * 40)
        leaf.replaceSubrange(digestStart...digestStart, with: leaf[digestStart] == "0" ? "1" : "0")
        var object = try #require(value.objectValue)
        object["leaf"] = .string(leaf)
        object["leafHash"] = .string(MerkleLeafHash.of(hex: leaf))
        value = .object(object)
        let forged = try work.write(value.serialized(), to: "forged")
        expectFailure(try work.run(["verify-proof", forged, "--checkpoint", checkpoint]), 65, mentioning: "not proven")
        let mismatched = try work.write(
            proof.replacingOccurrences(of: "\"leafHash\":\"", with: "\"leafHash\":\"0"), to: "m")
        expectFailure(try work.run(["verify-proof", mismatched, "--checkpoint", checkpoint]), 65)
        try tamperWithRecord(5, ledger: work.ledger)
        // The chain no longer reaches the head HEAD recorded: no proof is made for the record.
        expectFailure(try work.run(["prove", "inclusion", "5"]), 65, mentioning: "altered")
        expectFailure(try work.run(["checkpoint"]), 65)
    }

    @Test("A forked log, two ledgers that share a prefix and diverge, fails the consistency proof")
    func forkedLog() throws {
        let work = try WorkDirectory().initLedger()
        try work.addContacts(5)
        let fork = work.path + "/fork.ledger"
        try FileManager.default.copyItem(atPath: work.ledger, toPath: fork)
        try work.addContacts(3, prefix: "Main")
        let mainCheckpoint = try work.checkpoint(7, to: "main7")
        for index in 0..<4 { try work.succeed(["--ledger", fork, "add", "--given", "Fork\(index)"]) }
        try work.succeed(["--ledger", fork, "checkpoint", "--output", "fork9"])
        let proof = try work.write(
            try work.succeed(["--ledger", fork, "prove", "consistency", "7", "9"]).stdout, to: "c")
        expectFailure(
            try work.run(["verify-proof", proof, "--checkpoint", mainCheckpoint, "--checkpoint", work.path + "/fork9"]),
            65, mentioning: "forked")
        // The shared prefix is consistent in both.
        let shared = try work.checkpoint(5, to: "main5")
        let prefix = try work.write(
            try work.succeed(["--ledger", fork, "prove", "consistency", "5", "9"]).stdout, to: "p")
        try work.succeed(["verify-proof", prefix, "--checkpoint", shared, "--checkpoint", work.path + "/fork9"])
    }

    @Test("ssh-keygen -Y verify accepts a signed checkpoint and refuses a modified one")
    func signedCheckpoint() throws {
        let keygen = try sshKeygen()
        let work = try WorkDirectory().initLedger()
        try work.addContacts(4)
        let key = work.path + "/id_ed25519"
        let made = try runProgram(keygen, ["-q", "-t", "ed25519", "-N", "", "-C", "ledger", "-f", key])
        try #require(made.status == 0, "\(made.stderr)")
        try work.succeed(["checkpoint", "--output", "cp", "--sign", key])
        let publicKey = try String(contentsOfFile: key + ".pub", encoding: .utf8)
        let signers = try work.write("keeper@example.com " + publicKey, to: "allowed_signers")
        func verify(_ checkpoint: String) throws -> ToolRun {
            try runProgram(
                keygen,
                [
                    "-Y", "verify", "-f", signers, "-I", "keeper@example.com", "-n", "contacts-ledger-checkpoint", "-s",
                    work.path + "/cp.sig",
                ],
                input: Data(checkpoint.utf8))
        }
        let text = try String(contentsOfFile: work.path + "/cp", encoding: .utf8)
        let good = try verify(text)
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(try verify(text.replacingOccurrences(of: "\n4\n", with: "\n5\n")).status != 0)
        let wrongNamespace = try runProgram(
            keygen,
            ["-Y", "verify", "-f", signers, "-I", "keeper@example.com", "-n", "git", "-s", work.path + "/cp.sig"],
            input: Data(text.utf8))
        #expect(wrongNamespace.status != 0)
        expectFailure(
            try work.run(["checkpoint", "--output", "cp2", "--sign", work.path + "/nokey"]), 1,
            mentioning: "no key file")
    }
}

/// The RFC 9162 leaf hash of hex leaf bytes, for forging proofs in the tests.
private enum MerkleLeafHash {
    static func of(hex: String) -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return MerkleHash.leaf(bytes).hex
    }
}
