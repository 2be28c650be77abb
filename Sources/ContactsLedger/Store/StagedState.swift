import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation
import LedgerStorage

/// The effects of save requests that are queued for the journal but not yet durable.
///
/// A request is validated against the durable projection plus these effects, so that requests
/// queued behind each other see each other (Architecture.md, the commit path, step 1). Each
/// entry is the full state after the latest queued change to that object, with the number of
/// queued changes that still need it; it is dropped once every one of them has been applied to
/// the projection.
///
/// A change counts itself when it is written (``StagedView``), and the undo record it leaves
/// names each key once per write, so that releasing a queued request, or rolling back one that
/// was not queued, takes back exactly what it added. Writing an entry is then one hash of its
/// key, and releasing it another: a set of touched keys and a separate table of counts had cost
/// four more per key, a tenth of a save's CPU with many writers.
package struct StagedChanges: Sendable {
    /// A staged object's latest state and how many queued changes still need it (at least one).
    fileprivate struct Entry<Value: Sendable>: Sendable {
        var value: Value
        var pending: Int
    }

    fileprivate var contacts: [String: Entry<ContactState?>] = [:]
    fileprivate var groups: [String: Entry<GroupState?>] = [:]
    fileprivate var containers: [String: Entry<Container>] = [:]
    fileprivate var access: [String: Entry<ClientAccess>] = [:]
    fileprivate var grants: [String: Entry<Set<String>>] = [:]
    fileprivate var requests: [UUID: Entry<UInt64>] = [:]
    fileprivate var links: [String: Entry<[String]>] = [:]

    /// Creates an empty set of staged changes.
    package init() {}

    /// Whether nothing is staged.
    package var isEmpty: Bool {
        contacts.isEmpty && groups.isEmpty && containers.isEmpty && access.isEmpty && grants.isEmpty
            && requests.isEmpty && links.isEmpty
    }

    /// Counts the changes of a queued request done, dropping the entries no queued change still
    /// needs.
    package mutating func release(_ undo: StagedUndo) {
        for change in undo.changes {
            switch change {
            case .contact(let identifier, _): Self.release(identifier, in: &contacts)
            case .group(let identifier, _): Self.release(identifier, in: &groups)
            case .container(let identifier, _): Self.release(identifier, in: &containers)
            case .access(let client, _): Self.release(client, in: &access)
            case .grants(let client, _): Self.release(client, in: &grants)
            case .request(let identifier, _): Self.release(identifier, in: &requests)
            case .links(let identifier, _): Self.release(identifier, in: &links)
            }
        }
    }

    /// Counts one change to `key` done: one lookup of the key, then the entry is changed or
    /// removed in place.
    private static func release<Key: Hashable, Value>(_ key: Key, in table: inout [Key: Entry<Value>]) {
        guard let index = table.index(forKey: key) else { return }
        if table.values[index].pending > 1 {
            table.values[index].pending -= 1
        } else {
            table.remove(at: index)
        }
    }

    /// Stages `value` at `key`, counting one more change that needs it; returns the entry it
    /// replaced. One lookup: the entry is created with no count if absent, and changed in place.
    fileprivate static func put<Key: Hashable, Value>(
        _ value: Value, at key: Key, in table: inout [Key: Entry<Value>]
    ) -> Entry<Value>? {
        var previous: Entry<Value>?
        func count(_ entry: inout Entry<Value>) {
            if entry.pending > 0 {
                previous = entry
                entry.value = value
            }
            entry.pending += 1
        }
        count(&table[key, default: Entry(value: value, pending: 0)])
        return previous
    }
}

