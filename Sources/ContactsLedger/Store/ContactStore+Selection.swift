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

    /// The contact at `index` with the requested keys; nil if its values cannot be read.
    /// Safe to call from several threads at once.
    package func contact(at index: Int) -> Contact? {
        switch source {
        case .slots(let projection, let slots, let keys):
            // Decoded as a fetch decodes its matches: the identifier, the revision and the keys'
            // values, without the container and creator a contact's state also names.
            var contact: Contact?
            ContactStore.visit(slots[index...index], keys: keys, in: projection) {
                contact = $0
                return false
            }
            return contact
        case .contacts(let contacts):
            return contacts[index]
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
