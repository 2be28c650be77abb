import ContactsLedger
import Foundation
import LedgerAudit
import Testing

/// The pages in a real browser: `contacts-ledger serve` (the built binary) on the demo ledger,
/// driven by `Tests/Browser/drive_pages.py` with Selenium and headless Chromium, which Debian's
/// `chromium`, `chromium-driver` and `python3-selenium` provide (`.ci/run` installs them).
@Suite("Server: the pages in a browser and the serve command", .serialized)
struct BrowserTests {
    /// Where the screenshots go: kept after the run, under the package's build folder.
    static let outputFolder = packageRoot() + "/.build/test-output/LedgerServerTests/browser"

    @Test("search, open, edit, a stale edit, the audit, time travel, undelete, the picker, verify, 320 px")
    func pages() throws {
        try requireBrowser()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try runTool(["--ledger", "contacts.ledger", "demo"], in: directory).status == 0)
        try? FileManager.default.removeItem(atPath: Self.outputFolder)
        try FileManager.default.createDirectory(atPath: Self.outputFolder, withIntermediateDirectories: true)
        let server = try ServeProcess(ledger: directory + "/contacts.ledger", in: directory)
        let driven = try runProgram(
            "/usr/bin/python3", [packageRoot() + "/Tests/Browser/drive_pages.py", server.url, Self.outputFolder],
            in: directory)
        server.stop()
        #expect(driven.status == 0, "the browser script failed:\n\(driven.stdout)\n\(driven.stderr)")
        let shots = try FileManager.default.contentsOfDirectory(atPath: Self.outputFolder).filter {
            $0.hasSuffix(".png")
        }
        #expect(shots.count >= 16, "screenshots in \(Self.outputFolder): \(shots.sorted())")
        let auditor = try LedgerAuditor(ledgerAt: directory + "/contacts.ledger")
        let entries = try auditor.entries()
        #expect(entries.contains { $0.author == "web" && $0.undoes?.kind == .undelete })
        let grants = entries.filter { entry in
            entry.changes.contains {
                if case .grantAccess(let client, _) = $0 { client == "com.example.notes" } else { false }
            }
        }
        #expect(grants.first?.author == "contacts-ledger")
    }

    @Test("serve prints the address, holds the writer lock as the CLI does, and stops on Ctrl-C")
    func serveCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try runTool(["--ledger", "contacts.ledger", "init"], in: directory).status == 0)
        let server = try ServeProcess(ledger: directory + "/contacts.ledger", in: directory)
        #expect(server.url.hasPrefix("http://127.0.0.1:") && server.url.contains("/?token="))
        let second = try runTool(
            ["--ledger", "contacts.ledger", "--wait", "0", "add", "--given", "Late"], in: directory)
        #expect(second.status == 75)
        #expect(second.stderr.contains("lock"), "\(second.stderr)")
        let again = try runTool(["--ledger", "contacts.ledger", "--wait", "0", "serve", "--port", "0"], in: directory)
        #expect(again.status == 75)
        #expect(server.stop() == 0)
        #expect(server.output().contains("stopped"))
        let remote = try runTool(
            ["--ledger", "contacts.ledger", "serve", "--bind", "0.0.0.0", "--port", "0"], in: directory)
        #expect(remote.status == 1)
        #expect(remote.stderr.contains("--token-file"), "\(remote.stderr)")
    }

    /// Fails, naming what is missing, unless the browser and its driver are installed.
    private func requireBrowser() throws {
        for path in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"] {
            try #require(
                FileManager.default.isExecutableFile(atPath: path),
                "\(path) is missing: install Debian's chromium, chromium-driver and python3-selenium (.ci/run does)")
        }
        let selenium = try runProgram("/usr/bin/python3", ["-c", "import selenium"], in: NSTemporaryDirectory())
        try #require(selenium.status == 0, "python3 cannot import selenium: install Debian's python3-selenium")
    }
}
