import CLedgerPrefetch
import ContactsModel
import Foundation
import LedgerStorage

/// Where a contact of the projection lives in ``ContactTable``'s arena, and small indexes for the rest.
struct StoredContact: Sendable, Hashable {
    /// The container index of a free slot.
    static let freeContainer = UInt16.max
    /// A free slot.
    static let free = StoredContact(
        offset: 0, revision: 0, identifierBytes: 0, encodedBytes: 0, creator: 0, container: freeContainer,
        identifierIsUUID: false)

    /// Where the contact's identifier (its ``ContactTable/IdentifierKey``), then its encoded
    /// values, start in the arena.
    var offset: Int
    /// The sequence of the last record that changed the contact.
    var revision: UInt64
    var identifierBytes: UInt32
    var encodedBytes: UInt32
    /// The index of the client that created it, in the projection's creators.
    var creator: UInt32
    /// The index of its container, in the projection's containers; ``freeContainer`` for a free slot.
    var container: UInt16
    /// Whether the identifier's bytes in the arena are the 16 of a UUID, standing for its
    /// canonical text, rather than the identifier's UTF-8.
    var identifierIsUUID: Bool

    var isFree: Bool { container == Self.freeContainer }
    var bytes: Int { Int(identifierBytes) + Int(encodedBytes) }
}

