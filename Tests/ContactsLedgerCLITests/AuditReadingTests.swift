import ContactsLedger
import Foundation
import Testing

/// Reading the audit as people do: changes item by item, the newest records first on a terminal,
/// through a pager, followed as they are committed, and a deleted contact explained.
@Suite("contacts-ledger: reading the audit")
struct AuditReadingTests {
    /// A contact with two phones and an email, then one update that changes the given name, adds
    /// a mobile number and removes the home one.
    static func listChange() throws -> (work: WorkDirectory, identifier: String) {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add([
            "--given", "Ada", "--phone", "home=+1 202 555 0199", "--phone", "work=+1 202 555 0123", "--email",
            "work=ada@example.com", "--author", "alice",
        ])
        try work.succeed([
            "update", identifier, "--given", "Augusta", "--add-phone", "mobile=+1 202 555 0100", "--remove-phone",
            "+1 202 555 0199", "--author", "bob",
        ])
        return (work, identifier)
    }

    @Test("log and history print one line per item that came or went, labels by name, values as text")
    func itemLines() throws {
        let (work, identifier) = try Self.listChange()
        let update = [
            "- Given name: Ada", "+ Given name: Augusta", "Phone:", "    - home: +1 202 555 0199",
            "    + mobile: +1 202 555 0100",
        ]
        let log = try work.succeed(["log", "--from", "2"]).lines
        #expect(Array(log.suffix(6)) == ["    update contact \(identifier)"] + update.map { "        " + $0 })
        #expect(!log.contains { $0.contains("work: +1 202 555 0123") || $0.contains("_$!<") })

        let history = try work.succeed(["history", identifier]).lines
        #expect(
            history.dropFirst().prefix(6) == [
                "    + Given name: Ada", "    Phone:", "        + home: +1 202 555 0199",
                "        + work: +1 202 555 0123", "    Email:", "        + work: ada@example.com",
            ])
        #expect(history.contains(""))
        #expect(Array(history.suffix(5)) == update.map { "    " + $0 })
        #expect(history.contains { $0.hasPrefix("record 2  updated  ") && $0.hasSuffix("  by bob") })

        // The JSON keeps the raw form: the whole list on each side, labels as stored.
        let json = try JSONValue(parsing: try #require(work.succeed(["log", "--json", "-n", "1"]).lines.first))
        let phones = json["operations"]?.arrayValue?.first?["changes"]?.arrayValue?.first {
            $0["key"] == "phoneNumbers"
        }
        #expect(phones?["old"]?.arrayValue?.count == 2)
        #expect(phones?["new"]?.arrayValue?.last?["label"] == .string(Label.phoneNumberMobile))
    }

    @Test("-n keeps the newest records; piped, the order is oldest first and --reverse turns it round")
    func limitAndOrder() throws {
        let sample = try SampleHistory()
        #expect(try sample.sequences([]) == [1, 2, 3, 4])
        #expect(try sample.sequences(["--reverse"]) == [4, 3, 2, 1])
        #expect(try sample.sequences(["-n", "2"]) == [3, 4])
        #expect(try sample.sequences(["-n2", "--reverse"]) == [4, 3])
        #expect(try sample.sequences(["--limit", "0"]) == [])
        #expect(try sample.sequences(["--limit=10"]) == [1, 2, 3, 4])
        #expect(try sample.sequences(["-n", "1", "--author", "alice"]) == [4])
        #expect(try sample.sequences(["-n", "1", "--contact", sample.ada]) == [2])
        #expect(try sample.sequences(["-n", "1", "--to", "3"]) == [3])
        #expect(try sample.sequences(["-n", "3", "--from", "3"]) == [3, 4])
        #expect(try sample.sequences(["-n", "5", "--since", sample.times[2]]) == [3, 4])
        #expect(try sample.sequences(["--author", "-n"]) == [])
        let text = try sample.work.succeed(["log", "-n", "1"]).lines
        #expect(text.first?.hasPrefix("record 4 ") == true)
    }

