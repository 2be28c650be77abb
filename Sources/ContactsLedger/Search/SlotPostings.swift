/// Sorted sets of slots, one per dense key id (a word, an email address).
struct SlotPostings: Sendable {
    /// One head per key id.
    private var heads: [UInt32] = []
    private var sets = SlotSets()

    /// The number of key ids, including keys whose sets are empty.
    var keyCount: Int { heads.count }

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
        heads = try reader.array()
        sets = try SlotSets(from: &reader)
        try sets.check(heads: heads, with: reader)
    }
}
