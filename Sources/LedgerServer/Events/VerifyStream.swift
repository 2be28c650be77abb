import ContactsLedger
import Foundation
import LedgerAudit

/// `GET /api/v1/verify/stream`: a verify run as Server-Sent Events, `progress` `{done, total}`
/// as records are checked (at most ten a second), then `result` (the form of `verify --json`)
/// or `failed` (`{error, message}`).
enum VerifyStream {
    static func response(_ ledger: LedgerContext) -> HTTPResponse {
        .eventStream { sink in
            var lastSent = Date.distantPast
            do {
                let verification = try ledger.auditor().verify { done, total in
                    guard -lastSent.timeIntervalSinceNow >= 0.1 || done == total else { return }
                    lastSent = Date()
                    sink.send(event: "progress", data: "{\"done\":\(done),\"total\":\(total)}")
                }
                sink.send(event: "result", data: value(verification).serialized())
            } catch {
                sink.send(event: "failed", data: ErrorResponses.response(for: error).bodyText)
            }
        }
    }

    /// A verify run's result.
    static func value(_ verification: LedgerAuditor.Verification) -> JSONValue {
        AuditJSON.value(for: verification)
    }
}
