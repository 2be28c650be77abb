import ContactsLedger
import Foundation
import LedgerAudit
import LedgerServer
import Testing

/// A real CardDAV client, Debian's `vdirsyncer`, syncing real vCards with the built `serve`
/// (`tools/carddav-peer/vdirsyncer_roundtrip.py`), and the `carddav-account` command.
@Suite("CardDAV: vdirsyncer and the accounts command", .serialized)
struct CardDAVClientTests {
    @Test("vdirsyncer syncs the corpus up, edits and deletes on both sides, and the log names it")
    func vdirsyncer() throws {
        for path in ["/usr/bin/vdirsyncer", "/usr/bin/python3"] {
            try #require(
                FileManager.default.isExecutableFile(atPath: path),
                "\(path) is missing: install Debian's vdirsyncer and python3-vobject (.ci/run does)")
        }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try runProgram(
            "/usr/bin/python3",
            [packageRoot() + "/tools/carddav-peer/vdirsyncer_roundtrip.py", try toolPath(), directory + "/work"],
            in: directory)
        #expect(run.status == 0, "the vdirsyncer round trip failed:\n\(run.stdout)\n\(run.stderr)")
        let summary = try JSONValue(parsing: Array(run.stdout.utf8))
        #expect((summary["cards"]?.intValue ?? 0) >= 20, "\(run.stdout)")
        #expect((summary["vdirsyncerRecords"]?.intValue ?? 0) >= 20, "\(run.stdout)")
    }

    @Test("carddav-account prints a line serve reads; serve refuses a malformed accounts file")
    func accountCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tool = try toolPath()
        let made = try runProgram(
            "/bin/sh", ["-c", "printf 'pass word\\n' | '\(tool)' carddav-account alice --client app.phone"],
            in: directory)
        #expect(made.status == 0, "\(made.stderr)")
        let fields = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        #expect(fields.count == 3 && fields[0] == "alice" && fields[1] == "app.phone")
        #expect(CardDAVPassword.verify("pass word", against: String(fields.last ?? "")))
        let empty = try runProgram("/bin/sh", ["-c", "'\(tool)' carddav-account alice < /dev/null"], in: directory)
        #expect(empty.status == 64 && empty.stderr.contains("standard input"))
        #expect(try runTool(["carddav-account", "bad name"], in: directory).status == 64)
        #expect(try runTool(["--ledger", "l", "init"], in: directory).status == 0)
        try "alice app short\n".write(toFile: directory + "/accounts", atomically: true, encoding: .utf8)
        let refused = try runTool(
            ["--ledger", "l", "serve", "--port", "0", "--carddav-accounts", "accounts"], in: directory)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("line 1 of the accounts file"), "\(refused.stderr)")
    }
}
