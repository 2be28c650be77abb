import ContactsLedger
import Foundation

/// The options every write takes (`--author`, `--request-id`, `--json`) and how a write reports.
struct WriteOptions {
    /// The option names that take a value.
    static let valued: Set<String> = ["author", "request-id"]
    /// The flags.
    static let flags: Set<String> = ["json"]

    var author: String?
    var requestID: UUID
    var json: Bool

    /// Reads the options.
    init(_ arguments: Arguments) throws(CommandFailure) {
        author = try arguments.single("author")
        requestID = try parseRequestID(try arguments.single("request-id"))
        json = arguments.has("json")
    }

    /// An empty save request with the author and request id.
    func request() -> SaveRequest {
        SaveRequest(requestIdentifier: requestID, transactionAuthor: author)
    }

    /// Executes a request on the store, which returns once the record is on disk, and prints
    /// what it did: `VERB ID` for each identifier (`unchanged ID` when nothing changed), then
    /// `head N`; or one JSON object.
    func execute(_ request: SaveRequest, on store: ContactStore, verb: String, identifiers: [String]? = nil) throws {
        let result = try ProgressBar.whileRunning("saving") { try store.execute(request) }
        let head = store.headDigest.sequence
        // A retried request reports the identifiers of the original record.
        let affected =
            result.wasAlreadyCommitted ? result.affectedIdentifiers : identifiers ?? result.affectedIdentifiers
        let changed = result.wasAlreadyCommitted || !result.affectedIdentifiers.isEmpty
        if json {
            Terminal.json([
                "action": .string(changed ? verb : "unchanged"),
                "identifiers": .array(affected.map { .string($0) }),
                "sequence": .integer(result.sequence),
                "head": .integer(head),
                "time": .string(RFC3339.string(from: result.commitDate)),
                "requestId": .string(request.requestIdentifier.uuidString),
                "alreadyCommitted": .bool(result.wasAlreadyCommitted),
            ])
            return
        }
        var lines = affected.map { "\(changed ? verb : "unchanged") \($0)" }
        if result.wasAlreadyCommitted {
            lines.append(
                "already committed at sequence \(result.sequence) by request \(request.requestIdentifier.uuidString)")
        }
        lines.append("head \(head)")
        Terminal.lines(lines)
    }
}
