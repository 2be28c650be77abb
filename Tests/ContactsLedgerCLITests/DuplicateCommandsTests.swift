import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@Suite("contacts-ledger: duplicates, merge, link and unlink")
struct DuplicateCommandsTests {
    /// A ledger with two records of Ada (one national, one international number; the address in
    /// two cases) and Bill and William Gates sharing an address.
    struct Sample {
        let work: WorkDirectory
        let ada: String
        let adaAgain: String
        let bill: String
        let william: String

        init() throws {
            work = try WorkDirectory().initLedger()
            ada = try work.add([
                "--given", "Ada", "--family", "Lovelace", "--phone", "+44 20 7946 0958", "--email", "ada@example.com",
                "--job-title", "Countess",
            ])
            adaAgain = try work.add([
                "--given", "Adá", "--family", "Lovelace", "--phone", "020 7946 0958", "--job-title", "Mathematician",
            ])
            bill = try work.add(["--given", "Bill", "--family", "Gates", "--email", "bill@example.com"])
            william = try work.add(["--given", "William", "--family", "Gates", "--email", "BILL@example.com"])
        }
    }

    @Test("duplicates lists clusters with scores and reasons, reading phone numbers in --region")
    func duplicates() throws {
        let sample = try Sample()
        let us = try sample.work.succeed(["duplicates"])
        #expect(
            us.lines == [
                "cluster 1  score 75", "  \(sample.bill)  Bill Gates", "  \(sample.william)  William Gates",
                "  75  \(sample.bill) \(sample.william): the same email address bill@example.com; \"bill\" is a "
                    + "nickname of \"william\"",
                "1 cluster among 4 contacts",
            ])
        let gb = try sample.work.succeed(["--region", "gb", "duplicates", "--json"]).json()
        let clusters = try #require(gb["clusters"]?.arrayValue)
        #expect(clusters.count == 2)
        #expect(clusters[0]["score"] == 75)
        #expect(
            clusters[1]["contacts"] == [
                ["identifier": .string(sample.ada), "name": "Ada Lovelace"],
                ["identifier": .string(sample.adaAgain), "name": "Adá Lovelace"],
            ])
        #expect(
            clusters[1]["pairs"]?.arrayValue?.first?["reasons"]?.arrayValue?.map { $0["kind"] }
                == ["samePhoneNumber", "sameName"])
        let fromEnvironment = try sample.work.run(
            ["duplicates", "--min-score", "70"], environment: ["CONTACTS_LEDGER_REGION": "GB"])
        #expect(fromEnvironment.lines.last == "2 clusters among 4 contacts")
        expectFailure(try sample.work.run(["duplicates", "--min-score", "0"]), 64, mentioning: "--min-score")
        expectFailure(try sample.work.run(["--region", "gbr", "duplicates"]), 64, mentioning: "two-letter")
        expectFailure(try sample.work.run(["duplicates", "--author", "me"]), 64, mentioning: "unknown option --author")
    }

    @Test("merge keeps one contact, deletes the others and prints what it did; the log shows one record")
    func merge() throws {
        let sample = try Sample()
        let group = try #require(
            try sample.work.succeed(["group", "create", "Friends"]).identifiers(verb: "created").first)
        try sample.work.succeed(["group", "add-member", group, sample.william])
        let merged = try sample.work.succeed([
            "merge", sample.bill, sample.william, "--keep", sample.bill, "--author", "tidy",
        ])
        #expect(
            merged.lines == ["kept \(sample.bill)", "deleted \(sample.william)", "took-over-group \(group)", "head 7"])
        let shown = try sample.work.succeed(["show", sample.bill, "--json"]).json()
        #expect(shown["note"] == .string("Merged from William Gates (\(sample.william)):\nGiven name: William"))
        let log = try sample.work.succeed(["log", "--author", "tidy", "--json"]).lines.map {
            try JSONValue(parsing: $0)
        }
        #expect(log.count == 1)
        #expect(
            log.first?["operations"]?.arrayValue?.map { $0["type"] } == ["updateContact", "addMember", "deleteContact"])

        let json = try sample.work.succeed([
            "--region", "gb", "merge", sample.ada, sample.adaAgain, "--json",
        ]).json()
        #expect(json["action"] == "merged")
        #expect(json["kept"] == .string(sample.ada))
        #expect(json["deleted"] == [.string(sample.adaAgain)])
        #expect(json["head"] == 8)

        // Reverting each merge brings every contact back as it was.
        let before = try sample.work.succeed(["export", "--json", "--as-of", "6"]).json()
        try sample.work.succeed(["revert", "8"])
        try sample.work.succeed(["revert", "7"])
        #expect(try sample.work.succeed(["export", "--json"]).json() == before)
        #expect(
            try sample.work.succeed(["group", "list", "--json"]).json()
                == [["identifier": .string(group), "name": "Friends", "members": [.string(sample.william)]]])
    }

    @Test("merge refuses a contact with itself, a missing contact and fewer than two, writing nothing")
    func mergeRefusals() throws {
        let sample = try Sample()
        expectFailure(
            try sample.work.run(["merge", sample.ada, sample.ada]), 65, mentioning: "cannot be merged with itself")
        expectFailure(
            try sample.work.run(["merge", sample.ada, "NOPE"]), 67, mentioning: "contact NOPE does not exist")
        expectFailure(try sample.work.run(["merge", sample.ada]), 64, mentioning: "at least two")
        expectFailure(
            try sample.work.run(["merge", sample.ada, sample.bill, "--keep", sample.william]), 65,
            mentioning: "is not one of the contacts merged")
        #expect(try sample.work.succeed(["digest"]).stdout.hasPrefix("4 "))
        #expect(try sample.work.succeed(["list"]).lines.count == 4)
    }

    @Test("link shows contacts as one, unlink separates them, and the log shows both")
    func linkAndUnlink() throws {
        let sample = try Sample()
        let linked = try sample.work.succeed(["link", sample.bill, sample.william, "--author", "me"])
        #expect(linked.lines == ["linked \(sample.bill)", "linked \(sample.william)", "head 5"])
        #expect(try sample.work.succeed(["search", "--name", "gates"]).lines == ["\(sample.bill)  Bill Gates"])
        #expect(try sample.work.succeed(["show", sample.william]).lines.contains { $0.contains("William") })
        #expect(try sample.work.succeed(["list"]).lines.count == 3)
        #expect(
            try sample.work.succeed(["export", "--json"]).json().arrayValue?.count == 4, "export gives each as itself")
        let again = try sample.work.succeed(["link", sample.william, sample.bill, "--json"]).json()
        #expect(again["action"] == "unchanged")
        #expect(again["head"] == 5)
        expectFailure(
            try sample.work.run(["link", sample.bill, "NOPE"]), 67, mentioning: "contact NOPE does not exist")
        expectFailure(try sample.work.run(["link", sample.bill]), 64, mentioning: "at least two")
        let unlinked = try sample.work.succeed(["unlink", sample.william, "--author", "me"])
        #expect(unlinked.lines.last == "head 6")
        #expect(try sample.work.succeed(["search", "--name", "gates"]).lines.count == 2)
        let log = try sample.work.succeed(["log", "--author", "me"]).stdout
        #expect(log.contains("    link contacts \(sample.bill), \(sample.william)"))
        #expect(log.contains("    unlink contact \(sample.william) from \(sample.bill)"))
        let json = try sample.work.succeed(["log", "--author", "me", "--json"]).lines.map { try JSONValue(parsing: $0) }
        #expect(
            json.last?["operations"] == [
                ["type": "unlinkContact", "contact": .string(sample.william), "linked": [.string(sample.bill)]]
            ])
    }

    @Test("Each new command has help")
    func help() throws {
        let work = WorkDirectory()
        for command in ["duplicates", "merge", "link", "unlink"] {
            let help = try work.succeed([command, "--help"])
            #expect(help.stdout.hasPrefix("Usage: contacts-ledger [--ledger PATH] \(command)"))
            #expect(help.stdout.contains("--json"))
        }
        #expect(try work.succeed(["--help"]).stdout.contains("--region CC"))
    }
}
