import Foundation
import LedgerStorage

/// A contact in the projection: its values encoded compactly, and small indexes for the rest.
private struct StoredContact: Sendable {
    var identifier: String
    var encoded: [UInt8]
    var container: UInt16
    var creator: UInt32
    var revision: UInt64
}

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
    private var containers: [String: Container]
    private var containerIdentifiers: [String] = []
    private var containerIndexes: [String: UInt16] = [:]
    private var creators: [String] = []
    private var creatorIndexes: [String: UInt32] = [:]
    private var slots: [StoredContact?] = []
    private var freeSlots: [ContactSlot] = []
    private var slotByIdentifier: [String: ContactSlot] = [:]
    private var groupsByIdentifier: [String: GroupState] = [:]
    private var accessByClient: [String: ClientAccess] = [:]
    private var grantsByClient: [String: Set<String>] = [:]
    private var requests: [UUID: UInt64] = [:]
    /// The name, email and phone indexes.
    package private(set) var indexes: SearchIndexes
    /// The last record applied.
    package private(set) var head: HeadDigest = .empty
    /// The commit time of the last record applied.
    package private(set) var lastCommitMicroseconds: Int64 = 0

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
        guard let slot = slotByIdentifier[identifier] else { return nil }
        return state(at: slot)
    }

    package func group(_ identifier: String) -> GroupState? { groupsByIdentifier[identifier] }

    package func container(_ identifier: String) -> Container? { containers[identifier] }

    package func groups(containing contactIdentifier: String) -> [String] {
        groupsByIdentifier.compactMap { $0.value.members.contains(contactIdentifier) ? $0.key : nil }.sorted()
    }

    package func access(of client: String) -> ClientAccess? { accessByClient[client] }

    package func grants(of client: String) -> Set<String> { grantsByClient[client] ?? [] }

    package func sequence(ofRequest requestID: UUID) -> UInt64? { requests[requestID] }

    /// How many contacts there are.
    package var contactCount: Int { slotByIdentifier.count }

    /// Every group's identifier, sorted.
    package var groupIdentifiers: [String] { groupsByIdentifier.keys.sorted() }

    /// Every container, default first.
    package var allContainers: [Container] {
        [defaultContainer]
            + containers.values.filter { $0.identifier != defaultContainer.identifier }
            .sorted { $0.identifier < $1.identifier }
    }

    /// The slot of a contact.
    package func slot(of identifier: String) -> ContactSlot? { slotByIdentifier[identifier] }

    /// The occupied slots, in slot order.
    package var occupiedSlots: [ContactSlot] {
        slots.indices.compactMap { slots[$0] == nil ? nil : ContactSlot($0) }
    }

    /// The identifier of the contact in a slot.
    package func identifier(at slot: ContactSlot) -> String? {
        Int(slot) < slots.count ? slots[Int(slot)]?.identifier : nil
    }

    /// The contact in a slot, decoded.
    package func state(at slot: ContactSlot) -> ContactState? {
        guard Int(slot) < slots.count, let stored = slots[Int(slot)] else { return nil }
        return ContactState(
            values: decodeValues(stored.encoded), containerIdentifier: containerIdentifiers[Int(stored.container)],
            createdBy: creators[Int(stored.creator)], revision: stored.revision)
    }

    /// The identifier and creator of a slot's contact, without decoding its values.
    package func owner(at slot: ContactSlot) -> (identifier: String, createdBy: String, container: String)? {
        guard Int(slot) < slots.count, let stored = slots[Int(slot)] else { return nil }
        return (stored.identifier, creators[Int(stored.creator)], containerIdentifiers[Int(stored.container)])
    }

    private func decodeValues(_ encoded: [UInt8]) -> ContactValues {
        do {
            return try ContactCodec.decode(encoded).values
        } catch {
            // The bytes were encoded by this process a moment ago; failing to decode them is a broken invariant.
            preconditionFailure("projection holds a contact it cannot decode: \(error)")
        }
    }

    // MARK: Writing

    package mutating func putContact(_ identifier: String, _ state: ContactState?) {
        if let state {
            let stored = StoredContact(
                identifier: identifier, encoded: ContactCodec.encode(state.values, keys: .all),
                container: containerIndex(state.containerIdentifier), creator: creatorIndex(state.createdBy),
                revision: state.revision)
            if let slot = slotByIdentifier[identifier] {
                let old = decodeValues(slots[Int(slot)]!.encoded)
                slots[Int(slot)] = stored
                indexes.update(slot, from: old, to: state.values)
            } else {
                let slot: ContactSlot
                if let free = freeSlots.popLast() {
                    slot = free
                    slots[Int(slot)] = stored
                } else {
                    slot = ContactSlot(slots.count)
                    slots.append(stored)
                }
                slotByIdentifier[identifier] = slot
                indexes.insert(slot, values: state.values)
            }
        } else if let slot = slotByIdentifier.removeValue(forKey: identifier) {
            let old = decodeValues(slots[Int(slot)]!.encoded)
            slots[Int(slot)] = nil
            freeSlots.append(slot)
            indexes.remove(slot, values: old)
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

    private mutating func containerIndex(_ identifier: String) -> UInt16 {
        if let index = containerIndexes[identifier] { return index }
        let index = UInt16(containerIdentifiers.count)
        containerIdentifiers.append(identifier)
        containerIndexes[identifier] = index
        return index
    }

    private mutating func creatorIndex(_ client: String) -> UInt32 {
        if let index = creatorIndexes[client] { return index }
        let index = UInt32(creators.count)
        creators.append(client)
        creatorIndexes[client] = index
        return index
    }

    /// Orders what the indexes gained since the last call, so queries binary search; call after
    /// a replay and after each commit.
    package mutating func prepareForQueries() {
        if indexes.needsPreparation { indexes.prepareForQueries() }
    }

    /// Decodes a journal record's payload and applies it; the one path for replay and live commits.
    package mutating func apply(_ record: JournalRecord) throws(ContactStoreError) {
        let event: LedgerEvent
        do {
            event = try EventCodec.decode(record.payload, schemaVersion: record.schemaVersion)
        } catch {
            throw ContactStoreError(
                .dataAccessError, "record \(record.sequence) at \(record.location) cannot be decoded: \(error)")
        }
        apply(event, record: record)
    }

    /// Applies an already decoded event for a record.
    package mutating func apply(_ event: LedgerEvent, record: JournalRecord) {
        apply(event, sequence: record.sequence, requestID: record.requestID)
        head = HeadDigest(sequence: record.sequence, hash: record.hash)
        lastCommitMicroseconds = record.commitMicroseconds
    }

    /// Applies an event committed with a receipt (a live commit).
    package mutating func apply(_ event: LedgerEvent, receipt: AppendReceipt, requestID: UUID) {
        apply(event, sequence: receipt.sequence, requestID: requestID)
        head = HeadDigest(sequence: receipt.sequence, hash: receipt.hash)
        lastCommitMicroseconds = receipt.commitMicroseconds
    }
}
