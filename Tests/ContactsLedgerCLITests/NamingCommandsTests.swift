import ContactsLedger
import Foundation
import Testing

/// A ledger with contacts of chosen identifiers, two of them sharing the prefix AB12CD.
private func prefixLedger() throws -> WorkDirectory {
    let work = try WorkDirectory().initLedger()
    let json = """
        [{"identifier": "AB12CD34-0000-4000-8000-000000000001", "givenName": "Ada"},
         {"identifier": "AB12CD99-0000-4000-8000-000000000002", "givenName": "Alan"},
         {"identifier": "F00D0000-0000-4000-8000-000000000003", "givenName": "Grace"}]
        """
    try work.succeed(["add", "--from-json", "-"], input: Data(json.utf8))
    return work
}

private let ada = "AB12CD34-0000-4000-8000-000000000001"
private let alan = "AB12CD99-0000-4000-8000-000000000002"
private let grace = "F00D0000-0000-4000-8000-000000000003"

@Suite("contacts-ledger: identifiers by prefix and in any case")
struct IdentifierCommandsTests {
    @Test("show, update, history and export take a lowercase identifier or a unique prefix")
    func prefixes() throws {
        let work = try prefixLedger()
        #expect(try work.succeed(["show", "f00d00"]).stdout.contains("Grace"))
        #expect(try work.succeed(["show", ada.lowercased()]).stdout.contains("Ada"))
        let updated = try work.succeed(["update", "ab12cd3", "--job-title", "Analyst"])
        #expect(updated.identifiers(verb: "updated") == [ada])
        #expect(try work.succeed(["history", "ab12cd34"]).stdout.contains("Analyst"))
        #expect(try work.succeed(["export", "ab12cd9"]).stdout.contains("FN:Alan"))
        #expect(try work.succeed(["log", "--contact", "f00d0000"]).stdout.contains(grace))
    }

    @Test("An ambiguous prefix is refused with the candidates; a short one is not a prefix")
    func ambiguous() throws {
        let work = try prefixLedger()
        let run = try work.run(["show", "ab12cd"])
        expectFailure(run, 64, mentioning: "identifier ab12cd is ambiguous")
        #expect(run.stderr.contains("it starts \(ada) (Ada), \(alan) (Alan)"))
        expectFailure(try work.run(["delete", "ab12cd"]), 64, mentioning: "ambiguous")
        expectFailure(try work.run(["show", "f00d0"]), 67, mentioning: "contact f00d0 does not exist")
        #expect(try work.succeed(["list"]).lines.count == 3)
    }

    @Test("group commands take a group's prefix; members take a contact's")
    func groups() throws {
        let work = try prefixLedger()
        let group = try #require(try work.succeed(["group", "create", "Team"]).identifiers(verb: "created").first)
        let prefix = String(group.prefix(8)).lowercased()
        let added = try work.succeed(["group", "add-member", prefix, "f00d00"])
        #expect(added.identifiers(verb: "added-member") == [group, grace])
        try work.succeed(["group", "rename", prefix, "Crew"])
        #expect(try work.succeed(["group", "list"]).stdout.contains("Crew"))
        expectFailure(try work.run(["group", "delete", "00000000"]), 67, mentioning: "group 00000000 does not exist")
        try work.succeed(["group", "delete", prefix])
    }

    @Test("delete, show and export take several identifiers")
    func several() throws {
        let work = try prefixLedger()
        let shown = try work.succeed(["show", "ab12cd3", "f00d00"])
        #expect(shown.stdout.contains("Ada") && shown.stdout.contains("Grace"))
        #expect(shown.lines.contains(""))
        let json = try work.succeed(["show", "ab12cd3", "f00d00", "--json"])
        #expect(json.lines.count == 2)
        let exported = try work.succeed(["export", "ab12cd3", "f00d00"]).stdout
        #expect(exported.components(separatedBy: "BEGIN:VCARD").count == 3)
        expectFailure(try work.run(["show", "ab12cd3", "00000000"]), 67, mentioning: "does not exist")
        expectFailure(try work.run(["delete", "ab12cd3", "00000000"]), 67, mentioning: "not saved")
        #expect(try work.succeed(["list"]).lines.count == 3, "a failed delete of several deletes none")
        let deleted = try work.succeed(["delete", "ab12cd3", "f00d00", ada])
        #expect(deleted.identifiers(verb: "deleted") == [ada, grace])
        #expect(deleted.head == 2, "one record for every contact")
        #expect(try work.succeed(["list"]).lines.count == 1)
        try work.succeed(["undelete", ada.lowercased()])
    }
}

