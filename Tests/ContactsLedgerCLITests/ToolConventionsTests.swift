import Foundation
import Testing

/// Whether an executable is installed, for the checks that need a shell or a formatter.
private func installed(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

/// Runs `executable` with `arguments` in `work`, the tool's output as standard input.
private func check(_ executable: String, _ arguments: [String], input: String, in work: WorkDirectory) throws -> ToolRun
{
    try runTool(arguments, in: work.path, input: Data(input.utf8), executable: executable)
}

@Suite("contacts-ledger: version, help and spelling")
struct ToolHelpConventionsTests {
    @Test("--version names the version and the formats")
    func version() throws {
        let run = try WorkDirectory().succeed(["--version"])
        #expect(run.stdout.hasPrefix("contacts-ledger "))
        #expect(run.stdout.contains("journal format 2, event schema 2"))
    }

    @Test("help COMMAND prints what COMMAND --help prints", arguments: [["list"], ["group", "rename"], ["restore"]])
    func helpCommand(_ words: [String]) throws {
        let work = WorkDirectory()
        let help = try work.succeed(["help"] + words)
        #expect(help.stdout == (try work.succeed(words + ["--help"])).stdout)
        #expect(try work.succeed(["help"]).stdout == (try work.succeed(["--help"])).stdout)
        #expect(try work.succeed(["help", "group"]).stdout.contains("Subcommands:"))
    }

    @Test(
        "A mistyped command or option suggests the one meant",
        arguments: [
            (["lsit"], "unknown command lsit; did you mean `list`?"),
            (["shwo", "X"], "did you mean `show`?"),
            (["group", "craete", "T"], "did you mean `group create`?"),
            (["list", "--jsno"], "unknown option --jsno; did you mean `--json`?"),
            (["log", "--sinse", "1"], "did you mean `--since`?"),
            (["--ledgr", "x", "list"], "did you mean `--ledger`?"),
            (["help", "hsitory"], "did you mean `history`?"),
            (["completion", "zhs"], "did you mean `zsh`?"),
        ])
    func didYouMean(_ arguments: [String], _ hint: String) throws {
        expectFailure(try WorkDirectory().run(arguments), 64, mentioning: hint)
    }

    @Test("A word far from every command gets no suggestion")
    func noSuggestion() throws {
        let run = try WorkDirectory().run(["frobnicate"])
        expectFailure(run, 64, mentioning: "unknown command frobnicate")
        #expect(!run.stderr.contains("did you mean"))
    }
}

@Suite("contacts-ledger: completion scripts and the man page")
struct CompletionAndManPageTests {
    static let commands = ["add", "show", "log", "restore-contact", "completion", "manpage"]

    @Test("The bash script is valid bash and completes commands and options")
    func bash() throws {
        let work = WorkDirectory()
        let script = try work.succeed(["completion", "bash"]).stdout
        for command in Self.commands { #expect(script.contains(command)) }
        #expect(script.contains("--as-of"))
        let syntax = try check("/bin/bash", ["-n"], input: script, in: work)
        #expect(syntax.status == 0, "\(syntax.stderr)")
        // Complete `contacts-ledger lo` and `contacts-ledger log --si` in a real bash.
        let probe =
            script + """
                COMP_WORDS=(contacts-ledger lo); COMP_CWORD=1; _contacts_ledger; echo "${COMPREPLY[*]}"
                COMP_WORDS=(contacts-ledger log --si); COMP_CWORD=2; _contacts_ledger; echo "${COMPREPLY[*]}"
                COMP_WORDS=(contacts-ledger group re); COMP_CWORD=2; _contacts_ledger; echo "${COMPREPLY[*]}"
                """
        let completed = try check("/bin/bash", [], input: probe, in: work)
        #expect(completed.lines == ["log", "--since", "rename remove-member"], "\(completed.stderr)")
    }

    @Test("The zsh script is valid zsh", .enabled(if: installed("/usr/bin/zsh")))
    func zsh() throws {
        let work = WorkDirectory()
        let script = try work.succeed(["completion", "zsh"]).stdout
        #expect(script.hasPrefix("#compdef contacts-ledger"))
        for command in Self.commands { #expect(script.contains(command)) }
        let syntax = try check("/usr/bin/zsh", ["-n"], input: script, in: work)
        #expect(syntax.status == 0, "\(syntax.stderr)")
    }

    @Test("The fish script is valid fish and names every command", .enabled(if: installed("/usr/bin/fish")))
    func fish() throws {
        let work = WorkDirectory()
        let script = try work.succeed(["completion", "fish"]).stdout
        for command in Self.commands { #expect(script.contains("-a \(command) ")) }
        let syntax = try check("/usr/bin/fish", ["--no-execute"], input: script, in: work)
        #expect(syntax.status == 0, "\(syntax.stderr)")
    }

    @Test(
        "The man page renders without warnings and holds every command's help",
        .enabled(if: installed("/usr/bin/groff")))
    func manPage() throws {
        let work = WorkDirectory()
        let page = try work.succeed(["manpage"]).stdout
        #expect(page.hasPrefix(".TH CONTACTS\\-LEDGER 1"))
        let rendered = try check("/usr/bin/groff", ["-man", "-Tutf8", "-ww"], input: page, in: work)
        #expect(rendered.status == 0)
        #expect(rendered.stderr.isEmpty, "\(rendered.stderr)")
        let text = rendered.stdout.replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
        for heading in ["SYNOPSIS", "GLOBAL OPTIONS", "COMMANDS", "ENVIRONMENT", "EXIT STATUS"] {
            #expect(text.contains(heading), "\(heading)")
        }
        #expect(text.contains("restore-contact"))
        #expect(text.contains("--as-of"))
    }
}

@Suite("contacts-ledger: the demo, run twice")
struct DemoTwiceTests {
    /// The package's own .gitignore.
    static var gitignore: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".gitignore").path
    }

    @Test(
        "A second demo adds no duplicates, and a checkout keeps nothing of it untracked",
        .enabled(if: installed("/usr/bin/git")))
    func twice() throws {
        let work = WorkDirectory()
        try FileManager.default.copyItem(atPath: Self.gitignore, toPath: work.path + "/.gitignore")
        let git = try runTool(["init", "-q"], in: work.path, executable: "/usr/bin/git")
        try #require(git.status == 0)
        try work.succeed(["demo"])
        let before = try work.succeed(["list"]).lines.sorted()
        let second = try work.succeed(["demo"])
        #expect(second.stdout.contains("reset "))
        let after = try work.succeed(["list"]).lines.sorted()
        #expect(after == before)
        #expect(after.count == 4, "Ada, Grace, Alan and Margaret; Babbage is deleted by each run")
        let status = try runTool(["status", "--porcelain"], in: work.path, executable: "/usr/bin/git")
        #expect(status.lines == ["?? .gitignore"], "\(status.stdout)")
    }
}
