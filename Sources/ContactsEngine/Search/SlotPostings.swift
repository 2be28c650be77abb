import ContactsModel
import LedgerStorage

/// Sorted sets of slots, one per dense key id (a word, an email address).
struct SlotPostings: Sendable {
    /// One head per key id.
    private var heads: [UInt32] = []
    private var sets = SlotSets()

    /// Postings without keys.
    init() {}

    /// The number of key ids, including keys whose sets are empty.
    var keyCount: Int { heads.count }

    /// Postings of `keyCount` keys made at once from (key, slot) pairs, each written
    /// `key << 32 | slot`, in which every key's slots ascend (a slot may repeat, next to
    /// itself): the bulk index build's way in, a counting sort of the pairs instead of an
    /// insert into a growing set per pair.
    init(keyCount: Int, pairs: [UInt64]) {
        // starts[key] is where the key's slots begin in `sorted`, once summed up.
        var starts = [Int](repeating: 0, count: keyCount + 1)
        for pair in pairs { starts[Int(pair >> 32) + 1] += 1 }
        for key in 0..<keyCount { starts[key + 1] += starts[key] }
        var sorted = [ContactSlot](repeating: 0, count: pairs.count)
        var next = starts
        sorted.withUnsafeMutableBufferPointer { sorted in
            for pair in pairs {
                let key = Int(pair >> 32)
                sorted[next[key]] = ContactSlot(truncatingIfNeeded: pair)
                next[key] += 1
            }
        }
        heads.reserveCapacity(keyCount)
        for key in 0..<keyCount {
            let run = sorted[starts[key]..<starts[key + 1]]
            if run.count == 1 {
                heads.append(run[run.startIndex])
                continue
            }
            var distinct: [ContactSlot] = []
            distinct.reserveCapacity(run.count)
            for slot in run {
                if let last = distinct.last {
                    if last == slot { continue }
                    precondition(last < slot, "a key's slots are not in ascending order")
                }
                distinct.append(slot)
            }
            heads.append(sets.append(sorted: distinct))
        }
    }

    /// Makes room for `keys` more key ids without growing.
    mutating func reserveCapacity(keys: Int) {
        heads.reserveCapacity(heads.count + keys)
    }

    /// Adds a key id with an empty set; ids are dense and handed out in order.
    mutating func appendKey() {
        heads.append(SlotSets.emptyHead)
    }

    /// The number of slots of a key.
    func count(of key: UInt32) -> Int {
        sets.count(heads[Int(key)])
    }

    /// Whether a key has no slots.
    func isEmpty(_ key: UInt32) -> Bool {
        heads[Int(key)] == SlotSets.emptyHead
    }

    /// Adds a slot to a key's set; returns false when it was there already.
    @discardableResult
    mutating func insert(_ slot: ContactSlot, into key: UInt32) -> Bool {
        sets.insert(slot, head: &heads[Int(key)])
    }

    /// Removes a slot from a key's set; returns false when it was not there.
    @discardableResult
    mutating func remove(_ slot: ContactSlot, from key: UInt32) -> Bool {
        sets.remove(slot, head: &heads[Int(key)])
    }

    /// Calls `body` with the blocks of a key's set: sorted, disjoint, in ascending order.
    func forEachBlock(of key: UInt32, _ body: (UnsafeBufferPointer<ContactSlot>) -> Void) {
        sets.forEachBlock(of: heads[Int(key)], body)
    }

    /// The slot of a key whose set is that one slot; nil for an empty set, a set of two or
    /// more, or an id out of range. A lookup reads it before the key's bytes are confirmed, to
    /// have the contact fetched meanwhile.
    func singleSlot(of key: UInt32) -> ContactSlot? {
        guard Int(key) < heads.count else { return nil }
        return SlotSets.singleSlot(heads[Int(key)])
    }

    /// A key's slots, sorted ascending.
    func slots(of key: UInt32) -> [ContactSlot] {
        sets.slots(of: heads[Int(key)])
    }

    /// Whether a key's set holds a slot.
    func contains(_ slot: ContactSlot, in key: UInt32) -> Bool {
        sets.contains(slot, head: heads[Int(key)])
    }

    /// Keeps the keys for which `newID` gives an id, renumbered; `newID` must be increasing
    /// over the kept keys, as a compaction that preserves order makes it.
    func compacted(keeping newID: [UInt32?]) -> SlotPostings {
        var result = SlotPostings()
        result.heads.reserveCapacity(newID.lazy.filter { $0 != nil }.count)
        for (oldKey, kept) in newID.enumerated() where kept != nil {
            result.heads.append(result.sets.adopt(heads[oldKey], from: sets))
        }
        return result
    }

    /// Gives back unused capacity (see ``Array/trimExcessCapacity(unusedBytesMin:)``).
    mutating func trimExcessCapacity() {
        heads.trimExcessCapacity()
        sets.trimExcessCapacity(totalSlots: heads.count)
    }

    /// Roughly the bytes held, for the benchmark's memory report.
    var estimatedBytes: Int {
        heads.capacity * 4 + sets.estimatedBytes
    }

    /// Checks the representation: heads refer to live lists of two or more sorted slots.
    func checkInvariants() {
        sets.checkInvariants(heads: heads)
    }
}

// MARK: Snapshots

extension SlotPostings {
    /// Writes the heads and sets as they are.
    func encode(into writer: inout SnapshotWriter) {
        writer.array(heads)
        sets.encode(into: &writer)
    }

    /// Restores postings written by ``encode(into:)``.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        heads = try reader.growableArray()
        sets = try SlotSets(from: &reader)
        try sets.check(heads: heads, with: reader)
    }
}
