import ContactsLedger
import Foundation
import LedgerAudit

extension ContactsReplay {
    /// The client context for an app.
    static func client(
        _ identifier: String, _ authorization: Authorization, _ notesEntitlement: Bool
    ) -> ClientContext {
        switch authorization {
        case .notDetermined(let answer):
            let status = answer.native
            return ClientContext(
                identifier: identifier, authorization: .notDetermined, notesEntitlement: notesEntitlement,
                accessDecision: { status })
        case .restricted: return ClientContext(identifier: identifier, authorization: .restricted)
        case .denied: return ClientContext(identifier: identifier, authorization: .denied)
        case .limited:
            return ClientContext(identifier: identifier, authorization: .limited, notesEntitlement: notesEntitlement)
        case .authorized:
            return ClientContext(identifier: identifier, authorization: .authorized, notesEntitlement: notesEntitlement)
        }
    }

    /// The contacts a limited app is granted.
    static func grants(_ authorization: Authorization) -> [String] {
        if case .limited(let identifiers) = authorization { return identifiers }
        return []
    }

    /// The store for `source`, with `grants` recorded for the client, and the scratch folder made.
    static func open(
        _ source: Source, client: ClientContext, grants: [String]
    ) async throws -> (store: ContactStore, scratch: String?) {
        switch source {
        case .empty:
            if let first = grants.first {
                throw CNError(.recordDoesNotExist, "cannot grant contact \(first): the ledger is empty")
            }
            return (ContactStore.inMemory(client: client), nil)
        case .copy(let path, let point) where grants.isEmpty:
            return (try ContactStore.inMemory(copyingLedgerAt: path, through: point, client: client), nil)
        case .copy(let path, let point):
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "contacts-replay-\(UUID().uuidString)"
            ).path
            let auditor = try LedgerAuditor(ledgerAt: path)
            _ = try auditor.restore(to: scratch, at: point ?? .sequence(try auditor.reader.head().sequence))
            try await grant(grants, to: client.identifier, inLedgerAt: scratch)
            return (try ContactStore(ledgerAt: scratch, client: client, create: false), scratch)
        case .ledger(let path, let readOnly):
            if !grants.isEmpty { try await grant(grants, to: client.identifier, inLedgerAt: path) }
            if readOnly { return (try ContactStore(readingLedgerAt: path, client: client), nil) }
            return (try ContactStore(ledgerAt: path, client: client), nil)
        }
    }

    /// Records the owner's grant of `identifiers` to a client, in the ledger at `path`.
    private static func grant(_ identifiers: [String], to client: String, inLedgerAt path: String) async throws {
        let owner = try ContactStore(ledgerAt: path, client: .owner())
        defer { owner.close() }
        try await owner.grantAccess(toContactsWithIdentifiers: identifiers, toClient: client)
    }
}
