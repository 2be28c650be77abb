import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation
import LedgerStorage

extension ContactStore {
    /// Throws unless the client may read contacts.
    func checkCanRead(_ access: ClientAccess) throws(ContactStoreError) {
        switch access.status {
        case .authorized, .limited: return
        case .notDetermined, .denied, .restricted:
            throw ContactStoreError(
                .authorizationDenied, "client \(client.identifier) is \(access.status), not authorized")
        }
    }

    /// The keys a fetch asks for, checked against the notes entitlement.
    func keys(
        _ descriptors: [any KeyDescriptor], _ access: ClientAccess
    ) throws(ContactStoreError) -> ContactKeySet {
        let keys = ContactKeySet(descriptors: descriptors).union(ContactKeySet(.identifier))
        if keys.contains(.note) && !access.notesEntitlement {
            throw ContactStoreError(
                .unauthorizedKeys, "reading the note needs the notes entitlement", keyPaths: [ContactKey.note.rawValue])
        }
        return keys
    }

    /// The contact with an identifier, with only the requested keys, like `unifiedContact(withIdentifier:keysToFetch:)`.
    ///
    /// Throws ``ContactStoreError/Code/recordDoesNotExist`` if there is none (or a limited client may not see it).
    public func unifiedContact(withIdentifier identifier: String, keysToFetch: [any KeyDescriptor]) throws -> Contact {
        let found: Contact? = try readStateAndAccess(usingIndexes: false) { projection, _, access in
            try checkCanRead(access)
            let keys = try keys(keysToFetch, access)
            // Visibility is decided before anything is decoded, so that a contact the client may
            // not see costs what a missing one does.
            if access.status != .authorized {
                guard ClientView(client: client, access: access, in: projection).sees(identifier, in: projection)
                else { return nil }
            }
            guard let state = projection.contact(identifier, keys: keys) else { return nil }
            return Contact(
                identifier: identifier, limitedValues: state.values, availableKeys: keys, revision: state.revision)
        }
        guard let found else {
            throw ContactStoreError(
                .recordDoesNotExist, "contact \(identifier) does not exist", affectedIdentifiers: [identifier])
        }
        return found
    }

    /// The contacts matching a predicate, with only the requested keys.
    public func unifiedContacts(
        matching predicate: ContactPredicate, keysToFetch: [any KeyDescriptor]
    ) throws -> [Contact] {
        try contacts(for: ContactFetchRequest(keysToFetch: keysToFetch, predicate: predicate))
    }

    /// Calls `block` with each contact the request selects, in its order, until the block sets `stop`.
    ///
    /// The contacts are those of one state: the block runs after the read locks are released, so
    /// that it may read or save through the store. A block that stops early has had decoded
    /// only about the contacts it was given (see ``prepareEnumeration(_:)``).
    public func enumerateContacts(
        with request: ContactFetchRequest, usingBlock block: (Contact, inout Bool) throws -> Void
    ) throws {
        let prepared = try prepareEnumeration(request)
        var stop = false
        for contact in prepared.first {
            try block(contact, &stop)
            if stop { return }
        }
        for index in 0..<prepared.rest.count {
            let fetched = prepared.rest.contact(index, keys: prepared.keys)
            try block(Contact(fetched, keys: prepared.keys), &stop)
            if stop { return }
        }
    }

    /// An enumeration's contacts as one hold of the read locks leaves them: the first decoded,
    /// the rest copied in their encoded form, decoded one by one as the block asks for them.
    private struct PreparedEnumeration {
        var first: [Contact] = []
        var rest = EncodedContacts()
        var keys: ContactKeySet
    }

    /// How many contacts an enumeration decodes under the read locks: a list's first screen, and
    /// every match of most searches, whose few contacts are not worth a copy.
    static let enumerationDecodedFirst = 32

