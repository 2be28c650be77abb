import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@Suite("contacts-ledger: group commands")
struct GroupCommandsTests {
    @Test("Groups are created, renamed, listed, given and relieved of members, and deleted")
    func lifecycle() throws {
        let work = try WorkDirectory().initLedger()
        let ada = try work.add(["--given", "Ada", "--family", "Lovelace"])
        let created = try work.succeed(["group", "create", "Friends", "--author", "me"])
        let group = try #require(created.identifiers(verb: "created").first)
        #expect(created.head == 2)

        let renamed = try work.succeed(["group", "rename", group, "Old friends"])
        #expect(renamed.lines == ["renamed \(group)", "head 3"])
        let member = try work.succeed(["group", "add-member", group, ada])
        #expect(member.lines == ["added-member \(group)", "added-member \(ada)", "head 4"])

        let list = try work.succeed(["group", "list"])
        #expect(list.lines == ["\(group)  Old friends  (1 member)", "  \(ada)  Ada Lovelace"])
        #expect(
            try work.succeed(["group", "list", "--json"]).json()
                == [["identifier": .string(group), "name": "Old friends", "members": [.string(ada)]]])
        #expect(
            try work.succeed(["group", "list", "--as-of", "2", "--json"]).json()
                == [["identifier": .string(group), "name": "Friends", "members": []]])

        let removed = try work.succeed(["group", "remove-member", group, ada])
        #expect(removed.lines == ["removed-member \(group)", "removed-member \(ada)", "head 5"])
        #expect(try work.succeed(["group", "list"]).lines == ["\(group)  Old friends  (0 members)"])

        let deleted = try work.succeed(["group", "delete", group, "--json"]).json()
        #expect(deleted["identifiers"] == [.string(group)])
        #expect(deleted["head"] == 6)
        #expect(try work.succeed(["group", "list"]).stdout.isEmpty)
        #expect(try work.succeed(["list"]).lines == ["\(ada)  Ada Lovelace"])
    }

    @Test("Group commands name a group or contact that does not exist and exit 1")
    func missing() throws {
        let work = try WorkDirectory().initLedger()
        let ada = try work.add(["--given", "Ada"])
        let group = try #require(try work.succeed(["group", "create", "G"]).identifiers(verb: "created").first)
        expectFailure(try work.run(["group", "rename", "nope", "X"]), 67, mentioning: "group nope does not exist")
        expectFailure(try work.run(["group", "delete", "nope"]), 67, mentioning: "group nope does not exist")
        expectFailure(try work.run(["group", "add-member", "nope", ada]), 67, mentioning: "group nope")
        expectFailure(try work.run(["group", "add-member", group, "nobody"]), 67, mentioning: "contact nobody")
        expectFailure(try work.run(["group", "remove-member", group, "nobody"]), 67, mentioning: "contact nobody")
        expectFailure(try work.run(["group"]), 64, mentioning: "subcommand")
        expectFailure(try work.run(["group", "explode"]), 64, mentioning: "unknown command group explode")
        expectFailure(try work.run(["group", "create"]), 64, mentioning: "missing NAME")
        expectFailure(try work.run(["group", "rename", group]), 64, mentioning: "missing NAME")
    }
}