    @Test(
        "log refuses a malformed limit and --follow with an order or an end",
        arguments: [
            (["log", "-n", "many"], "--limit must be a number"), (["log", "-n", "-1"], "--limit must be a number"),
            (["log", "-n"], "--limit needs a value"), (["log", "-x"], "unknown option -x"),
            (["log", "--follow", "--reverse"], "cannot be used with --reverse"),
            (["log", "--follow", "--to", "3"], "cannot be used with --to"),
            (["log", "--follow", "--until", "2024-05-01T09:30:00Z"], "cannot be used with --until"),
        ])
    func refusals(arguments: [String], message: String) throws {
        let work = try WorkDirectory().initLedger()
        expectFailure(try work.run(arguments), 64, mentioning: message)
    }

    /// Runs the tool with its standard output on a terminal (a pseudo-terminal `script` makes),
    /// returning what the terminal showed, without carriage returns.
    static func onTerminal(
        _ work: WorkDirectory, _ arguments: [String], environment: [String: String]
    ) throws
        -> String
    {
        let command = ([try toolPath()] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let result = try runTool(
            ["-qec", command, "/dev/null"], in: work.path, environment: environment, executable: "/usr/bin/script")
        try #require(result.status == 0, "\(arguments) exited \(result.status): \(result.stderr)")
        return result.stdout.replacingOccurrences(of: "\r", with: "")
    }

    @Test(
        "On a terminal log prints newest first through $PAGER, and --reverse, --no-pager and PAGER=cat do as said",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func terminal() throws {
        let sample = try SampleHistory()
        let paged = ["PAGER": "sed s/^/paged:/", "NO_COLOR": "1"]
        let lines = try Self.onTerminal(sample.work, ["log"], environment: paged).split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("paged:") })
        #expect(
            lines.filter { $0.hasPrefix("paged:record ") }.map { $0.split(separator: " ")[1] } == ["4", "3", "2", "1"])

        let reversed = try Self.onTerminal(sample.work, ["log", "--reverse"], environment: paged)
        #expect(reversed.split(separator: "\n").first?.hasPrefix("paged:record 1 ") == true)
        let history = try Self.onTerminal(sample.work, ["history", sample.ada], environment: paged)
        #expect(history.hasPrefix("paged:record 1  created"))

        let direct = try Self.onTerminal(sample.work, ["log", "--no-pager", "-n", "1"], environment: paged)
        #expect(direct.hasPrefix("record 4 "))
        let cat = try Self.onTerminal(sample.work, ["log", "-n", "1"], environment: ["PAGER": "cat", "NO_COLOR": "1"])
        #expect(cat.hasPrefix("record 4 "))
        let coloured = try Self.onTerminal(sample.work, ["log", "-n", "1"], environment: ["PAGER": "cat"])
        #expect(coloured.hasPrefix("\u{1B}[33mrecord 4 "))
    }

    @Test("show of a deleted contact says which record deleted it, when, by whom, and how to bring it back")
    func showDeleted() throws {
        let sample = try SampleHistory()
        let deleted = try sample.work.run(["show", sample.grace])
        expectFailure(
            deleted, 67,
            mentioning:
                "contact \(sample.grace) does not exist: it was deleted at record 4 (\(sample.times[3])) by alice")
        #expect(deleted.stderr.contains("`contacts-ledger undelete \(sample.grace)` brings it back"))
        #expect(deleted.stderr.contains("`contacts-ledger show \(sample.grace) --as-of 3` shows it as it was"))
        #expect(try sample.work.succeed(["show", sample.grace, "--as-of", "3"]).stdout.contains("Grace Hopper"))
        expectFailure(
            try sample.work.run(["show", sample.grace, "--as-of", "4"]), 67, mentioning: "did not exist at that point")
        expectFailure(try sample.work.run(["show", "nobody"]), 67, mentioning: "contact nobody does not exist")

        try sample.work.succeed(["undelete", sample.grace])
        #expect(try sample.work.succeed(["show", sample.grace]).stdout.contains("Grace Hopper"))
    }
}
