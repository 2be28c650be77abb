import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@Suite("contacts-ledger: ledger commands")
struct LedgerCommandsTests {
    @Test("init creates the default ledger and is safe to run again")
    func initTwice() throws {
        let work = WorkDirectory()
        let first = try work.succeed(["init"])
        #expect(first.stdout.hasPrefix("created ledger "))
        #expect(FileManager.default.fileExists(atPath: work.ledger + "/LEDGER"))
        let second = try work.succeed(["init"])
        #expect(second.stdout.contains("already exists"))
        let json = try work.succeed(["init", "--json"]).json()
        #expect(json["created"] == false)
        #expect(json["head"]?["sequence"] == 0)
    }

    @Test("The ledger path comes from --ledger (before or after the command), else $CONTACTS_LEDGER")
    func ledgerPath() throws {
        let work = WorkDirectory()
        try work.succeed(["--ledger", "a.ledger", "init"])
        try work.succeed(["init", "--ledger=b.ledger"])
        let fromEnvironment = try work.run(["init"], environment: ["CONTACTS_LEDGER": work.path + "/c.ledger"])
        #expect(fromEnvironment.status == 0)
        for name in ["a", "b", "c"] {
            #expect(FileManager.default.fileExists(atPath: work.path + "/\(name).ledger/LEDGER"))
        }
        #expect(!FileManager.default.fileExists(atPath: work.ledger))
    }

    @Test("digest and verify on an empty ledger")
    func digestAndVerifyEmpty() throws {
        let work = try WorkDirectory().initLedger()
        let digest = try work.succeed(["digest"])
        #expect(digest.stdout == "0 " + String(repeating: "0", count: 64) + "\n")
        let verify = try work.succeed(["verify"])
        #expect(verify.stdout.hasPrefix("ok: 0 records"))
    }

    @Test("digest names the head, and verify --digest accepts it and refuses a wrong one")
    func digestRoundTrip() throws {
        let work = try WorkDirectory().initLedger()
        _ = try work.add(["--given", "Ada"])
        _ = try work.add(["--given", "Grace"])
        let digest = try work.succeed(["digest"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = digest.split(separator: " ")
        #expect(parts.first == "2")
        let json = try work.succeed(["digest", "--json"]).json()
        #expect(json == ["sequence": 2, "hash": .string(String(parts[1]))])
        try work.succeed(["verify", "--digest", "\(parts[0]):\(parts[1])"])
        let verified = try work.succeed(["verify", "--json"]).json()
        #expect(verified["ok"] == true)
        #expect(verified["records"] == 2)
        #expect(verified["tail"] == "clean")
        let wrong = try work.run(["verify", "--digest", "1:\(parts[1])"])
        expectFailure(wrong, 65, mentioning: "digest mismatch at sequence 1: expected ")
        let beyond = try work.run(["verify", "--digest", "9:\(parts[1])"])
        expectFailure(beyond, 65, mentioning: "before the saved digest")
    }
}

@Suite("contacts-ledger: help")
struct HelpTests {
    static let commands = [
        "demo", "init", "add", "update", "delete", "show", "list", "search", "export", "group create", "group rename",
        "group delete", "group add-member", "group remove-member", "group list", "log", "history", "digest", "verify",
        "recover", "restore", "diff", "replay", "clients", "grant", "revoke", "authorize",
    ]

    @Test("The tool's help lists every command and the exit codes")
    func toolHelp() throws {
        let work = WorkDirectory()
        for arguments in [["--help"], ["-h"]] {
            let help = try work.succeed(arguments)
            for command in Self.commands { #expect(help.stdout.contains("  \(command) "), "\(command)") }
            #expect(help.stdout.contains("Exit codes: 0 success; 1 other failure"))
            #expect(help.stdout.contains("75 ledger locked"))
            #expect(help.stdout.contains("ClientContext.owner"))
        }
        let group = try work.succeed(["group", "--help"])
        #expect(group.stdout.contains("group add-member GROUP CONTACT"))
    }

    @Test("Each command's help has its usage, its options in sentences and the exit codes", arguments: commands)
    func commandHelp(command: String) throws {
        let work = WorkDirectory()
        let help = try work.succeed(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(help.stdout.hasPrefix("Usage: contacts-ledger [--ledger PATH] \(command)"))
        #expect(help.stdout.contains("--ledger PATH"))
        #expect(help.stdout.contains("Exit codes:"))
        #expect(help.stderr.isEmpty)
    }
}
