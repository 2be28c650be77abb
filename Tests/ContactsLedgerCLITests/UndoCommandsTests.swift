import ContactsLedger
import Foundation
import LedgerAudit
import Testing

/// Every file of a ledger and its bytes, to show that a command wrote nothing.
private func ledgerFiles(_ work: WorkDirectory) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.subpathsOfDirectory(atPath: work.ledger) {
        var isDirectory: ObjCBool = false
        let path = work.ledger + "/" + name
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
    return files
}

/// A ledger with Ada in a group, then Ada updated: the sequences of the update and the head.
private func undoLedger() throws -> (work: WorkDirectory, ada: String, group: String, updated: UInt64) {
    let work = try WorkDirectory().initLedger()
    let ada = try work.add(["--given", "Ada", "--family", "Lovelace", "--phone", "mobile=+44 20 7946 0958"])
    let group = try #require(try work.succeed(["group", "create", "Club"]).identifiers(verb: "created").first)
    try work.succeed(["group", "add-member", group, ada])
    let updated = try #require(try work.succeed(["update", ada, "--job-title", "Countess", "--nickname", "Ada"]).head)
    return (work, ada, group, updated)
}

@Suite("contacts-ledger: undelete, revert, restore-contact")
struct UndoCommandsTests {
    @Test("undelete brings a deleted contact back as it was; the log and history show what it undid")
    func undelete() throws {
        let (work, ada, group, _) = try undoLedger()
        let before = try work.succeed(["show", ada, "--json"]).json()
        let deleted = try #require(try work.succeed(["delete", ada]).head)

        let files = try ledgerFiles(work)
        let planned = try work.succeed(["undelete", ada, "--dry-run"])
        #expect(planned.lines.first == "would undelete: undoes record \(deleted) (undelete)")
        #expect(planned.stdout.contains("restore contact \(ada) (Ada Lovelace)"))
        #expect(planned.stdout.contains("+ jobTitle: \"Countess\""))
        #expect(planned.stdout.contains("add \(ada) to group \(group)"))
        #expect(try ledgerFiles(work) == files, "a dry run wrote to the ledger")

        let saved = try work.succeed(["undelete", ada, "--author", "bob", "--json"]).json()
        #expect(saved["action"] == "undeleted")
        #expect(saved["undoes"] == ["kind": "undelete", "sequence": .integer(deleted)])
        #expect(saved["dryRun"] == false)
        #expect(saved["sequence"] == .integer(deleted + 1))
        #expect(saved["alreadyCommitted"] == false)
        #expect(try work.succeed(["show", ada, "--json"]).json() == before)
        #expect(try work.succeed(["group", "list"]).stdout.contains(ada))

        let last = try #require(try work.succeed(["log", "--json"]).lines.last)
        let entry = try JSONValue(parsing: last)
        #expect(entry["author"] == "bob")
        #expect(entry["undoes"] == ["kind": "undelete", "sequence": .integer(deleted)])
        #expect(try work.succeed(["log"]).stdout.contains("undoes record \(deleted) (undelete)"))
        let history = try work.succeed(["history", ada]).lines
        #expect(history.contains { $0.contains("created") && $0.contains("undoes record \(deleted) (undelete)") })
        let historyJSON = try work.succeed(["history", ada, "--json"]).lines.compactMap { try? JSONValue(parsing: $0) }
        #expect(historyJSON.last?["undoes"] == ["kind": "undelete", "sequence": .integer(deleted)])
    }

    @Test("undelete of a live contact fails with exit 1, of one never deleted with exit 67, and writes nothing")
    func undeleteRefusals() throws {
        let (work, ada, _, updated) = try undoLedger()
        let files = try ledgerFiles(work)
        expectFailure(try work.run(["undelete", ada]), 1, mentioning: "exists")
        let never = UUID().uuidString
        expectFailure(try work.run(["undelete", never]), 67, mentioning: "never existed")
        let json = try work.run(["undelete", ada, "--json"])
        #expect(json.status == 1)
        #expect(try json.json()["error"] == "contactExists")
        #expect(try ledgerFiles(work) == files)
        #expect(try work.succeed(["digest"]).stdout.contains("\(updated)"))
        expectFailure(try work.run(["undelete"]), 64, mentioning: "missing ID")
        expectFailure(try work.run(["undelete", ada, "--as-of", "yesterday"]), 64, mentioning: "--as-of")
    }

