import ContactsLedger
import Foundation

/// What to fetch from the change history, like the framework's `CNChangeHistoryFetchRequest`.
/// Changes to contacts are always returned, coalesced to remove redundant adds, updates and
/// deletes.
public final class CNChangeHistoryFetchRequest: NSObject, @unchecked Sendable {
    /// Changes after this token; nil returns a drop-everything event followed by an add event for
    /// every contact (and group).
    public var startingToken: Data?
    /// Keys the contacts in the events carry besides the identifier, which is always fetched.
    public var additionalContactKeyDescriptors: [any CNKeyDescriptor]?
    /// Whether linked contacts come back unified (the default).
    public var shouldUnifyResults = true
    /// Whether the events' contacts and groups are mutable objects.
    public var mutableObjects = false
    /// Whether group changes are returned.
    public var includeGroupChanges = false
    /// Changes saved by these transaction authors are left out.
    public var excludedTransactionAuthors: [String]?

    /// A request for every change since the start.
    public override init() {}
}

/// The value of a fetch and the history token of the state it was read from, like the
/// framework's `CNFetchResult`.
public final class CNFetchResult<ValueType>: NSObject, @unchecked Sendable {
    /// The fetched value.
    public let value: ValueType
    /// The token to start the next change-history fetch from.
    public let currentHistoryToken: Data

    /// A result.
    init(value: ValueType, currentHistoryToken: Data) {
        self.value = value
        self.currentHistoryToken = currentHistoryToken
    }
}

/// An enumerator over objects fetched in advance.
final class CompatEnumerator: NSEnumerator {
    /// The objects not yet returned, last first.
    private var remaining: [Any]

    /// An enumerator over `objects`, in order.
    init(_ objects: [Any]) {
        remaining = objects.reversed()
        super.init()
    }

    /// The next object, or nil at the end.
    override func nextObject() -> Any? { remaining.popLast() }
}

extension CNContactStore {
    /// The changes after the request's token, as ``CNChangeHistoryEvent`` objects, and the token
    /// to start the next fetch from. Throws ``CNError/Code/changeHistoryInvalidAnchor`` for a
    /// token of another ledger or one that is not a token.
    public func enumeratorForChangeHistory(
        fetchRequest request: CNChangeHistoryFetchRequest
    ) throws -> CNFetchResult<NSEnumerator> {
        let keys = try CompatKeys.keys(request.additionalContactKeyDescriptors ?? [])
        let native = ChangeHistoryFetchRequest(
            startingToken: request.startingToken, additionalContactKeyDescriptors: [keys],
            includeGroupChanges: request.includeGroupChanges,
            excludedTransactionAuthors: request.excludedTransactionAuthors ?? [])
        let result = try CNError.mapping { try self.native.changeHistory(native) }
        let events = result.events.compactMap { CNChangeHistoryEvent.make($0, mutable: request.mutableObjects) }
        return CNFetchResult(value: CompatEnumerator(events), currentHistoryToken: result.currentHistoryToken)
    }

    /// The contacts a fetch request selects, as an enumerator, and the history token of the
    /// state they were read from.
    public func enumeratorForContact(fetchRequest: CNContactFetchRequest) throws -> CNFetchResult<NSEnumerator> {
        let token = native.currentHistoryToken
        return CNFetchResult(value: CompatEnumerator(try contacts(for: fetchRequest)), currentHistoryToken: token)
    }
}
