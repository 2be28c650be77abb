import ContactsEngine
import ContactsModel

/// The contacts a fetch request selects, in its order, as of one state, each decoded only when
/// asked for: output that writes every contact (`list --json`, `export`) decodes and formats
/// them on every processor at once, which decoding under the store's read locks, one at a time,
/// does not allow.
///
/// A selection holds a copy of the projection, which shares its storage with the store's until
/// the store applies a record; an applied record then copies what it changes, so a selection is
/// for reading a state through and letting go, not for keeping.
package struct ContactSelection: Sendable {
    fileprivate enum Source: Sendable {
        /// Slots of `projection`, decoded with `keys` when asked for.
        case slots(projection: Projection, slots: [ContactSlot], keys: ContactKeySet)
        /// Contacts already made, such as unified contacts, which combine several slots.
        case contacts([Contact])
    }

    private let source: Source

    /// How many contacts were selected.
    package var count: Int {
        switch source {
        case .slots(_, let slots, _): slots.count
        case .contacts(let contacts): contacts.count
        }
    }

    /// The identifier of the contact at `index`, without decoding its values.
    package func identifier(at index: Int) -> String {
        switch source {
        case .slots(let projection, let slots, _): projection.identifier(at: slots[index]) ?? ""
        case .contacts(let contacts): contacts[index].identifier
        }
    }

    /// Calls `body` with each contact at `indices`, in order, with the requested keys, passing
    /// over any whose values cannot be read. Safe to call from several threads at once. The
    /// contacts a few places ahead are asked of the processor while one is decoded: in a sorted
    /// order they lie scattered over the projection's memory, and decoding them one call at a
    /// time waited for each one's memory in turn.
    package func forEachContact(in indices: Range<Int>, _ body: (Contact) -> Void) {
        switch source {
        case .slots(let projection, let slots, let keys):
            // Decoded as a fetch decodes its matches: the identifier, the revision and the keys'
            // values, without the container and creator a contact's state also names.
            ContactStore.visit(slots[indices], keys: keys, in: projection) {
                body($0)
                return true
            }
        case .contacts(let contacts):
            for contact in contacts[indices] { body(contact) }
        }
    }

    fileprivate init(_ source: Source) { self.source = source }
}

extension ContactStore {
    /// The contacts `request` selects, in its order, as ``unifiedContacts(matching:keysToFetch:)``
    /// and ``enumerateContacts(with:usingBlock:)`` give them, left to decode by the caller.
    package func selection(for request: ContactFetchRequest) throws -> ContactSelection {
        try readStateAndAccess(searching: CollectionOfOne(request.predicate)) {
            projection, indexes, access throws in
            let (keys, ordered, unify) = try orderedSlots(for: request, projection, indexes, access)
            if unify {
                return ContactSelection(.contacts(unifiedContacts(at: ordered, in: projection, keys: keys, access)))
            }
            return ContactSelection(.slots(projection: copy projection, slots: ordered, keys: keys))
        }
    }
}