    /// Selects and orders a request's contacts under one hold of the read locks, decodes the
    /// first ``enumerationDecodedFirst`` of them and copies the rest's bytes, which a block that
    /// stops early never has decoded. Unified contacts of linked ones are decoded all at once,
    /// since each is combined from several slots.
    private func prepareEnumeration(_ request: ContactFetchRequest) throws -> PreparedEnumeration {
        try readStateAndAccess(searching: CollectionOfOne(request.predicate)) {
            projection, indexes, access throws in
            let (keys, ordered, unify) = try orderedSlots(for: request, projection, indexes, access)
            var prepared = PreparedEnumeration(keys: keys)
            if unify {
                prepared.first = unifiedContacts(at: ordered, in: projection, keys: keys, access)
                return prepared
            }
            let decoded = min(ordered.count, Self.enumerationDecodedFirst)
            prepared.first.reserveCapacity(decoded)
            Self.visit(ordered[..<decoded], keys: keys, in: projection) {
                prepared.first.append($0)
                return true
            }
            prepared.rest = projection.encodedContacts(at: ordered[decoded...])
            return prepared
        }
    }

    /// The contacts a request selects, in its order, selected, ordered and decoded under one hold
    /// of the read locks: a record applied between selection and decoding could give a selected
    /// slot to a contact that the predicate, or the client's access, does not select.
    private func contacts(for request: ContactFetchRequest) throws -> [Contact] {
        try readStateAndAccess(searching: CollectionOfOne(request.predicate)) {
            projection, indexes, access throws in
            let (keys, ordered, unify) = try orderedSlots(for: request, projection, indexes, access)
            if unify { return unifiedContacts(at: ordered, in: projection, keys: keys, access) }
            var contacts: [Contact] = []
            contacts.reserveCapacity(ordered.count)
            Self.visit(ordered[...], keys: keys, in: projection) {
                contacts.append($0)
                return true
            }
            return contacts
        }
    }

    /// What ``orderedMatches(_:walking:offset:limit:denseMatches:)`` found.
    package enum SearchMatches {
        /// The page, in the caller's order, and how many contacts matched in all.
        case page(identifiers: [String], total: Int)
        /// Too few matched for a walk to pay: every one, in no set order, for the caller to order.
        case few([String])
    }

    /// The contacts that any of `predicates` selects and the client sees, in the order of
    /// `ordered` (every identifier, in the caller's order), from `offset`, at most `limit`, and
    /// how many there are; or, when they are fewer than one in `denseMatches` of `ordered`, all
    /// of them, for the caller to look up and order. No values are decoded, and on a walk no
    /// identifier is made for a contact that is not returned: one letter typed into a search box
    /// selects a tenth of the book, and only its first page is shown.
    package func orderedMatches(
        _ predicates: [ContactPredicate], walking ordered: some Collection<String>, offset: Int, limit: Int,
        denseMatches: Int
    ) throws -> SearchMatches {
        try readStateAndAccess(searching: predicates) { projection, indexes, access in
            try checkCanRead(access)
            let readable = readableKeys(access)
            var slots: [ContactSlot] = []
            for predicate in predicates {
                slots += try selectSlots(projection, indexes, predicate, access, readable: readable)
            }
            slots.sort()
            let isFirst = { (index: Int) in index == 0 || slots[index] != slots[index - 1] }
            let total = slots.indices.count(where: isFirst)
            guard total * denseMatches >= ordered.count else {
                return .few(slots.indices.filter(isFirst).compactMap { projection.owner(at: slots[$0])?.identifier })
            }
            var found: [String] = []
            var skipped = 0
            for identifier in ordered {
                if found.count >= limit { break }
                guard let slot = projection.slot(of: identifier), Self.contains(slot, inSorted: slots) else { continue }
                if skipped < offset {
                    skipped += 1
                } else {
                    found.append(identifier)
                }
            }
            return .page(identifiers: found, total: total)
        }
    }

