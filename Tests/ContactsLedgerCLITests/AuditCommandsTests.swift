import ContactsEngine
import ContactsLedger
import Foundation
import LedgerAudit
import Testing

/// A ledger with a known history: 1 add Ada and Grace (author "alice"), 2 update Ada (author
/// "bob"), 3 create a group, 4 delete Grace (author "alice").
struct SampleHistory {
    let work: WorkDirectory
    let ada: String
    let grace: String
    let group: String
    let times: [String]

    init() throws {
        work = try WorkDirectory().initLedger()
        let first = try work.succeed(
            ["add", "--from-json", "-", "--author", "alice", "--json"],
            input: Data(
                #"[{"givenName":"Ada","familyName":"Lovelace"},{"givenName":"Grace","familyName":"Hopper"}]"#.utf8)
        ).json()
        let values = first["identifiers"]?.arrayValue ?? []
        let identifiers = values.compactMap { $0.stringValue }
        try #require(identifiers.count == 2)
        ada = identifiers[0]
        grace = identifiers[1]
        var times = [try #require(first["time"]?.stringValue)]
        Thread.sleep(forTimeInterval: 0.02)
        let second = try work.succeed(["update", ada, "--given", "Augusta Ada", "--author", "bob", "--json"]).json()
        times.append(try #require(second["time"]?.stringValue))
        Thread.sleep(forTimeInterval: 0.02)
        let third = try work.succeed(["group", "create", "Pioneers", "--json"]).json()
        group = try #require(third["identifiers"]?.arrayValue?.first?.stringValue)
        times.append(try #require(third["time"]?.stringValue))
        Thread.sleep(forTimeInterval: 0.02)
        let fourth = try work.succeed(["delete", grace, "--author", "alice", "--json"]).json()
        times.append(try #require(fourth["time"]?.stringValue))
        self.times = times
    }

    /// The sequences of `log --json` output.
    func sequences(_ arguments: [String]) throws -> [Int64] {
        try work.succeed(["log", "--json"] + arguments).lines.map { line in
            try #require(try JSONValue(parsing: line)["sequence"]?.intValue)
        }
    }
}

@Suite("contacts-ledger: audit commands")
struct AuditCommandsTests {
    @Test("log prints every record like git log, and --json one object per line with the contract's keys")
    func log() throws {
        let sample = try SampleHistory()
        let text = try sample.work.succeed(["log"])
        #expect(text.lines.first?.hasPrefix("record 1 ") == true)
        #expect(text.stdout.contains("Author:  bob"))
        #expect(text.stdout.contains("        - Given name: Ada\n        + Given name: Augusta Ada\n"))
        #expect(text.stdout.contains("delete contact \(sample.grace) (Grace Hopper)"))

        let lines = try sample.work.succeed(["log", "--json"]).lines
        #expect(lines.count == 4)
        let events = try lines.map { try JSONValue(parsing: $0) }
        for (index, event) in events.enumerated() {
            #expect(event["sequence"] == .int(Int64(index + 1)))
            #expect(event["time"] == .string(sample.times[index]))
            #expect(event["requestId"]?.stringValue.flatMap(UUID.init(uuidString:)) != nil)
            #expect(event["operations"]?.arrayValue?.isEmpty == false)
        }
        #expect(events[0]["author"] == "alice")
        #expect(events[0]["operations"]?.arrayValue?.map { $0["type"] } == ["addContact", "addContact"])
        #expect(events[0]["operations"]?.arrayValue?.first?["contact"]?["givenName"] == "Ada")
        #expect(
            events[1]["operations"] == [
                [
                    "type": "updateContact", "identifier": .string(sample.ada),
                    "changes": [["key": "givenName", "old": "Ada", "new": "Augusta Ada"]],
                ]
            ])
        #expect(events[2]["author"] == "")
        #expect(events[2]["operations"]?.arrayValue?.first?["type"] == "addGroup")
        #expect(events[3]["operations"]?.arrayValue?.first?["contact"]?["familyName"] == "Hopper")
    }

    @Test("log filters by contact, author, time and sequence; every condition must hold")
    func logFilters() throws {
        let sample = try SampleHistory()
        #expect(try sample.sequences(["--contact", sample.ada]) == [1, 2])
        #expect(try sample.sequences(["--contact", sample.group]) == [3])
        #expect(try sample.sequences(["--author", "alice"]) == [1, 4])
        #expect(try sample.sequences(["--author", "alice", "--contact", sample.ada]) == [1])
        #expect(try sample.sequences(["--from", "2", "--to", "3"]) == [2, 3])
        #expect(try sample.sequences(["--since", sample.times[1]]) == [2, 3, 4])
        #expect(try sample.sequences(["--until", sample.times[1]]) == [1, 2])
        #expect(try sample.sequences(["--since", sample.times[1], "--until", sample.times[2]]) == [2, 3])
        #expect(try sample.sequences(["--author", "nobody"]) == [])
    }

    @Test("history prints one contact's revisions with old and new values, deleted contacts included")
    func history() throws {
        let sample = try SampleHistory()
        let text = try sample.work.succeed(["history", sample.ada])
        #expect(text.lines.first?.hasPrefix("record 1  created  \(sample.times[0])  by alice") == true)
        #expect(text.stdout.contains("    + Given name: Ada\n"))
        #expect(text.stdout.contains("record 2  updated  \(sample.times[1])  by bob"))
        #expect(text.stdout.contains("    - Given name: Ada\n    + Given name: Augusta Ada\n"))

        let revisions = try sample.work.succeed(["history", sample.grace, "--json"]).lines.map {
            try JSONValue(parsing: $0)
        }
        #expect(revisions.map { $0["kind"] } == ["created", "deleted"])
        #expect(revisions.map { $0["sequence"] } == [1, 4])
        let deletion = try #require(revisions.last?["changes"]?.arrayValue)
        #expect(deletion.contains(["key": "familyName", "old": "Hopper", "new": ""]))
        expectFailure(try sample.work.run(["history", "nobody"]), 67, mentioning: "no history")
    }

    @Test("diff prints what was added, changed and deleted between two points")
    func diff() throws {
        let sample = try SampleHistory()
        let text = try sample.work.succeed(["diff", "--from", "1", "--to", "4"])
        #expect(
            text.lines == [
                "changed  \(sample.ada)", "    - Given name: Ada", "    + Given name: Augusta Ada",
                "deleted  \(sample.grace) (Grace Hopper)",
            ])
        let json = try sample.work.succeed(["diff", "--from", "0", "--json"]).json()
        #expect(json["from"] == 0)
        #expect(json["to"] == 4)
        #expect(json["added"]?.arrayValue?.map { $0["identifier"] } == [.string(sample.ada)])
        #expect(json["changed"] == [])
        #expect(json["deleted"] == [])
        let byTime = try sample.work.succeed(["diff", "--from", sample.times[0], "--to", sample.times[1], "--json"])
            .json()
        #expect(byTime["changed"]?.arrayValue?.first?["identifier"] == .string(sample.ada))
        expectFailure(try sample.work.run(["diff", "--from", "1", "--to", "9"]), 1, mentioning: "past the head")
    }

    /// Every file under a directory, with its bytes.
    func snapshot(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    @Test("restore makes a ledger whose digest is the source's at that point; the source is unchanged")
    func restore() throws {
        let sample = try SampleHistory()
        let before = try snapshot(sample.work.ledger)
        let sourceHash = try #require(try JournalReader(at: sample.work.ledger).hash(at: 2))

        let dryRun = try sample.work.succeed(["restore", "--to", "dry", "--sequence", "2", "--dry-run"])
        #expect(dryRun.lines.first == "would restore through sequence 2 into dry")
        #expect(dryRun.stdout.contains("brings back  \(sample.grace) (Grace Hopper)"))
        #expect(!FileManager.default.fileExists(atPath: sample.work.path + "/dry"))

        let restored = try sample.work.succeed(["restore", "--to", "restored", "--sequence", "2"])
        #expect(restored.lines.first == "restored through sequence 2 into restored")
        #expect(restored.lines.dropFirst().first == "head 2 \(sourceHash.hex)")
        let digest = try sample.work.succeed(["--ledger", "restored", "digest"])
        #expect(digest.stdout == "2 \(sourceHash.hex)\n")
        try sample.work.succeed(["--ledger", "restored", "verify", "--digest", "2:\(sourceHash.hex)"])
        try sample.work.succeed(["verify", "--digest", "2:\(sourceHash.hex)"])
        #expect(
            try sample.work.succeed(["--ledger", "restored", "list", "--sort", "given"]).lines == [
                "\(sample.ada)  Augusta Ada Lovelace", "\(sample.grace)  Grace Hopper",
            ])

        let byTime = try sample.work.succeed(["restore", "--to", "by-time", "--time", sample.times[0], "--json"]).json()
        #expect(byTime["sequence"] == 1)
        #expect(byTime["dryRun"] == false)
        #expect(
            byTime["head"]?["hash"] == .string(try #require(try JournalReader(at: sample.work.ledger).hash(at: 1)).hex))

        #expect(try snapshot(sample.work.ledger) == before)
        // The restored ledger is a ledger of its own: it takes writes.
        try sample.work.succeed(["--ledger", "restored", "add", "--given", "New"])
        #expect(try snapshot(sample.work.ledger) == before)

        expectFailure(
            try sample.work.run(["restore", "--to", "restored", "--sequence", "1"]), 73, mentioning: "restored")
        expectFailure(try sample.work.run(["restore", "--to", "x", "--sequence", "9"]), 1, mentioning: "past the head")
    }

    @Test("replay --check re-executes every request against a scratch store and finds them equal")
    func replay() throws {
        let sample = try SampleHistory()
        let before = try snapshot(sample.work.ledger)
        let check = try sample.work.succeed(["replay", "--check"])
        #expect(check.stdout.hasPrefix("ok: 4 records re-executed"))
        let json = try sample.work.succeed(["replay", "--check", "--to", "scratch", "--json"]).json()
        #expect(json == ["ok": true, "recordsMatched": 4, "divergence": nil])
        #expect(FileManager.default.fileExists(atPath: sample.work.path + "/scratch/LEDGER"))
        expectFailure(try sample.work.run(["replay", "--check", "--to", "scratch"]), 73)
        #expect(try snapshot(sample.work.ledger) == before)
    }

    @Test("A record whose effects replay does not reproduce fails verify and replay --check with 65")
    func inconsistentRecord() async throws {
        let work = try WorkDirectory().initLedger()
        _ = try work.add(["--given", "Real"])
        // A well-formed, correctly chained record that updates a contact that never existed.
        var new = ContactValues()
        new.givenName = "Ghost"
        let event = LedgerEvent(operations: [
            .updateContact(identifier: "ghost", keys: [.givenName], old: ContactValues(), new: new)
        ])
        let journal = try Journal.open(at: work.ledger)
        _ = try await journal.append(
            JournalEntry(
                author: "forger", schemaVersion: EventCodec.currentSchemaVersion, payload: EventCodec.encode(event)))
        journal.close()
        expectFailure(try work.run(["verify"]), 65, mentioning: "updates missing contact ghost")
        expectFailure(try work.run(["replay", "--check"]), 65, mentioning: "record 2")
    }

    @Test("recover reports a clean journal, truncates a torn tail, and refuses mid-journal damage")
    func recover() throws {
        let work = try WorkDirectory().initLedger()
        for name in ["A", "B", "C"] { _ = try work.add(["--given", name]) }
        #expect(try work.succeed(["recover"]).lines.last == "nothing to repair")

        // A torn final record: a frame header that promises more bytes than follow.
        let journal = work.ledger + "/journal"
        let segment = journal + "/" + (try FileManager.default.contentsOfDirectory(atPath: journal).sorted().last!)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([200, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7]))
        try handle.close()
        #expect(try work.succeed(["verify"]).stdout.contains("note: torn final record"))
        let recovered = try work.succeed(["recover", "--json"]).json()
        #expect(recovered["truncatedBytes"] == 11)
        #expect(recovered["repaired"] == true)
        #expect(recovered["head"]?["sequence"] == 3)
        #expect(recovered["contacts"] == 3)
        #expect(try work.succeed(["verify", "--json"]).json()["tail"] == "clean")
        #expect(try work.succeed(["recover"]).lines.last == "nothing to repair")

        let holder = try ContactStore(ledgerAt: work.ledger, client: .fullAccess("test"), create: false)
        expectFailure(try work.run(["recover", "--wait", "0.1"]), 75)
        holder.close()
    }

    @Test("recover --salvage copies every record before mid-journal damage into a new ledger, with a report")
    func salvage() throws {
        let work = try makeCorruptLedger()
        let before = try snapshot(work.ledger)
        expectFailure(try work.run(["recover"]), 65, mentioning: "journal corruption")
        let salvage = try work.succeed(["recover", "--salvage", "--to", "salvaged", "--json"]).json()
        #expect(salvage["recordsCopied"] == 4)
        #expect(salvage["head"]?["sequence"] == 4)
        #expect(salvage["damage"]?.stringValue?.contains("journal/") == true)
        let report = try String(contentsOfFile: work.path + "/salvaged/SALVAGE-REPORT.txt", encoding: .utf8)
        #expect(report.contains("records copied: 4"))
        #expect(try work.succeed(["--ledger", "salvaged", "list"]).lines.count == 4)
        try work.succeed(["--ledger", "salvaged", "verify"])
        #expect(try snapshot(work.ledger) == before)
        expectFailure(try work.run(["recover", "--salvage", "--to", "salvaged"]), 73)
    }

    @Test("A flipped bit in the last acknowledged record is corruption to every command; salvage names the loss")
    func damagedDurableTail() throws {
        let work = try WorkDirectory().initLedger()
        _ = try work.add(["--given", "A"])
        _ = try work.add(["--given", "B"])
        let journal = work.ledger + "/journal"
        let segment = journal + "/" + (try FileManager.default.contentsOfDirectory(atPath: journal).sorted().last!)
        var data = try Data(contentsOf: URL(fileURLWithPath: segment))
        data[data.count - 5] ^= 0x01
        try data.write(to: URL(fileURLWithPath: segment))
        let before = try snapshot(work.ledger)
        let lost = "records 2 through 2 were acknowledged and are lost"
        expectFailure(try work.run(["verify"]), 65, mentioning: lost)
        expectFailure(try work.run(["add", "--given", "C"]), 65, mentioning: "HEAD records sequence 2 as durable")
        expectFailure(try work.run(["list"]), 65, mentioning: lost)
        expectFailure(try work.run(["recover"]), 65, mentioning: lost)
        #expect(try snapshot(work.ledger) == before, "nothing was truncated or written")

        let salvage = try work.succeed(["recover", "--salvage", "--to", "salvaged", "--json"]).json()
        #expect(salvage["recordsCopied"] == 1)
        #expect(salvage["damage"]?.stringValue?.contains(lost) == true)
        let report = try String(contentsOfFile: work.path + "/salvaged/SALVAGE-REPORT.txt", encoding: .utf8)
        #expect(report.contains(lost))
        #expect(try work.succeed(["--ledger", "salvaged", "list"]).stdout.contains("A"))
        let added = try work.succeed(["--ledger", "salvaged", "add", "--given", "C", "--json"]).json()
        #expect(added["sequence"] == 2)
    }

    @Test("demo runs the main job on a new ledger, and again on the same one")
    func demo() throws {
        let work = WorkDirectory()
        let first = try work.succeed(["demo"])
        #expect(first.stdout.contains("created an empty ledger"))
        #expect(first.stdout.contains("(equal to the source's digest at 3)"))
        #expect(first.stdout.contains("- Job title: Captain\n    + Job title: Rear Admiral\n"))
        #expect(first.stdout.contains("deleted  "))
        let second = try work.succeed(["demo"])
        #expect(second.stdout.contains("opened; head 4"))
        #expect(second.stdout.contains("(equal to the source's digest at 7)"))
        try work.succeed(["verify"])
        try work.succeed(["--ledger", "contacts.ledger.restored-at-3", "verify"])
        try work.succeed(["--ledger", "contacts.ledger.restored-at-7", "verify"])
        #expect(try work.succeed(["log", "--json"]).lines.count == 8)
    }

    @Test(
        "The audit commands' usage errors exit 64",
        arguments: [
            (["restore", "--sequence", "1"], "--to DIR"),
            (["restore", "--to", "x"], "exactly one of --sequence and --time"),
            (["restore", "--to", "x", "--sequence", "1", "--time", "2024-01-01T00:00:00Z"], "exactly one of"),
            (["restore", "--to", "x", "--time", "noon"], "--time must be an RFC 3339 time"),
            (["replay"], "replay needs --check"),
            (["recover", "--to", "x"], "--to is for --salvage"),
            (["recover", "--salvage"], "--salvage needs --to DIR"),
            (["log", "--since", "today"], "--since must be a sequence number, an RFC 3339 time"),
            (["log", "--from", "one"], "--from must be a sequence number"),
            (["diff"], "diff needs --from"),
            (["history"], "missing ID"),
        ] as [([String], String)])
    func usage(arguments: [String], message: String) throws {
        let work = try WorkDirectory().initLedger()
        expectFailure(try work.run(arguments), 64, mentioning: message)
    }

    @Test(
        "The audit commands exit 66 without a ledger",
        arguments: [
            ["log"], ["history", "X"], ["diff", "--from", "0"], ["restore", "--to", "r", "--sequence", "0"],
            ["replay", "--check"], ["recover"], ["recover", "--salvage", "--to", "s"],
        ])
    func missingLedger(arguments: [String]) throws {
        let work = WorkDirectory()
        expectFailure(try work.run(arguments), 66, mentioning: "not a ledger")
    }
}
