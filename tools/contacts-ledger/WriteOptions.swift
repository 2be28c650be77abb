import ContactsLedger
import Foundation
import LedgerAudit

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

    /// Opens the ledger for writing, saves the request `build` makes with the store (and the
    /// identifiers to print, or nil for those the store reports), and prints what it did: `VERB ID`
    /// for each identifier (`unchanged ID` when nothing changed), then `head N`; or one JSON object.
    /// The save returns once the record is on disk.
    ///
    /// A request id whose record is in the ledger already is answered from that record, before
    /// `build` runs: a retry after an unknown outcome must not fail because the first attempt
    /// did its work (a deleted contact no longer exists to be deleted).
    func save(
        _ context: CommandContext, verb: String,
        _ build: (ContactStore) throws -> (request: SaveRequest, identifiers: [String]?)
    ) throws {
        try commit(context, verb: verb) { store in
            let (request, identifiers) = try build(store)
            return (try store.execute(request), identifiers)
        }
    }

    /// Opens the ledger for writing, lets `write` save with the store (returning the result and
    /// the identifiers to print, or nil for those the store reports), and prints what it did as
    /// ``save(_:verb:_:)`` does; a request id already in the ledger is answered from its record
    /// before `write` runs.
    func commit(
        _ context: CommandContext, verb: String,
        _ write: (ContactStore) throws -> (result: SaveResult, identifiers: [String]?)
    ) throws {
        let store = try context.openForWriting()
        defer { store.close() }
        if let earlier = try store.result(ofRequest: requestID) {
            report(earlier, head: store.headDigest.sequence, verb: verb, identifiers: nil)
            return
        }
        let (result, identifiers) = try ProgressBar.whileRunning("saving") { try write(store) }
        report(result, head: store.headDigest.sequence, verb: verb, identifiers: identifiers)
    }

    /// Prints a save's result: `VERB ID` lines (a retried request reports the identifiers of the
    /// original record), or `textLines` when given, the retry's note, and `head N`; or one JSON
    /// object, with the `extra` members besides the usual ones.
    func report(
        _ result: SaveResult, head: UInt64, verb: String, identifiers: [String]?, textLines: [String]? = nil,
        extra: [String: JSONValue] = [:]
    ) {
        let affected =
            result.wasAlreadyCommitted ? result.affectedIdentifiers : identifiers ?? result.affectedIdentifiers
        let changed = result.wasAlreadyCommitted || !result.affectedIdentifiers.isEmpty
        if json {
            Terminal.json(
                AuditJSON.value(
                    for: result, action: verb, identifiers: affected, head: head, requestIdentifier: requestID,
                    extra: extra))
            return
        }
        var lines = textLines ?? affected.map { "\(changed ? verb : "unchanged") \($0)" }
        if result.wasAlreadyCommitted {
            lines.append("already committed at sequence \(result.sequence) by request \(requestID.uuidString)")
        }
        lines.append("head \(head)")
        Terminal.lines(lines)
    }

    /// The one line a failed save prints, naming its request: what the error says, and whether
    /// the request was saved (`code` tells: 79 is an unknown outcome, any other code means the
    /// request was not saved).
    static func failureLine(_ message: String, code: ExitCode, requestID: UUID) -> String {
        let id = requestID.uuidString
        if code == .outcomeUnknown {
            return "outcome unknown for request \(id): \(message); run the same command again with --request-id \(id)"
                + " to save it exactly once"
        }
        return "\(message) (request \(id) not saved)"
    }
}
