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
            // One lookup of the key (a hash of its identifier) rather than one to read the count
            // and another to write it.
            if let index = pending.index(forKey: key) {
                if pending.values[index] > 1 {
                    pending.values[index] -= 1
                    continue
                }
                pending.remove(at: index)
            }
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

/// What a request being planned changed in the staged changes, and what they held before, so
/// that the request's effects can be taken out again if it is not queued after all.
package struct StagedUndo: Sendable {
    /// The keys the request touched.
    package fileprivate(set) var keys: Set<StagedKey> = []
    /// What the touched keys held before the request: an entry per key that had one.
    fileprivate var previous = StagedChanges()
    /// The touched keys that had no staged entry before the request.
    fileprivate var absent: Set<StagedKey> = []

    /// Creates an empty record: nothing touched.
    package init() {}

    /// Puts back what the touched keys held before the request.
    package func rollBack(_ staged: inout StagedChanges) {
        for key in keys {
            let had = !absent.contains(key)
            switch key {
            case .contact(let identifier):
                staged.contacts[identifier] = had ? previous.contacts[identifier] : nil
            case .group(let identifier):
                staged.groups[identifier] = had ? previous.groups[identifier] : nil
            case .container(let identifier):
                staged.containers[identifier] = had ? previous.containers[identifier] : nil
            case .access(let client): staged.access[client] = had ? previous.access[client] : nil
            case .grants(let client): staged.grants[client] = had ? previous.grants[client] : nil
            case .request(let identifier): staged.requests[identifier] = had ? previous.requests[identifier] : nil
            }
        }
    }

    /// Records `key` as touched, remembering its entry in `staged` the first time.
    fileprivate mutating func touch(_ key: StagedKey, in staged: StagedChanges) {
        guard keys.insert(key).inserted else { return }
        var had = true
        switch key {
        case .contact(let identifier):
            if let entry = staged.contacts[identifier] { previous.contacts[identifier] = entry } else { had = false }
        case .group(let identifier):
            if let entry = staged.groups[identifier] { previous.groups[identifier] = entry } else { had = false }
        case .container(let identifier):
            if let entry = staged.containers[identifier] {
                previous.containers[identifier] = entry
            } else {
                had = false
            }
        case .access(let client):
            if let entry = staged.access[client] { previous.access[client] = entry } else { had = false }
        case .grants(let client):
            if let entry = staged.grants[client] { previous.grants[client] = entry } else { had = false }
        case .request(let identifier):
            if let entry = staged.requests[identifier] { previous.requests[identifier] = entry } else { had = false }
        }
        if !had { absent.insert(key) }
    }
}

/// The projection seen through the staged changes, and the place a request being planned writes
/// its own effects (so later operations of the same request see earlier ones).
///
/// The store moves its staged changes into the view and takes them back with ``detach()``, so
/// that a request's effects are written into them in place: copying them for every request
/// would make planning cost grow with the number of queued requests. The view records what each
/// key held before the request touched it (``undo``), so a request that fails or is not queued
/// leaves the staged changes as they were.
package struct StagedView<Base: LedgerState>: LedgerState {
    private let base: Base
    /// The staged changes, including this request's.
    package private(set) var staged: StagedChanges
    /// What this request touched, and what it replaced.
    package private(set) var undo = StagedUndo()

    /// The keys this request has touched.
    package var touched: Set<StagedKey> { undo.keys }

    /// Looks at `base` through `staged`.
    package init(base: Base, staged: StagedChanges) {
        self.base = base
        self.staged = staged
    }

    /// Moves the staged changes (with this request's effects) and the undo record out of the
    /// view, leaving it empty, so that the caller holds the only reference to them.
    package mutating func detach() -> (staged: StagedChanges, undo: StagedUndo) {
        var taken = StagedChanges()
        swap(&taken, &staged)
        var record = StagedUndo()
        swap(&record, &undo)
        return (taken, record)
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
        undo.touch(.contact(identifier), in: staged)
        staged.contacts[identifier] = .some(state)
    }

    package mutating func putGroup(_ identifier: String, _ state: GroupState?) {
        undo.touch(.group(identifier), in: staged)
        staged.groups[identifier] = .some(state)
    }

    package mutating func putContainer(_ container: Container) {
        undo.touch(.container(container.identifier), in: staged)
        staged.containers[container.identifier] = container
    }

    package mutating func putAccess(_ client: String, _ access: ClientAccess) {
        undo.touch(.access(client), in: staged)
        staged.access[client] = access
    }

    package mutating func putGrants(_ client: String, _ contacts: Set<String>) {
        undo.touch(.grants(client), in: staged)
        staged.grants[client] = contacts
    }

    package mutating func putRequest(_ requestID: UUID, sequence: UInt64) {
        undo.touch(.request(requestID), in: staged)
        staged.requests[requestID] = sequence
    }
}
