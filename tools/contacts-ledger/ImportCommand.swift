import ContactsLedger
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `import`: contacts from vCard files, in whole save requests.
struct ImportCommand: ToolCommand {
    static let name = "import"
    static let summary = "Imports contacts from vCard files (2.1, 3.0 or 4.0)."
    static let usage =
        "import FILE... [--duplicates add|update|skip] [--author NAME] [--request-id UUID] [--strict] [--charset NAME] "
        + "[--quiet] [--json]"
    static let help = """
        Reads the vCard files (- reads standard input) and adds their contacts, in save requests of at
        most \(ContactStore.importBatchMax) cards, each committed whole and on disk before the next. A
        malformed card, or one the store refuses, is reported with its file, its index in the file
        (counted from 0) and its line, and the good cards around it are imported; with --strict,
        nothing from a file is imported unless every card in it can be. A file larger than
        \(VCardSerialization.dataBytesMax) bytes is refused (exit 65) before it is read. A progress bar is
        shown on standard error when it is a terminal. Cards glued together by files joined without a
        final line break (`END:VCARDBEGIN:VCARD`) are read apart. An empty file, or one that is not
        vCard text at all ("not a vCard file: it starts with PNG image data"), is refused (exit 65).

        A card whose UID is the identifier of a contact in the ledger (as every card `export` writes
        is) updates that contact instead of adding a copy, so importing the same export twice changes
        nothing the second time: a card that matches its contact is counted as unchanged, and a batch
        of such cards writes no record. A card whose UID names no contact is added under it.
        --duplicates add adds every card as a new contact; --duplicates skip leaves the contacts
        their cards name as they are.

        As each save request is on disk it prints `added ID` or `updated ID` for each of its cards
        (unless the files hold more cards than fit on the screen, or 50 when standard output is not a
        terminal) and then `saved FILE cards A-B at sequence N by request UUID`. At the end it prints
        `rejected FILE card N line L: REASON` for each rejected card, then `imported A, updated U,
        unchanged K, rejected R` and the new head sequence; with --quiet, only the rejected lines and
        errors. It exits 0 when every card was imported and 65 when any was rejected (after importing
        the good ones, unless --strict).

        Each save request's id is derived from the import's request id (--request-id, or a new one) and
        the cards it holds. When a save fails, the error names its request, the cards saved before it
        stay saved, and the import stops (exit 74, or 79 when the failed request's outcome is
        unknown); running the same import again, with the same files and options and --request-id set to
        the id the error names, saves each remaining card exactly once.

        Options:
          --duplicates MODE    What a card whose UID names a contact in the ledger does: update it (the
                               default), add a new contact (add), or leave it (skip).
          --author NAME        The transaction author recorded in the ledger and shown by the audit log.
          --request-id UUID    The import's request id, from which each save request's id is derived.
          --strict             Imports a file only if every card in it can be imported.
          --charset NAME       The encoding of text without a CHARSET parameter when it is not UTF-8:
                               windows-1252 (the default), iso-8859-1, windows-1251 or shift_jis.
          --quiet              Prints only rejected cards and errors.
          --json               Prints {"imported": [{file, card, identifier}], "updated": [...],
                               "unchanged": [...], "rejected": [{file, card, line, kind, message}],
                               "batches": [{file, firstCard, lastCard, sequence, requestId,
                               alreadyCommitted}], "head"} at the end instead of text, also
                               when a save failed (then with "failed": {file, firstCard, lastCard,
                               requestId, outcome, message}).
        """
    static let valued: Set<String> = ["author", "charset", "request-id", "duplicates"]
    static let flags: Set<String> = ["strict", "json", "quiet"]

    var files: [String]
    var author: String?
    var strict: Bool
    var encoding: String.Encoding
    var json: Bool
    var quiet: Bool
    var duplicates: VCardDuplicatePolicy
    var requestID: UUID

    var requestIdentifier: UUID? { requestID }

