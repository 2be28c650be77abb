import ContactsLedger
import Foundation
import LedgerAudit

/// `/api/v1/groups`: the groups with their members (`group list --json`'s form), and creating,
/// renaming and deleting groups and changing their members.
enum GroupsAPI {
    static func register(_ router: inout Router, _ ledger: LedgerContext) {
        router.add("GET", "/api/v1/groups") { try list($0, ledger) }
        router.add("POST", "/api/v1/groups") { try create($0, ledger) }
        router.add("PATCH", "/api/v1/groups/:id") { try rename($0, ledger) }
        router.add("DELETE", "/api/v1/groups/:id") { try delete($0, ledger) }
        router.add("POST", "/api/v1/groups/:id/members") { try addMember($0, ledger) }
        router.add("DELETE", "/api/v1/groups/:id/members/:contact") { try removeMember($0, ledger) }
    }

    /// `[{identifier, name, members}]`.
    static func list(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let (store, _, _) = try ledger.reading(asOf: request.query("asOf"))
        let groups = try store.groups().map { group -> JSONValue in
            let members = try store.unifiedContacts(
                matching: .inGroup(withIdentifier: group.identifier), keysToFetch: [ContactKeySet(.identifier)])
            return [
                "identifier": .string(group.identifier), "name": .string(group.name),
                "members": .array(members.map { .string($0.identifier) }),
            ]
        }
        return .json(.array(groups))
    }

    /// `{name}`.
    static func create(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        let group = MutableGroup(name: try name(body))
        let written = try ledger.save(body, action: "created") { saveRequest in
            saveRequest.add(group, toContainerWithIdentifier: nil)
            return [group.identifier]
        }
        return .json(written, status: 201)
    }

    /// `{name}`.
    static func rename(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        var group = try existing(request.parameters[0], ledger).mutableCopy()
        group.name = try name(body)
        return .json(
            try ledger.save(body, action: "renamed") { saveRequest in
                saveRequest.update(group)
                return [group.identifier]
            })
    }

    static func delete(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        let group = try existing(request.parameters[0], ledger).mutableCopy()
        return .json(
            try ledger.save(body, action: "deleted") { saveRequest in
                saveRequest.delete(group)
                return [group.identifier]
            })
    }

    /// `{contact}`: the contact's identifier.
    static func addMember(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        guard let text = body["contact"]?.stringValue else {
            throw HTTPError(400, "badParameter", "the body needs contact, the identifier of the contact to add")
        }
        return try membership(request, body, contact: text, ledger: ledger, adding: true)
    }

    static func removeMember(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        try membership(request, try request.object(), contact: request.parameters[1], ledger: ledger, adding: false)
    }

    private static func membership(
        _ request: RouteRequest, _ body: JSONObject, contact text: String, ledger: LedgerContext, adding: Bool
    ) throws -> HTTPResponse {
        let group = try existing(request.parameters[0], ledger)
        let identifier = try ledger.contactIdentifier(text)
        let contact = try ledger.store.unifiedContact(
            withIdentifier: identifier, keysToFetch: [ContactKeySet(.identifier)])
        return .json(
            try ledger.save(body, action: adding ? "added" : "removed") { saveRequest in
                if adding {
                    saveRequest.addMember(contact, to: group)
                } else {
                    saveRequest.removeMember(contact, from: group)
                }
                return [identifier, group.identifier]
            })
    }

    private static func existing(_ text: String, _ ledger: LedgerContext) throws -> Group {
        let identifier = try ledger.store.resolveIdentifier(text, kinds: .groups)
        guard let group = try ledger.store.groups(matching: .withIdentifiers([identifier])).first else {
            throw HTTPError(404, "recordDoesNotExist", "group \(text) does not exist")
        }
        return group
    }

    private static func name(_ body: JSONObject) throws(HTTPError) -> String {
        guard let name = body["name"]?.stringValue, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw HTTPError(400, "badParameter", "the body needs name, a non-empty string")
        }
        return name
    }
}
