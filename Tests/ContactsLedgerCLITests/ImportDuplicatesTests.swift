import Foundation
import Testing

@Suite("contacts-ledger import: duplicates, glued cards, wrong files, --quiet")
struct ImportDuplicatesTests {
    /// A card named `name` with `uid` when given.
    private static func card(_ name: String, uid: String? = nil) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\n" + (uid.map { "UID:urn:uuid:\($0)\r\n" } ?? "") + "N:\(name);Card;;;\r\n"
            + "FN:Card \(name)\r\nTEL;TYPE=CELL:+49 494 808 313\r\nEND:VCARD\r\n"
    }

    private func write(_ text: String, _ name: String, in work: WorkDirectory) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: work.path + "/" + name))
    }

    @Test("Importing the same export twice changes nothing the second time")
    func importTwice() throws {
        let work = try WorkDirectory().initLedger()
        let ada = try work.add(["--given", "Ada", "--family", "Lovelace", "--phone", "mobile=+44 20 7946 0958"])
        _ = try work.add(["--given", "Grace", "--family", "Hopper", "--email", "grace@example.org"])
        try work.succeed(["export", "--output", work.path + "/all.vcf"])
        let other = try WorkDirectory().initLedger()
        let first = try other.succeed(["import", work.path + "/all.vcf"])
        #expect(first.identifiers(verb: "added").contains(ada))
        let digest = try other.succeed(["digest"]).stdout
        let second = try other.succeed(["import", work.path + "/all.vcf"])
        #expect(second.lines.contains("imported 0, updated 0, unchanged 2, rejected 0"))
        #expect(try other.succeed(["digest"]).stdout == digest)
        let own = try work.succeed(["import", "all.vcf"])
        #expect(own.lines.contains("imported 0, updated 0, unchanged 2, rejected 0"))
        #expect(try other.succeed(["list"]).lines.count == 2)
    }

    @Test("A changed card updates its contact; skip leaves it, add adds a copy")
    func duplicatesModes() throws {
        let work = try WorkDirectory().initLedger()
        let uid = UUID().uuidString
        try write(Self.card("First", uid: uid), "a.vcf", in: work)
        try write(Self.card("Second", uid: uid), "b.vcf", in: work)
        let added = try work.succeed(["import", "a.vcf"])
        #expect(added.identifiers(verb: "added") == [uid])
        let skipped = try work.succeed(["import", "b.vcf", "--duplicates", "skip"])
        #expect(skipped.lines.contains("imported 0, updated 0, unchanged 1, rejected 0"))
        #expect(try work.succeed(["show", uid]).stdout.contains("First"))
        let updated = try work.succeed(["import", "b.vcf"])
        #expect(updated.identifiers(verb: "updated") == [uid])
        #expect(try work.succeed(["show", uid]).stdout.contains("Second"))
        let copied = try work.succeed(["import", "b.vcf", "--duplicates", "add"])
        #expect(copied.identifiers(verb: "added").count == 1)
        #expect(copied.identifiers(verb: "added") != [uid])
        #expect(try work.succeed(["list"]).lines.count == 2)
        let json = try work.succeed(["import", "b.vcf", "--json"]).json()
        #expect(json["unchanged"]?.arrayValue?.first?["identifier"] == .string(uid))
        expectFailure(
            try work.run(["import", "b.vcf", "--duplicates", "merge"]), 64, mentioning: "add, update or skip")
    }

    @Test("Cards glued together by files without a final line break are each imported")
    func gluedCards() throws {
        let work = try WorkDirectory().initLedger()
        let glued = [Self.card("One"), Self.card("Two"), Self.card("Three")]
            .map { String($0.dropLast()) }.joined()  // "\r\n" is one Character
        try write(glued, "glued.vcf", in: work)
        let result = try work.succeed(["import", "glued.vcf"])
        #expect(result.identifiers(verb: "added").count == 3)
        #expect(result.lines.contains("imported 3, updated 0, unchanged 0, rejected 0"))
    }

    @Test("An empty file and a file that is not a vCard are named, and nothing is imported")
    func wrongFiles() throws {
        let work = try WorkDirectory().initLedger()
        try write(Self.card("Good"), "good.vcf", in: work)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(
            to: URL(fileURLWithPath: work.path + "/photo.vcf"))
        try write("", "empty.vcf", in: work)
        try write("Name,Phone\nAda,+44 20 7946 0958\n", "people.csv", in: work)
        try Data([0x1F, 0x8B, 8, 0, 0]).write(to: URL(fileURLWithPath: work.path + "/cards.vcf.gz"))
        let cases = [
            ("photo.vcf", "photo.vcf: not a vCard file: it starts with PNG image data"),
            ("empty.vcf", "empty.vcf: empty file: it holds no vCard"),
            ("people.csv", "people.csv: not a vCard file: it starts with plain text"),
            ("cards.vcf.gz", "cards.vcf.gz: not a vCard file: it starts with gzip-compressed data"),
        ]
        for (file, message) in cases {
            let result = try work.run(["import", "good.vcf", file])
            expectFailure(result, 65, mentioning: message)
            #expect(!result.stderr.contains("request"), "\(result.stderr)")
        }
        #expect(try work.succeed(["digest"]).stdout.hasPrefix("0 "))
    }

    @Test("--quiet prints nothing on success, and the rejected cards when there are some")
    func quiet() throws {
        let work = try WorkDirectory().initLedger()
        try write(Self.card("One") + Self.card("Two"), "two.vcf", in: work)
        let quiet = try work.succeed(["import", "--quiet", "two.vcf"])
        #expect(quiet.stdout.isEmpty)
        try write(
            Self.card("Three") + "BEGIN:VCARD\r\nVERSION:3.0\r\nBDAY:no date\r\nEND:VCARD\r\n", "bad.vcf", in: work)
        let rejected = try work.run(["import", "--quiet", "bad.vcf"])
        #expect(rejected.status == 65)
        #expect(rejected.lines.count == 1)
        #expect(rejected.lines.first?.hasPrefix("rejected bad.vcf card 1 line 9") == true)
        #expect(try work.succeed(["list"]).lines.count == 3)
        expectFailure(try work.run(["import", "--quiet", "--json", "two.vcf"]), 64, mentioning: "--quiet")
    }

    @Test("Up to a screenful, each contact gets a line; beyond it, the summary alone")
    func screenful() throws {
        let work = try WorkDirectory().initLedger()
        try write((0..<50).map { Self.card("Few\($0)") }.joined(), "few.vcf", in: work)
        try write((0..<51).map { Self.card("Many\($0)") }.joined(), "many.vcf", in: work)
        let few = try work.succeed(["import", "few.vcf"])
        #expect(few.identifiers(verb: "added").count == 50)
        let many = try work.succeed(["import", "many.vcf"])
        #expect(many.identifiers(verb: "added").isEmpty)
        #expect(many.lines.contains("imported 51, updated 0, unchanged 0, rejected 0"))
        #expect(many.lines.count == 3)
    }
}