    init(_ arguments: Arguments) throws(CommandFailure) {
        files = arguments.positionals
        guard !files.isEmpty else { throw CommandFailure(.usage, "import needs at least one FILE") }
        author = try arguments.single("author")
        strict = arguments.has("strict")
        json = arguments.has("json")
        quiet = arguments.has("quiet")
        if json && quiet { throw CommandFailure(.usage, "--quiet and --json cannot be used together") }
        duplicates = .update
        if let text = try arguments.single("duplicates") {
            guard let policy = VCardDuplicatePolicy(rawValue: text) else {
                throw CommandFailure(.usage, "--duplicates must be add, update or skip, got \(text)")
            }
            duplicates = policy
        }
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
        let report = ImportReport(json: json, quiet: quiet)
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
            let data = try readInput(file, bytesMax: VCardSerialization.dataBytesMax)
            // Checked before anything is imported, so that a wrong file among several stops all.
            if let problem = VCardSerialization.fileProblem(data) {
                throw CommandFailure(.dataError, "\(file): \(problem)", namesRequest: true)
            }
            inputs.append((file, data))
        }
        let store = try context.openForWriting()
        defer { store.close() }
        for (index, (file, data)) in inputs.enumerated() {
            var bar = ProgressBar.Counter(label: "importing \(file)")
            defer { bar.finish() }
            let summary: VCardImportSummary
            do {
                summary = try store.importVCards(
                    data, author: author, strict: strict, fallbackEncoding: encoding, duplicates: duplicates,
                    requestIdentifier: ContactStore.derivedRequestIdentifier(base: requestID, "file \(index)"),
                    onBatch: { batch in
                        bar.finish()
                        report.landed(batch, file: file)
                    },
                    progress: { done, total in
                        report.expect(cards: total, file: file, index: index)
                        bar.update(done: done, total: total)
                    })
            } catch let error as VCardCardError {
                throw CommandFailure(.dataError, "\(file): \(error)")

            } catch let error as VCardImportInterrupted {
                bar.finish()
                throw report.stopped(by: error, file: file, base: requestID, head: store.headDigest.sequence)
            }
            report.rejected(summary.rejected, file: file)
            report.unchanged(summary.unchanged, file: file)
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
    let quiet: Bool
    private var imported: [JSONValue] = []
    private var updated: [JSONValue] = []
    private var unchanged: [JSONValue] = []
    private var rejected: [JSONValue] = []
    private var batches: [JSONValue] = []
    private var problems: [String] = []
    /// The cards of the files read so far, by file.
    private var expected: [Int: Int] = [:]

    init(json: Bool, quiet: Bool = false) {
        self.json = json
        self.quiet = quiet
    }

    /// How many cards were rejected.
    var rejectedCount: Int { rejected.count }

    /// Learns how many cards file number `index` holds, before its first batch lands.
    func expect(cards: Int, file: String, index: Int) {
        expected[index] = cards
    }

    /// Whether each contact gets a line of its own: only while every card read so far fits on
    /// one screen, so that a large import ends with its summary line on screen.
    private var printsEachCard: Bool {
        !json && !quiet && expected.values.reduce(0, +) <= Self.screenRows
    }

    /// The rows of the terminal standard output is, or 50 when it is not one.
    static let screenRows: Int = {
        var size = winsize()
        guard Terminal.stdoutIsTerminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else {
            return 50
        }
        return Int(size.ws_row)
    }()

    /// Records a batch that is on disk and, in text, prints its `added` and `updated` lines and
    /// its `saved` line.
    func landed(_ batch: VCardImportBatch, file: String) {
        let cards = (batch.imported + batch.updated).map(\.cardIndex)
        let first = cards.min() ?? 0
        let last = cards.max() ?? 0
        imported += batch.imported.map { Self.entry(file, $0.cardIndex, $0.identifier) }
        updated += batch.updated.map { Self.entry(file, $0.cardIndex, $0.identifier) }
        batches.append([
            "file": .string(file), "firstCard": .integer(first), "lastCard": .integer(last),
            "sequence": .integer(batch.sequence), "requestId": .string(batch.requestIdentifier.uuidString),
            "alreadyCommitted": .bool(batch.wasAlreadyCommitted),
        ])
        guard !json && !quiet else { return }
        let saved = batch.wasAlreadyCommitted ? "already saved" : "saved"
        let each =
            printsEachCard
            ? batch.imported.map { "added \($0.identifier)" } + batch.updated.map { "updated \($0.identifier)" } : []
        Terminal.lines(
            each + [
                "\(saved) \(file) cards \(first)-\(last) at sequence \(batch.sequence) by request "
                    + batch.requestIdentifier.uuidString
            ])
    }

    /// Records the contacts a file's cards left as they were.
    func unchanged(_ cards: [(cardIndex: Int, identifier: String)], file: String) {
        unchanged += cards.map { Self.entry(file, $0.cardIndex, $0.identifier) }
    }

    private static func entry(_ file: String, _ card: Int, _ identifier: String) -> JSONValue {
        ["file": .string(file), "card": .integer(card), "identifier": .string(identifier)]
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
        guard imported.count + updated.count > 0 else { return "\(message) (request \(base.uuidString) not saved)" }
        return
            "\(message); \(imported.count + updated.count) card(s) were saved before it; run the same import again with "
            + "--request-id \(base.uuidString) to save the rest exactly once"
    }

    /// Prints the report's end: the rejected lines, the counts and the head; or the JSON object.
    func finish(head: UInt64, failed: JSONValue? = nil) {
        if json {
            var object: JSONObject = [
                "imported": .array(imported), "updated": .array(updated), "unchanged": .array(unchanged),
                "rejected": .array(rejected), "batches": .array(batches), "head": .integer(head),
            ]
            if let failed { object["failed"] = failed }
            Terminal.json(.object(object))
        } else {
            Terminal.lines(problems)
            guard !quiet else { return }
            Terminal.line(
                "imported \(imported.count), updated \(updated.count), unchanged \(unchanged.count), "
                    + "rejected \(rejected.count)")
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
            "\(what) request \(id) (\(cards)): \(error.error.message); \(imported.count + updated.count) card(s) were saved before "
                + "it; run the same import again with --request-id \(base.uuidString) to save the rest exactly once",
            namesRequest: true)
    }
}
