import ContactsModel
import Foundation
import LedgerStorage

/// The current state built from the journal: contacts, groups, containers, access, request ids
/// and the search indexes. One `apply` path (``LedgerState``) builds it for live commits, replay
/// and point-in-time views.
///
/// Contacts are kept encoded (``ContactCodec``) in slots addressed by a dense ``ContactSlot``, so a
/// large ledger costs little memory; a fetch decodes only what it returns.
package struct Projection: LedgerState, Sendable {
    /// The ledger's id.
    package let ledgerID: UUID
    /// The default container: its identifier is the ledger's id, so it needs no event.
    package let defaultContainer: Container
    // The storage below is internal rather than private only so that `Projection+Snapshot.swift`
    // (Snapshots/) can write it out and restore it verbatim; nothing else touches it directly.
    package var containers: [String: Container]
    package var containerIdentifiers: [String] = []
    var containerIndexes: [String: UInt16] = [:]
    package var creators: [String] = []
    var creatorIndexes: [String: UInt32] = [:]
    /// Contacts by slot, with their identifiers and encoded values. The order of slots and of the
    /// free slots is state: it decides which slot the next contact gets, and so the order of
    /// query results.
    package var contacts = ContactTable()
    package var groupsByIdentifier: [String: GroupState] = [:]
    package var accessByClient: [String: ClientAccess] = [:]
    package var grantsByClient: [String: Set<String>] = [:]
    package var requests: [UUID: UInt64] = [:]
    /// Each linked contact's link set, itself included, in the order its members joined
    /// (``LedgerStateReading/links(of:)``); a contact linked to none has no entry.
    package var linksByContact: [String: [String]] = [:]
    /// The name, email and phone indexes.
    package var indexes: SearchIndexes
    /// Whether contact changes leave the indexes alone until ``buildIndexes()`` (see ``deferIndexes()``).
    var indexesDeferred = false
    /// While non-nil, contact changes are recorded here for the indexes instead of applied to
    /// them (see ``recordIndexChanges()``).
    private var indexChanges: [SearchIndexes.Change]?
    /// The last record applied.
    package internal(set) var head: HeadDigest = .empty
    /// The commit time of the last record applied.
    package internal(set) var lastCommitMicroseconds: Int64 = 0

    /// Creates the empty state of a ledger.
    package init(ledgerID: UUID, defaultCountryCode: String = ContactsUserDefaults.shared.countryCode) {
        self.ledgerID = ledgerID
        let local = Container(identifier: ledgerID.uuidString, name: "Local", type: .local)
        defaultContainer = local
        containers = [local.identifier: local]
        indexes = SearchIndexes(defaultCountryCode: defaultCountryCode)
        _ = containerIndex(local.identifier)
    }

    // MARK: Reading

    package func contact(_ identifier: String) -> ContactState? {
        contact(identifier, keys: .all)
    }

    /// The contact with an identifier, with only the values of `keys` decoded
    /// (``ContactCodec/decode(_:keeping:)``), the others left at their defaults.
    package func contact(_ identifier: String, keys: ContactKeySet) -> ContactState? {
        guard let slot = contacts.slot(of: identifier) else { return nil }
        return state(at: slot, keys: keys)
    }

    package func group(_ identifier: String) -> GroupState? { groupsByIdentifier[identifier] }

    package func container(_ identifier: String) -> Container? { containers[identifier] }

    package func groups(containing contactIdentifier: String) -> [String] {
        Self.groups(containing: contactIdentifier, in: groupsByIdentifier)
    }

    /// The groups of `groups` that have a contact as a member, sorted: ``groups(containing:)``
    /// for a caller that reads the projection's stored properties in place.
    package static func groups(containing contactIdentifier: String, in groups: [String: GroupState]) -> [String] {
        groups.compactMap { $0.value.members.contains(contactIdentifier) ? $0.key : nil }.sorted()
    }

    package func access(of client: String) -> ClientAccess? { accessByClient[client] }

    package func grants(of client: String) -> Set<String> { grantsByClient[client] ?? [] }

    package func sequence(ofRequest requestID: UUID) -> UInt64? { requests[requestID] }

    package func links(of contactIdentifier: String) -> [String] { linksByContact[contactIdentifier] ?? [] }

    /// How many contacts there are.
    package var contactCount: Int { contacts.count }

    /// Every group's identifier, sorted.
    package var groupIdentifiers: [String] { groupsByIdentifier.keys.sorted() }

    /// Every container, default first.
    package var allContainers: [Container] {
        [defaultContainer]
            + containers.values.filter { $0.identifier != defaultContainer.identifier }
            .sorted { $0.identifier < $1.identifier }
    }

    /// The slot of a contact.
    package func slot(of identifier: String) -> ContactSlot? { contacts.slot(of: identifier) }

    /// The occupied slots, in slot order.
    package var occupiedSlots: [ContactSlot] { contacts.occupiedSlots }

    /// The free slots, in the order they are reused (last first).
    package var freeSlots: [ContactSlot] { contacts.freeSlots }

    /// The identifier of the contact in a slot.
    package func identifier(at slot: ContactSlot) -> String? { contacts.identifier(at: slot) }

    /// The contact in a slot, decoded; with `keys`, only the values of those keys.
    package func state(at slot: ContactSlot, keys: ContactKeySet = .all) -> ContactState? {
        Self.state(at: slot, in: contacts, containerIdentifiers: containerIdentifiers, creators: creators, keys: keys)
    }

    /// The contact in a slot of `contacts`, decoded, with the container and creator its record
    /// numbers: ``state(at:)`` for a caller that reads the projection's stored properties in
    /// place (a method called through a pointer copies the whole projection first).
    package static func state(
        at slot: ContactSlot, in contacts: ContactTable, containerIdentifiers: [String], creators: [String],
        keys: ContactKeySet = .all
    ) -> ContactState? {
        guard let stored = contacts.record(at: slot) else { return nil }
        return ContactState(
            values: contacts.withEncoded(stored) { decodeValues($0, keeping: keys) },
            containerIdentifier: containerIdentifiers[Int(stored.container)],
            createdBy: creators[Int(stored.creator)], revision: stored.revision)
    }

    /// The identifier and creator of a slot's contact, without decoding its values.
    package func owner(at slot: ContactSlot) -> (identifier: String, createdBy: String, container: String)? {
        guard let stored = contacts.record(at: slot) else { return nil }
        return (
            contacts.identifier(stored), creators[Int(stored.creator)], containerIdentifiers[Int(stored.container)]
        )
    }

    /// Every value of the contact in an occupied slot, decoded where its bytes lie.
    static func decodeValues(at slot: ContactSlot, in contacts: ContactTable) -> ContactValues {
        contacts.withEncoded(at: slot) { decodeValues($0, keeping: .all) }
    }

    /// The values of `keys` in a contact's encoded bytes, the others left at their defaults.
    static func decodeValues(_ encoded: UnsafeBufferPointer<UInt8>, keeping keys: ContactKeySet) -> ContactValues {
        do {
            return try ContactCodec.decode(encoded, keeping: keys)
        } catch {
            // The bytes were encoded by this process a moment ago; failing to decode them is a broken invariant.
            preconditionFailure("projection holds a contact it cannot decode: \(error)")
        }
    }

    // MARK: Writing

    package mutating func putContact(_ identifier: String, _ state: ContactState?) {
        putContact(identifier, state, knownOld: nil)
    }

    /// Stores a contact whose current values the caller has just read, so they are not decoded
    /// again to update the indexes (an update in replay decodes the contact once, not twice).
    package mutating func putContact(_ identifier: String, _ state: ContactState, replacing old: ContactValues) {
        putContact(identifier, state, knownOld: old)
    }

    /// Stores (or, with a nil state, removes) a contact; `encoded`, when given, must be what
    /// `ContactCodec.encode(state.values, keys: .all)` gives, and is stored instead of encoding.
    private mutating func putContact(
        _ identifier: String, _ state: ContactState?, knownOld: ContactValues?,
        encoded given: UnsafeBufferPointer<UInt8>? = nil
    ) {
        if let state {
            storeContact(
                identifier, values: state.values, containerIdentifier: state.containerIdentifier,
                createdBy: state.createdBy, revision: state.revision, knownOld: knownOld, encoded: given)
        } else if let slot = contacts.slot(of: identifier) {
            let old = indexesDeferred ? nil : Self.decodeValues(at: slot, in: contacts)
            contacts.remove(slot)
            if let old { changeIndexes(.remove(slot, old)) }
        }
    }

    /// Stores a contact's state given in its parts, without the ``ContactState`` (and the
    /// optional around it) that ``putContact(_:_:)`` takes, so that a group's added contacts are
    /// stored from their operations without copying each one's values into a new state first.
    private mutating func storeContact(
        _ identifier: String, values: ContactValues, containerIdentifier: String, createdBy: String, revision: UInt64,
        knownOld: ContactValues?, encoded given: UnsafeBufferPointer<UInt8>?
    ) {
        guard let encoded = given else {
            ContactCodec.encode(values, keys: .all).withUnsafeBufferPointer { encoded in
                storeContact(
                    identifier, values: values, containerIdentifier: containerIdentifier, createdBy: createdBy,
                    revision: revision, knownOld: knownOld, encoded: encoded)
            }
            return
        }
        let container = containerIndex(containerIdentifier)
        let creator = creatorIndex(createdBy)
        ContactTable.withKey(identifier) { key in
            let (found, hash) = contacts.lookUp(key)
            if let slot = found {
                // While the indexes are deferred, nothing needs the old values.
                let old = indexesDeferred ? nil : knownOld ?? Self.decodeValues(at: slot, in: contacts)
                contacts.replace(slot, encoded: encoded, container: container, creator: creator, revision: revision)
                if let old { changeIndexes(.update(slot, old: old, new: values)) }
            } else {
                let slot = contacts.insert(
                    key, hash: hash, encoded: encoded, container: container, creator: creator, revision: revision)
                if !indexesDeferred { changeIndexes(.insert(slot, values)) }
            }
        }
    }

    package mutating func putGroup(_ identifier: String, _ state: GroupState?) {
        groupsByIdentifier[identifier] = state
    }

    package mutating func putContainer(_ container: Container) {
        containers[container.identifier] = container
        _ = containerIndex(container.identifier)
    }

    package mutating func putAccess(_ client: String, _ access: ClientAccess) { accessByClient[client] = access }

    package mutating func putGrants(_ client: String, _ contacts: Set<String>) { grantsByClient[client] = contacts }

    package mutating func putRequest(_ requestID: UUID, sequence: UInt64) { requests[requestID] = sequence }

    package mutating func putLinks(_ contactIdentifier: String, _ links: [String]) {
        linksByContact[contactIdentifier] = links.isEmpty ? nil : links
    }

    mutating func containerIndex(_ identifier: String) -> UInt16 {
        // Consecutive contacts are mostly in one container: compared before hashing.
        if let last = containerIdentifiers.last, last == identifier { return UInt16(containerIdentifiers.count - 1) }
        if let index = containerIndexes[identifier] { return index }
        precondition(containerIdentifiers.count < Int(StoredContact.freeContainer), "too many containers")
        let index = UInt16(containerIdentifiers.count)
        containerIdentifiers.append(identifier)
        containerIndexes[identifier] = index
        return index
    }

    mutating func creatorIndex(_ client: String) -> UInt32 {
        if let last = creators.last, last == client { return UInt32(creators.count - 1) }
        if let index = creatorIndexes[client] { return index }
        let index = UInt32(creators.count)
        creators.append(client)
        creatorIndexes[client] = index
        return index
    }

    /// Applies a contact's change to the indexes, or records it while changes are recorded.
    private mutating func changeIndexes(_ change: SearchIndexes.Change) {
        if indexChanges != nil {
            indexChanges!.append(change)
        } else {
            indexes.apply(change)
        }
    }

    /// Starts recording what contact changes would do to the indexes instead of doing it, until
    /// ``takeIndexChanges()``: a store keeps its indexes apart and gives them a group's changes
    /// after it has answered the group's callers, or when a reader needs them (decision 0014).
    package mutating func recordIndexChanges() {
        precondition(indexChanges == nil && !indexesDeferred, "index changes are recorded already, or deferred")
        indexChanges = []
    }

    /// Ends recording and returns what was recorded since ``recordIndexChanges()``, in order;
    /// ``SearchIndexes/apply(_:)`` brings indexes up to the contacts.
    package mutating func takeIndexChanges() -> [SearchIndexes.Change] {
        defer { indexChanges = nil }
        return indexChanges ?? []
    }

    /// Orders what the indexes gained since the last call, so queries binary search; call after
    /// a replay and after each commit.
    package mutating func prepareForQueries() {
        if indexes.needsPreparation { indexes.prepareForQueries() }
    }

    /// Decodes a journal record's payload and applies it; the one path for replay and live commits.
    package mutating func apply(_ record: JournalRecord) throws(ContactStoreError) {
        apply(try Self.decode(record), record: record)
    }

    /// Decodes a journal record's payload, with an error naming the record.
    static func decode(_ record: JournalRecord) throws(ContactStoreError) -> LedgerEvent {
        do {
            return try EventCodec.decode(record.payload, schemaVersion: record.payloadSchemaVersion)
        } catch {
            throw ContactStoreError(
                .dataAccessError, "record \(record.sequence) at \(record.location) cannot be decoded: \(error)")
        }
    }

    /// Applies an already decoded event for a record.
    package mutating func apply(_ event: LedgerEvent, record: JournalRecord) {
        apply(event, sequence: record.sequence, requestID: record.requestID)
        head = HeadDigest(sequence: record.sequence, hash: record.hash)
        lastCommitMicroseconds = record.commitMicroseconds
    }

    /// Applies an event committed with a receipt (a live commit), given as it was encoded for
    /// its record: each added contact is stored as the bytes of its Contact message in the
    /// payload, which are what encoding its values gives, rather than encoded a second time.
    package mutating func apply(_ event: LedgerEvent, encoded: EncodedEvent, receipt: AppendReceipt, requestID: UUID) {
        let sequence = receipt.sequence
        var added = encoded.addedContacts.makeIterator()
        encoded.payload.withUnsafeBufferPointer { payload in
            // By index, not by element: an operation is close to two kilobytes, and iterating
            // copied each one whole before matching it.
            for index in event.operations.indices {
                guard
                    case .addContact(let identifier, let container, let createdBy, let values) = event.operations[index]
                else {
                    apply(event.operations[index], sequence: sequence)
                    continue
                }
                guard let range = added.next() else {
                    preconditionFailure("an encoded event locates fewer added contacts than it has")
                }
                let bytes = UnsafeBufferPointer(rebasing: payload[range])
                assert(bytes.elementsEqual(ContactCodec.encode(values, keys: .all)), "an added contact's bytes differ")
                storeContact(
                    identifier, values: values, containerIdentifier: container, createdBy: createdBy,
                    revision: sequence, knownOld: nil, encoded: bytes)
            }
        }
        putRequest(requestID, sequence: sequence)
        head = HeadDigest(sequence: sequence, hash: receipt.hash)
        lastCommitMicroseconds = receipt.commitMicroseconds
    }
}
