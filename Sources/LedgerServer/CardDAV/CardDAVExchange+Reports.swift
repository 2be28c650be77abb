import ContactsLedger
import Foundation
import LedgerAudit

extension CardDAVExchange {
    /// `REPORT` on an address book: `addressbook-multiget`, `addressbook-query` or
    /// `sync-collection`.
    func report() throws -> HTTPResponse {
        guard let body = try DAVXMLReader.parse(request.body) else {
            throw HTTPError(400, "malformedXML", "a REPORT needs a body naming the report")
        }
        guard case .book(let identifier) = resource else {
            throw HTTPError(403, "supported-report", "reports are answered on an address book, not at \(request.path)")
        }
        let store = try service.readingStore(for: principal)
        let container = try book(identifier, in: store)
        let asked = ReportProperties(body.child("prop")?.children ?? [Self.etagElement])
        if body.isNamed("addressbook-multiget", in: DAVElement.cardDAV) {
            return try multiget(body, asked, container, store)
        }
        if body.isNamed("addressbook-query", in: DAVElement.cardDAV) {
            return try query(body, asked, container, store)
        }
        if body.isNamed("sync-collection") {
            return try syncCollection(body, asked, container, store)
        }
        throw HTTPError(403, "supported-report", "\(body.name) is not a report this address book answers")
    }

    static let etagElement = DAVElement(namespace: DAVElement.dav, name: "getetag")

    /// The properties a report asks for, and the vCard version of its `address-data`.
    struct ReportProperties {
        let elements: [DAVElement]
        let version: VCardVersion
        var wantsData: Bool { elements.contains { $0.isNamed("address-data", in: DAVElement.cardDAV) } }

        init(_ elements: [DAVElement]) {
            self.elements = elements
            let data = elements.first { $0.isNamed("address-data", in: DAVElement.cardDAV) }
            version = data?.attributes["version"] == "4.0" ? .v4_0 : .v3_0
        }
    }

    /// The `response` of each card, its vCard included when asked for.
    private func responses(
        _ contacts: [Contact], _ asked: ReportProperties, _ container: Container, _ store: ContactStore
    ) throws -> String {
        let context = CardDAVTarget.Context(principal: principal, store: store)
        return try contacts.map { contact in
            let data = asked.wantsData ? try CardDAVCards.vCard(contact, version: asked.version) : nil
            return CardDAVTarget(
                path: CardDAVResource.cardPath(principal, container.identifier, CardDAVCards.resourceName(of: contact)),
                kind: .card(contact), context: context, addressData: data
            ).response(.properties(asked.elements))
        }.joined()
    }

    /// The contacts with these identifiers the client sees in the container, with their cards' keys.
    /// With one container every contact is in it, and the members need not be listed.
    private func fetch(_ identifiers: [String], _ container: Container, _ store: ContactStore) throws -> [Contact] {
        var wanted = identifiers
        if try store.containers().count > 1 {
            let members = Set(try CardDAVCards.members(of: container.identifier, in: store).map(\.identifier))
            wanted = identifiers.filter(members.contains)
        }
        return try ContactsAPI.fetch(wanted, keys: CardDAVCards.keys(for: store), from: store)
    }

