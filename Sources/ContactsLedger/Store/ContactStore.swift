import ContactsEngine
import ContactsInterchange
import ContactsModel
import Dispatch
import Foundation
import LedgerStorage
import Synchronization

/// Who is using a store, and what the platform says it may do.
public struct ClientContext: Sendable {
    /// A stable identifier for the client (for example its bundle identifier).
    public var identifier: String
    /// The client's authorization as the host knows it; `.notDetermined` defers to the ledger's
    /// record of an earlier decision, or to ``accessDecision`` when access is requested.
    public var authorization: AuthorizationStatus
    /// Whether the client holds the notes entitlement (may read and write ``Contact/note``).
    public var notesEntitlement: Bool
    /// Whether the client is the ledger's owner: the person, through the command-line tool, the
    /// picker or an owner credential, who alone grants, revokes and answers requests for access.
    /// The host that makes the context vouches for it, as it vouches for ``authorization``.
    public var isOwner: Bool
    /// What the user decides when a not-yet-determined client requests access (the prompt's stand-in).
    public var accessDecision: @Sendable () -> AuthorizationStatus
    /// The region whose dialling conventions national phone numbers are read with (a lowercase
    /// ISO 3166-1 alpha-2 code, such as "gb"): by phone predicates and by duplicate detection.
    /// A store takes it when it opens; the default is ``ContactsUserDefaults/countryCode``.
    public var region: String

    /// Creates a client context.
    ///
    /// `accessDecision` is the person's answer at the system's prompt; returning `.notDetermined`
    /// leaves the request waiting for the owner. An owner always has full access and the notes
    /// entitlement.
    public init(
        identifier: String, authorization: AuthorizationStatus = .authorized, notesEntitlement: Bool = false,
        isOwner: Bool = false, accessDecision: @escaping @Sendable () -> AuthorizationStatus = { .denied },
        region: String = ContactsUserDefaults.shared.countryCode
    ) {
        self.identifier = identifier
        self.authorization = isOwner ? .authorized : authorization
        self.notesEntitlement = isOwner || notesEntitlement
        self.isOwner = isOwner
        self.accessDecision = accessDecision
        self.region = region.lowercased()
    }

    /// A client with full access and the notes entitlement, for tools and tests; not the owner.
    public static func fullAccess(
        _ identifier: String = "contacts-ledger", region: String = ContactsUserDefaults.shared.countryCode
    ) -> ClientContext {
        ClientContext(identifier: identifier, authorization: .authorized, notesEntitlement: true, region: region)
    }

    /// The ledger's owner: full access, the notes entitlement, and the right to grant.
    public static func owner(
        _ identifier: String = "owner", region: String = ContactsUserDefaults.shared.countryCode
    ) -> ClientContext {
        ClientContext(identifier: identifier, isOwner: true, region: region)
    }

    /// The author recorded for the person's answer at the system's prompt, when a client's
    /// ``ContactStore/requestAccess(for:)`` is answered by ``accessDecision``.
    public static let promptAuthor = "owner (prompt)"
}

/// A point in a ledger's history: a sequence number, or a time (inclusive).
public enum LedgerPoint: Sendable, Hashable {
    /// After the record with this sequence number (0 is the empty ledger).
    case sequence(UInt64)
    /// After the last record committed at or before this time.
    case time(Date)
}

/// The address book over a ledger, like `CNContactStore`: fetches, save requests, access,
/// notifications and change history.
///
/// A store opened on a ledger directory is its single writer (other processes get
/// ``StorageError/locked(path:)``) unless it is opened read-only. Saves are acknowledged only
/// after their record is on disk; reads see only durable state.
///
/// The store is a face: its state, its locks and its commit path live in one
/// ``CommitPipeline``, which every method here hands on to.
public final class ContactStore: Sendable {
    /// The pipeline that holds the state and commits the saves.
    package let pipeline: CommitPipeline
    /// The ledger's identity.
    public var identity: LedgerIdentity { pipeline.identity }
    /// The client this store serves.
    public var client: ClientContext { pipeline.client }

