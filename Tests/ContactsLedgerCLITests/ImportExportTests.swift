import Foundation
import Testing

/// The path of a vCard fixture, given relative to `Tests/Fixtures/vcards` in the package, whose
/// root is the directory above this file that holds `Package.swift`.
private func fixture(_ relative: String) throws -> String {
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
        let parent = directory.deletingLastPathComponent()
        try #require(parent.path != directory.path, "no Package.swift above \(#filePath)")
        directory = parent
    }
    let path = directory.appendingPathComponent("Tests/Fixtures/vcards/" + relative).path
    try #require(FileManager.default.fileExists(atPath: path), "missing fixture \(path)")
    return path
}

@Suite("contacts-ledger: import and export")
struct ImportExportTests {
    @Test("import adds every card of good files and exits 0")
    func importGood() throws {
        let work = try WorkDirectory().initLedger()
        let result = try work.succeed(["import", try fixture("ez-vcard/John_Doe_IPHONE.vcf"), "--author", "importer"])
        let added = result.identifiers(verb: "added")
        #expect(added.count == 1)
        #expect(result.stdout.contains("imported 1, rejected 0"))
        let shown = try work.succeed(["show", added[0]])
        #expect(shown.stdout.contains("John"))
        let log = try work.succeed(["log", "--json"])
        #expect(log.stdout.contains("\"author\":\"importer\""))
    }

    @Test("A file with a malformed card imports the good cards, names the bad one, and exits 65")
    func importPartial() throws {
        let work = try WorkDirectory().initLedger()
        let result = try work.run(["import", try fixture("folkerkinzel-vcards/v4.vcf")])
        expectFailure(result, 65, mentioning: "not imported")
        #expect(result.identifiers(verb: "added").count == 1)
        #expect(result.stdout.contains("card 1 line 22"))
        #expect(try work.succeed(["digest"]).stdout.hasPrefix("1 "))
    }

    @Test("--strict imports nothing from a file with a bad card, and exits 65")
    func importStrict() throws {
        let work = try WorkDirectory().initLedger()
        let result = try work.run(["import", "--strict", try fixture("folkerkinzel-vcards/v4.vcf")])
        expectFailure(result, 65, mentioning: "line 22")
        #expect(try work.succeed(["digest"]).stdout.hasPrefix("0 "))
    }

    @Test("A missing input file exits 66; no file exits 64; an unknown charset exits 64")
    func importErrors() throws {
        let work = try WorkDirectory().initLedger()
        expectFailure(try work.run(["import", work.path + "/nope.vcf"]), 66, mentioning: "nope.vcf")
        expectFailure(try work.run(["import"]), 64)
        expectFailure(try work.run(["import", "x.vcf", "--charset", "klingon"]), 64)
    }

    @Test("Standard input, a charset for unlabelled text, and JSON output")
    func importStdinCharset() throws {
        let work = try WorkDirectory().initLedger()
        let data = try #require(
            FileManager.default.contents(atPath: try fixture("folkerkinzel-vcards/Ukrainian_cp1251.vcf")))
        let result = try work.succeed(["import", "-", "--charset", "windows-1251", "--json"], input: data)
        let json = try result.json()
        #expect(result.stdout.contains("\"rejected\":[]"))
        _ = json
        let list = try work.succeed(["export", "--json"])
        #expect(list.stdout.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }, "Cyrillic names survive")
    }

    @Test("export writes chosen contacts, in 3.0 or 4.0, to stdout or a file, and re-imports the same")
    func exportRoundTrip() throws {
        let work = try WorkDirectory().initLedger()
        let first = try work.add(["--given", "Ada", "--family", "Lovelace", "--phone", "mobile=+44 20 7946 0958"])
        _ = try work.add(["--given", "Grace", "--family", "Hopper"])
        let one = try work.succeed(["export", first])
        #expect(one.stdout.contains("VERSION:3.0"))
        #expect(one.stdout.contains("Lovelace"))
        #expect(!one.stdout.contains("Hopper"))
        let four = try work.succeed(["export", "--vcard-version", "4.0"])
        #expect(four.stdout.components(separatedBy: "BEGIN:VCARD").count == 3)
        try work.succeed(["export", "--output", work.path + "/all.vcf"])
        let other = WorkDirectory()
        try other.initLedger()
        let imported = try other.succeed(["import", work.path + "/all.vcf"])
        #expect(imported.identifiers(verb: "added").count == 2)
        let search = try other.succeed(["search", "--phone", "+44 20 7946 0958"])
        #expect(search.stdout.contains("Lovelace"))
        expectFailure(try work.run(["export", "no-such-id"]), 67)
    }
}
