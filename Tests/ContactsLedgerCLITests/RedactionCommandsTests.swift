import ContactsLedger
import Foundation
import LedgerAudit
import Testing

/// The values of the contact the tests erase, digits of the phone number included.
private let erasedValues = ["Zebulon", "Quixotic", "Zebby", "zeb@quix.example", "2025550147", "xyzzy secret"]

/// A ledger with Zebulon (added with Alice's record after it, then updated) and Alice; returns the
/// identifiers and the head digest written down before any erasure, as `SEQUENCE:HASH`.
private func erasureLedger() throws -> (work: WorkDirectory, zeb: String, alice: String, digest: String) {
    let work = try WorkDirectory().initLedger()
    let zeb = try work.add([
        "--given", "Zebulon", "--family", "Quixotic", "--email", "home=zeb@quix.example",
        "--phone", "mobile=+1 202 555 0147", "--note", "xyzzy secret",
    ])
    let alice = try work.add(["--given", "Alice", "--family", "Keeper"])
    try work.succeed(["update", zeb, "--nickname", "Zebby"])
    let printed = try work.succeed(["digest"]).stdout.split(separator: " ")
    let digest = "\(printed[0]):\(printed[1].trimmingCharacters(in: .whitespacesAndNewlines))"
    return (work, zeb, alice, digest)
}

/// The files under the ledger that hold any of the erased values, with the value.
private func filesHoldingErasedValues(_ work: WorkDirectory) throws -> [String] {
    var found: [String] = []
    for name in try FileManager.default.subpathsOfDirectory(atPath: work.ledger) {
        let data = FileManager.default.contents(atPath: work.ledger + "/" + name) ?? Data()
        for value in erasedValues where data.range(of: Data(value.utf8)) != nil { found.append("\(name): \(value)") }
    }
    return found
}

