import ContactsLedger
import Foundation
import LedgerAudit
import Synchronization

/// Every contact's sort key, in the store's order (``ContactSortKey``), so that a page of the
/// list is a slice rather than a sort of the whole address book.
///
/// It is built once, by one pass over the contacts, and afterwards follows the store: the
/// records committed since it last looked name the contacts they touched, and only those are
/// read again and moved. A long gap (more than ``rebuildAfter`` records) builds it again.
final class ContactListing: Sendable {
    private struct State {
        var built = false
        var sequence: UInt64 = 0
        var keys: [ContactSortKey] = []
        var byIdentifier: [String: ContactSortKey] = [:]
    }

    private let state = Mutex(State())
    /// The order, the user's default resolved (family name first where none is set).
    let order = ContactSortKey.resolved(.userDefault) ?? .familyName
    /// The gap in records beyond which following costs more than building again.
    static let rebuildAfter: UInt64 = 20_000

    /// The identifiers of the contacts at `offset..<offset+limit` in sort order, the number of
    /// contacts, and the sequence the listing shows. `auditor` reads the records that the
    /// listing has not seen (nil for a store that never changes).
    func page(
        of store: ContactStore, auditor: LedgerAuditor?, offset: Int, limit: Int
    ) throws -> (identifiers: [String], total: Int, sequence: UInt64) {
        try state.withLock { state in
            try bringUpToDate(&state, store: store, auditor: auditor)
            let start = min(offset, state.keys.count)
            let end = min(start + limit, state.keys.count)
            return (state.keys[start..<end].map(\.identifier), state.keys.count, state.sequence)
        }
    }

    /// The identifiers of the contacts a search's predicates select at `offset..<offset+limit`
    /// in sort order, and how many matched, without sorting every match: when they are many, the
    /// store walks the listing in order until the page is full (a one-letter search matches a
    /// tenth of a million contacts, and its first page is among the first few hundred keys);
    /// when they are few, their keys are looked up and sorted.
    func page(
        of store: ContactStore, auditor: LedgerAuditor?, matching predicates: [ContactPredicate], offset: Int,
        limit: Int
    ) throws -> (identifiers: [String], total: Int) {
        try state.withLock { state in
            try bringUpToDate(&state, store: store, auditor: auditor)
            let ordered = state.keys.lazy.map(\.identifier)
            switch try store.orderedMatches(
                predicates, walking: ordered, offset: offset, limit: limit, denseMatches: Self.denseMatches)
            {
            case .page(let identifiers, let total):
                return (identifiers, total)
            case .few(let matches):
                let found = matches.compactMap { state.byIdentifier[$0] }.sorted().prefix(offset + limit)
                return (found.dropFirst(offset).map(\.identifier), matches.count)
            }
        }
    }

    /// Matches are walked for in the listing when at least one key in this many matches: the
    /// walk then reads about this many keys for each contact of the page.
    private static let denseMatches = 64

    /// Builds the listing, or moves the contacts the records since it last looked touched.
    private func bringUpToDate(_ state: inout State, store: ContactStore, auditor: LedgerAuditor?) throws {
        let head = store.headDigest.sequence
        if !state.built || (head > state.sequence && (auditor == nil || head - state.sequence > Self.rebuildAfter)) {
            state = try build(store)
        } else if head > state.sequence, let auditor {
            try follow(&state, store: store, auditor: auditor, to: head)
        }
    }

    /// The listing of the store as it is now.
    private func build(_ store: ContactStore) throws -> State {
        let head = store.headDigest.sequence
        var folding = SortFolding()
        var keys: [ContactSortKey] = []
        try store.enumerateContacts(with: Self.request(nil)) { contact, _ in
            keys.append(
                ContactSortKey(identifier: contact.identifier, values: contact.values, order: order, folding: &folding))
        }
        keys = ContactSortKey.sorted(keys) { $0 }
        var byIdentifier: [String: ContactSortKey] = [:]
        byIdentifier.reserveCapacity(keys.count)
        for key in keys { byIdentifier[key.identifier] = key }
        return State(built: true, sequence: head, keys: keys, byIdentifier: byIdentifier)
    }

    /// Moves the contacts the records after the listing's sequence touched.
    private func follow(_ state: inout State, store: ContactStore, auditor: LedgerAuditor, to head: UInt64) throws {
        var touched = Set<String>()
        try auditor.forEachEntry(matching: AuditFilter(fromSequence: state.sequence + 1, toSequence: head)) { entry in
            touched.formUnion(entry.affectedIdentifiers)
            return true
        }
        for identifier in touched {
            guard let old = state.byIdentifier.removeValue(forKey: identifier) else { continue }
            let index = Self.position(of: old, in: state.keys)
            if index < state.keys.count && state.keys[index] == old { state.keys.remove(at: index) }
        }
        var folding = SortFolding()
        try store.enumerateContacts(with: Self.request(.withIdentifiers(Array(touched)))) { contact, _ in
            let key = ContactSortKey(
                identifier: contact.identifier, values: contact.values, order: order, folding: &folding)
            state.keys.insert(key, at: Self.position(of: key, in: state.keys))
            state.byIdentifier[contact.identifier] = key
        }
        state.sequence = head
    }

    /// The first index whose key is not below `key`.
    private static func position(of key: ContactSortKey, in keys: [ContactSortKey]) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A fetch of the sort keys alone, each contact as itself.
    private static func request(_ predicate: ContactPredicate?) -> ContactFetchRequest {
        var request = ContactFetchRequest(keysToFetch: [ContactSortKey.keys], predicate: predicate)
        request.unifyResults = false
        return request
    }
}
