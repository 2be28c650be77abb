import CLedgerPrefetch
import ContactsModel
import LedgerStorage

/// Nonzero 64-bit keys (packed phone numbers) to the sorted slots of the contacts that have
/// them, in one open-addressing table with linear probing.
///
/// A bucket is a key in one array and its set's head at the same index of another (twelve
/// bytes, so a phone number costs about sixteen), and a lookup in a large table misses the
/// cache in each; the bulk build fetches both ahead (``prefetch(key:)``). A key whose last slot
/// goes is deleted at once by shifting its successors back (no tombstones, no compaction).
struct IntegerKeyIndex: Sendable {
    /// Zero for a free bucket, otherwise the key.
    private var keys: [UInt64] = []
    /// The head of each occupied bucket's slot set (see ``SlotSets``).
    private var heads: [UInt32] = []
    private var sets = SlotSets()
    /// The number of occupied buckets.
    private var count = 0

    /// Adds a slot to a key's set.
    mutating func insert(_ slot: ContactSlot, key: UInt64) {
        precondition(key != 0, "zero marks a free bucket")
        if (count + 1) * 5 > keys.count * 4 { grow() }
        let mask = keys.count - 1
        var index = Self.home(key) & mask
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
        if keys[index] == 0 {
            keys[index] = key
            heads[index] = SlotSets.emptyHead
            count += 1
        }
        sets.insert(slot, head: &heads[index])
    }

    /// Asks the processor to fetch the bucket where a key starts probing (its key and its set's
    /// head), so that inserting it soon after does not wait for memory.
    func prefetch(key: UInt64) {
        guard !keys.isEmpty else { return }
        let index = Self.home(key) & (keys.count - 1)
        keys.withUnsafeBufferPointer { ledger_prefetch($0.baseAddress! + index) }
        heads.withUnsafeBufferPointer { ledger_prefetch($0.baseAddress! + index) }
    }

    /// Removes a slot from a key's set, and the key when its set empties.
    mutating func remove(_ slot: ContactSlot, key: UInt64) {
        guard let index = bucket(of: key), sets.remove(slot, head: &heads[index]) else { return }
        if heads[index] == SlotSets.emptyHead { delete(at: index) }
    }

    /// The sorted slots of a key (empty when nobody has it).
    func slots(of key: UInt64) -> [ContactSlot] {
        sets.slots(of: bucket(of: key).map { heads[$0] } ?? SlotSets.emptyHead)
    }

    /// The slots of every key that `accepts`, each key's sorted, one key after another: a scan
    /// of the keys alone, for the rare query no key can be computed for (a number's end).
    func slots(ofKeysWhere accepts: (UInt64) -> Bool) -> [ContactSlot] {
        var found: [ContactSlot] = []
        for (index, key) in keys.enumerated() where key != 0 && accepts(key) {
            found += sets.slots(of: heads[index])
        }
        return found
    }

    /// Whether a slot has a key.
    func contains(_ slot: ContactSlot, key: UInt64) -> Bool {
        sets.contains(slot, head: bucket(of: key).map { heads[$0] } ?? SlotSets.emptyHead)
    }

    private func bucket(of key: UInt64) -> Int? {
        guard !keys.isEmpty, key != 0 else { return nil }
        let mask = keys.count - 1
        var index = Self.home(key) & mask
        while keys[index] != 0 {
            if keys[index] == key { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Empties a bucket and moves back the keys after it that probing would no longer reach
    /// (Knuth's algorithm R for linear probing).
    private mutating func delete(at start: Int) {
        let mask = keys.count - 1
        var hole = start
        var index = start
        while true {
            index = (index + 1) & mask
            let key = keys[index]
            if key == 0 { break }
            let home = Self.home(key) & mask
            // The key may move into the hole when its home is not cyclically in (hole, index].
            let reachable = hole <= index ? (home > hole && home <= index) : (home > hole || home <= index)
            if !reachable {
                keys[hole] = key
                heads[hole] = heads[index]
                hole = index
            }
        }
        keys[hole] = 0
        heads[hole] = SlotSets.emptyHead
        count -= 1
    }

    /// Doubles the buckets (at least 16) and puts every key back.
    private mutating func grow() {
        grow(to: max(16, keys.count * 2))
    }

    /// Rehashes the buckets once into as many as `more` keys would have grown them to, so that
    /// a bulk build that knows about how many keys are coming does not rehash at every doubling.
    mutating func reserveCapacity(keys more: Int) {
        guard more > 0 else { return }
        var capacity = max(16, keys.count)
        while (count + more) * 5 > capacity * 4 { capacity *= 2 }
        if capacity > keys.count { grow(to: capacity) }
    }

    /// Rehashes every key into `capacity` buckets, a power of two.
    private mutating func grow(to capacity: Int) {
        var grownKeys = [UInt64](hugePagesRepeating: 0, count: capacity)
        var grownHeads = [UInt32](hugePagesRepeating: SlotSets.emptyHead, count: capacity)
        let mask = capacity - 1
        for (index, key) in keys.enumerated() where key != 0 {
            var target = Self.home(key) & mask
            while grownKeys[target] != 0 { target = (target + 1) & mask }
            grownKeys[target] = key
            grownHeads[target] = heads[index]
        }
        keys = grownKeys
        heads = grownHeads
    }

    /// The bucket where probing for a key starts: the key's bits mixed (MurmurHash3's fmix64),
    /// because packed phone numbers differ mostly in their middle bits.
    private static func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: ByteHash.mix(key))
    }

    /// Gives back unused capacity of the lists of shared numbers.
    mutating func trimExcessCapacity() {
        sets.trimExcessCapacity(totalSlots: count)
    }

    /// Roughly the bytes held, for the benchmark's memory report.
    var estimatedBytes: Int {
        keys.capacity * 8 + heads.capacity * 4 + sets.estimatedBytes
    }

    /// Checks that every key is reachable from its home, no set is empty, and the lists
    /// behind the heads are sound.
    func checkInvariants() {
        var occupied = 0
        for (index, key) in keys.enumerated() where key != 0 {
            occupied += 1
            precondition(bucket(of: key) == index, "key \(key) is unreachable")
            precondition(heads[index] != SlotSets.emptyHead, "key \(key) has no slots")
        }
        precondition(occupied == count, "keys are miscounted")
        sets.checkInvariants(heads: zip(keys, heads).lazy.filter { $0.0 != 0 }.map(\.1))
    }
}

// MARK: Snapshots

extension IntegerKeyIndex {
    /// Writes the table as it is.
    func encode(into writer: inout SnapshotWriter) {
        writer.array(keys)
        writer.array(heads)
        sets.encode(into: &writer)
        writer.varint(count)
    }

    /// Restores a table written by ``encode(into:)``.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        keys = try reader.array()
        heads = try reader.array()
        sets = try SlotSets(from: &reader)
        count = try reader.count(atMost: keys.count)
        try reader.check(keys.count == heads.count, "an integer-key index's keys and heads disagree")
        try reader.check(keys.isEmpty || keys.count & (keys.count - 1) == 0, "buckets not a power of two")
        try reader.check(keys.lazy.filter { $0 != 0 }.count == count, "an integer-key index is miscounted")
        try sets.check(heads: heads, with: reader)
    }
}
