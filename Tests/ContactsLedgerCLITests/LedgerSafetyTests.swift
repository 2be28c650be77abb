import ContactsLedger
import Foundation
import Testing

/// Where a test plants a link in the tool's ledger, relative to the ledger directory.
enum PlantedEntry: String, CaseIterable, CustomStringConvertible {
    case lock = "LOCK"
    case journal = "journal"
    case snapshots = "snapshots"
    case segment = "journal/00000000000000000001.seg"
    case snapshot = "snapshots/(newest)"
    case identity = "LEDGER"

    var description: String { rawValue }
}

@Suite("contacts-ledger: links planted in a ledger and ledgers open to other users are refused")
struct LedgerSafetyTests {
    /// A ledger made by the tool with one contact (and a snapshot file), and the contact's identifier.
    private func ledgerWithOneContact() throws -> (work: WorkDirectory, identifier: String) {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "Ada"])
        let snapshots = work.ledger + "/snapshots"
        if try FileManager.default.contentsOfDirectory(atPath: snapshots).isEmpty {
            // A snapshot file to plant a link at, should the tool not have left one.
            let reader = try JournalReader(at: work.ledger)
            try SnapshotStore(paths: reader.paths, identity: reader.identity).write(
                sequence: try reader.head().sequence, hash: try reader.head().hash, state: [])
        }
        return (work, identifier)
    }

    /// The path inside the ledger for a planted entry (the newest snapshot for `.snapshot`).
    private func path(of entry: PlantedEntry, in work: WorkDirectory) throws -> String {
        guard entry == .snapshot else { return work.ledger + "/" + entry.rawValue }
        let names = try FileManager.default.contentsOfDirectory(atPath: work.ledger + "/snapshots")
        let newest = try #require(names.filter { $0.hasSuffix(".snap") }.sorted().last)
        return work.ledger + "/snapshots/" + newest
    }

    /// Every file and directory under `directory`, with the bytes of each file.
    private func contents(of directory: String) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            contents[name] = FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
        }
        return contents
    }

    @Test(
        "A link planted after init is refused by add, verify and log with 77; nothing is written outside or lost",
        arguments: PlantedEntry.allCases)
    func plantedLink(entry: PlantedEntry) throws {
        let (work, identifier) = try ledgerWithOneContact()
        let outside = work.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        let path = try path(of: entry, in: work)
        let target = outside + "/planted"
        // LOCK is replaced by a link to a file that does not exist, which opening the lock would
        // create; everything else is moved outside and linked to, so a write would land there.
        if entry == .lock {
            try FileManager.default.removeItem(atPath: path)
        } else {
            try FileManager.default.moveItem(atPath: path, toPath: target)
        }
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let before = try contents(of: outside)
        let named = "contacts.ledger/" + String(path.dropFirst(work.ledger.count + 1)) + " is a symbolic link"

        expectFailure(try work.run(["add", "--given", "Grace"]), 77, mentioning: named)
        expectFailure(try work.run(["verify"]), 77, mentioning: named)
        expectFailure(try work.run(["log"]), 77, mentioning: named)
        expectFailure(try work.run(["list"]), 77, mentioning: named)
        #expect(try contents(of: outside) == before, "something was written through the link")

        try FileManager.default.removeItem(atPath: path)
        if entry != .lock { try FileManager.default.moveItem(atPath: target, toPath: path) }
        try work.succeed(["verify"])
        let list = try work.succeed(["list"])
        #expect(list.lines.count == 1)
        #expect(list.stdout.contains(identifier))
        #expect(!list.stdout.contains("Grace"))
    }

    @Test("A ledger directory 0755 or a segment 0644 is refused with 77, naming the path and the mode")
    func wideModes() throws {
        let (work, identifier) = try ledgerWithOneContact()
        #expect(chmod(work.ledger, 0o755) == 0)
        expectFailure(try work.run(["add", "--given", "Grace"]), 77, mentioning: "contacts.ledger has mode 0755")
        expectFailure(try work.run(["show", identifier]), 77, mentioning: "contacts.ledger has mode 0755")
        #expect(chmod(work.ledger, 0o700) == 0)
        let segment = work.ledger + "/journal/00000000000000000001.seg"
        #expect(chmod(segment, 0o644) == 0)
        expectFailure(try work.run(["verify"]), 77, mentioning: "00000000000000000001.seg has mode 0644")
        expectFailure(try work.run(["add", "--given", "Grace"]), 77, mentioning: "has mode 0644")
        #expect(chmod(segment, 0o600) == 0)
        try work.succeed(["verify"])
        #expect(try work.succeed(["list"]).lines.count == 1)
    }

    @Test("init in an existing empty directory open to others closes it, and the ledger then opens")
    func initClosesDirectory() throws {
        let work = WorkDirectory()
        try FileManager.default.createDirectory(atPath: work.ledger, withIntermediateDirectories: false)
        #expect(chmod(work.ledger, 0o755) == 0)
        try work.succeed(["init"])
        let mode = try FileManager.default.attributesOfItem(atPath: work.ledger)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
        _ = try work.add(["--given", "Ada"])
    }

    @Test("The help lists exit code 77")
    func helpListsNoPermission() throws {
        let help = try WorkDirectory().succeed(["--help"])
        #expect(help.stdout.contains("77 ledger refused: a file or directory in it is a symbolic link"))
    }
}
