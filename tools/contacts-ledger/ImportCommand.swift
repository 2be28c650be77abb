import ContactsLedger
import Foundation

/// `import`: contacts from vCard files, in whole save requests.
struct ImportCommand: ToolCommand {
    static let name = "import"
    static let summary = "Imports contacts from vCard files (2.1, 3.0 or 4.0)."
    static let usage = "import FILE... [--author NAME] [--request-id UUID] [--strict] [--charset NAME] [--json]"
    static let help = """
        Reads the vCard files (- reads standard input) and adds their contacts, in save requests of at
        most \(ContactStore.importBatchMax) cards, each committed whole and on disk before the next. A
        malformed card, or one the store refuses, is reported with its file, its index in the file
        (counted from 0) and its line, and the good cards around it are imported; with --strict,
        nothing from a file is imported unless every card in it can be. A file larger than
        \(VCardSerialization.dataBytesMax) bytes is refused (exit 65) before it is read. A progress bar is
        shown on standard error when it is a terminal.

        As each save request is on disk it prints `added ID` for each of its cards and then `saved FILE
        cards A-B at sequence N by request UUID`. At the end it prints `rejected FILE card N line L:
        REASON` for each rejected card, then the counts and the new head sequence. It exits 0 when
        every card was imported and 65 when any was rejected (after importing the good ones, unless
        --strict).

        Each save request's id is derived from the import's request id (--request-id, or a new one) and
        the cards it holds. When a save fails, the error names its request, the cards saved before it
        stay saved, and the import stops (exit 74, or 79 when the failed request's outcome is
        unknown); running the same import again, with the same files and options and --request-id set to
        the id the error names, saves each remaining card exactly once.

        Options:
          --author NAME        The transaction author recorded in the ledger and shown by the audit log.
          --request-id UUID    The import's request id, from which each save request's id is derived.
          --strict             Imports a file only if every card in it can be imported.
          --charset NAME       The encoding of text without a CHARSET parameter when it is not UTF-8:
                               windows-1252 (the default), iso-8859-1, windows-1251 or shift_jis.
          --json               Prints {"imported": [{file, card, identifier}], "rejected": [{file, card,
                               line, kind, message}], "batches": [{file, firstCard, lastCard, sequence,
                               requestId, alreadyCommitted}], "head"} at the end instead of text, also
                               when a save failed (then with "failed": {file, firstCard, lastCard,
                               requestId, outcome, message}).
        """
    static let valued: Set<String> = ["author", "charset", "request-id"]
    static let flags: Set<String> = ["strict", "json"]

    var files: [String]
    var author: String?
    var strict: Bool
    var encoding: String.Encoding
    var json: Bool
    var requestID: UUID

    var requestIdentifier: UUID? { requestID }

    init(_ arguments: Arguments) throws(CommandFailure) {
        files = arguments.positionals
        guard !files.isEmpty else { throw CommandFailure(.usage, "import needs at least one FILE") }
        author = try arguments.single("author")
        strict = arguments.has("strict")
        json = arguments.has("json")
        requestID = try parseRequestID(try arguments.single("request-id"))
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
        let report = ImportReport(json: json)
        do {
            try importFiles(context, into: report)
        } catch let failure as CommandFailure where failure.namesRequest {
            throw failure
        } catch {
            // The import's own line: cards may have been saved before the failure.
            let (code, message) = Tool.describe(error)
            throw CommandFailure(code, report.failureLine(message, base: requestID), namesRequest: true)
        }
    }

    /// Reads the files, then imports them in order, telling `report` what lands.
    private func importFiles(_ context: CommandContext, into report: ImportReport) throws {
        var inputs: [(String, Data)] = []
        for file in files {
            inputs.append((file, try readInput(file, bytesMax: VCardSerialization.dataBytesMax)))
        }
        let store = try context.openForWriting()
        defer { store.close() }
        for (index, (file, data)) in inputs.enumerated() {
            var bar = ProgressBar.Counter(label: "importing \(file)")
            defer { bar.finish() }
            let summary: VCardImportSummary
            do {
                summary = try store.importVCards(
                    data, author: author, strict: strict, fallbackEncoding: encoding,
                    requestIdentifier: ContactStore.derivedRequestIdentifier(base: requestID, "file \(index)"),
                    onBatch: { batch in
                        bar.finish()
                        report.landed(batch, file: file)
                    },
                    progress: { done, total in bar.update(done: done, total: total) })
            } catch let error as VCardCardError {
                throw CommandFailure(.dataError, "\(file): \(error)")
            } catch let error as VCardImportInterrupted {
                bar.finish()
                throw report.stopped(by: error, file: file, base: requestID, head: store.headDigest.sequence)
            }
            report.rejected(summary.rejected, file: file)
        }
        report.finish(head: store.headDigest.sequence)
        if report.rejectedCount > 0 {
            // The imported cards are saved and the rejected ones never will be: no request to name.
            throw CommandFailure(
                .dataError, "\(report.rejectedCount) card(s) were not imported; see the rejected lines",
                namesRequest: true)
        }
    }
}

