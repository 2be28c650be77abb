import Foundation

/// The effects of save requests that are queued for the journal but not yet durable.
///
/// A request is validated against the durable projection plus these effects, so that requests
/// queued behind each other see each other (DESIGN.md, the commit path, step 1). Each entry is
/// the full state after the latest queued change to that object; it is dropped once every
/// queued change to it has been applied to the projection.
package struct StagedChanges: Sendable {
    fileprivate var contacts: [String: ContactState?] = [:]
    fileprivate var groups: [String: GroupState?] = [:]
    fileprivate var containers: [String: Container] = [:]
    fileprivate var access: [String: ClientAccess] = [:]
    fileprivate var grants: [String: Set<String>] = [:]
    fileprivate var requests: [UUID: UInt64] = [:]
    private var pending: [StagedKey: Int] = [:]

    /// Creates an empty set of staged changes.
    package init() {}

    /// Whether nothing is staged.
    package var isEmpty: Bool { pending.isEmpty }

    /// Counts one more queued change for each key.
    package mutating func retain(_ keys: Set<StagedKey>) {
        for key in keys { pending[key, default: 0] += 1 }
    }

    /// Counts one queued change done for each key, dropping entries no queued change still needs.
    package mutating func release(_ keys: Set<StagedKey>) {
        for key in keys {
            let count = pending[key, default: 1] - 1
            if count > 0 {
                pending[key] = count
                continue
            }
            pending[key] = nil
            switch key {
            case .contact(let identifier): contacts[identifier] = nil
            case .group(let identifier): groups[identifier] = nil
            case .container(let identifier): containers[identifier] = nil
            case .access(let client): access[client] = nil
            case .grants(let client): grants[client] = nil
            case .request(let identifier): requests[identifier] = nil
            }
        }
    }
}

/// A key of a staged object, for counting how many queued changes still need it.
package enum StagedKey: Sendable, Hashable {
    case contact(String)
    case group(String)
    case container(String)
    case access(String)
    case grants(String)
    case request(UUID)
}

/// The projection seen through the staged changes, and the place a request being planned writes
/// its own effects (so later operations of the same request see earlier ones).
package struct StagedView<Base: LedgerState>: LedgerState {
    private let base: Base
    /// The staged changes, including this request's.
    package private(set) var staged: StagedChanges
    /// The keys this request has touched.
    package private(set) var touched: Set<StagedKey> = []

    /// Looks at `base` through `staged`.
    package init(base: Base, staged: StagedChanges) {
        self.base = base
        self.staged = staged
    }

    package var defaultContainer: Container { base.defaultContainer }

    package func contact(_ identifier: String) -> ContactState? {
        if let staged = staged.contacts[identifier] { return staged }
        return base.contact(identifier)
    }

    package func group(_ identifier: String) -> GroupState? {
        if let staged = staged.groups[identifier] { return staged }
        return base.group(identifier)
    }

    package func container(_ identifier: String) -> Container? {
        staged.containers[identifier] ?? base.container(identifier)
    }

    package func groups(containing contactIdentifier: String) -> [String] {
        var result = Set(base.groups(containing: contactIdentifier).filter { staged.groups[$0] == nil })
        for (identifier, group) in staged.groups where group?.members.contains(contactIdentifier) == true {
            result.insert(identifier)
        }
        return result.sorted()
    }

    package func access(of client: String) -> ClientAccess? { staged.access[client] ?? base.access(of: client) }

    package func grants(of client: String) -> Set<String> { staged.grants[client] ?? base.grants(of: client) }

    package func sequence(ofRequest requestID: UUID) -> UInt64? {
        staged.requests[requestID] ?? base.sequence(ofRequest: requestID)
    }

    package mutating func putContact(_ identifier: String, _ state: ContactState?) {
        staged.contacts[identifier] = .some(state)
        touched.insert(.contact(identifier))
    }

    package mutating func putGroup(_ identifier: String, _ state: GroupState?) {
        staged.groups[identifier] = .some(state)
        touched.insert(.group(identifier))
    }

    package mutating func putContainer(_ container: Container) {
        staged.containers[container.identifier] = container
        touched.insert(.container(container.identifier))
    }

    package mutating func putAccess(_ client: String, _ access: ClientAccess) {
        staged.access[client] = access
        touched.insert(.access(client))
    }

    package mutating func putGrants(_ client: String, _ contacts: Set<String>) {
        staged.grants[client] = contacts
        touched.insert(.grants(client))
    }

    package mutating func putRequest(_ requestID: UUID, sequence: UInt64) {
        staged.requests[requestID] = sequence
        touched.insert(.request(requestID))
    }
}
