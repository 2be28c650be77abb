import ContactsLedger
import Dispatch
import Foundation
import LedgerAudit
import Synchronization

/// What the owner's access commands share: running the store's asynchronous access calls to
/// the end, and reporting them.
enum AccessChange {
    /// Opens the ledger for writing, runs `change` on the store, waits for it (the record is on
    /// disk when it returns), and prints `VERB ID` lines for `identifiers` and `head N`, or one
    /// JSON object.
    static func run(
        _ context: CommandContext, json: Bool, verb: String, client: String, identifiers: [String],
        _ change: @escaping @Sendable (ContactStore) async throws -> Void
    ) throws {
        let store = try context.openForWriting()
        defer { store.close() }
        try wait { try await change(store) }
        let head = store.headDigest.sequence
        if json {
            Terminal.json([
                "action": .string(verb), "client": .string(client),
                "identifiers": .array(identifiers.map { .string($0) }), "head": .integer(head),
            ])
        } else {
            Terminal.lines(identifiers.map { "\(verb) \($0)" } + ["head \(head)"])
        }
    }

    /// Runs an asynchronous call and blocks the calling thread until it ends, rethrowing its error.
    private static func wait(_ body: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        Task {
            do { try await body() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

/// `grant` and `revoke`: a client and the contacts the owner gives it or takes from it.
protocol ClientContactsCommand: ToolCommand {
    /// The word printed before each contact (`granted`, `revoked`).
    static var verb: String { get }
    /// Records the change on the owner's store.
    static func change(_ store: ContactStore, client: String, identifiers: [String]) async throws

    var client: String { get }
    var identifiers: [String] { get }
    var json: Bool { get }
    init(client: String, identifiers: [String], json: Bool)
}

extension ClientContactsCommand {
    static var flags: Set<String> { ["json"] }

    /// Reads CLIENT and at least one ID, and `--json`.
    init(_ arguments: Arguments) throws(CommandFailure) {
        let words = arguments.positionals
        guard let client = words.first else { throw CommandFailure(.usage, "missing CLIENT") }
        guard words.count > 1 else { throw CommandFailure(.usage, "missing ID") }
        self.init(client: client, identifiers: Array(words.dropFirst()), json: arguments.has("json"))
    }

    func run(_ context: CommandContext) throws {
        let client = client
        let identifiers = try identifiers.map { try context.resolvedIdentifier($0) }
        try AccessChange.run(context, json: json, verb: Self.verb, client: client, identifiers: identifiers) {
            try await Self.change($0, client: client, identifiers: identifiers)
        }
    }
}