    /// A store over `pipeline`, which posts its notifications with the store as their object.
    package init(_ pipeline: CommitPipeline) {
        self.pipeline = pipeline
        pipeline.notificationObject = self
    }

    // MARK: Opening

    /// Opens (creating it if `create` is true and nothing is there) the ledger at `path` as its
    /// single writer: restores the projections from the newest snapshot that checks out against
    /// the journal and replays the records after it, or replays the whole journal when there is
    /// no usable snapshot. Snapshots are written on ``close()`` and in the background as the
    /// ledger grows (decision 0006).
    public convenience init(
        ledgerAt path: String, client: ClientContext, create: Bool = true, lockWaitSeconds: Double = 0,
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws {
        self.init(
            try CommitPipeline(
                ledgerAt: path, client: client, create: create, lockWaitSeconds: lockWaitSeconds,
                fileSystem: fileSystem))
    }

    /// Opens the ledger at `path` read-only, without the writer lock: ``refresh()`` reads what
    /// the writer appends later. With `asOf`, the store shows the ledger as it was at that point
    /// and never changes.
    public convenience init(readingLedgerAt path: String, asOf point: LedgerPoint? = nil, client: ClientContext) throws
    {
        self.init(try CommitPipeline(readingLedgerAt: path, asOf: point, client: client))
    }

    /// Creates a store over an empty in-memory journal: the same code as a file ledger, no files.
    public static func inMemory(client: ClientContext = .fullAccess()) -> ContactStore {
        ContactStore(CommitPipeline.inMemory(client: client))
    }

    /// Creates an in-memory store that starts from a recorded ledger (all of it, or through a
    /// point); nothing the store does touches the recording.
    public static func inMemory(
        copyingLedgerAt path: String, through point: LedgerPoint? = nil, client: ClientContext = .fullAccess()
    ) throws -> ContactStore {
        ContactStore(try CommitPipeline.inMemory(copyingLedgerAt: path, through: point, client: client))
    }

    /// The sequence a point resolves to in a ledger (inclusive).
    package static func lastSequence(_ reader: JournalReader, through point: LedgerPoint?) throws -> UInt64? {
        try CommitPipeline.lastSequence(reader, through: point)
    }

    /// Waits for queued saves, writes a snapshot of the projection if the ledger changed since the
    /// last one (a cache, see decision 0006), and releases the ledger; the store accepts no saves
    /// afterwards.
    public func close() { pipeline.close() }

    /// Writes a snapshot of the projection now and returns after it is on disk; does nothing for
    /// a store that does not write a ledger directory (read-only or in memory).
    package func writeSnapshot() throws { try pipeline.writeSnapshot() }

    // MARK: Reading

    /// The head digest of the state this store shows.
    public var headDigest: HeadDigest { pipeline.headDigest }

    /// Calls `body` with each durable record from `sequence` on, until it returns false.
    package func forEachRecord(from sequence: UInt64, _ body: (JournalRecord) throws -> Bool) throws {
        try pipeline.forEachRecord(from: sequence, body)
    }

    /// The first sequence of each segment of the journal, in order, so that a search for a recent
    /// record reads the newest segments first.
    package func segmentStarts() throws -> [UInt64] { try pipeline.segmentStarts() }

    /// Reads the projection, search indexes included: a copy of the state with the indexes put
    /// back in. The store's own reads use ``readState(_:)``.
    package func withProjection<R>(_ body: (Projection) throws -> R) rethrows -> R {
        try pipeline.withProjection(body)
    }

    /// Reads the state and its search indexes, in place, as of one head.
    package func readState<R>(_ body: (borrowing Projection, borrowing SearchIndexes) throws -> R) rethrows -> R {
        try pipeline.readState(body)
    }

    /// Reads the state as ``readState(_:)`` does, with the client's access as of that state.
    func readStateAndAccess<R>(
        usingIndexes: Bool = true, _ body: (borrowing Projection, borrowing SearchIndexes, ClientAccess) throws -> R
    ) rethrows -> R {
        try pipeline.readStateAndAccess(usingIndexes: usingIndexes, body)
    }

    /// Reads the state for a fetch by `predicates` (nil for every contact), with the client's
    /// access: for a search by name, email address or phone number when one of them is one (the
    /// first that can match a contact, in a store whose indexes are deferred, scans the contacts,
    /// decision 0037), and without the indexes otherwise.
    func readStateAndAccess<R>(
        searching predicates: some Collection<ContactPredicate?>,
        _ body: (borrowing Projection, borrowing SearchIndexes, ClientAccess) throws -> R
    ) rethrows -> R {
        let searching = predicates.contains { $0?.usesSearchIndexes ?? false }
        return try pipeline.readStateAndAccess(
            searching: searching,
            scanning: { projection in
                let region = projection.indexes.defaultCountryCode
                return predicates.contains { $0?.canMatch(defaultCountryCode: region) ?? false }
            }, body)
    }

    // MARK: Saving

    /// Executes a save request: validates every change, commits them as one record, and returns
    /// after the record is on disk (fdatasync has returned). On any error nothing is written,
    /// nothing changes, and no notification is posted.
    @discardableResult
    public func execute(_ request: SaveRequest) async throws -> SaveResult {
        try await pipeline.execute(request)
    }

    /// Executes a save request, blocking the calling thread until the record is on disk.
    ///
    /// Called from an observer of `contactStoreDidChange` while the store posts it, it throws
    /// ``ContactStoreError/Code/dataAccessError``: it could wait for the thread it runs on.
    @discardableResult
    public func execute(_ request: SaveRequest) throws -> SaveResult { try pipeline.execute(request) }

    /// The result of a request whose record is durable, as a retry of it would return it
    /// (``SaveResult/wasAlreadyCommitted`` is true), or nil when no record holds the request id.
    ///
    /// A caller that could not learn whether a save succeeded (an
    /// ``StorageError/outcomeUnknown(cause:)``) asks this after reopening the store, or retries
    /// the request with the same id, which saves it only if it is not here.
    public func result(ofRequest requestIdentifier: UUID) throws -> SaveResult? {
        try pipeline.committedResult(ofRequest: requestIdentifier)
    }

    /// Executes a save request on behalf of another client with full access (replaying a
    /// recording into a scratch store); blocks until the record is on disk.
    @discardableResult
    package func execute(_ request: SaveRequest, onBehalfOf clientIdentifier: String) throws -> SaveResult {
        try pipeline.execute(request, onBehalfOf: clientIdentifier)
    }

    /// Executes a save request as another client, with the access the ledger records for it at
    /// save time (a server writing for a signed-in client); blocks until the record is on disk.
    @discardableResult
    package func execute(_ request: SaveRequest, asClient clientIdentifier: String) throws -> SaveResult {
        try pipeline.execute(request, asClient: clientIdentifier)
    }

    /// Commits store-level operations verbatim (replaying a recording); blocks until on disk.
    @discardableResult
    package func commitOperations(_ operations: [LedgerOperation], author: String, requestID: UUID) throws -> SaveResult
    {
        try pipeline.commitOperations(operations, author: author, requestID: requestID)
    }

    /// Plans requests one after another, each seeing the ones before it, against the durable and
    /// staged state, without committing anything: the first failure throws. Returns each request's
    /// planned operations, as its record would hold them.
    @discardableResult
    package func dryRun(_ requests: [SaveRequest]) throws(ContactStoreError) -> [[LedgerOperation]] {
        try pipeline.dryRun(requests)
    }

    /// The sequence of the last record this store queued in its journal (durable or not).
    var queuedThrough: UInt64 { pipeline.queuedThrough }

    // MARK: Changes

    /// Reads records another process appended since this read-only store last looked, applies
    /// them, and posts a change for them; returns how many were read.
    @discardableResult
    public func refresh() throws -> Int { try pipeline.refresh() }

    /// A stream of the changes committed after the call, in order: one per save this store
    /// commits, one per ``refresh()`` that reads records; it ends when the store closes.
    public func changes() -> AsyncStream<StoreChange> { pipeline.changes() }
}
