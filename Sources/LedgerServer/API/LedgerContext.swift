import ContactsLedger
import Foundation
import LedgerAudit
import Synchronization

/// What every route works with: the store it serves through, the ledger's path for the audit
/// library, the listing, and the past states it has opened.
struct LedgerContext: Sendable {
    /// The store: the ledger's writer, or a read-only store.
    let store: ContactStore
    /// The ledger directory, which the audit library reads.
    let ledgerPath: String
    /// The author of a write that names none.
    let defaultAuthor: String
    /// The contacts in sort order, kept up to date with the store.
    let listing: ContactListing
    /// Stores showing the ledger at past points, for as-of reads.
    let pastStores: PastStores

    /// An auditor over the ledger as it is on disk now.
    func auditor() throws -> LedgerAuditor { try LedgerAuditor(ledgerAt: ledgerPath) }

    /// A point named by a query parameter or body member, parsed as the CLI parses `--as-of`.
    static func point(_ text: String?, name: String, date end: DateEnd = .end) throws(HTTPError) -> LedgerPoint? {
        guard let text, !text.isEmpty else { return nil }
        guard let point = LedgerPoint(parsing: text, date: end) else {
            throw HTTPError(400, "badParameter", "\(name) must be " + LocalTime.forms + ", got \(text)")
        }
        return point
    }

    /// The store and listing to read: the live ones, or those of the ledger at `asOf`. A
    /// read-only store first reads what another process committed (a writer has nothing to read).
    func reading(asOf text: String?) throws -> (ContactStore, ContactListing, isPast: Bool) {
        guard let point = try Self.point(text, name: "asOf") else {
            try store.refresh()
            return (store, listing, false)
        }
        let sequence = try auditor().sequence(at: point)
        let head = store.headDigest.sequence
        if case .sequence(let asked) = point, asked > head {
            throw HTTPError(404, "pointOutOfRange", "sequence \(asked) is after the ledger's head, \(head)")
        }
        let past = try pastStores.store(at: sequence)
        return (past.store, past.listing, true)
    }

    /// A save request with the body's `author` (else the default) and `requestId` (else a new one).
    func saveRequest(_ body: JSONObject) throws(HTTPError) -> SaveRequest {
        var request = SaveRequest(transactionAuthor: try Self.author(body) ?? defaultAuthor)
        if let id = try Self.requestIdentifier(body) { request.requestIdentifier = id }
        return request
    }

    /// The body's `author`, when it names one.
    static func author(_ body: JSONObject) throws(HTTPError) -> String? {
        guard let value = body["author"], !value.isNull else { return nil }
        guard let author = value.stringValue, !author.isEmpty, author.count <= 200 else {
            throw HTTPError(400, "badParameter", "author must be a non-empty string of at most 200 characters")
        }
        return author
    }

    /// The body's `requestId`, when it names one.
    static func requestIdentifier(_ body: JSONObject) throws(HTTPError) -> UUID? {
        guard let value = body["requestId"], !value.isNull else { return nil }
        guard let text = value.stringValue, let id = UUID(uuidString: text) else {
            throw HTTPError(400, "badParameter", "requestId must be a UUID")
        }
        return id
    }

    /// Saves a request, or answers a retry of a request already recorded from its record
    /// without building it again; returns the write's JSON form, as the CLI's `--json` prints it.
    func save(
        _ body: JSONObject, action: String, _ build: (inout SaveRequest) throws -> [String]
    ) throws -> JSONValue {
        var request = try saveRequest(body)
        if let earlier = try store.result(ofRequest: request.requestIdentifier) {
            return AuditJSON.value(
                for: earlier, action: action, identifiers: earlier.affectedIdentifiers,
                head: store.headDigest.sequence, requestIdentifier: request.requestIdentifier)
        }
        let identifiers = try build(&request)
        let result = try store.execute(request)
        return AuditJSON.value(
            for: result, action: action, identifiers: identifiers, head: store.headDigest.sequence,
            requestIdentifier: request.requestIdentifier)
    }

    /// A contact's full identifier from the path: any letter case or a unique prefix, as the CLI takes it.
    func contactIdentifier(_ text: String, in reading: ContactStore? = nil) throws -> String {
        try (reading ?? store).resolveIdentifier(text, kinds: .contacts)
    }
}

/// Read-only stores of the ledger at past sequences, the few most recently asked for: a past
/// state never changes, so one replay serves every read of it.
final class PastStores: Sendable {
    private let ledgerPath: String
    private let client: ClientContext
    private let opened = Mutex<[(sequence: UInt64, store: ContactStore, listing: ContactListing)]>([])
    /// How many past states stay open.
    static let kept = 4

    init(ledgerPath: String, client: ClientContext) {
        self.ledgerPath = ledgerPath
        self.client = client
    }

    /// The store and listing of the ledger after the record `sequence`.
    func store(at sequence: UInt64) throws -> (store: ContactStore, listing: ContactListing) {
        if let found = opened.withLock({ list in list.first { $0.sequence == sequence } }) {
            return (found.store, found.listing)
        }
        let store = try ContactStore(readingLedgerAt: ledgerPath, asOf: .sequence(sequence), client: client)
        let listing = ContactListing()
        let evicted = opened.withLock { list in
            list.insert((sequence, store, listing), at: 0)
            return list.count > Self.kept ? list.removeLast().store : nil
        }
        evicted?.close()
        return (store, listing)
    }
}