    /// `addressbook-multiget`: the cards at the hrefs given; one not there is a 404 response.
    private func multiget(
        _ body: DAVElement, _ asked: ReportProperties, _ container: Container, _ store: ContactStore
    ) throws -> HTTPResponse {
        let hrefs = body.children("href").map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
        // Both sides decoded: an href's path is read with its escapes undone.
        let encodedBookPath = CardDAVResource.bookPath(principal, container.identifier)
        let bookPath = encodedBookPath.removingPercentEncoding ?? encodedBookPath
        var wanted: [(href: String, identifier: String?)] = []
        for href in hrefs {
            let path = (try? RequestTarget.split(Self.pathPart(of: href)).0) ?? href
            let inBook = path.hasPrefix(bookPath) && !path.dropFirst(bookPath.count).contains("/")
            wanted.append(
                (href, inBook ? CardDAVCards.identifier(forResource: String(path.dropFirst(bookPath.count))) : nil))
        }
        let found = try fetch(wanted.compactMap(\.identifier), container, store)
        let byIdentifier = Dictionary(found.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var text = ""
        for item in wanted {
            if let identifier = item.identifier, let contact = byIdentifier[identifier] {
                text += try responses([contact], asked, container, store)
            } else {
                text += Self.missing(item.href)
            }
        }
        return Self.multistatus(text)
    }

    /// The path of an href that may be a full URL.
    static func pathPart(of href: String) -> String {
        guard let scheme = href.range(of: "://") else { return href }
        let rest = href[scheme.upperBound...]
        return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
    }

    /// A response for a member that is not there.
    static func missing(_ href: String) -> String {
        "<d:response><d:href>\(DAVXMLWriter.escape(href))</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
    }

    /// `addressbook-query`: the cards whose properties pass the filter, up to `limit`.
    private func query(
        _ body: DAVElement, _ asked: ReportProperties, _ container: Container, _ store: ContactStore
    ) throws -> HTTPResponse {
        let filter = try CardDAVFilter(body.child("filter", in: DAVElement.cardDAV))
        let limit = body.child("limit", in: DAVElement.cardDAV)?.child("nresults", in: DAVElement.cardDAV)
            .flatMap { Int($0.text.trimmingCharacters(in: .whitespaces)) }
        let identifiers = try CardDAVCards.members(of: container.identifier, in: store).map(\.identifier)
        var matched: [Contact] = []
        for contact in try fetch(identifiers, container, store) where filter.matches(contact) {
            matched.append(contact)
            if let limit, matched.count >= limit { break }
        }
        return Self.multistatus(try responses(matched, asked, container, store))
    }

    /// `sync-collection` (RFC 6578): with no token, every card and the current token; with a
    /// token, the cards added or changed since, and a 404 response for each removed or no longer
    /// in the client's view, under the href the client holds.
    private func syncCollection(
        _ body: DAVElement, _ asked: ReportProperties, _ container: Container, _ store: ContactStore
    ) throws -> HTTPResponse {
        let text = body.child("sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let current = CardDAVSyncToken.current(of: store)
        var changes = SyncChanges()
        if text.isEmpty {
            changes.changed = try CardDAVCards.members(of: container.identifier, in: store).map(\.identifier)
        } else {
            changes = try self.changes(since: text, in: store)
        }
        let contacts = try fetch(changes.changed, container, store)
        let present = Set(contacts.map(\.identifier))
        var answer = try responses(contacts, asked, container, store)
        let gone = changes.removed + changes.changed.filter { !present.contains($0) && !changes.removed.contains($0) }
        for name in try removedNames(gone, after: changes.sequence) {
            answer += Self.missing(CardDAVResource.cardPath(principal, container.identifier, name))
        }
        return Self.multistatus(answer + "<d:sync-token>\(DAVXMLWriter.escape(current))</d:sync-token>")
    }

    /// The cards changed and removed since a token's sequence, as the client sees them, each once.
    struct SyncChanges {
        var sequence: UInt64 = 0
        var changed: [String] = []
        var removed: [String] = []
    }

    /// The names the client holds for cards that left its view since `sequence`: a deleted one's
    /// from the values its deletion recorded (all found in one pass over the records since), one
    /// that still exists (in another address book, or no longer granted) from its values now.
    /// When neither is there to ask, the token cannot be answered (`valid-sync-token`), so that
    /// the client syncs again from the start.
    private func removedNames(_ identifiers: [String], after sequence: UInt64) throws -> [String] {
        guard !identifiers.isEmpty else { return [] }
        let deletions = try LedgerAuditor(ledgerAt: service.ledgerPath).deletions(
            ofContacts: Set(identifiers), after: sequence)
        return try identifiers.map { identifier in
            if let deletion = deletions[identifier] {
                let kept = deletion.changes.first { $0.key == .vCardExtensions }?.oldValue
                let extensions = kept.map { $0.isKeyAvailable(.vCardExtensions) ? $0.values.vCardExtensions : [] }
                return CardDAVCards.storedName(in: extensions ?? []) ?? identifier + ".vcf"
            }
            let keys = ContactKeySet([.identifier, .vCardExtensions])
            do {
                return CardDAVCards.resourceName(
                    of: try service.store.unifiedContact(withIdentifier: identifier, keysToFetch: [keys]))
            } catch let error as ContactStoreError where error.code == .recordDoesNotExist {
                throw CardDAVSyncToken.invalid("the card \(identifier) left the address book in a way it cannot name")
            }
        }
    }

    /// The contacts changed and removed, as the client sees them, after a token's sequence.
    private func changes(since token: String, in store: ContactStore) throws -> SyncChanges {
        let sequence = try CardDAVSyncToken.sequence(of: token, in: store)
        let start = ChangeHistoryToken(ledgerID: store.identity.ledgerID, sequence: sequence).data
        let history: ChangeHistoryResult
        do {
            history = try store.changeHistory(ChangeHistoryFetchRequest(startingToken: start))
        } catch let error as ContactStoreError where error.code == .changeHistoryInvalidAnchor {
            throw CardDAVSyncToken.invalid("the ledger can no longer answer from this token: \(error.message)")
        }
        var changes = SyncChanges(sequence: sequence)
        var seen: Set<String> = []
        for event in history.events {
            switch event {
            case .dropEverything:
                throw CardDAVSyncToken.invalid("the ledger can no longer list the changes since this token")
            case .addContact(let contact, _), .updateContact(let contact):
                if seen.insert(contact.identifier).inserted { changes.changed.append(contact.identifier) }
            case .deleteContact(let identifier):
                changes.changed.removeAll { $0 == identifier }
                if !changes.removed.contains(identifier) { changes.removed.append(identifier) }
                seen.remove(identifier)
            default: continue
            }
        }
        changes.removed.removeAll { changes.changed.contains($0) }
        return changes
    }
}
