import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@Suite("contacts-ledger: output")
struct OutputTests {
    @Test("export prints every contact as vCard (3.0 or 4.0) or JSON, as of a point")
    func export() throws {
        let work = try WorkDirectory().initLedger()
        let ada = try work.add(["--given", "Ada", "--family", "Lovelace", "--note", "exported", "--phone", "mobile=1"])
        _ = try work.add(["--given", "Grace"])
        let vcard = try work.succeed(["export"])
        #expect(vcard.stdout.components(separatedBy: "BEGIN:VCARD").count == 3)
        #expect(vcard.stdout.contains("VERSION:3.0"))
        #expect(vcard.stdout.contains("N:Lovelace;Ada;;;"))
        #expect(vcard.stdout.contains("NOTE:exported"))
        let four = try work.succeed(["export", "--vcard-version", "4.0", "--as-of", "1"])
        #expect(four.stdout.components(separatedBy: "BEGIN:VCARD").count == 2)
        #expect(four.stdout.contains("VERSION:4.0"))
        // What export writes, a vCard reader reads back.
        let read = try VCardSerialization.contacts(with: Data(vcard.stdout.utf8))
        #expect(read.map(\.givenName).sorted() == ["Ada", "Grace"])
        let json = try work.succeed(["export", "--json"]).json()
        #expect(json.arrayValue?.count == 2)
        #expect(json.arrayValue?.first { $0["identifier"] == .string(ada) }?["imageData"] == .null)
        expectFailure(try work.run(["export", "--vcard-version", "5"]), 64, mentioning: "--vcard-version")
    }

    @Test("When output is not a terminal there are no escape codes and nothing extra on stderr")
    func plainWhenPiped() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "Ada"])
        for arguments in [["show", identifier], ["log"], ["history", identifier], ["verify"], ["replay", "--check"]] {
            let result = try work.succeed(arguments)
            #expect(!result.stdout.contains("\u{1B}"), "\(arguments)")
            #expect(result.stderr.isEmpty, "\(arguments)")
        }
    }

    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    /// Runs the tool under a pseudo-terminal (util-linux `script`), so that its output is a terminal.
    func runInTerminal(_ arguments: [String], in work: WorkDirectory, noColor: Bool) throws -> String {
        let command = ([try toolPath()] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: work.path)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = noColor ? "1" : nil
        environment["TERM"] = "xterm"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("On a terminal, headers are coloured unless NO_COLOR is set", .enabled(if: hasScript))
    func colour() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "Ada"])
        let coloured = try runInTerminal(["show", identifier], in: work, noColor: false)
        #expect(coloured.contains("\u{1B}[33mcontact \(identifier)\u{1B}[0m"))
        let plain = try runInTerminal(["show", identifier], in: work, noColor: true)
        #expect(plain.contains("contact \(identifier)"))
        #expect(!plain.contains("\u{1B}"))
    }
}
