import ContactsLedger
import Foundation
import Testing

/// What a write command reports when the disk fills up or fails, the request id it prints, and
/// how running it again with that id settles it (decision 0021). Faults come from the tool's test
/// hook (`CONTACTS_LEDGER_TEST_FAULTS`), and a real full disk from a small tmpfs where the tests
/// may mount one.
@Suite("Save outcomes on the command line: exit codes 74 and 79, request ids, retries")
struct SaveOutcomeCommandTests {
    /// The environment that makes the tool fail these calls.
    static func faults(_ value: String) -> [String: String] { ["CONTACTS_LEDGER_TEST_FAULTS": value] }

    /// Every write to the journal fails with `errno`: the open's zeros, then those the save needs.
    static func diskFails(_ errno: String) -> [String: String] {
        faults("write@journal/=\(errno),write@journal/=\(errno)")
    }

    /// The request id a failure printed (`request ID`), if any.
    static func requestID(in result: ToolRun) -> String? {
        guard let range = result.stderr.range(of: "request ") else { return nil }
        return String(result.stderr[range.upperBound...].prefix(36))
    }

    /// The names `list` prints, after each identifier.
    static func names(_ work: WorkDirectory) throws -> [String] {
        try work.succeed(["list"]).lines.compactMap {
            $0.split(separator: " ", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test("A failed fdatasync exits 79 naming the request id; running the command again with it saves it exactly once")
    func unknownOutcomeThenRetry() throws {
        let work = try WorkDirectory().initLedger()
        _ = try work.add(["--given", "First"])
        let failed = try work.run(
            ["add", "--given", "Uncertain"], environment: Self.faults("synchronizeData@journal/=EIO"))
        expectFailure(failed, 79, mentioning: "outcome unknown for request")
        let id = try #require(Self.requestID(in: failed))
        #expect(UUID(uuidString: id) != nil, "stderr: \(failed.stderr)")
        #expect(failed.stderr.contains("--request-id \(id)"))

        let retried = try work.succeed(["add", "--given", "Uncertain", "--request-id", id])
        #expect(retried.stdout.contains("already committed at sequence 2 by request \(id)"))
        let again = try work.succeed(["add", "--given", "Uncertain", "--request-id", id])
        #expect(again.stdout.contains("already committed"))
        #expect(try Self.names(work).sorted() == ["First", "Uncertain"])
    }

    @Test("A snapshot that cannot be written after the record is durable does not fail the save")
    func snapshotFailureAfterDurability() throws {
        let work = try WorkDirectory().initLedger()
        let faults = "write@snapshots/=ENOSPC,synchronize@snapshots/=EIO,rename@snapshots/=EIO"
        let result = try work.run(["add", "--given", "Kept"], environment: Self.faults(faults))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try Self.names(work) == ["Kept"])
        _ = try work.succeed(["verify"])
    }

    @Test("A delete retried after an unknown outcome is answered from its record, not refused for a missing contact")
    func deleteRetry() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "Gone"])
        let id = UUID().uuidString
        let failed = try work.run(
            ["delete", identifier, "--request-id", id], environment: Self.faults("synchronizeData@journal/=EIO"))
        expectFailure(failed, 79, mentioning: id)
        let retried = try work.succeed(["delete", identifier, "--request-id", id])
        #expect(retried.lines.first == "deleted \(identifier)")
        #expect(retried.stdout.contains("already committed at sequence 2"))
        expectFailure(try work.run(["show", identifier]), 67)
    }

    @Test("No space left, or an I/O error, before anything is written exits 74, names the request, and saves nothing")
    func ioErrorIsNotSaved() throws {
        let work = try WorkDirectory().initLedger()
        _ = try work.add(["--given", "First"])
        for errno in ["ENOSPC", "EIO"] {
            let failed = try work.run(["add", "--given", "Refused"], environment: Self.diskFails(errno))
            expectFailure(failed, 74, mentioning: "not saved")
            let id = try #require(Self.requestID(in: failed))
            #expect(try Self.names(work) == ["First"])
            let retried = try work.succeed(["add", "--given", "Refused", "--request-id", id])
            #expect(!retried.stdout.contains("already committed"))
            #expect(try Self.names(work).sorted() == ["First", "Refused"])
            _ = try work.succeed(["delete", try #require(retried.identifiers(verb: "added").first)])
        }
        let group = try work.run(["group", "create", "Club"], environment: Self.diskFails("ENOSPC"))
        expectFailure(group, 74, mentioning: "not saved")
        #expect(try work.succeed(["group", "list"]).stdout.isEmpty)
    }

    @Test("A failure that is not the disk's names the request too, as not saved")
    func otherFailuresNameTheRequest() throws {
        let work = try WorkDirectory().initLedger()
        let id = UUID().uuidString
        let result = try work.run(["delete", UUID().uuidString, "--request-id", id])
        expectFailure(result, 67, mentioning: "(request \(id) not saved)")
    }

    /// `count` minimal vCards named Card0, Card1, ….
    static func cards(_ count: Int) -> Data {
        Data(
            (0..<count).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Import;Card\($0);;;\r\nFN:Card\($0)\r\nEND:VCARD\r\n" }
                .joined().utf8)
    }

    @Test(
        "An import whose second batch fails prints what it saved and the failed request; run again with its id, each card lands once"
    )
    func interruptedImport() throws {
        let work = try WorkDirectory().initLedger()
        try Self.cards(1_200).write(to: URL(fileURLWithPath: work.path + "/cards.vcf"))
        let base = UUID().uuidString
        let failed = try work.run(
            ["import", "cards.vcf", "--request-id", base],
            environment: Self.faults("synchronizeData@journal/+1=EIO"))
        expectFailure(failed, 79, mentioning: "cards 500-999 of cards.vcf")
        #expect(failed.stderr.contains("--request-id \(base)"))
        #expect(failed.stderr.contains("500 card(s) were saved before it"))
        #expect(failed.identifiers(verb: "added").count == 500)
        #expect(failed.lines.contains { $0.hasPrefix("saved cards.vcf cards 0-499 at sequence 1 by request ") })

        let resumed = try work.succeed(["import", "cards.vcf", "--request-id", base])
        #expect(
            resumed.lines.contains { $0.hasPrefix("already saved cards.vcf cards 0-499 at sequence 1 by request ") })
        #expect(resumed.lines.contains { $0.hasPrefix("saved cards.vcf cards 1000-1199 at sequence 3 by request ") })
        #expect(resumed.lines.contains("imported 1200, rejected 0"))
        let names = try Self.names(work)
        #expect(names.count == 1_200)
        #expect(Set(names).count == 1_200, "a card was saved twice")
    }

    @Test("An import that rejects a card says so without claiming its request was not saved")
    func importRejectionNamesNoRequest() throws {
        let work = try WorkDirectory().initLedger()
        let cards = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Nul;A\u{0}B;;;\r\nFN:A\r\nEND:VCARD\r\n"
        let result = try work.run(
            ["import", "-"], input: Data((cards + String(decoding: Self.cards(1), as: UTF8.self)).utf8))
        expectFailure(result, 65, mentioning: "1 card(s) were not imported")
        #expect(!result.stderr.contains("not saved"))
        #expect(
            result.stdout.contains("rejected - card 0 line 0: validationConfigurationError (302): givenName: a NUL"))
        #expect(result.identifiers(verb: "added").count == 1)
    }

    @Test("A record over the size limit is refused before anything is written: exit 65, naming the limit")
    func recordOverTheLimit() throws {
        let work = try WorkDirectory().initLedger()
        let note = String(repeating: "x", count: JournalLimits.standard.recordBytesMax + 1)
        let json = Data(#"{"givenName": "Huge", "note": "\#(note)"}"#.utf8)
        let result = try work.run(["add", "--from-json", "-"], input: json)
        expectFailure(result, 65, mentioning: "over the limit of \(JournalLimits.standard.recordBytesMax)")
        #expect(try work.succeed(["digest"]).stdout.hasPrefix("0 "))
    }

    @Test("An import file over the limit is refused before it is read (under a memory limit smaller than the file)")
    func importFileOverTheLimit() throws {
        let work = try WorkDirectory().initLedger()
        let path = work.path + "/huge.vcf"
        // Sparse: it takes no room on disk, but reading it whole would take 2 GiB of memory.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let tool = try toolPath()
        let result = try runTool(
            ["-c", "ulimit -v 1048576; exec \"$0\" import huge.vcf", tool], in: work.path,
            environment: ["SHELL": "/bin/sh"], executable: "/bin/sh")
        expectFailure(result, 65, mentioning: "larger than the limit of \(VCardSerialization.dataBytesMax) bytes")
    }

    @Test("NUL in a JSON text, or an identifier that is not a UUID, is refused with its key path")
    func nulAndIdentifiers() throws {
        let work = try WorkDirectory().initLedger()
        let nul = try work.run(["add", "--from-json", "-"], input: Data(#"{"givenName": "a\u0000b"}"#.utf8))
        expectFailure(nul, 65, mentioning: "$.givenName")
        let label = try work.run(
            ["add", "--from-json", "-"],
            input: Data(#"{"emailAddresses": [{"label": "x\u0000", "value": "a@b.example"}]}"#.utf8))
        expectFailure(label, 65, mentioning: "$.emailAddresses[0].label")
        let identifier = try work.run(
            ["add", "--from-json", "-"], input: Data(#"{"identifier": "contact-1", "givenName": "A"}"#.utf8))
        expectFailure(identifier, 65, mentioning: "$.identifier")
        #expect(try work.succeed(["digest"]).stdout.hasPrefix("0 "))
    }

    /// Whether this process may mount a tmpfs (root with the capability to mount, as in CI).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let probe = NSTemporaryDirectory() + "contacts-ledger-mount-probe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]) == 0 else { return false }
        return run("/usr/bin/umount", [probe]) == 0
    }()

    /// Runs a program and returns its exit status, or -1 if it cannot be started.
    static func run(_ program: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Fills the file system at `directory` with a file until no space is left, then gives
    /// `freeBytes` of it back; returns the file's path.
    static func fill(_ directory: String, leaving freeBytes: UInt64) throws -> String {
        let path = directory + "/filler"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        let chunk = Data(count: 64 << 10)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        let size = try handle.seekToEnd()
        try handle.truncate(atOffset: size > freeBytes ? size - freeBytes : 0)
        return path
    }

    @Test(
        "On a really full disk every add exits 0 and is in the ledger, or exits 74 and is not; a retry saves it once",
        .enabled(if: canMountTmpfs))
    func fullDisk() throws {
        let work = try WorkDirectory().initLedger()
        let disk = work.path + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try #require(Self.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", disk]) == 0)
        defer { _ = Self.run("/usr/bin/umount", ["-l", disk]) }
        let ledger = disk + "/contacts.ledger"
        _ = try work.succeed(["--ledger", ledger, "init"])
        _ = try work.succeed(["--ledger", ledger, "add", "--given", "Before"])
        let filler = try Self.fill(disk, leaving: 24 << 10)

        let note = String(repeating: "n", count: 2_000)
        var outcomes: [(given: String, id: String, status: Int32)] = []
        for index in 0..<24 {
            let id = UUID().uuidString
            let given = "Full\(index)"
            let result = try work.run(["--ledger", ledger, "add", "--given", given, "--note", note, "--request-id", id])
            #expect([0, 74, 79].contains(result.status), "\(given) exited \(result.status): \(result.stderr)")
            if result.status != 0 { #expect(result.stderr.contains(id), "stderr: \(result.stderr)") }
            outcomes.append((given, id, result.status))
        }
        try FileManager.default.removeItem(atPath: filler)

        let listed = Set(
            try work.succeed(["--ledger", ledger, "list"]).lines.compactMap { $0.split(separator: " ").last })
        for outcome in outcomes {
            switch outcome.status {
            case 0: #expect(listed.contains(Substring(outcome.given)), "\(outcome.given) exited 0 but is not saved")
            case 74: #expect(!listed.contains(Substring(outcome.given)), "\(outcome.given) exited 74 but is saved")
            default: break
            }
        }
        let statuses = outcomes.map(\.status)
        #expect(statuses.contains(74), "the disk never filled up: \(statuses)")
        let afterFirstRefusal = statuses.drop { $0 != 74 }
        #expect(afterFirstRefusal.contains(0), "no save landed in the zeros left ahead: \(statuses)")
        _ = try work.succeed(["--ledger", ledger, "verify"])

        let refused = try #require(outcomes.first { $0.status == 74 })
        let retried = try work.succeed(
            ["--ledger", ledger, "add", "--given", refused.given, "--request-id", refused.id])
        #expect(!retried.stdout.contains("already committed"))
        let retriedAgain = try work.succeed(
            ["--ledger", ledger, "add", "--given", refused.given, "--request-id", refused.id])
        #expect(retriedAgain.stdout.contains("already committed"))
    }

    @Test("The help lists exit codes 74 and 79")
    func helpListsTheCodes() throws {
        let help = try WorkDirectory().succeed(["--help"]).stdout
        #expect(help.contains("74 I/O error"))
        #expect(help.contains("79 outcome unknown"))
    }
}
