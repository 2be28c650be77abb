import ContactsLedger
import Foundation
import LedgerAudit

/// `GET /api/v1/events?after=SEQ`: the committed requests after SEQ as Server-Sent Events, then
/// each new one as it is committed, like an event store's catch-up subscription.
///
/// It follows the journal on disk as `log --follow` does (``JournalWatcher``), so it sees every
/// durable record, whichever process committed it. Each event is `event: commit`, `id:` the
/// sequence (a reconnecting browser sends it back as `Last-Event-ID`), and the record as
/// ``AuditJSON`` writes it.
enum EventsAPI {
    /// How often an idle stream writes a comment, so that a client that went away is noticed.
    static let keepAliveSeconds = 15.0

    static func register(_ router: inout Router, _ ledger: LedgerContext) {
        router.add("GET", "/api/v1/events") { request in
            let after = try start(request, ledger)
            return .eventStream { sink in follow(ledger, after: after, sink) }
        }
    }

    /// The sequence to start after: `after`, else `Last-Event-ID`, else the head (live only).
    static func start(_ request: RouteRequest, _ ledger: LedgerContext) throws(HTTPError) -> UInt64 {
        let text = request.query("after") ?? request.http.header("last-event-id")
        guard let text else { return ledger.store.headDigest.sequence }
        guard let after = UInt64(text) else {
            throw HTTPError(400, "badParameter", "after must be a sequence number, got \(text)")
        }
        return after
    }

    /// Writes the records after `after`, then waits for more, until the client or the server goes.
    static func follow(_ ledger: LedgerContext, after: UInt64, _ sink: EventSink) {
        let watcher = DirectoryWatcher(directory: ledger.ledgerPath + "/journal")
        var last = after
        var quietSince = Date()
        guard sink.send(event: "ready", data: "{\"after\":\(after)}") else { return }
        while sink.isOpen {
            do {
                let auditor = try ledger.auditor()
                if try auditor.reader.head().sequence > last {
                    let read = try auditor.forEachEntry(matching: AuditFilter(fromSequence: last + 1)) { entry in
                        last = entry.sequence
                        return sink.send(
                            event: "commit", id: String(entry.sequence), data: AuditJSON.value(for: entry).serialized())
                    }
                    last = max(last, read)
                    quietSince = Date()
                }
            } catch {
                sink.send(event: "error", data: ErrorResponses.response(for: error).bodyText)
                return
            }
            if -quietSince.timeIntervalSinceNow > keepAliveSeconds {
                guard sink.keepAlive() else { return }
                quietSince = Date()
            }
            watcher.wait()
        }
    }
}

extension HTTPResponse {
    /// The body as text, for an error sent inside a stream.
    var bodyText: String {
        String(decoding: body, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}