/// What a request being planned changed in the staged changes, and what they held before: one
/// change per write, in order, so that the request's effects can be taken out again if it is not
/// queued (``rollBack(_:)``), and its counts released once it is applied
/// (``StagedChanges/release(_:)``).
package struct StagedUndo: Sendable {
    /// One write to the staged changes: its key, and the entry it replaced (nil if it made one).
    fileprivate enum Change: Sendable {
        case contact(String, StagedChanges.Entry<ContactState?>?)
        case group(String, StagedChanges.Entry<GroupState?>?)
        case container(String, StagedChanges.Entry<Container>?)
        case access(String, StagedChanges.Entry<ClientAccess>?)
        case grants(String, StagedChanges.Entry<Set<String>>?)
        case request(UUID, StagedChanges.Entry<UInt64>?)
        case links(String, StagedChanges.Entry<[String]>?)
    }

    /// The request's writes, in order.
    fileprivate private(set) var changes: [Change] = []

    /// Creates an empty record: nothing touched.
    package init() {}

    /// Puts back what the request's writes replaced (removing the entries they made), the last
    /// first.
    package func rollBack(_ staged: inout StagedChanges) {
        for change in changes.reversed() {
            switch change {
            case .contact(let identifier, let previous): staged.contacts[identifier] = previous
            case .group(let identifier, let previous): staged.groups[identifier] = previous
            case .container(let identifier, let previous): staged.containers[identifier] = previous
            case .access(let client, let previous): staged.access[client] = previous
            case .grants(let client, let previous): staged.grants[client] = previous
            case .request(let identifier, let previous): staged.requests[identifier] = previous
            case .links(let identifier, let previous): staged.links[identifier] = previous
            }
        }
    }

    fileprivate mutating func record(_ change: Change) { changes.append(change) }
}

/// The projection seen through the staged changes, and the place a request being planned writes
/// its own effects (so later operations of the same request see earlier ones).
///
/// The store moves its staged changes into the view and takes them back with ``detach()``, so
/// that a request's effects are written into them in place: copying them for every request
/// would make planning cost grow with the number of queued requests. The view records what each
/// key held before the request touched it (``undo``), so a request that fails or is not queued
/// leaves the staged changes as they were.
package struct StagedView<Base: LedgerStateReading>: LedgerState {
    private let base: Base
    /// The staged changes, including this request's.
    package private(set) var staged: StagedChanges
    /// What this request wrote, and what it replaced.
    package private(set) var undo = StagedUndo()

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
        if let staged = staged.contacts[identifier] { return staged.value }
        return base.contact(identifier)
    }

    package func group(_ identifier: String) -> GroupState? {
        if let staged = staged.groups[identifier] { return staged.value }
        return base.group(identifier)
    }

    package func container(_ identifier: String) -> Container? {
        staged.containers[identifier]?.value ?? base.container(identifier)
    }

    package func groups(containing contactIdentifier: String) -> [String] {
        var result = Set(base.groups(containing: contactIdentifier).filter { staged.groups[$0] == nil })
        for (identifier, entry) in staged.groups where entry.value?.members.contains(contactIdentifier) == true {
            result.insert(identifier)
        }
        return result.sorted()
    }

    package func access(of client: String) -> ClientAccess? { staged.access[client]?.value ?? base.access(of: client) }

    package func grants(of client: String) -> Set<String> { staged.grants[client]?.value ?? base.grants(of: client) }

    package func sequence(ofRequest requestID: UUID) -> UInt64? {
        staged.requests[requestID]?.value ?? base.sequence(ofRequest: requestID)
    }

    package func links(of contactIdentifier: String) -> [String] {
        staged.links[contactIdentifier]?.value ?? base.links(of: contactIdentifier)
    }

    package mutating func putLinks(_ contactIdentifier: String, _ links: [String]) {
        undo.record(.links(contactIdentifier, StagedChanges.put(links, at: contactIdentifier, in: &staged.links)))
    }

    package mutating func putContact(_ identifier: String, _ state: ContactState?) {
        undo.record(.contact(identifier, StagedChanges.put(state, at: identifier, in: &staged.contacts)))
    }

    package mutating func putGroup(_ identifier: String, _ state: GroupState?) {
        undo.record(.group(identifier, StagedChanges.put(state, at: identifier, in: &staged.groups)))
    }

    package mutating func putContainer(_ container: Container) {
        let identifier = container.identifier
        undo.record(.container(identifier, StagedChanges.put(container, at: identifier, in: &staged.containers)))
    }

    package mutating func putAccess(_ client: String, _ access: ClientAccess) {
        undo.record(.access(client, StagedChanges.put(access, at: client, in: &staged.access)))
    }

    package mutating func putGrants(_ client: String, _ contacts: Set<String>) {
        undo.record(.grants(client, StagedChanges.put(contacts, at: client, in: &staged.grants)))
    }

    package mutating func putRequest(_ requestID: UUID, sequence: UInt64) {
        undo.record(.request(requestID, StagedChanges.put(sequence, at: requestID, in: &staged.requests)))
    }
}