    @Test("revert inverts a record; a conflict is named; --only-unchanged reverts the rest")
    func revert() throws {
        let (work, ada, _, updated) = try undoLedger()
        let planned = try work.succeed(["revert", String(updated), "--dry-run"])
        #expect(planned.lines.first == "would revert: undoes record \(updated) (revert)")
        #expect(planned.stdout.contains("        - Job title: Countess\n"))
        #expect(planned.head == updated)

        try work.succeed(["update", ada, "--job-title", "Analyst"])
        let files = try ledgerFiles(work)
        let refused = try work.run(["revert", String(updated)])
        expectFailure(refused, 1, mentioning: "jobTitle: the record set \"Countess\", now \"Analyst\"")
        let refusedJSON = try work.run(["revert", String(updated), "--json"])
        #expect(refusedJSON.status == 1)
        #expect(
            try refusedJSON.json()["conflicts"]
                == [["identifier": .string(ada), "property": "jobTitle", "recorded": "Countess", "current": "Analyst"]])
        #expect(try ledgerFiles(work) == files)

        let partial = try work.succeed(["revert", String(updated), "--only-unchanged", "--json"]).json()
        #expect(partial["action"] == "reverted")
        #expect(partial["skipped"]?.arrayValue?.count == 1)
        let contact = try work.succeed(["show", ada, "--json"]).json()
        #expect(contact["jobTitle"] == "Analyst")
        #expect(contact["nickname"] == "")
    }

    @Test("revert of a sequence past the head, of sequence 0 or of a malformed one fails")
    func revertRefusals() throws {
        let (work, _, _, updated) = try undoLedger()
        expectFailure(try work.run(["revert", String(updated + 1)]), 1, mentioning: "head is \(updated)")
        expectFailure(try work.run(["revert", "0"]), 1, mentioning: "not in the ledger")
        expectFailure(try work.run(["revert", "three"]), 64)
        expectFailure(try work.run(["revert"]), 64, mentioning: "missing SEQUENCE")
    }

    @Test("add then revert deletes the contact; a revert of that revert brings it back")
    func revertOfRevert() throws {
        let work = try WorkDirectory().initLedger()
        let grace = try work.add(["--given", "Grace", "--family", "Hopper"])
        let shown = try work.succeed(["show", grace, "--json"]).json()
        let reverted = try #require(try work.succeed(["revert", "1"]).head)
        expectFailure(try work.run(["show", grace]), 67)
        let again = try work.succeed(["revert", String(reverted), "--author", "undoer"])
        #expect(again.lines.first == "reverted: undoes record \(reverted) (revert)")
        #expect(try work.succeed(["show", grace, "--json"]).json() == shown)
    }

    @Test("restore-contact brings one contact back to a point, as one update that a revert undoes")
    func restoreContact() throws {
        let (work, ada, _, updated) = try undoLedger()
        let other = try work.add(["--given", "Grace"])
        let atPoint = try work.succeed(["show", ada, "--json"]).json()
        let point = updated
        try work.succeed(["update", ada, "--given", "Augusta", "--job-title", "Analyst"])
        try work.succeed(["update", other, "--given", "Grace B."])
        let changed = try work.succeed(["show", ada, "--json"]).json()

        let files = try ledgerFiles(work)
        let planned = try work.succeed(["restore-contact", ada, "--to", String(point), "--dry-run", "--json"]).json()
        #expect(planned["dryRun"] == true)
        #expect(planned["action"] == "restore")
        #expect(try ledgerFiles(work) == files)

        let restored = try work.succeed(["restore-contact", ada, "--to", String(point), "--json"]).json()
        #expect(restored["undoes"] == ["kind": "restore", "sequence": .integer(point)])
        #expect(try work.succeed(["show", ada, "--json"]).json() == atPoint)
        #expect(try work.succeed(["show", other, "--json"]).json()["givenName"] == "Grace B.")
        let sequence = try #require(restored["sequence"]?.intValue)
        try work.succeed(["revert", String(sequence)])
        #expect(try work.succeed(["show", ada, "--json"]).json() == changed)

        expectFailure(try work.run(["restore-contact", ada]), 64, mentioning: "--to")
        expectFailure(
            try work.run(["restore-contact", UUID().uuidString, "--to", "1"]), 67, mentioning: "does not exist")
    }

    @Test("Each undo command has --help, and the tool's help lists them")
    func help() throws {
        let work = WorkDirectory()
        for command in ["undelete", "revert", "restore-contact"] {
            let help = try work.succeed([command, "--help"])
            #expect(help.stdout.hasPrefix("Usage: contacts-ledger [--ledger PATH] \(command)"), "\(command)")
            for option in ["--author", "--json", "--dry-run", "--request-id"] {
                #expect(help.stdout.contains(option), "\(command) \(option)")
            }
        }
        let tool = try work.succeed(["--help"])
        for command in ["undelete", "revert", "restore-contact"] { #expect(tool.stdout.contains("  \(command) ")) }
    }
}
