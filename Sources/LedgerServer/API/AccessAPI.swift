import ContactsLedger
import Foundation
import LedgerAudit

/// The picker's API: the clients the ledger knows and their grants, and granting or revoking
/// contacts for an app, recorded with the owner as author and the app named.
enum AccessAPI {
    static func register(_ router: inout Router, _ ledger: LedgerContext) {
        router.add("GET", "/api/v1/clients") { _ in
            .json(.array(try ledger.store.clientAccessRecords().map(AuditJSON.value(for:))))
        }
        router.add("POST", "/api/v1/clients/:client/grants") { try change($0, ledger, granting: true) }
        router.add("POST", "/api/v1/clients/:client/revocations") { try change($0, ledger, granting: false) }
    }

    /// `{identifiers: [...]}`: grants or revokes those contacts; answers `{action, client,
    /// identifiers, head}`, the form of `grant --json` and `revoke --json`.
    static func change(_ request: RouteRequest, _ ledger: LedgerContext, granting: Bool) throws -> HTTPResponse {
        let client = request.parameters[0]
        guard !client.isEmpty, client.count <= 200 else {
            throw HTTPError(400, "badParameter", "an app's identifier is 1 to 200 characters")
        }
        let body = try request.object()
        guard let texts = body["identifiers"]?.arrayValue?.compactMap(\.stringValue), !texts.isEmpty,
            texts.count == body["identifiers"]?.arrayValue?.count
        else {
            throw HTTPError(400, "badParameter", "the body needs identifiers, a non-empty array of contact identifiers")
        }
        let identifiers = try texts.map { try ledger.contactIdentifier($0) }
        let store = ledger.store
        // The blocking calls: a connection's thread must not wait on a task, which needs a
        // thread of the cooperative pool that the process's other work may be holding.
        if granting {
            try store.grantAccess(toContactsWithIdentifiers: identifiers, toClient: client)
        } else {
            try store.revokeAccess(toContactsWithIdentifiers: identifiers, fromClient: client)
        }
        return .json([
            "action": .string(granting ? "granted" : "revoked"), "client": .string(client),
            "identifiers": .array(identifiers.map { .string($0) }), "head": .integer(store.headDigest.sequence),
        ])
    }
}
