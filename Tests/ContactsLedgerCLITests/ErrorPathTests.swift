import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@Suite("contacts-ledger: error paths and exit codes")
struct ErrorPathTests {
    @Test(
        "A bad command line exits 64 with the error and the usage line",
        arguments: [
            (["frobnicate"], "unknown command frobnicate"),
            ([], "no command given"),
            (["--frob", "list"], "unknown option --frob"),
            (["list", "--frob"], "unknown option --frob"),
            (["list", "-x"], "unknown option -x"),
            (["list", "extra"], "unexpected argument extra"),
            (["show"], "missing ID"),
            (["history", "a", "b"], "unexpected argument b"),
            (["--wait", "soon", "list"], "--wait must be a number"),
            (["add", "--given", "A", "--wait", "-1"], "--wait must be a number"),
            (["list", "--ledger"], "--ledger needs a value"),
            (["list", "--sort", "age"], "--sort must be"),
            (["list", "--as-of", "yesterday"], "--as-of must be a sequence number, an RFC 3339 time"),
            (["search"], "exactly one of"),
            (["search", "--name", "a", "--email", "b"], "exactly one of"),
            (["add"], "at least one property"),
            (["add", "--given", "A", "--from-json", "x.json"], "cannot be combined"),
            (["add", "--given", "A", "--given", "B"], "only once"),
            (["add", "--given", "A", "--request-id", "42"], "--request-id must be a UUID"),
            (["add", "--given", "A", "--birthday", "May 5"], "--birthday must be"),
            (["add", "--given", "A", "--type", "robot"], "--type must be"),
            (["add", "--given", "A", "--phone", "mobile="], "LABEL=VALUE"),
            (["add", "--json=yes", "--given", "A"], "--json takes no value"),
            (["update", "X"], "needs something to change"),
            (["update", "X", "--clear", "shoe-size"], "--clear takes one of"),
            (["update", "X", "--given", "A", "--clear", "given"], "both set and cleared"),
            (["verify", "--digest", "zz"], "--digest must be SEQUENCE:HASH"),
        ] as [([String], String)])
    func usage(arguments: [String], message: String) throws {
        let work = try WorkDirectory().initLedger()
        expectFailure(try work.run(arguments), 64, mentioning: message)
    }

    @Test(
        "A missing ledger exits 66 and is never created by accident",
        arguments: [
            ["list"], ["show", "X"], ["search", "--name", "a"], ["add", "--given", "A"],
            ["update", "X", "--given", "A"],
            ["delete", "X"], ["group", "create", "G"], ["group", "list"], ["digest"], ["verify"],
        ])
    func missingLedger(arguments: [String]) throws {
        let work = WorkDirectory()
        expectFailure(try work.run(arguments), 66, mentioning: "not a ledger")
        expectFailure(try work.run(["--ledger", work.path + "/nope"] + arguments), 66, mentioning: "nope")
        #expect(!FileManager.default.fileExists(atPath: work.ledger))
    }

    @Test("A missing --from-json file exits 66")
    func missingInput() throws {
        let work = try WorkDirectory().initLedger()
        expectFailure(try work.run(["add", "--from-json", "absent.json"]), 66, mentioning: "absent.json")
    }

    @Test("A ledger locked by another writer exits 75 after --wait")
    func locked() throws {
        let work = try WorkDirectory().initLedger()
        let holder = try ContactStore(ledgerAt: work.ledger, client: .fullAccess("test"), create: false)
        defer { holder.close() }
        let start = Date()
        let result = try work.run(["add", "--given", "Blocked", "--wait", "0.2"])
        expectFailure(result, 75, mentioning: "locked")
        #expect(Date().timeIntervalSince(start) >= 0.2)
        expectFailure(try work.run(["--wait", "0", "group", "create", "G"]), 75)
        // Readers need no lock.
        try work.succeed(["list"])
        try work.succeed(["verify"])
    }

    @Test("A write waits for the lock and succeeds once the other writer is done")
    func waitsForLock() throws {
        let work = try WorkDirectory().initLedger()
        let holder = try ContactStore(ledgerAt: work.ledger, client: .fullAccess("test"), create: false)
        let release = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            holder.close()
        }
        release.start()
        let result = try work.run(["add", "--given", "Patient", "--wait", "20"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("A corrupt journal exits 65 naming the segment and offset, for verify, reads and writes")
    func corruption() throws {
        let work = try makeCorruptLedger()
        let verify = try work.run(["verify"])
        expectFailure(verify, 65, mentioning: "journal corruption in journal/")
        #expect(verify.stderr.contains("at offset"))
        expectFailure(try work.run(["list"]), 65, mentioning: "journal corruption")
        expectFailure(try work.run(["show", "X"]), 65, mentioning: "journal corruption")
        expectFailure(try work.run(["add", "--given", "More"]), 65, mentioning: "journal corruption")
        expectFailure(try work.run(["init"]), 65, mentioning: "journal corruption")
    }

    @Test(
        "Malformed --from-json input exits 65 naming the byte offset or key path",
        arguments: [
            (#"{"givenName": "A",}"#, "at byte 18"),
            (#"{"givenName": 7}"#, "$.givenName: expected a string"),
            (#"{"shoeSize": 44}"#, "unknown key \"shoeSize\""),
            (#"{"phoneNumbers": [{"value": 5}]}"#, "$.phoneNumbers[0].value"),
            ("", "at byte 0"),
            ("[]", "holds no contacts"),
        ])
    func malformedJSON(text: String, message: String) throws {
        let work = try WorkDirectory().initLedger()
        expectFailure(try work.run(["add", "--from-json", "-"], input: Data(text.utf8)), 65, mentioning: message)
        #expect(try work.succeed(["digest"]).stdout.hasPrefix("0 "))
    }

    @Test("A value the store refuses exits 65 with the store's reason, and nothing is written")
    func validation() throws {
        let work = try WorkDirectory().initLedger()
        expectFailure(try work.run(["add", "--given", "A", "--birthday", "2023-02-30"]), 65, mentioning: "birthday")
        expectFailure(try work.run(["add", "--given", "A", "--phone", "mobile=   "]), 65, mentioning: "phone")
        #expect(try work.succeed(["digest"]).stdout.hasPrefix("0 "))
    }

    @Test("init where a non-empty directory that is not a ledger exists exits 73")
    func cannotCreate() throws {
        let work = WorkDirectory()
        try FileManager.default.createDirectory(atPath: work.ledger, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: work.ledger + "/notes.txt"))
        expectFailure(try work.run(["init"]), 73, mentioning: "already exists")
        // An empty directory is fine.
        try FileManager.default.createDirectory(atPath: work.path + "/empty", withIntermediateDirectories: true)
        try work.succeed(["--ledger", "empty", "init"])
    }

    @Test(
        "A contact that does not exist exits 67",
        arguments: [["show", "X"], ["update", "X", "--given", "A"], ["delete", "X"]])
    func missingContact(arguments: [String]) throws {
        let work = try WorkDirectory().initLedger()
        expectFailure(try work.run(arguments), 67, mentioning: "contact X does not exist")
    }
}
