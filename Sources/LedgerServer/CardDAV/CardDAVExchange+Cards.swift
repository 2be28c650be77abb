import ContactsLedger
import Foundation

extension CardDAVExchange {
    /// `GET` (and `HEAD`) of a card: its vCard, 3.0 unless `Accept` asks for 4.0.
    func get() throws -> HTTPResponse {
        guard case .card = resource else {
            if case .book = resource { return try CardDAVExchange.collectionPage(self) }
            throw HTTPError(405, "methodNotAllowed", "only a card can be read with GET; use PROPFIND here")
        }
        let store = try service.readingStore(for: principal)
        guard case .card(let contact) = try target(resource, in: store).kind else {
            throw HTTPError(404, "notFound", "there is no card at \(request.path)")
        }
        let version = CardDAVCards.version(accept: request.header("accept"))
        return HTTPResponse(
            status: 200, contentType: "text/vcard; charset=utf-8",
            body: Array(try CardDAVCards.vCard(contact, version: version).utf8),
            headers: [("ETag", CardDAVCards.etag(contact))])
    }

    /// A short text for a browser that opens an address book's address.
    static func collectionPage(_ exchange: CardDAVExchange) throws -> HTTPResponse {
        HTTPResponse(
            status: 200, contentType: "text/plain; charset=utf-8",
            body: Array("A CardDAV address book: add \(exchange.request.path) to a CardDAV client.\n".utf8))
    }

    /// `PUT` of a card: creates the contact, or replaces the one there, with the account as the
    /// request's author. `If-None-Match: *` refuses to replace, `If-Match` to replace any but
    /// the revision named: either is 412 when it does not hold, never a silent overwrite.
    func put() throws -> HTTPResponse {
        guard case .card(let bookIdentifier, let name) = resource else {
            throw HTTPError(405, "methodNotAllowed", "PUT creates or replaces a card: PUT to BOOK/NAME.vcf")
        }
        let store = try service.readingStore(for: principal)
        let container = try book(bookIdentifier, in: store)
        var card = try Self.card(from: request)
        // A client without the notes entitlement neither reads nor writes the note.
        if !store.currentAccess.notesEntitlement { card.note = "" }
        let existing = try CardDAVCards.existingContact(named: name, in: container, store: store)
        try checkPreconditions(existing)
        let identifier = existing?.identifier ?? CardDAVCards.identifier(forResource: name)
        card.vCardExtensions += CardDAVCards.bookkeeping(name: name, identifier: identifier)
        if let existing {
            guard let changed = ContactStore.update(existing, toCard: card, replacingExtensions: true) else {
                return HTTPResponse(
                    status: 204, contentType: "text/plain; charset=utf-8", body: [],
                    headers: [("ETag", CardDAVCards.etag(existing))])
            }
            try save { $0.update(changed) }
        } else {
            // A contact a limited client adds is its own (its creator), so it sees it without a grant.
            let contact = MutableContact(identifier: identifier, values: card, availableKeys: .all, base: nil)
            try save { $0.add(contact, toContainerWithIdentifier: container.identifier) }
        }
        let created = existing == nil
        let saved = try service.store.unifiedContact(
            withIdentifier: identifier, keysToFetch: [ContactKeySet(.identifier)])
        return HTTPResponse(
            status: created ? 201 : 204, contentType: "text/plain; charset=utf-8", body: [],
            headers: [("ETag", CardDAVCards.etag(saved))])
    }

    /// `DELETE` of a card, with `If-Match` when the client sends one.
    func delete() throws -> HTTPResponse {
        guard case .card(let bookIdentifier, let name) = resource else {
            throw HTTPError(405, "methodNotAllowed", "only a card can be deleted")
        }
        let store = try service.readingStore(for: principal)
        let container = try book(bookIdentifier, in: store)
        let existing = try CardDAVCards.contact(named: name, in: container, store: store)
        try checkPreconditions(existing)
        try save { $0.delete(existing.mutableCopy()) }
        return HTTPResponse(status: 204, contentType: "text/plain; charset=utf-8", body: [])
    }

    /// The one card of a `PUT` body, every property kept (its `UID` among them); anything else
    /// is 400 naming the problem.
    static func card(from request: HTTPRequest) throws -> ContactValues {
        let type = request.header("content-type")?.lowercased() ?? "text/vcard"
        guard type.hasPrefix("text/vcard") || type.hasPrefix("text/x-vcard") || type.hasPrefix("text/directory") else {
            throw HTTPError(415, "unsupportedMediaType", "send the card as Content-Type: text/vcard")
        }
        let read: VCardImport
        do {
            read = try VCardSerialization.read(Data(request.body), keepingOtherProperties: true)
        } catch let error as ContactStoreError {
            throw HTTPError(400, "valid-address-data", "the body is not a vCard: \(error.message)")
        }
        if let rejected = read.rejected.first {
            throw HTTPError(400, "valid-address-data", "the card cannot be read: \(rejected.description)")
        }
        guard read.contacts.count == 1, let card = read.contacts.first?.contact else {
            throw HTTPError(
                400, "valid-address-data", "a card's body must hold exactly one vCard, not \(read.contacts.count)")
        }
        return card.values
    }

    /// Refuses with 412 when `If-Match` or `If-None-Match` does not hold for the card there.
    private func checkPreconditions(_ existing: Contact?) throws(HTTPError) {
        if let match = request.header("if-none-match")?.trimmingCharacters(in: .whitespaces) {
            if existing != nil, match == "*" || match.contains(existing.map(CardDAVCards.etag) ?? "") {
                throw HTTPError(412, "preconditionFailed", "a card already exists at \(request.path)")
            }
        }
        if let match = request.header("if-match")?.trimmingCharacters(in: .whitespaces) {
            guard let existing else {
                throw HTTPError(412, "preconditionFailed", "there is no card at \(request.path) to match \(match)")
            }
            let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard match == "*" || tags.contains(CardDAVCards.etag(existing)) else {
                throw HTTPError(
                    412, "preconditionFailed",
                    "the card changed: it is at \(CardDAVCards.etag(existing)), not \(match); read it again")
            }
        }
    }

    /// Saves a request through the server's store with the principal as author, as the
    /// account's client (whose access the store checks at save time, and who creates what it
    /// adds), or as the owner. With `If-Match`, any change made since the card was read is
    /// refused (412); without it, a change made meanwhile to what the request changes is. A card
    /// created meanwhile under `If-None-Match` is 412 as well.
    private func save(_ build: (inout SaveRequest) -> Void) throws {
        var saveRequest = SaveRequest(transactionAuthor: principal.author)
        if request.header("if-match") != nil { saveRequest.conflictPolicy = .refuseIfChanged }
        build(&saveRequest)
        do {
            if let client = principal.client {
                try service.store.execute(saveRequest, asClient: client)
            } else {
                try service.store.execute(saveRequest)
            }
        } catch let error as ContactStoreError where error.code == .recordChangedSinceFetch {
            throw HTTPError(412, "preconditionFailed", "the card changed meanwhile: \(error.message)")
        } catch let error as ContactStoreError
            where error.code == .insertedRecordAlreadyExists && request.header("if-none-match") != nil
        {
            throw HTTPError(412, "preconditionFailed", "a card was created at \(request.path) meanwhile")
        }
    }
}