@Suite("contacts-ledger: redact and erase")
struct RedactionCommandsTests {
    @Test("erase deletes, redacts every revision, leaves no value in any file; verify passes with the saved digest")
    func erase() throws {
        let (work, zeb, _, digest) = try erasureLedger()
        #expect(try !filesHoldingErasedValues(work).isEmpty)
        let erased = try work.succeed(["erase", zeb, "--reason", "erasure request", "--author", "dpo"])
        #expect(
            erased.lines == [
                "deleted at record 4", "redacted record 1", "redacted record 3", "redacted record 4",
                "recorded at record 5", "head 5",
            ])
        #expect(try filesHoldingErasedValues(work) == [])
        let verified = try work.succeed(["verify", "--digest", digest])
        #expect(
            verified.lines.dropFirst() == [
                "[redacted] record 1: erasure request", "[redacted] record 3: erasure request",
                "[redacted] record 4: erasure request",
            ])
        let json = try work.succeed(["verify", "--json"]).json()
        #expect(
            json["redacted"] == [
                ["sequence": 1, "reason": "erasure request"], ["sequence": 3, "reason": "erasure request"],
                ["sequence": 4, "reason": "erasure request"],
            ])
        let again = try work.succeed(["erase", zeb, "--reason", "erasure request", "--json"]).json()
        #expect(again["redacted"] == [])
        #expect(again["recordedAt"] == .null)
    }

    @Test(
        "Every reader of history shows [redacted] with the reason: log, history, show, diff, export, replay, restore, undelete"
    )
    func historyReaders() throws {
        let (work, zeb, alice, _) = try erasureLedger()
        try work.succeed(["erase", zeb, "--reason", "asked to be forgotten"])
        let log = try work.succeed(["log"]).stdout
        #expect(log.contains("Redacted: [redacted] asked to be forgotten"))
        #expect(log.contains("[redacted] add contact \(zeb)"))
        #expect(log.contains("erase contact \(zeb)'s operations in record 1: asked to be forgotten"))
        let entry = try JSONValue(parsing: try #require(try work.succeed(["log", "--json"]).lines.first))
        #expect(entry["redacted"] == ["reason": "asked to be forgotten"])
        let history = try work.succeed(["history", zeb]).lines
        #expect(history.filter { $0 == "    [redacted] asked to be forgotten" }.count == 3)
        expectFailure(
            try work.run(["show", zeb]), 67, mentioning: "its values were redacted ([redacted] asked to be forgotten)")
        #expect(try work.succeed(["show", zeb, "--as-of", "1"]).lines.last == "  [redacted] asked to be forgotten")
        #expect(
            try work.succeed(["diff", "--from", "0", "--to", "3"]).stdout.contains(
                "    [redacted] asked to be forgotten"))
        let export = try work.succeed(["export", "--as-of", "2"])
        #expect(export.stderr.contains("note: contact \(zeb): [redacted] asked to be forgotten"))
        #expect(!export.stdout.contains("Zebulon"))
        #expect(try work.succeed(["export", "--as-of", "2"]).stdout.contains("Alice"))
        let replay = try work.succeed(["replay", "--check"]).lines
        #expect(replay.contains("[redacted] record 1: asked to be forgotten"))
        #expect(replay.last?.hasPrefix("ok: ") == true)
        try work.succeed(["restore", "--to", work.path + "/restored", "--sequence", "4"])
        let copy = try work.succeed(["--ledger", work.path + "/restored", "verify"]).lines
        #expect(
            copy.contains(
                "[redacted] record 1: asked to be forgotten (the redaction is recorded after this ledger's head)"))
        expectFailure(try work.run(["undelete", zeb]), 1, mentioning: "was redacted")
        #expect(try work.succeed(["show", alice]).stdout.contains("Alice"))
    }

    @Test("Erasing changes no leaf: the checkpoint of the records before it and their proofs stay the same")
    func erasureKeepsTheTree() throws {
        let (work, zeb, _, _) = try erasureLedger()
        let before = try work.succeed(["checkpoint", "--size", "3"]).stdout
        let proof = try work.succeed(["prove", "inclusion", "1", "--size", "3"]).stdout
        let checkpoint = try work.write(before, to: "before.checkpoint")
        try work.succeed(["erase", zeb, "--reason", "erasure request"])
        #expect(try work.succeed(["checkpoint", "--size", "3"]).stdout == before)
        let after = try work.succeed(["prove", "inclusion", "1", "--size", "3"]).stdout
        #expect(after == proof, "the redacted record's leaf, path and root are the ones it had")
        let proofFile = try work.write(after, to: "after.proof")
        try work.succeed(["verify-proof", proofFile, "--checkpoint", checkpoint])
        try work.succeed(["verify-proof", try work.write(proof, to: "before.proof"), "--checkpoint", checkpoint])
    }

    @Test("redact: a current revision is refused, a superseded one is redacted; bad arguments are usage errors")
    func redact() throws {
        let (work, zeb, alice, _) = try erasureLedger()
        expectFailure(try work.run(["redact", "2", "--contact", alice, "--reason", "r"]), 1, mentioning: "current")
        expectFailure(try work.run(["redact", "2"]), 64, mentioning: "--reason")
        expectFailure(try work.run(["redact", "x", "--reason", "r"]), 64)
        expectFailure(try work.run(["redact", "9", "--reason", "r"]), 67, mentioning: "record 9")
        expectFailure(try work.run(["redact", "2", "--contact", zeb, "--reason", "r"]), 67, mentioning: "record 2")
        try work.succeed(["update", zeb, "--nickname", "Zed"])
        let redacted = try work.succeed(["redact", "3", "--contact", zeb, "--reason", "old nickname", "--json"]).json()
        #expect(redacted["redacted"] == [3])
        #expect(redacted["recordedAt"] == 5)
        #expect(try work.succeed(["show", zeb]).stdout.contains("Zed"))
        #expect(try work.succeed(["history", zeb]).lines.contains("    [redacted] old nickname"))
        expectFailure(try work.run(["restore-contact", zeb, "--to", "3"]), 1, mentioning: "[redacted] old nickname")
        expectFailure(try work.run(["restore-contact", zeb, "--to", "2"]), 1, mentioning: "was redacted")
        try work.succeed(["verify"])
        try work.succeed(["replay", "--check"])
    }

    @Test("A failure after the redaction is recorded leaves the records as they were; erase run again finishes")
    func failedRewriteResumes() throws {
        let (work, zeb, _, digest) = try erasureLedger()
        let failed = try work.run(
            ["erase", zeb, "--reason", "r"], environment: ["CONTACTS_LEDGER_TEST_FAULTS": "rename@journal/=EIO"])
        #expect(failed.status != 0)
        #expect(try !filesHoldingErasedValues(work).isEmpty)
        try work.succeed(["verify", "--digest", digest])
        try work.succeed(["erase", zeb, "--reason", "r"])
        #expect(try filesHoldingErasedValues(work) == [])
        try work.succeed(["verify", "--digest", digest])
    }

    @Test(
        "erase killed with SIGKILL at a random moment: the ledger verifies, and erase run again finishes",
        arguments: 0..<4)
    func killed(round: Int) throws {
        let seed = testSeed("erase killed, round \(round)")
        var random = SeededRandom(seed: seed)
        let (work, zeb, _, digest) = try erasureLedger()
        let (process, _, _, _) = try startTool(["erase", zeb, "--reason", "r"], in: work.path)
        usleep(UInt32.random(in: 0...150_000, using: &random))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try work.succeed(["verify", "--digest", digest])
        try work.succeed(["erase", zeb, "--reason", "r"])
        #expect(try filesHoldingErasedValues(work) == [], "seed \(seed)")
        try work.succeed(["verify", "--digest", digest])
    }
}