/// What `import` prints: each batch as it lands (text), and the whole report at the end (text
/// or JSON), also when a save failed. A class, so that the callback of each batch can add to it.
final class ImportReport {
    let json: Bool
    private var imported: [JSONValue] = []
    private var rejected: [JSONValue] = []
    private var batches: [JSONValue] = []
    private var problems: [String] = []

    init(json: Bool) { self.json = json }

    /// How many cards were rejected.
    var rejectedCount: Int { rejected.count }

    /// Records a batch that is on disk and, in text, prints its `added` lines and its `saved` line.
    func landed(_ batch: VCardImportBatch, file: String) {
        let first = batch.imported.first?.cardIndex ?? 0
        let last = batch.imported.last?.cardIndex ?? 0
        for (card, identifier) in batch.imported {
            imported.append(["file": .string(file), "card": .integer(card), "identifier": .string(identifier)])
        }
        batches.append([
            "file": .string(file), "firstCard": .integer(first), "lastCard": .integer(last),
            "sequence": .integer(batch.sequence), "requestId": .string(batch.requestIdentifier.uuidString),
            "alreadyCommitted": .bool(batch.wasAlreadyCommitted),
        ])
        guard !json else { return }
        let saved = batch.wasAlreadyCommitted ? "already saved" : "saved"
        Terminal.lines(
            batch.imported.map { "added \($0.identifier)" } + [
                "\(saved) \(file) cards \(first)-\(last) at sequence \(batch.sequence) by request "
                    + batch.requestIdentifier.uuidString
            ])
    }

    /// Records the cards a file rejected.
    func rejected(_ errors: [VCardCardError], file: String) {
        for error in errors {
            problems.append("rejected \(file) card \(error.cardIndex) line \(error.line): \(error.message)")
            rejected.append([
                "file": .string(file), "card": .integer(error.cardIndex), "line": .integer(error.line),
                "kind": .string(error.kind.rawValue), "message": .string(error.message),
            ])
        }
    }

    /// The line of a failure other than a failed save: the error and the import's request, with
    /// how many cards were saved before it and how to finish the import when there were any.
    func failureLine(_ message: String, base: UUID) -> String {
        guard !imported.isEmpty else { return "\(message) (request \(base.uuidString) not saved)" }
        return "\(message); \(imported.count) card(s) were saved before it; run the same import again with "
            + "--request-id \(base.uuidString) to save the rest exactly once"
    }

    /// Prints the report's end: the rejected lines, the counts and the head; or the JSON object.
    func finish(head: UInt64, failed: JSONValue? = nil) {
        if json {
            var object: JSONObject = [
                "imported": .array(imported), "rejected": .array(rejected), "batches": .array(batches),
                "head": .integer(head),
            ]
            if let failed { object["failed"] = failed }
            Terminal.json(.object(object))
        } else {
            Terminal.lines(problems)
            Terminal.line("imported \(imported.count), rejected \(rejected.count)")
            Terminal.line("head \(head)")
        }
    }

    /// Prints the report of an import a failed save stopped, and returns the failure to exit
    /// with: it names the failed request, its cards, what became of it, and how to finish.
    func stopped(
        by error: VCardImportInterrupted, file: String, base: UUID, head: UInt64
    ) -> CommandFailure {
        rejected(error.summary.rejected, file: file)
        let code = ExitCode(error.error)
        let cards = "cards \(error.failedCardIndexes.first ?? 0)-\(error.failedCardIndexes.last ?? 0) of \(file)"
        let id = error.failedRequestIdentifier.uuidString
        let outcome = code == .outcomeUnknown ? "unknown" : "not saved"
        finish(
            head: head,
            failed: [
                "file": .string(file), "firstCard": .integer(error.failedCardIndexes.first ?? 0),
                "lastCard": .integer(error.failedCardIndexes.last ?? 0), "requestId": .string(id),
                "outcome": .string(outcome), "message": .string(error.error.message),
            ])
        let what = code == .outcomeUnknown ? "outcome unknown for" : "not saved:"
        return CommandFailure(
            code,
            "\(what) request \(id) (\(cards)): \(error.error.message); \(imported.count) card(s) were saved before "
                + "it; run the same import again with --request-id \(base.uuidString) to save the rest exactly once",
            namesRequest: true)
    }
}
