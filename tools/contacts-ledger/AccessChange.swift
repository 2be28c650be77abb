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

/// The client and at least one contact identifier of `grant` and `revoke`.
func clientAndContacts(_ arguments: Arguments) throws(CommandFailure) -> (String, [String]) {
    let words = arguments.positionals
    guard let client = words.first else { throw CommandFailure(.usage, "missing CLIENT") }
    guard words.count > 1 else { throw CommandFailure(.usage, "missing ID") }
    return (client, Array(words.dropFirst()))
}
