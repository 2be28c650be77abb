import CLedgerPrefetch
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
    var containers: [String: Container]
    var containerIdentifiers: [String] = []
    var containerIndexes: [String: UInt16] = [:]
    var creators: [String] = []
    var creatorIndexes: [String: UInt32] = [:]
    /// Contacts by slot, with their identifiers and encoded values. The order of slots and of the
    /// free slots is state: it decides which slot the next contact gets, and so the order of
    /// query results.
    var contacts = ContactTable()
    var groupsByIdentifier: [String: GroupState] = [:]
    var accessByClient: [String: ClientAccess] = [:]
    var grantsByClient: [String: Set<String>] = [:]
    var requests: [UUID: UInt64] = [:]
    /// The name, email and phone indexes.
    package internal(set) var indexes: SearchIndexes
    /// Whether contact changes leave the indexes alone until ``buildIndexes()`` (see ``deferIndexes()``).
    var indexesDeferred = false
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
        guard let slot = contacts.slot(of: identifier) else { return nil }
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

    /// The contact in a slot, decoded.
    package func state(at slot: ContactSlot) -> ContactState? {
        guard let stored = contacts.record(at: slot) else { return nil }
        return ContactState(
            values: decodeValues(contacts.encoded(stored)),
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

    func decodeValues(_ encoded: [UInt8]) -> ContactValues {
        do {
            return try ContactCodec.decode(encoded).values
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
            let old = indexesDeferred ? nil : decodeValues(contacts.encoded(at: slot))
            contacts.remove(slot)
            if let old { indexes.remove(slot, values: old) }
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
        let (found, hash) = contacts.lookUp(identifier)
        if let slot = found {
            // While the indexes are deferred, nothing needs the old values.
            let old = indexesDeferred ? nil : knownOld ?? decodeValues(contacts.encoded(at: slot))
            contacts.replace(slot, encoded: encoded, container: container, creator: creator, revision: revision)
            if let old { indexes.update(slot, from: old, to: values) }
        } else {
            let slot = contacts.insert(
                identifier, hash: hash, encoded: encoded, container: container, creator: creator, revision: revision)
            if !indexesDeferred { indexes.insert(slot, values: values) }
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
            return try EventCodec.decode(record.payload, schemaVersion: record.schemaVersion)
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

/// Where a contact of the projection lives in ``ContactTable``'s arena, and small indexes for the rest.
struct StoredContact: Sendable, Hashable {
    /// The container index of a free slot.
    static let freeContainer = UInt16.max
    /// A free slot.
    static let free = StoredContact(
        offset: 0, revision: 0, identifierBytes: 0, encodedBytes: 0, creator: 0, container: freeContainer)

    /// Where the contact's identifier (UTF-8), then its encoded values, start in the arena.
    var offset: Int
    /// The sequence of the last record that changed the contact.
    var revision: UInt64
    var identifierBytes: UInt32
    var encodedBytes: UInt32
    /// The index of the client that created it, in the projection's creators.
    var creator: UInt32
    /// The index of its container, in the projection's containers; ``freeContainer`` for a free slot.
    var container: UInt16

    var isFree: Bool { container == Self.freeContainer }
    var bytes: Int { Int(identifierBytes) + Int(encodedBytes) }
}

/// The projection's contacts: one 32-byte record per slot, every identifier and encoded contact
/// back to back in one arena, and an open-addressing table from identifier to slot whose buckets
/// hold only a hash and a slot (the identifier is compared in the arena).
///
/// A million contacts then cost their bytes plus about 50 bytes each, where an array per contact,
/// a `String` per identifier and a `Dictionary<String, ContactSlot>` cost about 200 more (the
/// resident-memory bar of issue 6); and a snapshot restores them by copying bytes instead of
/// allocating three objects per contact. Replaced and deleted contacts leave their bytes in the
/// arena until they make up half of it, when the live ones are copied into a new arena.
struct ContactTable: Sendable {
    /// Records by slot; free slots hold ``StoredContact/free``.
    private(set) var records: [StoredContact] = []
    /// The free slots, reused last first.
    private(set) var freeSlots: [ContactSlot] = []
    private var arena: [UInt8] = []
    /// Bytes in the arena that no record refers to any more.
    private var garbage = 0
    /// Zero for an empty bucket, else the identifier's 32-bit hash shifted up by 32, plus the slot plus one.
    private var buckets: [UInt64] = []
    /// The live contacts.
    private(set) var count = 0

    /// An empty table.
    init() {}

    /// The number of slots, free ones included.
    var slotCount: Int { records.count }

    /// The arena's size, dead bytes included.
    var arenaBytes: Int { arena.count }

    /// The bytes the arena holds room for before it must move (``SnapshotReader/growthRoom(_:)``).
    var arenaCapacity: Int { arena.capacity }

    var occupiedSlots: [ContactSlot] {
        var result: [ContactSlot] = []
        result.reserveCapacity(count)
        for (slot, record) in records.enumerated() where !record.isFree { result.append(ContactSlot(slot)) }
        return result
    }

    func record(at slot: ContactSlot) -> StoredContact? {
        guard Int(slot) < records.count, !records[Int(slot)].isFree else { return nil }
        return records[Int(slot)]
    }

    func slot(of identifier: String) -> ContactSlot? {
        lookUp(identifier).slot
    }

    /// The slot of a contact, if the table has it, and the identifier's hash, for an
    /// ``insert(_:hash:encoded:container:creator:revision:)`` that follows when it has not.
    func lookUp(_ identifier: String) -> (slot: ContactSlot?, hash: UInt32) {
        var key = identifier
        return key.withUTF8 { lookUp(utf8: $0) }
    }

    /// ``lookUp(_:)`` of an identifier's UTF-8, with its ``hash(_:)`` if known.
    func lookUp(
        utf8 identifier: UnsafeBufferPointer<UInt8>, hash known: UInt32? = nil
    ) -> (
        slot: ContactSlot?, hash: UInt32
    ) {
        let hash = known ?? Self.hash(identifier)
        return (find(identifier, hash: hash), hash)
    }

    /// Asks the processor for memory that a lookup of `hash` will read, a stage at a time:
    /// 0, the bucket where it starts; 1, the record of the contact that bucket names, if its
    /// hash is the same (the bucket was asked for at stage 0); 2, that contact's bytes (its
    /// record was asked for at stage 1). Only a hint: it changes nothing.
    func prefetch(hash: UInt32, stage: Int) {
        guard !buckets.isEmpty else { return }
        buckets.withUnsafeBufferPointer { buckets in
            let index = Int(hash) & (buckets.count - 1)
            if stage == 0 {
                ledger_prefetch(buckets.baseAddress! + index)
                return
            }
            let bucket = buckets[index]
            guard bucket != 0, UInt32(truncatingIfNeeded: bucket >> 32) == hash else { return }
            let slot = Int(UInt32(truncatingIfNeeded: bucket)) - 1
            records.withUnsafeBufferPointer { records in
                guard slot < records.count else { return }
                if stage == 1 {
                    ledger_prefetch(records.baseAddress! + slot)
                } else {
                    let offset = records[slot].offset
                    arena.withUnsafeBufferPointer { if offset < $0.count { ledger_prefetch($0.baseAddress! + offset) } }
                }
            }
        }
    }

    func identifier(at slot: ContactSlot) -> String? {
        record(at: slot).map(identifier)
    }

    func identifier(_ record: StoredContact) -> String {
        arena.withUnsafeBufferPointer {
            String(
                decoding: UnsafeBufferPointer(
                    rebasing: $0[record.offset..<record.offset + Int(record.identifierBytes)]), as: UTF8.self)
        }
    }

    func encoded(_ record: StoredContact) -> [UInt8] {
        let start = record.offset + Int(record.identifierBytes)
        return Array(arena[start..<start + Int(record.encodedBytes)])
    }

    /// The encoded values of an occupied slot.
    func encoded(at slot: ContactSlot) -> [UInt8] {
        encoded(records[Int(slot)])
    }

    /// Makes room for `bytes` more bytes of identifiers and contacts without growing, up to
    /// ``arenaReservationMax``: a hint larger than that (a long history of updates and deletes,
    /// or a damaged or sparse segment file) is left to the arena's own growth.
    mutating func reserveArena(_ bytes: Int) {
        guard bytes > 0 else { return }
        arena.reserveCapacity(arena.count + min(bytes, Self.arenaReservationMax))
    }

    /// The most ``reserveArena(_:)`` reserves at once: an eighth of the machine's memory, at
    /// most 4 GiB. Only touched pages take memory, so a reservation the replay does not fill
    /// costs address space, not memory.
    static let arenaReservationMax = Int(min(ProcessInfo.processInfo.physicalMemory / 8, 4 << 30))

    /// Calls `body` with each live contact's slot and encoded values, in slot order, until it
    /// returns a failure, which is returned.
    func forEachContact<Failure>(
        _ body: (ContactSlot, UnsafeBufferPointer<UInt8>) -> Failure?
    ) -> Failure? {
        arena.withUnsafeBufferPointer { arena in
            for (slot, record) in records.enumerated() where !record.isFree {
                let start = record.offset + Int(record.identifierBytes)
                let encoded = UnsafeBufferPointer(rebasing: arena[start..<start + Int(record.encodedBytes)])
                if let failure = body(ContactSlot(slot), encoded) { return failure }
            }
            return nil
        }
    }

    /// Calls `body` with the encoded values of a record, without copying them.
    func withEncoded<Result>(
        _ record: StoredContact, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let start = record.offset + Int(record.identifierBytes)
        return try arena.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[start..<start + Int(record.encodedBytes)]))
        }
    }

    // MARK: Changes

    /// Adds a contact whose identifier is not in the table, in the slot freed last or a new one.
    mutating func insert(
        _ identifier: String, encoded: [UInt8], container: UInt16, creator: UInt32, revision: UInt64
    ) -> ContactSlot {
        encoded.withUnsafeBufferPointer {
            insert(identifier, encoded: $0, container: container, creator: creator, revision: revision)
        }
    }

    /// ``insert(_:encoded:container:creator:revision:)`` of bytes the caller holds.
    mutating func insert(
        _ identifier: String, encoded: UnsafeBufferPointer<UInt8>, container: UInt16, creator: UInt32,
        revision: UInt64
    ) -> ContactSlot {
        insert(identifier, hash: nil, encoded: encoded, container: container, creator: creator, revision: revision)
    }

    /// ``insert(_:encoded:container:creator:revision:)`` of bytes the caller holds, with the
    /// identifier's hash if ``lookUp(_:)`` gave it.
    mutating func insert(
        _ identifier: String, hash knownHash: UInt32?, encoded: UnsafeBufferPointer<UInt8>, container: UInt16,
        creator: UInt32, revision: UInt64
    ) -> ContactSlot {
        var key = identifier
        return key.withUTF8 {
            insert(
                utf8: $0, hash: knownHash, encoded: encoded, container: container, creator: creator, revision: revision)
        }
    }

    /// ``insert(_:hash:encoded:container:creator:revision:)`` of an identifier's UTF-8.
    mutating func insert(
        utf8 identifier: UnsafeBufferPointer<UInt8>, hash knownHash: UInt32?, encoded: UnsafeBufferPointer<UInt8>,
        container: UInt16, creator: UInt32, revision: UInt64
    ) -> ContactSlot {
        let slot: ContactSlot
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            precondition(records.count < Int(SearchIndexes.slotLimit), "the projection is out of contact slots")
            slot = ContactSlot(records.count)
            records.append(.free)
        }
        let offset = arena.count
        arena.append(contentsOf: identifier)
        let hash = knownHash ?? Self.hash(identifier)
        arena.append(contentsOf: encoded)
        records[Int(slot)] = StoredContact(
            offset: offset, revision: revision, identifierBytes: UInt32(arena.count - offset - encoded.count),
            encodedBytes: UInt32(encoded.count), creator: creator, container: container)
        insertBucket(slot, hash: hash)
        count += 1
        return slot
    }

    /// Replaces the values and bookkeeping of an occupied slot; the identifier stays.
    mutating func replace(
        _ slot: ContactSlot, encoded: [UInt8], container: UInt16, creator: UInt32, revision: UInt64
    ) {
        encoded.withUnsafeBufferPointer {
            replace(slot, encoded: $0, container: container, creator: creator, revision: revision)
        }
    }

    /// ``replace(_:encoded:container:creator:revision:)`` with bytes the caller holds.
    mutating func replace(
        _ slot: ContactSlot, encoded: UnsafeBufferPointer<UInt8>, container: UInt16, creator: UInt32,
        revision: UInt64
    ) {
        let old = records[Int(slot)]
        let offset = arena.count
        // Copied out first (to the stack, for an identifier of usual length): appending a slice
        // of the arena to itself would copy the whole arena.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(old.identifierBytes)) { identifier in
            arena.withUnsafeBufferPointer {
                _ = identifier.initialize(fromContentsOf: $0[old.offset..<old.offset + Int(old.identifierBytes)])
            }
            arena.append(contentsOf: identifier)
        }
        arena.append(contentsOf: encoded)
        records[Int(slot)] = StoredContact(
            offset: offset, revision: revision, identifierBytes: old.identifierBytes,
            encodedBytes: UInt32(encoded.count), creator: creator, container: container)
        garbage += old.bytes
        compactIfWasteful()
    }

    /// Removes the contact in an occupied slot and frees the slot.
    mutating func remove(_ slot: ContactSlot) {
        let old = records[Int(slot)]
        let hash = arena.withUnsafeBufferPointer {
            Self.hash(UnsafeBufferPointer(rebasing: $0[old.offset..<old.offset + Int(old.identifierBytes)]))
        }
        removeBucket(slot, hash: hash)
        records[Int(slot)] = .free
        freeSlots.append(slot)
        garbage += old.bytes
        count -= 1
        compactIfWasteful()
    }

    // MARK: Snapshots

    /// Writes the table column by column: the live contacts' bytes as one compacted arena, then
    /// each field of the records as an array, the identifier buckets, and the free slots, so
    /// that a restore copies arrays instead of inserting contact by contact.
    func encode(into writer: inout SnapshotWriter) {
        // The live records' bytes, back to back, written straight into the state (as one byte
        // array: their length, then the bytes), without the arena's garbage.
        var live = 0
        for record in records where !record.isFree { live += record.bytes }
        writer.varint(live)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(records.count)
        var offset: UInt64 = 0
        arena.withUnsafeBufferPointer { arena in
            for record in records {
                offsets.append(offset)
                if !record.isFree {
                    writer.raw(UnsafeBufferPointer(rebasing: arena[record.offset..<record.offset + record.bytes]))
                    offset += UInt64(record.bytes)
                }
            }
        }
        writer.array(offsets)
        writer.array(records.map(\.revision))
        writer.array(records.map(\.identifierBytes))
        writer.array(records.map(\.encodedBytes))
        writer.array(records.map(\.creator))
        writer.array(records.map(\.container))
        writer.array(buckets)
        writer.array(freeSlots)
    }

    /// Restores a table written by ``encode(into:)`` for a projection with `containers`
    /// containers and `creators` creators, checking every offset, index and slot it refers to.
    ///
    /// The arena, most of a snapshot's contact bytes, is copied on a thread of its own while the
    /// columns are read and checked on this one, which needs only its length: on a VM whose
    /// fresh pages are dear the copy was a third of an open's time, on the thread that restores
    /// everything but the indexes and was busy long after the one restoring the indexes was done.
    init(
        from reader: inout SnapshotReader, containers: Int, creators: Int
    ) throws(SnapshotDecodingError) {
        let arenaSource = BorrowedBytes(buffer: try reader.arrayBytes(of: UInt8.self))
        let arenaCopy = BackgroundWork(named: "snapshot arena") { () -> [UInt8] in
            SnapshotReader.copy(arenaSource.buffer, spare: SnapshotReader.growthRoom)
        }
        // The state stays alive and unchanged until the copy is waited for, on every path.
        let rest = Result { () throws(SnapshotDecodingError) in
            try Self.restoreColumns(
                from: &reader, arenaBytes: arenaSource.buffer.count, containers: containers, creators: creators)
        }
        arena = arenaCopy.wait()
        (records, count, buckets, freeSlots) = try rest.get()
    }

    /// The rest of ``init(from:containers:creators:)`` after the arena (which holds `arenaBytes`
    /// bytes): the records, the number of live ones, the identifier table and the free slots.
    private static func restoreColumns(
        from reader: inout SnapshotReader, arenaBytes: Int, containers: Int, creators: Int
    ) throws(SnapshotDecodingError) -> (
        records: [StoredContact], count: Int, buckets: [UInt64], freeSlots: [ContactSlot]
    ) {
        var records: [StoredContact] = []
        let offsets: [UInt64] = try reader.array()
        let revisions: [UInt64] = try reader.array()
        let identifierBytes: [UInt32] = try reader.array()
        let encodedBytes: [UInt32] = try reader.array()
        let creatorIndexes: [UInt32] = try reader.array()
        let containerIndexes: [UInt16] = try reader.array()
        let slots = offsets.count
        try reader.check(
            [revisions.count, identifierBytes.count, encodedBytes.count, creatorIndexes.count, containerIndexes.count]
                .allSatisfy { $0 == slots } && slots <= Int(SearchIndexes.slotLimit),
            "the contact table's columns differ in length")
        records.reserveCapacity(slots + SnapshotReader.growthRoom(slots))
        var live = 0
        for slot in 0..<slots {
            let record = StoredContact(
                offset: Int(truncatingIfNeeded: offsets[slot]), revision: revisions[slot],
                identifierBytes: identifierBytes[slot], encodedBytes: encodedBytes[slot], creator: creatorIndexes[slot],
                container: containerIndexes[slot])
            if record.isFree {
                records.append(.free)
                continue
            }
            try reader.check(
                offsets[slot] <= UInt64(arenaBytes) && record.bytes <= arenaBytes - record.offset,
                "contact \(slot) lies outside the arena")
            try reader.check(
                Int(record.container) < containers && Int(record.creator) < creators,
                "contact \(slot) refers to a container or creator that does not exist")
            records.append(record)
            live += 1
        }
        let buckets: [UInt64] = try reader.array()
        try reader.check(
            (buckets.isEmpty && live == 0)
                || (buckets.count & (buckets.count - 1) == 0 && live * 4 <= buckets.count * 3),
            "the identifier table has the wrong size")
        var occupied = 0
        for bucket in buckets where bucket != 0 {
            let slot = Int(UInt32(truncatingIfNeeded: bucket)) - 1
            try reader.check(
                slot >= 0 && slot < slots && !records[slot].isFree, "an identifier bucket names no contact")
            occupied += 1
        }
        try reader.check(occupied == live, "the identifier table is miscounted")
        let freeSlots: [ContactSlot] = try reader.array()
        try reader.check(
            Set(freeSlots).count == freeSlots.count && freeSlots.count + live == slots
                && freeSlots.allSatisfy { Int($0) < slots && records[Int($0)].isFree },
            "the free slots are not exactly the slots without a contact")
        return (records, live, buckets, freeSlots)
    }

    // MARK: The identifier table

    private func find(_ key: UnsafeBufferPointer<UInt8>, hash: UInt32) -> ContactSlot? {
        guard !buckets.isEmpty else { return nil }
        return arena.withUnsafeBufferPointer { arena in
            buckets.withUnsafeBufferPointer { buckets in
                let mask = buckets.count - 1
                var index = Int(hash) & mask
                while true {
                    let bucket = buckets[index]
                    if bucket == 0 { return nil }
                    if UInt32(truncatingIfNeeded: bucket >> 32) == hash {
                        let slot = ContactSlot(truncatingIfNeeded: bucket) - 1
                        let record = records[Int(slot)]
                        if Int(record.identifierBytes) == key.count
                            && (key.isEmpty
                                || memcmp(arena.baseAddress! + record.offset, key.baseAddress!, key.count) == 0)
                        {
                            return slot
                        }
                    }
                    index = (index + 1) & mask
                }
            }
        }
    }

    private mutating func insertBucket(_ slot: ContactSlot, hash: UInt32) {
        if (count + 1) * 4 > buckets.count * 3 { rehash(max(16, buckets.count * 2)) }
        let mask = buckets.count - 1
        var index = Int(hash) & mask
        while buckets[index] != 0 { index = (index + 1) & mask }
        buckets[index] = UInt64(hash) << 32 | UInt64(slot + 1)
    }

    /// Empties the bucket of `slot` and moves back the entries after it that probing would no
    /// longer reach (Knuth's algorithm R), so the table needs no tombstones.
    private mutating func removeBucket(_ slot: ContactSlot, hash: UInt32) {
        let mask = buckets.count - 1
        var hole = Int(hash) & mask
        while UInt32(truncatingIfNeeded: buckets[hole]) != slot + 1 { hole = (hole + 1) & mask }
        var index = hole
        while true {
            index = (index + 1) & mask
            let bucket = buckets[index]
            if bucket == 0 { break }
            let home = Int(bucket >> 32) & mask
            let reachable = hole <= index ? (home > hole && home <= index) : (home > hole || home <= index)
            if !reachable {
                buckets[hole] = bucket
                hole = index
            }
        }
        buckets[hole] = 0
    }

    private mutating func rehash(_ capacity: Int) {
        var grown = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        for bucket in buckets where bucket != 0 {
            var index = Int(bucket >> 32) & mask
            while grown[index] != 0 { index = (index + 1) & mask }
            grown[index] = bucket
        }
        buckets = grown
    }

    /// Copies the live contacts into a new arena once dead bytes make up half of it.
    private mutating func compactIfWasteful() {
        guard garbage > 1 << 20, garbage * 2 > arena.count else { return }
        var compacted: [UInt8] = []
        compacted.reserveCapacity(arena.count - garbage)
        for slot in records.indices where !records[slot].isFree {
            let record = records[slot]
            records[slot].offset = compacted.count
            compacted.append(contentsOf: arena[record.offset..<record.offset + record.bytes])
        }
        arena = compacted
        garbage = 0
    }

    /// A 32-bit hash of bytes: eight at a time through a multiply-xorshift mix (MurmurHash3's
    /// finalizer). The table compares bytes, so a collision costs time, never a wrong answer.
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        func mix(_ value: UInt64) -> UInt64 {
            var x = value
            x ^= x >> 33
            x &*= 0xFF51_AFD7_ED55_8CCD
            x ^= x >> 33
            x &*= 0xC4CE_B9FE_1A85_EC53
            x ^= x >> 33
            return x
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count)
        let raw = UnsafeRawBufferPointer(key)
        var offset = 0
        while offset + 8 <= raw.count {
            state = mix(state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < raw.count {
            tail |= UInt64(raw[offset]) << shift
            shift += 8
            offset += 1
        }
        return UInt32(truncatingIfNeeded: mix(state ^ tail))
    }

    /// Checks that every live contact is found by its identifier and the counts agree; for tests.
    func checkInvariants() {
        var live = 0
        for (slot, record) in records.enumerated() where !record.isFree {
            live += 1
            precondition(self.slot(of: identifier(record)) == ContactSlot(slot), "contact in slot \(slot) is lost")
        }
        precondition(live == count && live + freeSlots.count == records.count, "slots are miscounted")
        precondition(buckets.lazy.filter { $0 != 0 }.count == count, "the identifier table is miscounted")
    }
}
