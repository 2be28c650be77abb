import ContactsLedger
import Foundation

/// `import`: contacts from vCard files, in whole save requests.
struct ImportCommand: ToolCommand {
    static let name = "import"
    static let summary = "Imports contacts from vCard files (2.1, 3.0 or 4.0)."
    static let usage = "import FILE... [--author NAME] [--strict] [--charset NAME] [--json]"
    static let help = """
        Reads the vCard files (- reads standard input) and adds their contacts, in save requests of at
        most \(ContactStore.importBatchMax) cards, each committed whole and on disk before the next. A
        malformed card, or one the store refuses, is reported with its file, its index in the file
        (counted from 0) and its line, and the good cards around it are imported; with --strict,
        nothing from a file is imported unless every card in it can be. A progress bar is shown on
        standard error when it is a terminal.

        It prints `added ID` for each imported card, `rejected FILE card N line L: REASON` for each
        rejected one, then the counts and the new head sequence. It exits 0 when every card was
        imported and 65 when any was rejected (after importing the good ones, unless --strict).

        Options:
          --author NAME        The transaction author recorded in the ledger and shown by the audit log.
          --strict             Imports a file only if every card in it can be imported.
          --charset NAME       The encoding of text without a CHARSET parameter when it is not UTF-8:
                               windows-1252 (the default), iso-8859-1, windows-1251 or shift_jis.
          --json               Prints {"imported": [{file, card, identifier}], "rejected": [{file, card,
                               line, kind, message}], "head"} instead of text.
        """
    static let valued: Set<String> = ["author", "charset"]
    static let flags: Set<String> = ["strict", "json"]

    var files: [String]
    var author: String?
    var strict: Bool
    var encoding: String.Encoding
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        files = arguments.positionals
        guard !files.isEmpty else { throw CommandFailure(.usage, "import needs at least one FILE") }
        author = try arguments.single("author")
        strict = arguments.has("strict")
        json = arguments.has("json")
        switch try arguments.single("charset")?.lowercased() {
        case nil, "windows-1252", "cp1252": encoding = .windowsCP1252
        case "iso-8859-1", "latin1": encoding = .isoLatin1
        case "windows-1251", "cp1251": encoding = .windowsCP1251
        case "shift_jis", "shift-jis", "sjis": encoding = .shiftJIS
        case "utf-8", "utf8": encoding = .utf8
        case let other?: throw CommandFailure(.usage, "unknown --charset \(other)")
        }
    }

    func run(_ context: CommandContext) throws {
        var inputs: [(String, Data)] = []
        for file in files {
            if file == "-" {
                inputs.append(("-", FileHandle.standardInput.readDataToEndOfFile()))
            } else {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw CommandFailure(.noInput, "cannot read \(file): no such file or not readable")
                }
                inputs.append((file, data))
            }
        }
        let store = try context.openForWriting()
        defer { store.close() }
        var imported: [JSONValue] = []
        var rejected: [JSONValue] = []
        var lines: [String] = []
        var problems: [String] = []
        for (file, data) in inputs {
            var bar = ProgressBar.Counter(label: "importing \(file)")
            let summary: VCardImportSummary
            do {
                summary = try store.importVCards(
                    data, author: author, strict: strict, fallbackEncoding: encoding,
                    progress: { done, total in bar.update(done: done, total: total) })
            } catch let error as VCardCardError {
                bar.finish()
                throw CommandFailure(.dataError, "\(file): \(error)")
            }
            bar.finish()
            for (card, identifier) in summary.imported {
                lines.append("added \(identifier)")
                imported.append(
                    .object(
                        JSONObject([
                            ("file", .string(file)), ("card", .int(Int64(card))), ("identifier", .string(identifier)),
                        ])))
            }
            for error in summary.rejected {
                problems.append("rejected \(file) card \(error.cardIndex) line \(error.line): \(error.message)")
                rejected.append(
                    .object(
                        JSONObject([
                            ("file", .string(file)), ("card", .int(Int64(error.cardIndex))),
                            ("line", .int(Int64(error.line))), ("kind", .string(error.kind.rawValue)),
                            ("message", .string(error.message)),
                        ])))
            }
        }
        let head = store.headDigest.sequence
        if json {
            Terminal.json(
                .object(
                    JSONObject([
                        ("imported", .array(imported)), ("rejected", .array(rejected)), ("head", .int(Int64(head))),
                    ])))
        } else {
            Terminal.lines(lines + problems)
            Terminal.line("imported \(imported.count), rejected \(rejected.count)")
            Terminal.line("head \(head)")
        }
        if !rejected.isEmpty {
            throw CommandFailure(.dataError, "\(rejected.count) card(s) were not imported; see the rejected lines")
        }
    }
}
