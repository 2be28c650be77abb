import ContactsLedger
import Foundation
import LedgerAudit
import Synchronization

/// What `CNContactStore()` opens and as which app, chosen by a test before the code under test
/// runs, and what that code saved, read after it ran: replay-based testing of code written for
/// the framework.
///
/// Make one, then run the code inside ``run(_:)-(()throws->R)`` (scoped to the task, so tests
/// run in parallel), or ``install()`` it for the whole process. Every `CNContactStore` made
/// while it is current works on its ledger. Afterwards ``issuedRequests()`` lists the save
/// requests the code executed, in order, with author, changes and outcome, read through the
/// audit library, and ``requestLines()`` gives them one line each, for a comparison with an
/// expected list (a golden).
public final class ContactsReplay: Sendable {
    /// Which ledger the stores work on.
    public enum Source: Sendable {
        /// A new, empty ledger in memory.
        case empty
        /// A copy of a recorded ledger, all of it or through a point; the recording is only read.
        case copy(ofLedgerAt: String, through: LedgerPoint? = nil)
        /// The ledger in a folder (created if missing). Read-only, it follows what other
        /// processes commit and posts `CNContactStoreDidChange` for it.
        case ledger(at: String, readOnly: Bool = false)
    }

    /// The authorization the code sees.
    public enum Authorization: Sendable, Hashable {
        /// Not decided yet; `requestAccess` gets this answer, as the person's at the prompt.
        case notDetermined(answer: CNAuthorizationStatus)
        /// Restricted, for example by parental controls.
        case restricted
        /// Denied.
        case denied
        /// Limited to these contacts (recorded as the owner's grants) and those the app creates.
        case limited(grantedIdentifiers: [String])
        /// Full access.
        case authorized
    }

    /// The native store the code's `CNContactStore`s work on, as the app: for seeding and
    /// inspecting state around the code under test.
    public let store: ContactStore
    /// The app's client identifier.
    public let clientIdentifier: String
    /// The save requests executed through this replay, in order.
    let log = Mutex<[LoggedRequest]>([])
    /// Reposts the store's changes as `CNContactStoreDidChange`.
    private let bridge: ChangeBridge
    /// Follows other processes' commits, for a read-only ledger folder.
    private let watcher: JournalWatcher?
    /// A folder this replay made for a copy and removes when closed.
    private let scratch: String?

    /// Opens `source` for an app with `authorization`, with or without the notes entitlement.
    ///
    /// Granting contacts to a limited app needs a ledger folder: for a copy, the recording is
    /// first restored, through the point, into a scratch folder (the recording is only read).
    public init(
        opening source: Source = .empty, authorization: Authorization = .authorized, notesEntitlement: Bool = false,
        clientIdentifier: String = "com.example.app"
    ) async throws {
        let client = Self.client(clientIdentifier, authorization, notesEntitlement)
        let opened = try await Self.open(source, client: client, grants: Self.grants(authorization))
        store = opened.store
        scratch = opened.scratch
        self.clientIdentifier = clientIdentifier
        bridge = ChangeBridge(store: opened.store)
        if case .ledger(let path, true) = source {
            watcher = JournalWatcher(ledgerAt: path, store: opened.store)
        } else {
            watcher = nil
        }
    }

    /// Stops following the ledger, closes the store and removes any scratch folder.
    public func close() {
        watcher?.stop()
        bridge.stop()
        store.close()
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    // MARK: Being current

    /// The replay of the running task, set by ``run(_:)-(()throws->R)``.
    @TaskLocal static var scoped: ContactsReplay?
    /// The replay ``install()`` made current for the process.
    private static let installed = Mutex<ContactsReplay?>(nil)
    /// The replay used when none is current: an empty ledger in memory, for an app whose user
    /// has not decided yet and grants full access when asked.
    private static let fallback = Mutex<ContactsReplay?>(nil)

    /// The replay `CNContactStore()` works on now.
    static var current: ContactsReplay {
        if let scoped { return scoped }
        if let installed = installed.withLock({ $0 }) { return installed }
        return fallback.withLock { fallback in
            if let fallback { return fallback }
            let made = ContactsReplay(
                inMemory: ClientContext(
                    identifier: "com.example.app", authorization: .notDetermined, accessDecision: { .authorized }))
            fallback = made
            return made
        }
    }

    /// Runs `body` with this replay current for the task and the tasks it starts.
    @discardableResult
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try Self.$scoped.withValue(self, operation: body)
    }

    /// Runs `body` with this replay current for the task and the tasks it starts.
    @discardableResult
    public func run<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        try await Self.$scoped.withValue(self, operation: body, isolation: isolation)
    }

    /// Makes this replay current for the whole process, for code that reaches the store from
    /// threads a task does not start; ``uninstall()`` ends it.
    public func install() { Self.installed.withLock { $0 = self } }

    /// Ends ``install()``.
    public func uninstall() {
        Self.installed.withLock { installed in
            if installed === self { installed = nil }
        }
    }

    /// A replay over an empty in-memory ledger.
    private init(inMemory client: ClientContext) {
        store = ContactStore.inMemory(client: client)
        clientIdentifier = client.identifier
        scratch = nil
        bridge = ChangeBridge(store: store)
        watcher = nil
    }
}
