/// A contact's position in the store's dense table of contacts; the search indexes answer
/// with slots, and the store maps them back to contacts.
///
/// Slots below ``SearchIndexes/slotLimit`` can be indexed; the top half of the range is kept
/// for the indexes' own bookkeeping.
package typealias ContactSlot = UInt32

/// Sorted sets of slots, one per key id (a word, an email address, a phone number).
///
/// Most keys belong to a single contact, so a key's head holds that slot inline and only
/// keys with two or more slots own an array; this keeps an index of a million unique email
/// addresses at four bytes of posting per address instead of an array header each.
///
/// A head is ``emptyHead`` for no slot, a slot below 2^31 for exactly one, or
/// ``listFlag`` plus an index into ``lists`` for two or more, kept sorted ascending without
/// duplicates. Lists that shrink back to one slot are released and their index reused.
struct SlotPostings: Sendable {
    /// The head of a key with no slots.
    private static let emptyHead: UInt32 = .max
    /// Marks a head that refers to a list rather than holding a slot.
    private static let listFlag: UInt32 = 1 << 31

    /// One head per key id.
    private var heads: [UInt32] = []
    /// The sets of keys with two or more slots; released lists are empty.
    private var lists: [[UInt32]] = []
    /// Indexes of released lists, to be reused before ``lists`` grows.
    private var freeLists: [UInt32] = []

    /// The number of key ids, including keys whose sets are empty.
    var keyCount: Int { heads.count }

    /// Adds a key id with an empty set; ids are dense and handed out in order.
    mutating func appendKey() {
        heads.append(Self.emptyHead)
    }

    /// The number of slots of a key.
    func count(of key: UInt32) -> Int {
        let head = heads[Int(key)]
        if head == Self.emptyHead { return 0 }
        if head & Self.listFlag == 0 { return 1 }
        return lists[Int(head & ~Self.listFlag)].count
    }

    /// Whether a key has no slots.
    func isEmpty(_ key: UInt32) -> Bool {
        heads[Int(key)] == Self.emptyHead
    }

    /// Adds a slot to a key's set; returns false when it was there already.
    @discardableResult
    mutating func insert(_ slot: ContactSlot, into key: UInt32) -> Bool {
        let head = heads[Int(key)]
        if head == Self.emptyHead {
            heads[Int(key)] = slot
            return true
        }
        if head & Self.listFlag == 0 {
            if head == slot { return false }
            let pair = head < slot ? [head, slot] : [slot, head]
            let index: Int
            if let free = freeLists.popLast() {
                index = Int(free)
                lists[index] = pair
            } else {
                index = lists.count
                lists.append(pair)
            }
            heads[Int(key)] = Self.listFlag | UInt32(index)
            return true
        }
        return Self.insert(slot, intoSorted: &lists[Int(head & ~Self.listFlag)])
    }

    /// Removes a slot from a key's set; returns false when it was not there.
    @discardableResult
    mutating func remove(_ slot: ContactSlot, from key: UInt32) -> Bool {
        let head = heads[Int(key)]
        if head == Self.emptyHead { return false }
        if head & Self.listFlag == 0 {
            guard head == slot else { return false }
            heads[Int(key)] = Self.emptyHead
            return true
        }
        let index = Int(head & ~Self.listFlag)
        guard Self.remove(slot, fromSorted: &lists[index]) else { return false }
        if lists[index].count == 1 {
            heads[Int(key)] = lists[index][0]
            lists[index] = []
            freeLists.append(UInt32(index))
        }
        return true
    }

    /// Calls `body` with a key's slots, sorted ascending.
    func withSlots<Result>(
        of key: UInt32, _ body: (UnsafeBufferPointer<ContactSlot>) throws -> Result
    ) rethrows -> Result {
        let head = heads[Int(key)]
        if head == Self.emptyHead {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        if head & Self.listFlag == 0 {
            var single = head
            return try withUnsafePointer(to: &single) {
                try body(UnsafeBufferPointer(start: $0, count: 1))
            }
        }
        return try lists[Int(head & ~Self.listFlag)].withUnsafeBufferPointer(body)
    }

    /// A key's slots, sorted ascending.
    func slots(of key: UInt32) -> [ContactSlot] {
        withSlots(of: key) { Array($0) }
    }

    /// The one slot of a key whose set has exactly one, or nil.
    func single(of key: UInt32) -> ContactSlot? {
        let head = heads[Int(key)]
        return head != Self.emptyHead && head & Self.listFlag == 0 ? head : nil
    }

    /// Keeps the keys for which `newID` gives an id, renumbered; `newID` must be increasing
    /// over the kept keys, as a compaction that preserves order makes it.
    func compacted(keeping newID: [UInt32?]) -> SlotPostings {
        var result = SlotPostings()
        result.heads.reserveCapacity(newID.lazy.filter { $0 != nil }.count)
        for (oldKey, kept) in newID.enumerated() where kept != nil {
            let head = heads[oldKey]
            if head != Self.emptyHead, head & Self.listFlag != 0 {
                result.heads.append(Self.listFlag | UInt32(result.lists.count))
                result.lists.append(lists[Int(head & ~Self.listFlag)])
            } else {
                result.heads.append(head)
            }
        }
        return result
    }

    /// Roughly the bytes held, for the benchmark's memory report.
    var estimatedBytes: Int {
        var total = heads.capacity * 4 + lists.capacity * 8 + freeLists.capacity * 4
        for list in lists where list.capacity > 0 {
            // An array's heap object: 32 bytes of header, then the elements, rounded up by
            // the allocator to 16 bytes.
            total += (32 + list.capacity * 4 + 15) & ~15
        }
        return total
    }

    /// Checks the representation: heads refer to live lists of two or more sorted slots.
    func checkInvariants() {
        var referenced = Set<Int>()
        for head in heads where head != Self.emptyHead && head & Self.listFlag != 0 {
            let index = Int(head & ~Self.listFlag)
            precondition(referenced.insert(index).inserted, "two heads share a list")
            let list = lists[index]
            precondition(list.count >= 2, "a list holds fewer than two slots")
            precondition(zip(list, list.dropFirst()).allSatisfy { $0 < $1 }, "a list is not sorted")
        }
        precondition(referenced.count + freeLists.count == lists.count, "a list is lost")
    }

    // MARK: Sorted arrays

    /// Inserts into a sorted array; appending is the common case, because a store hands out
    /// slots in increasing order while it replays.
    @discardableResult
    static func insert(_ slot: ContactSlot, intoSorted list: inout [ContactSlot]) -> Bool {
        if let last = list.last, last < slot {
            list.append(slot)
            return true
        }
        let position = lowerBound(of: slot, in: list)
        if position < list.count, list[position] == slot { return false }
        list.insert(slot, at: position)
        return true
    }

    /// Removes from a sorted array.
    @discardableResult
    static func remove(_ slot: ContactSlot, fromSorted list: inout [ContactSlot]) -> Bool {
        let position = lowerBound(of: slot, in: list)
        guard position < list.count, list[position] == slot else { return false }
        list.remove(at: position)
        return true
    }

    /// The first position whose element is not less than `slot`.
    static func lowerBound(of slot: ContactSlot, in list: [ContactSlot]) -> Int {
        list.withUnsafeBufferPointer { lowerBound(of: slot, in: $0, from: 0) }
    }

    /// The first position at or after `start` whose element is not less than `slot`.
    static func lowerBound(
        of slot: ContactSlot, in list: UnsafeBufferPointer<ContactSlot>, from start: Int
    ) -> Int {
        var low = start
        var high = list.count
        while low < high {
            let middle = (low + high) >> 1
            if list[middle] < slot { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
