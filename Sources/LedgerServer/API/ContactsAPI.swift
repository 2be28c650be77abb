import ContactsLedger
import Foundation
import LedgerAudit

/// `/api/v1/contacts`: the list with paging and search, one contact, add, update against the
/// revision it was read at, delete.
enum ContactsAPI {
    /// The keys of a contact in the list: names, organization, the first phone and email, and
    /// whether there is an image; the image itself only on the contact's own page.
    static let summaryKeys = ContactKeySet([
        .identifier, .contactType, .givenName, .middleName, .familyName, .organizationName, .phoneNumbers,
        .emailAddresses, .imageDataAvailable,
    ])

    static func register(_ router: inout Router, _ ledger: LedgerContext) {
        router.add("GET", "/api/v1/contacts") { try list($0, ledger) }
        router.add("POST", "/api/v1/contacts") { try add($0, ledger) }
        router.add("GET", "/api/v1/contacts/:id") { try show($0, ledger) }
        router.add("PATCH", "/api/v1/contacts/:id") { try ContactUpdate.update($0, ledger) }
        router.add("DELETE", "/api/v1/contacts/:id") { try delete($0, ledger) }
    }

    /// A page of contacts in the store's order, all or those a search finds.
    static func list(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let offset = try request.integer("offset", in: 0...Int(Int32.max)) ?? 0
        let limit = try request.integer("limit", in: 1...500) ?? 50
        let (store, listing, isPast) = try ledger.reading(asOf: request.query("asOf"))
        let identifiers: [String]
        let total: Int
        let auditor = isPast ? nil : try ledger.auditor()
        if let query = request.query("q")?.trimmingCharacters(in: .whitespaces), !query.isEmpty {
            (identifiers, total) = try listing.page(
                of: store, auditor: auditor, matching: ContactSearch.predicates(for: query), offset: offset,
                limit: limit)
        } else {
            (identifiers, total, _) = try listing.page(of: store, auditor: auditor, offset: offset, limit: limit)
        }
        let contacts = try fetch(identifiers, keys: summaryKeys, from: store)
        return .json([
            "head": .integer(store.headDigest.sequence), "asOf": isPast ? .integer(store.headDigest.sequence) : .null,
            "total": .integer(total), "offset": .integer(offset), "limit": .integer(limit),
            "contacts": .array(contacts.map(ContactJSON.value(for:))),
        ])
    }

    /// The contacts with these identifiers, in this order, each as itself.
    static func fetch(_ identifiers: [String], keys: ContactKeySet, from store: ContactStore) throws -> [Contact] {
        guard !identifiers.isEmpty else { return [] }
        var request = ContactFetchRequest(keysToFetch: [keys], predicate: .withIdentifiers(identifiers))
        request.unifyResults = false
        var byIdentifier: [String: Contact] = [:]
        try store.enumerateContacts(with: request) { contact, _ in byIdentifier[contact.identifier] = contact }
        return identifiers.compactMap { byIdentifier[$0] }
    }

    /// One contact with every property and its revision; a deleted one's 404 says which record
    /// deleted it.
    static func show(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let (store, _, isPast) = try ledger.reading(asOf: request.query("asOf"))
        let identifier = (try? ledger.contactIdentifier(request.parameters[0], in: store)) ?? request.parameters[0]
        do {
            let contact = try store.unifiedContact(withIdentifier: identifier, keysToFetch: [ContactKeySet.all])
            return .json([
                "contact": ContactJSON.value(for: contact), "revision": .integer(contact.revision),
                "head": .integer(store.headDigest.sequence),
                "asOf": isPast ? .integer(store.headDigest.sequence) : .null,
            ])
        } catch let error as ContactStoreError where error.code == .recordDoesNotExist {
            let through = isPast ? store.headDigest.sequence : nil
            let deletion = try? ledger.auditor().lastDeletion(ofContact: identifier, through: through)
            return .error(
                HTTPError(404, "recordDoesNotExist", "contact \(identifier) does not exist"),
                extra: [
                    ("identifier", .string(identifier)),
                    ("deleted", deletion.map { AuditJSON.value(for: $0) } ?? .null),
                ])
        }
    }

    /// Adds a contact: `{contact, author?, requestId?}`, the contact in the CLI's JSON form.
    static func add(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        guard let value = body["contact"] else {
            throw HTTPError(400, "badParameter", "the body needs a contact: {\"contact\": {...}}")
        }
        let contact = try ContactJSON.mutableContact(from: value)
        let written = try ledger.save(body, action: "added") { saveRequest in
            saveRequest.add(contact, toContainerWithIdentifier: nil)
            return [contact.identifier]
        }
        return .json(written, status: 201)
    }

    /// Deletes a contact; with `revision`, only if it has not changed since it was read at it.
    static func delete(_ request: RouteRequest, _ ledger: LedgerContext) throws -> HTTPResponse {
        let body = try request.object()
        let identifier = try ledger.contactIdentifier(request.parameters[0])
        let written = try ledger.save(body, action: "deleted") { saveRequest in
            let current = try ledger.store.unifiedContact(withIdentifier: identifier, keysToFetch: [ContactKeySet.all])
            if let revision = body["revision"]?.intValue, UInt64(clamping: revision) != current.revision {
                throw ContactStoreError(
                    .recordChangedSinceFetch,
                    "contact \(identifier) changed since it was read at revision \(revision); read it again before deleting",
                    affectedIdentifiers: [identifier])
            }
            saveRequest.delete(current.mutableCopy())
            return [identifier]
        }
        return .json(written)
    }
}

/// Search as the user types: by name, and by email address or phone number when the text
/// looks like one, each from the store's search indexes; the listing puts them in order.
enum ContactSearch {
    /// The predicates a query is searched by.
    static func predicates(for query: String) -> [ContactPredicate] {
        var predicates: [ContactPredicate] = [.matchingName(query)]
        if query.contains("@") { predicates.append(.matchingEmailAddress(query)) }
        let digits = query.filter(\.isNumber).count
        if digits >= 3, query.allSatisfy({ $0.isNumber || " +-().".contains($0) }) {
            predicates.append(.matching(PhoneNumber(stringValue: query)))
        }
        return predicates
    }
}
