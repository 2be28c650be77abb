import ContactsModel
import LedgerStorage

/// Byte-string keys (folded email addresses, overlong phone keys) to the sorted slots of the
/// contacts that have them; lookups are exact, by hash and then by bytes.
///
/// A key whose last slot goes stays in the table until dead keys outnumber live ones, when
/// the table is rebuilt without them; so churn costs memory only up to a factor of two.
struct ExactKeyIndex: Sendable {
    private var keys = ByteStringTable()
    private var slots = SlotPostings()
    private var deadKeys = 0

    /// Adds a slot to a key's set.
    mutating func insert(_ slot: ContactSlot, key: [UInt8]) {
        key.withUnsafeBufferPointer { insert(slot, key: $0, hash: ByteStringTable.hash($0)) }
    }

    /// Adds a slot to the set of a key whose ``ByteStringTable/hash(_:)`` the caller has computed.
    mutating func insert(_ slot: ContactSlot, key: UnsafeBufferPointer<UInt8>, hash: UInt64) {
        let (id, inserted) = keys.findOrInsert(key, hash: hash)
        if inserted {
            slots.appendKey()
        } else if slots.isEmpty(id) {
            deadKeys -= 1
        }
        slots.insert(slot, into: id)
    }

    /// Makes room for `keys` more keys of `bytes` bytes in all (``ByteStringTable/reserveCapacity(strings:bytes:)``).
    mutating func reserveCapacity(keys: Int, bytes: Int) {
        self.keys.reserveCapacity(strings: keys, bytes: bytes)
        slots.reserveCapacity(keys: keys)
    }

    /// Asks the processor to fetch where a key with this ``ByteStringTable/hash(_:)`` is looked up.
    func prefetch(hash: UInt64) { keys.prefetchBucket(hash: hash) }

    /// Removes a slot from a key's set.
    mutating func remove(_ slot: ContactSlot, key: [UInt8]) {
        guard let id = key.withUnsafeBufferPointer({ keys.find($0) }) else { return }
        if slots.remove(slot, from: id), slots.isEmpty(id) {
            deadKeys += 1
            if deadKeys > max(1024, keys.count / 2) { compact() }
        }
    }

    /// The sorted slots of a key (empty when nobody has it). `candidate` is given the slot of a
    /// key of one slot whose hash matches, before its bytes are compared: a caller that goes on
    /// to read that contact asks for its memory there, and waits for both at once.
    func slots(of key: [UInt8], candidate: (ContactSlot) -> Void = { _ in }) -> [ContactSlot] {
        let found = key.withUnsafeBufferPointer {
            keys.find($0) { id in slots.singleSlot(of: id).map(candidate) }
        }
        guard let id = found else { return [] }
        return slots.slots(of: id)
    }

    /// The slots of every key that `accepts`, each key's sorted, one key after another: a scan
    /// of the keys alone, for the rare query no key can be computed for.
    func slots(ofKeysWhere accepts: ([UInt8]) -> Bool) -> [ContactSlot] {
        var found: [ContactSlot] = []
        for id in 0..<UInt32(keys.count) where !slots.isEmpty(id) {
            if keys.withBytes(of: id, { accepts(Array($0)) }) { found += slots.slots(of: id) }
        }
        return found
    }

    /// Whether a slot has a key.
    func contains(_ slot: ContactSlot, key: [UInt8]) -> Bool {
        guard let id = key.withUnsafeBufferPointer({ keys.find($0) }) else { return false }
        return slots.contains(slot, in: id)
    }

    private mutating func compact() {
        var newID = [UInt32?](repeating: nil, count: keys.count)
        var next: UInt32 = 0
        for id in 0..<keys.count where !slots.isEmpty(UInt32(id)) {
            newID[id] = next
            next += 1
        }
        keys = keys.compacted(keeping: newID)
        slots = slots.compacted(keeping: newID)
        deadKeys = 0
    }

    /// Gives back unused capacity (see ``Array/trimExcessCapacity(unusedBytesMin:)``).
    mutating func trimExcessCapacity() {
        keys.trimExcessCapacity()
        slots.trimExcessCapacity()
    }

    /// Roughly the bytes held, for the benchmark's memory report.
    var estimatedBytes: Int {
        keys.estimatedBytes + slots.estimatedBytes
    }

    /// Checks the tables and the count of dead keys.
    func checkInvariants() {
        keys.checkInvariants()
        slots.checkInvariants()
        precondition(slots.keyCount == keys.count, "keys and slot sets disagree")
        let dead = (0..<keys.count).filter { slots.isEmpty(UInt32($0)) }.count
        precondition(dead == deadKeys, "dead keys are miscounted")
    }
}

// MARK: Snapshots

extension ExactKeyIndex {
    /// Writes the index as it is.
    func encode(into writer: inout SnapshotWriter) {
        keys.encode(into: &writer)
        slots.encode(into: &writer)
        writer.varint(deadKeys)
    }

    /// Restores an index written by ``encode(into:)``.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        keys = try ByteStringTable(from: &reader)
        slots = try SlotPostings(from: &reader)
        deadKeys = try reader.count(atMost: Int.max)
        try reader.check(slots.keyCount == keys.count, "an exact-key index's keys and slot sets disagree")
    }
}
