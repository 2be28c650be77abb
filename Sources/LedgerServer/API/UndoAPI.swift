import ContactsLedger
import Foundation
import LedgerAudit

/// The undos, as `undelete`, `revert` and `restore-contact` do them: each saved as a new request
/// whose record names what it undoes; a refusal is a 404 or 409 with `{error, message,
/// conflicts}`.
enum UndoAPI {
    /// `POST /api/v1/contacts/:id/undelete`, `{asOf?}`: the contact back as it was last, or at a point.
    static func undelete(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        let point = try LedgerContext.point(body["asOf"]?.stringValue, name: "asOf")
        let identifier = request.parameters[0]
        return try run(body, ledger, action: "undeleted") { undo, options in
            try undo.undelete(contactWithIdentifier: identifier, asOf: point, options: options)
        }
    }

    /// `POST /api/v1/contacts/:id/restore`, `{to}`: the contact's properties back to a point.
    static func restore(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        guard let point = try LedgerContext.point(body["to"]?.stringValue, name: "to") else {
            throw HTTPError(400, "badParameter", "the body needs to, the point to restore the contact to")
        }
        let identifier = try ledger.contactIdentifier(request.parameters[0])
        return try run(body, ledger, action: "restored") { undo, options in
            try undo.restoreContact(withIdentifier: identifier, to: point, options: options)
        }
    }

    /// `POST /api/v1/log/:sequence/revert`, `{onlyUnchanged?}`: the record's changes undone.
    static func revert(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        let sequence = try AuditAPI.sequence(request.parameters[0])
        let onlyUnchanged = body["onlyUnchanged"]?.boolValue ?? false
        return try run(body, ledger, action: "reverted") { undo, options in
            var options = options
            options.onlyUnchanged = onlyUnchanged
            return try undo.revert(record: sequence, options: options)
        }
    }

    private static func run(
        _ body: JSONObject, _ ledger: LedgerContext, action: String,
        _ work: (LedgerUndo, UndoOptions) throws -> UndoOutcome
    ) throws -> HTTPResponse {
        let options = UndoOptions(
            author: try LedgerContext.author(body) ?? ledger.defaultAuthor,
            requestIdentifier: try LedgerContext.requestIdentifier(body) ?? UUID())
        let outcome = try work(LedgerUndo(store: ledger.store), options)
        return .json(
            AuditJSON.value(
                for: outcome, action: action, head: ledger.store.headDigest.sequence,
                requestIdentifier: options.requestIdentifier))
    }
}