/// The projection's contacts: one 32-byte record per slot, every identifier and encoded contact
/// back to back in one arena, and an open-addressing table from identifier to slot whose buckets
/// hold only a hash and a slot (the identifier is compared in the arena). An identifier in the
/// canonical text of a UUID (every one the store makes) is kept as the UUID's 16 bytes rather
/// than its 36 characters (``IdentifierKey``).
///
/// A million contacts then cost their bytes plus about 50 bytes each, where an array per contact,
/// a `String` per identifier and a `Dictionary<String, ContactSlot>` cost about 200 more, well
/// over the store's bar for resident memory a contact; and a snapshot restores them by copying
/// bytes instead of allocating three objects per contact. Replaced and deleted contacts leave
/// their bytes in the arena until they make up half of it, when the live ones are copied into a
/// new arena.
package struct ContactTable: Sendable {
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

    /// Where the arena's bytes lie in memory, how many it holds and how many it has room for, so
    /// that its room can be backed with memory ahead of use (``ProjectionReplay``). The address
    /// stays valid only while the arena neither outgrows its room nor is copied.
    var arenaExtent: (address: UInt, count: Int, capacity: Int) {
        arena.withUnsafeBufferPointer { (UInt(bitPattern: $0.baseAddress), $0.count, arena.capacity) }
    }

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

    package func slot(of identifier: String) -> ContactSlot? {
        Self.withKey(identifier) { lookUp($0).slot }
    }

    /// The slot of the contact with an identifier's key, if the table has it, and the key's hash
    /// (given if known), for an ``insert(_:hash:encoded:container:creator:revision:)`` that
    /// follows when it has not.
    func lookUp(_ key: IdentifierKey, hash known: UInt32? = nil) -> (slot: ContactSlot?, hash: UInt32) {
        let hash = known ?? key.hash
        return (find(key, hash: hash), hash)
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
        withIdentifier(record) { Self.identifier($0, isUUID: record.identifierIsUUID) }
    }

    /// Calls `body` with a record's identifier bytes as the arena keeps them (``IdentifierKey``).
    func withIdentifier<Result>(_ record: StoredContact, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        arena.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[record.offset..<record.offset + Int(record.identifierBytes)]))
        }
    }

    /// The text of an identifier's bytes as the arena keeps them (``IdentifierKey``).
    static func identifier(_ bytes: UnsafeBufferPointer<UInt8>, isUUID: Bool) -> String {
        guard isUUID else { return String(decoding: bytes, as: UTF8.self) }
        guard let text = UUIDText.canonical(bytes) else {
            preconditionFailure("a UUID identifier of \(bytes.count) bytes")
        }
        return text
    }

    /// Calls `body` with the record, the identifier's bytes and the encoded values of each
    /// occupied slot of `slots`, in their order, until it returns false; free slots are passed
    /// over. The records and contacts a few places ahead are asked of the processor
    /// (``prefetchAhead``): a search's matches lie scattered over the arena, and waiting for
    /// each contact's memory in turn was most of the time a fetch of thousands took.
    func forEachContact(
        at slots: ArraySlice<ContactSlot>,
        _ body: (StoredContact, _ identifier: UnsafeBufferPointer<UInt8>, _ encoded: UnsafeBufferPointer<UInt8>)
            throws -> Bool
    ) rethrows {
        try slots.withUnsafeBufferPointer { slots in
            try records.withUnsafeBufferPointer { records in
                try arena.withUnsafeBufferPointer { arena in
                    Self.prefetchFirst(slots, records, arena)
                    for index in slots.indices {
                        Self.prefetchAhead(of: index, slots, records, arena)
                        guard Int(slots[index]) < records.count, case let record = records[Int(slots[index])],
                            !record.isFree
                        else { continue }
                        let identifierEnd = record.offset + Int(record.identifierBytes)
                        let identifier = UnsafeBufferPointer(rebasing: arena[record.offset..<identifierEnd])
                        let encoded = UnsafeBufferPointer(
                            rebasing: arena[identifierEnd..<identifierEnd + Int(record.encodedBytes)])
                        guard try body(record, identifier, encoded) else { return }
                    }
                }
            }
        }
    }

    /// About the bytes (identifier and encoded values) of `contacts` contacts: the arena's
    /// mean, with a quarter more for the dead bytes it may hold and contacts larger than most.
    func estimatedBytes(ofContacts contacts: Int) -> Int {
        arena.count / max(1, count) * contacts / 4 * 5
    }

    /// How far ahead of the contact being read ``forEachContact(at:_:)`` asks for a record, and
    /// for a contact's bytes (whose record it asked for that much earlier).
    static let recordsAhead = 16
    static let bytesAhead = 8

    /// Asks the processor for the memory of the first contacts, which ``prefetchAhead(of:_:_:_:)``
    /// asks for only from `bytesAhead` on: their records, then every line of each of them, so
    /// that a search of one match waits for its record and then its lines at once, not line by line.
    private static func prefetchFirst(
        _ slots: UnsafeBufferPointer<ContactSlot>, _ records: UnsafeBufferPointer<StoredContact>,
        _ arena: UnsafeBufferPointer<UInt8>
    ) {
        for slot in slots.prefix(recordsAhead) where Int(slot) < records.count {
            ledger_prefetch(records.baseAddress! + Int(slot))
        }
        for slot in slots.prefix(bytesAhead) where Int(slot) < records.count {
            prefetchLines(of: records[Int(slot)], arena)
        }
    }

    /// Asks the processor for the record `recordsAhead` slots after `index` and for the cache
    /// lines of the contact `bytesAhead` after it (up to ``linesAhead``: a decode walks every
    /// field of a contact, skipping those not asked for). Only a hint: it changes nothing.
    @inline(__always)
    private static func prefetchAhead(
        of index: Int, _ slots: UnsafeBufferPointer<ContactSlot>, _ records: UnsafeBufferPointer<StoredContact>,
        _ arena: UnsafeBufferPointer<UInt8>
    ) {
        if index + recordsAhead < slots.count, Int(slots[index + recordsAhead]) < records.count {
            ledger_prefetch(records.baseAddress! + Int(slots[index + recordsAhead]))
        }
        guard index + bytesAhead < slots.count, Int(slots[index + bytesAhead]) < records.count else { return }
        prefetchLines(of: records[Int(slots[index + bytesAhead])], arena)
    }

    /// Asks the processor for the record of the contact in a slot and, once the record is
    /// read, for its first lines (``prefetchLines(of:_:)``); only a hint, for any slot.
    func prefetchContact(at slot: ContactSlot) {
        records.withUnsafeBufferPointer { records in
            guard Int(slot) < records.count else { return }
            let record = records[Int(slot)]
            arena.withUnsafeBufferPointer { Self.prefetchLines(of: record, $0) }
        }
    }

    /// Asks the processor for the cache lines of a contact's bytes, up to ``linesAhead``.
    @inline(__always)
    private static func prefetchLines(of record: StoredContact, _ arena: UnsafeBufferPointer<UInt8>) {
        let end = min(record.offset + record.bytes, arena.count, record.offset + linesAhead * 64)
        var line = record.offset
        while line < end {
            ledger_prefetch(arena.baseAddress! + line)
            line += 64
        }
    }

    /// The most cache lines of one contact ``prefetchAhead(of:_:_:_:)`` asks for.
    static let linesAhead = 8

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

    /// Calls `body` with each live contact's slot, encoded values and where they start in the
    /// arena (``withArena(_:)``), in slot order, until it returns a failure, which is returned.
    func forEachContact<Failure>(
        _ body: (ContactSlot, UnsafeBufferPointer<UInt8>, _ arenaOffset: Int) -> Failure?
    ) -> Failure? {
        forEachContact(inSlots: 0..<records.count, body)
    }

    /// ``forEachContact(_:)`` of the slots in `slots` (within ``slotCount``): a scan splits the
    /// slots between threads.
    func forEachContact<Failure>(
        inSlots slots: Range<Int>, _ body: (ContactSlot, UnsafeBufferPointer<UInt8>, _ arenaOffset: Int) -> Failure?
    ) -> Failure? {
        arena.withUnsafeBufferPointer { arena in
            records.withUnsafeBufferPointer { records in
                for slot in slots where !records[slot].isFree {
                    let record = records[slot]
                    let start = record.offset + Int(record.identifierBytes)
                    let encoded = UnsafeBufferPointer(rebasing: arena[start..<start + Int(record.encodedBytes)])
                    if let failure = body(ContactSlot(slot), encoded, start) { return failure }
                }
                return nil
            }
        }
    }

    /// Calls `body` with the arena's bytes, for reading the parts of contacts that
    /// ``forEachContact(_:)`` located.
    func withArena<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try arena.withUnsafeBufferPointer(body)
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

    /// Calls `body` with the encoded values of an occupied slot, without copying them.
    func withEncoded<Result>(
        at slot: ContactSlot, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try withEncoded(records[Int(slot)], body)
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
    /// identifier's hash if ``lookUp(_:hash:)`` gave it.
    mutating func insert(
        _ identifier: String, hash knownHash: UInt32?, encoded: UnsafeBufferPointer<UInt8>, container: UInt16,
        creator: UInt32, revision: UInt64
    ) -> ContactSlot {
        Self.withKey(identifier) {
            insert(
                $0, hash: knownHash, encoded: encoded, container: container, creator: creator, revision: revision)
        }
    }

    /// ``insert(_:hash:encoded:container:creator:revision:)`` of an identifier's key.
    mutating func insert(
        _ key: IdentifierKey, hash knownHash: UInt32?, encoded: UnsafeBufferPointer<UInt8>,
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
        arena.append(contentsOf: key.bytes)
        let hash = knownHash ?? key.hash
        arena.append(contentsOf: encoded)
        records[Int(slot)] = StoredContact(
            offset: offset, revision: revision, identifierBytes: UInt32(key.bytes.count),
            encodedBytes: UInt32(encoded.count), creator: creator, container: container,
            identifierIsUUID: key.isUUID)
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
            encodedBytes: UInt32(encoded.count), creator: creator, container: container,
            identifierIsUUID: old.identifierIsUUID)
        garbage += old.bytes
        compactIfWasteful()
    }

    /// Removes the contact in an occupied slot and frees the slot.
    mutating func remove(_ slot: ContactSlot) {
        let old = records[Int(slot)]
        let hash = arena.withUnsafeBufferPointer {
            IdentifierKey(
                bytes: UnsafeBufferPointer(rebasing: $0[old.offset..<old.offset + Int(old.identifierBytes)]),
                isUUID: old.identifierIsUUID
            ).hash
        }
        removeBucket(slot, hash: hash)
        records[Int(slot)] = .free
        freeSlots.append(slot)
        garbage += old.bytes
        count -= 1
        compactIfWasteful()
    }

    // MARK: Snapshots

    /// The bytes of the live contacts' identifiers and values, without the arena's garbage: the
    /// size of ``encodeArena(into:)``.
    var liveBytes: Int {
        var total = 0
        for record in records where !record.isFree { total += record.bytes }
        return total
    }

    /// Writes the table's columns: the number of slots, then for each slot its identifier's form
    /// (0 for a free slot, 1 for a UUID's 16 bytes, `n + 2` for an identifier of `n` UTF-8 bytes)
    /// and, for a contact, its encoded length, revision, creator index and container index, all
    /// varints; then the free slots in the order they will be reused. No offsets: the contacts'
    /// bytes follow one another in slot order (``encodeArena(into:)``), so their lengths give them.
    func encodeColumns(into writer: inout SnapshotWriter) {
        writer.varint(records.count)
        for record in records {
            guard !record.isFree else {
                writer.byte(0)
                continue
            }
            writer.varint(record.identifierIsUUID ? 1 : Int(record.identifierBytes) + 2)
            writer.varint(Int(record.encodedBytes))
            writer.varint(record.revision)
            writer.varint(Int(record.creator))
            writer.varint(Int(record.container))
        }
        writer.varint(freeSlots.count)
        for slot in freeSlots { writer.varint(Int(slot)) }
    }

    /// Writes the live contacts' identifiers and encoded values back to back, in slot order, as
    /// an arena section (``SnapshotArena``): an arena without garbage, compressed a block at a time.
    func encodeArena(into writer: inout SnapshotWriter) {
        writer.fixed64(UInt64(liveBytes))
        var blocks = SnapshotArena.Writer()
        arena.withUnsafeBufferPointer { arena in
            for record in records where !record.isFree {
                blocks.append(
                    UnsafeBufferPointer(rebasing: arena[record.offset..<record.offset + record.bytes]), to: &writer)
            }
        }
        blocks.finish(to: &writer)
    }

    /// The columns of a table read back (``restoreColumns(from:containers:creators:)``), waiting
    /// for the arena they locate contacts in.
    struct Columns: Sendable {
        var records: [StoredContact]
        var live: Int
        var freeSlots: [ContactSlot]
        /// The bytes of the live contacts: the arena's length.
        var bytes = 0
    }

    /// Reads the columns written by ``encodeColumns(into:)``, checking that each contact refers
    /// to a container and a creator that exist and that the free slots are exactly the slots
    /// without a contact; ``init(restoring:arena:)`` checks that their lengths fill the arena.
    static func restoreColumns(
        from reader: inout SnapshotReader, containers: Int, creators: Int
    ) throws(SnapshotDecodingError) -> Columns {
        // Each slot takes at least one byte of the columns.
        let slots = try reader.count(atMost: min(Int(SearchIndexes.slotLimit), reader.remaining))
        var records: [StoredContact] = []
        records.reserveCapacity(slots + SnapshotReader.growthRoom(slots))
        var offset = 0
        var live = 0
        for slot in 0..<slots {
            let form = try reader.count(atMost: Int(UInt32.max) + 2)
            guard form != 0 else {
                records.append(.free)
                continue
            }
            let encoded = try reader.count(atMost: Int(UInt32.max))
            let revision = try reader.varint()
            let creator = try reader.count(atMost: Int(UInt32.max))
            let container = try reader.count(atMost: Int(StoredContact.freeContainer) - 1)
            try reader.check(
                container < containers && creator < creators,
                "contact \(slot) refers to a container or creator that does not exist")
            let record = StoredContact(
                offset: offset, revision: revision, identifierBytes: UInt32(form == 1 ? 16 : form - 2),
                encodedBytes: UInt32(encoded), creator: UInt32(creator), container: UInt16(container),
                identifierIsUUID: form == 1)
            offset += record.bytes
            live += 1
            records.append(record)
        }
        let freeSlots = try restoreFreeSlots(from: &reader, records: records, live: live)
        return Columns(records: records, live: live, freeSlots: freeSlots, bytes: offset)
    }

    /// Reads the free slots and checks that they are exactly the slots without a contact.
    private static func restoreFreeSlots(
        from reader: inout SnapshotReader, records: [StoredContact], live: Int
    ) throws(SnapshotDecodingError) -> [ContactSlot] {
        let count = try reader.count(atMost: records.count - live)
        try reader.check(count == records.count - live, "the free slots are not exactly the slots without a contact")
        var freeSlots: [ContactSlot] = []
        freeSlots.reserveCapacity(count)
        var seen = [UInt64](repeating: 0, count: (records.count + 63) / 64)
        for _ in 0..<count {
            let slot = try reader.count(atMost: records.count - 1)
            let bit: UInt64 = 1 << UInt64(slot % 64)
            try reader.check(
                records[slot].isFree && seen[slot / 64] & bit == 0,
                "the free slots are not exactly the slots without a contact")
            seen[slot / 64] |= bit
            freeSlots.append(ContactSlot(slot))
        }
        return freeSlots
    }

    /// A table of the restored `columns` over `arena`, the bytes they locate contacts in; makes
    /// the identifier table, checking that no identifier is there twice and that none is a
    /// canonical UUID kept as text (lookups make the 16-byte key, so it would not be found).
    init(restoring columns: Columns, arena: [UInt8]) throws(SnapshotDecodingError) {
        guard columns.bytes == arena.count else {
            throw SnapshotDecodingError(
                "the contacts' lengths add up to \(columns.bytes) bytes, the arena holds \(arena.count)")
        }
        let built = arena.withUnsafeBufferPointer {
            Self.identifierTable(records: columns.records, live: columns.live, arena: $0)
        }
        buckets = try built.get()
        records = columns.records
        freeSlots = columns.freeSlots
        self.arena = arena
        count = columns.live
    }

    /// The identifier table of `records`, whose identifiers lie in `arena`: as small as the
    /// insertions' growth rule allows for `live` contacts.
    ///
    /// The identifiers are hashed in one pass over the arena, then placed, each bucket asked of
    /// the processor (``prefetch(hash:stage:)``'s hint) a few contacts ahead: a table of a million
    /// contacts is 16 MB, and placing each identifier otherwise waits for its bucket from memory.
    private static func identifierTable(
        records: [StoredContact], live: Int, arena: UnsafeBufferPointer<UInt8>
    ) -> Result<[UInt64], SnapshotDecodingError> {
        guard live > 0 else { return .success([]) }
        var capacity = 16
        while live * 4 > capacity * 3 { capacity *= 2 }
        func bytes(_ record: StoredContact) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: arena[record.offset..<record.offset + Int(record.identifierBytes)])
        }
        var keyed: [(slot: Int, hash: UInt32)] = []
        keyed.reserveCapacity(live)
        for (slot, record) in records.enumerated() where !record.isFree {
            let key = IdentifierKey(bytes: bytes(record), isUUID: record.identifierIsUUID)
            if !key.isUUID && key.bytes.count == 36 && CompactFields.uuidBytes(utf8: key.bytes) != nil {
                return .failure(SnapshotDecodingError("contact \(slot) keeps a UUID identifier as text"))
            }
            keyed.append((slot, key.hash))
        }
        var buckets = [UInt64](repeating: 0, count: capacity)
        let duplicate: Int? = buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = capacity - 1
            let ahead = 8
            for (index, (slot, hash)) in keyed.enumerated() {
                if index + ahead < keyed.count {
                    ledger_prefetch(buckets.baseAddress! + (Int(keyed[index + ahead].hash) & mask))
                }
                let record = records[slot]
                var bucket = Int(hash) & mask
                while buckets[bucket] != 0 {
                    let other = records[Int(UInt32(truncatingIfNeeded: buckets[bucket])) - 1]
                    if UInt32(truncatingIfNeeded: buckets[bucket] >> 32) == hash
                        && other.identifierIsUUID == record.identifierIsUUID
                        && bytes(other).elementsEqual(bytes(record))
                    {
                        return slot
                    }
                    bucket = (bucket + 1) & mask
                }
                buckets[bucket] = UInt64(hash) << 32 | UInt64(slot + 1)
            }
            return nil
        }
        if let duplicate {
            return .failure(SnapshotDecodingError("contact \(duplicate) has the identifier of another"))
        }
        return .success(buckets)
    }

    // MARK: The identifier table

    /// An identifier as the table keeps and compares it: the 16 bytes of a UUID for one that is
    /// exactly a UUID's canonical text (``CompactFields/uuidBytes(_:)``), which the bytes give back;
    /// else its UTF-8. The form is part of the key, so an identifier of 16 characters never
    /// matches a UUID whose bytes they are. Valid only inside the call that made it.
    struct IdentifierKey {
        /// The bytes kept in the arena.
        let bytes: UnsafeBufferPointer<UInt8>
        /// Whether ``bytes`` are a UUID's 16.
        let isUUID: Bool

        /// The key's hash in the table: the low 32 bits of ``ByteHash/hash(_:seed:)``, from a
        /// seed that differs for a UUID's bytes.
        var hash: UInt32 { UInt32(truncatingIfNeeded: ByteHash.hash(bytes, seed: isUUID ? 1 << 63 : 0)) }
    }

    /// Calls `body` with the key of an identifier.
    static func withKey<Result>(_ identifier: String, _ body: (IdentifierKey) -> Result) -> Result {
        if let uuid = CompactFields.uuidBytes(identifier) { return withKey(uuid, body) }
        var text = identifier
        return text.withUTF8 { body(IdentifierKey(bytes: $0, isUUID: false)) }
    }

    /// Calls `body` with the key of the identifier whose UUID bytes these are.
    static func withKey<Result>(_ uuid: UUIDBytes, _ body: (IdentifierKey) -> Result) -> Result {
        uuid.withBytes { body(IdentifierKey(bytes: $0.assumingMemoryBound(to: UInt8.self), isUUID: true)) }
    }

    private func find(_ key: IdentifierKey, hash: UInt32) -> ContactSlot? {
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
                        if Int(record.identifierBytes) == key.bytes.count && record.identifierIsUUID == key.isUUID
                            && (key.bytes.isEmpty
                                || memcmp(arena.baseAddress! + record.offset, key.bytes.baseAddress!, key.bytes.count)
                                    == 0)
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