    /// Whether a sorted array holds a slot.
    private static func contains(_ slot: ContactSlot, inSorted slots: [ContactSlot]) -> Bool {
        var low = 0
        var high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if slots[middle] < slot { low = middle + 1 } else { high = middle }
        }
        return low < slots.count && slots[low] == slot
    }

    /// Gives `visit` the contact of each slot, each as itself, with the values of `keys`, until
    /// it returns false.
    static func visit(
        _ slots: ArraySlice<ContactSlot>, keys: ContactKeySet, in projection: borrowing Projection,
        _ visit: (Contact) throws -> Bool
    ) rethrows {
        try projection.forEachContact(at: slots, keys: keys) { try visit(Contact($0, keys: keys)) }
    }

    /// What a request reads, checked against the client's access; the slots it selects, in its
    /// order; and whether they are to be unified with the contacts they are linked to.
    func orderedSlots(
        for request: ContactFetchRequest, _ projection: Projection, _ indexes: SearchIndexes, _ access: ClientAccess
    ) throws -> (keys: ContactKeySet, slots: [ContactSlot], unify: Bool) {
        try checkCanRead(access)
        let keys = try keys(request.keysToFetch, access)
        let slots = try selectSlots(projection, indexes, request.predicate, access, readable: readableKeys(access))
        let ordered = sort(slots, in: projection, by: request.sortOrder)
        return (keys, ordered, request.unifyResults && !projection.linksByContact.isEmpty)
    }

    /// The keys a custom predicate is shown: all of them, the note only with the entitlement.
    func readableKeys(_ access: ClientAccess) -> ContactKeySet {
        var readable = ContactKeySet.all
        if !access.notesEntitlement { readable.remove(.note) }
        return readable
    }

    /// The slots a predicate selects, visible to the client, in slot order; only a name, email or
    /// phone predicate reads `indexes` (``ContactPredicate/usesSearchIndexes``).
    func selectSlots(
        _ projection: Projection, _ indexes: SearchIndexes, _ predicate: ContactPredicate?, _ access: ClientAccess,
        readable: ContactKeySet
    )
        throws -> [ContactSlot]
    {
        var slots: [ContactSlot]
        switch predicate?.kind {
        case nil:
            slots = projection.occupiedSlots
        case .name(let query):
            slots = projection.slots(matchingName: query, from: indexes)
        case .emailAddress(let address):
            slots = projection.slots(matchingEmailAddress: address, from: indexes)
        case .phoneNumber(let number) where !projection.hasDeferredIndexes:
            // Asked of the indexes here rather than through the projection's method, which cost
            // a phone search about 0.8 µs of its 2 (measured; the cause is not known).
            slots = indexes.slots(matchingPhoneNumber: number.stringValue) { projection.phoneNumberTexts(at: $0) }
        case .phoneNumber(let number):
            slots = projection.slots(matchingPhoneNumber: number.stringValue, from: indexes)
        case .identifiers(let identifiers):
            slots = Array(Set(identifiers.compactMap { projection.slot(of: $0) })).sorted()
        case .group(let identifier):
            guard let group = projection.group(identifier) else {
                throw ContactStoreError(
                    .predicateInvalid, "group \(identifier) does not exist", affectedIdentifiers: [identifier])
            }
            slots = group.members.compactMap { projection.slot(of: $0) }.sorted()
        case .container(let identifier):
            guard projection.container(identifier) != nil else {
                throw ContactStoreError(
                    .predicateInvalid, "container \(identifier) does not exist", affectedIdentifiers: [identifier])
            }
            slots = projection.occupiedSlots.filter { projection.owner(at: $0)?.container == identifier }
        case .custom(let filter):
            // The caller's closure is shown only the contacts the client sees.
            let view = ClientView(client: client, access: access, in: projection)
            slots = try projection.occupiedSlots.filter { slot in
                guard let owner = projection.owner(at: slot), view.sees(owner.identifier, createdBy: owner.createdBy),
                    let state = projection.state(at: slot, keys: readable)
                else {
                    return false
                }
                let contact = Contact(
                    identifier: owner.identifier, limitedValues: state.values, availableKeys: readable,
                    revision: state.revision)
                do {
                    return try filter.evaluate(contact)
                } catch {
                    throw ContactStoreError(.predicateInvalid, "the custom predicate failed: \(error)")
                }
            }
        }
        if access.status != .authorized {
            let view = ClientView(client: client, access: access, in: projection)
            slots = slots.filter { slot in
                guard let owner = projection.owner(at: slot) else { return false }
                return view.sees(owner.identifier, createdBy: owner.createdBy)
            }
        }
        return slots
    }

    /// Orders slots by a sort order (``ContactSortKey``).
    func sort(_ slots: [ContactSlot], in projection: Projection, by order: ContactSortOrder) -> [ContactSlot] {
        guard let resolved = ContactSortKey.resolved(order) else { return slots }
        let fields = ContactSortKey.fields(resolved)
        var ranking = SortRanking<ContactSlot>()
        // Every contact's names are read before the first contact is written: on both processors.
        for names in ParallelHalves.map(slots, { projection.sortNames(of: Array($0), keys: fields) }) {
            ranking.add(names.slots, names: names)
        }
        return ranking.sorted(
            identifier: { projection.identifier(at: $0) ?? "" }, uuid: { projection.identifierUUID(at: $0) })
    }

    /// The groups matching a predicate (all groups when nil), like `groups(matching:)`.
    public func groups(matching predicate: GroupPredicate? = nil) throws -> [Group] {
        try readStateAndAccess { projection, _, access in
            try checkCanRead(access)
            let identifiers: [String]
            switch predicate {
            case nil: identifiers = projection.groupIdentifiers
            case .withIdentifiers(let wanted): identifiers = wanted.filter { projection.group($0) != nil }
            case .inContainer(let container):
                identifiers = projection.groupIdentifiers.filter {
                    projection.group($0)?.containerIdentifier == container
                }
            case .subgroupsOfGroup(let parent): identifiers = (projection.group(parent)?.subgroups ?? []).sorted()
            }
            return identifiers.compactMap { identifier in
                projection.group(identifier).map { Group(identifier: identifier, name: $0.name) }
            }
        }
    }

    /// The containers matching a predicate (all when nil), like `containers(matching:)`.
    public func containers(matching predicate: ContainerPredicate? = nil) throws -> [Container] {
        try readStateAndAccess { projection, _, access in
            try checkCanRead(access)
            switch predicate {
            case nil: return projection.allContainers
            case .withIdentifiers(let wanted): return wanted.compactMap { projection.container($0) }
            case .ofContact(let identifier):
                // A contact the client may not see has no container, as a missing one has none.
                guard let contact = projection.contact(identifier, keys: []),
                    ClientView(client: client, access: access, in: projection).sees(
                        identifier, createdBy: contact.createdBy),
                    let container = projection.container(contact.containerIdentifier)
                else { return [] }
                return [container]
            case .ofGroup(let identifier):
                return projection.group(identifier).flatMap { projection.container($0.containerIdentifier) }.map {
                    [$0]
                } ?? []
            }
        }
    }

    /// The container new contacts go to when a save request names none.
    public func defaultContainerIdentifier() -> String {
        readState { projection, _ in projection.defaultContainer.identifier }
    }
}

