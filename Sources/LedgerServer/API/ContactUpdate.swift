import ContactsLedger
import Foundation
import LedgerAudit

/// `PATCH /api/v1/contacts/:id`: `{revision, before, after}`, the properties changed as they
/// were read at `revision` and as they are to be. The store decides as it does for any stale
/// save (``SaveRequest/ConflictPolicy/mergeOrRefuse``): a change to properties no one else
/// touched since is merged; one to a property changed meanwhile is refused, and the 409 carries
/// the contact as it is now, so that the page can show what changed.
enum ContactUpdate {
    static func update(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        let identifier = try ledger.contactIdentifier(request.parameters[0])
        let contact = try changedContact(body, identifier: identifier)
        do {
            let written = try ledger.save(body, action: "updated") { saveRequest in
                saveRequest.update(contact)
                return [identifier]
            }
            return .json(written)
        } catch let error as ContactStoreError where error.code == .recordChangedSinceFetch {
            let current = try ledger.store.unifiedContact(withIdentifier: identifier, keysToFetch: [ContactKeySet.all])
            return .error(
                HTTPError(409, "recordChangedSinceFetch", error.message),
                extra: [
                    ("keyPaths", .array(error.keyPaths.map { .string($0) })),
                    ("current", ContactJSON.value(for: current)), ("revision", .integer(current.revision)),
                ])
        }
    }

    /// The contact as the body changes it: the `after` values over the `before` values, at the revision read.
    static func changedContact(_ body: JSONObject, identifier: String) throws -> MutableContact {
        guard let revision = body["revision"]?.intValue, revision >= 0 else {
            throw HTTPError(400, "badParameter", "revision must be the contact's revision when it was read")
        }
        guard let before = body["before"]?.objectValue, let after = body["after"]?.objectValue, !after.isEmpty else {
            throw HTTPError(
                400, "badParameter", "the body needs before and after: the changed properties as read and as wanted")
        }
        var keys = ContactKeySet(.identifier)
        for name in after.keys {
            guard let row = ContactKeyTable.rowsByJSONKey[name], ContactKeySet.writable.contains(row.key) else {
                throw HTTPError(400, "badParameter", "\(name) is not a property that can be changed")
            }
            guard before[name] != nil else {
                throw HTTPError(
                    400, "badParameter", "before has no \(name): give every changed property as it was read")
            }
            keys.insert(row.key)
        }
        let old = try ContactJSON.mutableContact(from: .object(withIdentifier(before, identifier)))
        let new = try ContactJSON.mutableContact(from: .object(withIdentifier(after, identifier)))
        return MutableContact(
            identifier: identifier, values: new.values, availableKeys: keys, base: old.values,
            revision: UInt64(revision))
    }

    private static func withIdentifier(_ object: JSONObject, _ identifier: String) -> JSONObject {
        JSONObject(
            object.filter { $0.key != "identifier" }.map { ($0.key, $0.value) } + [("identifier", .string(identifier))])
    }
}