@Suite("contacts-ledger: points in the ledger's history")
struct LedgerPointCommandsTests {
    /// Today's date in local time, as a person types it.
    static func today(offsetDays: Int = 0) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let day = calendar.date(byAdding: .day, value: offsetDays, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    @Test("--as-of takes a sequence, RFC 3339, a local time and a date (its end)")
    func asOf() throws {
        let work = try prefixLedger()
        try work.succeed(["delete", "f00d00"])
        #expect(try work.succeed(["list", "--as-of", "1"]).lines.count == 3)
        #expect(try work.succeed(["list", "--as-of", Self.today()]).lines.count == 2)
        #expect(try work.succeed(["list", "--as-of", Self.today(offsetDays: -1)]).lines.isEmpty)
        #expect(try work.succeed(["list", "--as-of", Self.today(offsetDays: -1) + "T23:59"]).lines.isEmpty)
        #expect(try work.succeed(["list", "--as-of", "2000-01-01T00:00:00Z"]).lines.isEmpty)
        let before = try work.run(["show", grace, "--as-of", Self.today(offsetDays: -1) + " 12:00:30.5"])
        expectFailure(before, 67, mentioning: "does not exist")
    }

    @Test("log --since and --until take a sequence or a date; a date starts --since at its start")
    func logRange() throws {
        let work = try prefixLedger()
        try work.succeed(["delete", "f00d00"])
        try work.succeed(["delete", "ab12cd3"])
        let json = ["log", "--json"]
        #expect(try work.succeed(json + ["--since", "2"]).lines.count == 2)
        #expect(try work.succeed(json + ["--until", "2"]).lines.count == 2)
        #expect(try work.succeed(json + ["--since", "2", "--until", "2"]).lines.count == 1)
        #expect(try work.succeed(json + ["--since", Self.today()]).lines.count == 3)
        #expect(try work.succeed(json + ["--until", Self.today(offsetDays: -1)]).lines.isEmpty)
        #expect(try work.succeed(json + ["--since", Self.today(offsetDays: 1)]).lines.isEmpty)
    }

    @Test("restore, diff, undelete and restore-contact read points the same way")
    func everyPointOption() throws {
        let work = try prefixLedger()
        try work.succeed(["update", "f00d00", "--job-title", "Admiral"])
        try work.succeed(["delete", "ab12cd3"])
        let restored = try work.succeed(["restore", "--to", "restored", "--time", Self.today()])
        #expect(restored.stdout.contains("restored through sequence 3"))
        #expect(try work.succeed(["diff", "--from", "1", "--to", Self.today()]).stdout.contains("Admiral"))
        #expect(try work.succeed(["diff", "--from", Self.today(offsetDays: -1), "--to", "1"]).stdout.contains(grace))
        // At the end of today Ada is deleted, so there is nothing to bring back as of then.
        expectFailure(
            try work.run(["undelete", "ab12cd34", "--as-of", Self.today()]), 67, mentioning: "ab12cd34".uppercased())
        try work.succeed(["undelete", "ab12cd34", "--as-of", "2"])
        expectFailure(
            try work.run(["restore-contact", "f00d00", "--to", Self.today(offsetDays: -1)]), 67, mentioning: grace)
        try work.succeed(["restore-contact", "f00d00", "--to", "1", "--dry-run"])
        // Deleted contacts are found by prefix in the journal, ambiguous ones named.
        try work.succeed(["delete", "ab12cd34", "ab12cd99"])
        expectFailure(try work.run(["undelete", "ab12cd"]), 64, mentioning: "it starts \(ada), \(alan)")
        #expect(try work.succeed(["history", "ab12cd34"]).stdout.contains("deleted"))
    }

    @Test(
        "A point that is none of the forms is a usage error naming them",
        arguments: [
            "2026-02-30", "2026-12-05T25:00", "yesterday", "2026-12-5", "12:30", "2026-12-05T14:30:00.123x",
        ])
    func malformed(_ text: String) throws {
        let work = try prefixLedger()
        expectFailure(try work.run(["list", "--as-of", text]), 64, mentioning: "a local time (2026-12-05T14:30)")
        expectFailure(try work.run(["log", "--since", text]), 64, mentioning: "--since must be")
    }
}

@Suite("contacts-ledger: errors and exit codes")
struct ConventionErrorTests {
    @Test("A saved digest that does not match is a digest mismatch at its sequence")
    func digestMismatch() throws {
        let work = try prefixLedger()
        let head = try work.succeed(["digest"]).stdout.split(separator: " ")
        let wrong = String(repeating: "ab", count: 32)
        let run = try work.run(["verify", "--digest", "1:\(wrong)"])
        expectFailure(
            run, 65,
            mentioning:
                "digest mismatch at sequence 1: expected \(wrong), found \(head[1].trimmingCharacters(in: .newlines))")
        #expect(!run.stderr.contains("corruption"))
    }

    @Test(
        "A missing contact or group exits 67, for every command that names one",
        arguments: [
            ["show", "00000000"], ["update", "00000000", "--given", "X"], ["delete", "00000000"],
            ["history", "00000000"],
            ["export", "00000000"], ["undelete", "00000000-0000-4000-8000-000000000000"],
            ["restore-contact", "00000000-0000-4000-8000-000000000000", "--to", "1"], ["group", "delete", "00000000"],
            ["group", "add-member", "00000000", "f00d00"], ["unlink", "00000000"],
        ])
    func missing(_ arguments: [String]) throws {
        let work = try prefixLedger()
        let run = try work.run(arguments)
        #expect(run.status == 67, "\(arguments): \(run.stderr)")
    }

    @Test("A restore target that cannot be created exits 73")
    func uncreatableRestore() throws {
        let work = try prefixLedger()
        #expect(FileManager.default.createFile(atPath: work.path + "/file", contents: Data()))
        expectFailure(
            try work.run(["restore", "--to", "file/restored", "--sequence", "1"]), 73, mentioning: "cannot create")
        try FileManager.default.createDirectory(atPath: work.path + "/full/x", withIntermediateDirectories: true)
        expectFailure(try work.run(["restore", "--to", "full", "--sequence", "1"]), 73, mentioning: "full")
    }

    @Test("Every exit code the tool returns is in its help and its ExitCode list")
    func documented() throws {
        let help = try WorkDirectory().succeed(["--help"]).stdout
        for code in [0, 1, 64, 65, 66, 67, 73, 74, 75, 77, 79] { #expect(help.contains(" \(code) "), "\(code)") }
        #expect(help.contains("67 no\nsuch contact or group") || help.contains("67 no such contact or group"))
    }
}