extension ContactPredicate {
    /// Whether the predicate is answered from the search indexes: a name, an email address or a
    /// phone number.
    var usesSearchIndexes: Bool {
        switch kind {
        case .name, .emailAddress, .phoneNumber: true
        case .identifiers, .group, .container, .custom: false
        }
    }

    /// Whether a name, email or phone predicate can match a contact: false for one that matches
    /// none whatever the contacts are (no words, no address, too few digits; ``SearchScan``),
    /// numbers read in the region `defaultCountryCode`, and for any other predicate.
    func canMatch(defaultCountryCode: String) -> Bool {
        switch kind {
        case .name(let query): !SearchScan(name: query).matchesNothing
        case .emailAddress(let address): !SearchScan(emailAddress: address).matchesNothing
        case .phoneNumber(let number):
            !SearchScan(phoneNumber: number.stringValue, defaultCountryCode: defaultCountryCode).matchesNothing
        case .identifiers, .group, .container, .custom: false
        }
    }
}

extension Contact {
    /// A fetched contact with the values of `keys`, the keys it was decoded with.
    init(_ fetched: FetchedContact, keys: ContactKeySet) {
        self.init(
            identifier: fetched.identifier, limitedValues: fetched.values, availableKeys: keys,
            revision: fetched.revision)
    }
}
