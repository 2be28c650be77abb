import ContactsModel
import LedgerStorage

/// Sorted sets of slots behind 32-bit heads, so that an index can keep one head per key
/// wherever suits it (by key id, by hash bucket).
///
/// Most keys belong to a single contact, so a head holds that slot inline and only keys with
/// two or more slots own an array; this keeps an index of a million unique email addresses
/// at four bytes of posting per address instead of an array header each.
///
/// A head is ``emptyHead`` for no slot, a slot below 2^31 for exactly one, or ``listFlag``
/// plus an index into ``lists`` for two or more, kept sorted ascending without duplicates.
/// Lists that shrink back to one slot are released and their index reused.
struct SlotSets: Sendable {
    /// The head of a key with no slots.
    static let emptyHead: UInt32 = .max
    /// Marks a head that refers to a list rather than holding a slot.
    private static let listFlag: UInt32 = 1 << 31

    /// The sets of keys with two or more slots; released lists are empty.
    private var lists: [SlotList] = []
    /// Indexes of released lists, to be reused before ``lists`` grows.
    private var freeLists: [UInt32] = []
    /// Slots added to lists since the last ``trimExcessCapacity(totalSlots:)``.
    private var growthSinceTrim = 0

    /// The number of slots behind a head.
    func count(_ head: UInt32) -> Int {
        if head == Self.emptyHead { return 0 }
        if head & Self.listFlag == 0 { return 1 }
        return lists[Int(head & ~Self.listFlag)].count
    }

    /// Adds a slot to a head's set; returns false when it was there already.
    @discardableResult
    mutating func insert(_ slot: ContactSlot, head: inout UInt32) -> Bool {
        if head == Self.emptyHead {
            head = slot
            return true
        }
        if head & Self.listFlag == 0 {
            if head == slot { return false }
            let pair = SlotList(head < slot ? [head, slot] : [slot, head])
            let index: Int
            if let free = freeLists.popLast() {
                index = Int(free)
                lists[index] = pair
            } else {
                index = lists.count
                lists.append(pair)
            }
            head = Self.listFlag | UInt32(index)
            return true
        }
        guard lists[Int(head & ~Self.listFlag)].insert(slot) else { return false }
        growthSinceTrim += 1
        return true
    }

    /// Removes a slot from a head's set; returns false when it was not there.
    @discardableResult
    mutating func remove(_ slot: ContactSlot, head: inout UInt32) -> Bool {
        if head == Self.emptyHead { return false }
        if head & Self.listFlag == 0 {
            guard head == slot else { return false }
            head = Self.emptyHead
            return true
        }
        let index = Int(head & ~Self.listFlag)
        guard lists[index].remove(slot) else { return false }
        if lists[index].count == 1 {
            head = lists[index].first
            lists[index] = SlotList([])
            freeLists.append(UInt32(index))
        }
        return true
    }

    /// Whether a head's set holds a slot.
    func contains(_ slot: ContactSlot, head: UInt32) -> Bool {
        if head == Self.emptyHead { return false }
        if head & Self.listFlag == 0 { return head == slot }
        return lists[Int(head & ~Self.listFlag)].contains(slot)
    }

    /// Calls `body` with the blocks of a head's set: sorted, disjoint, in ascending order.
    func forEachBlock(of head: UInt32, _ body: (UnsafeBufferPointer<ContactSlot>) -> Void) {
        if head == Self.emptyHead { return }
        if head & Self.listFlag == 0 {
            var single = head
            withUnsafePointer(to: &single) { body(UnsafeBufferPointer(start: $0, count: 1)) }
            return
        }
        lists[Int(head & ~Self.listFlag)].forEachBlock(body)
    }

    /// The slot a head holds inline: nil for no slot or for a list.
    static func singleSlot(_ head: UInt32) -> ContactSlot? {
        head == emptyHead || head & listFlag != 0 ? nil : head
    }

    /// A head's slots, sorted ascending.
    func slots(of head: UInt32) -> [ContactSlot] {
        if head == Self.emptyHead { return [] }
        if head & Self.listFlag == 0 { return [head] }
        return lists[Int(head & ~Self.listFlag)].slots
    }

    /// Gives back the unused capacity of lists, once lists grew by a quarter since the last
    /// time: each list is a separate array, so the pass costs a look at every list.
    mutating func trimExcessCapacity(totalSlots: Int) {
        guard growthSinceTrim > max(1 << 16, totalSlots / 4) else { return }
        growthSinceTrim = 0
        lists.trimExcessCapacity()
        for index in lists.indices { lists[index].trimExcessCapacity() }
    }

    /// Adds a set of the given sorted, distinct slots and returns its head.
    mutating func append(sorted slots: [ContactSlot]) -> UInt32 {
        switch slots.count {
        case 0: return Self.emptyHead
        case 1: return slots[0]
        default:
            lists.append(SlotList(slots))
            growthSinceTrim += slots.count
            return Self.listFlag | UInt32(lists.count - 1)
        }
    }

    /// Moves a head's set from another store into this one and returns its head here.
    mutating func adopt(_ head: UInt32, from other: SlotSets) -> UInt32 {
        guard head != Self.emptyHead, head & Self.listFlag != 0 else { return head }
        lists.append(other.lists[Int(head & ~Self.listFlag)])
        return Self.listFlag | UInt32(lists.count - 1)
    }

    /// Roughly the bytes held, for the benchmark's memory report.
    var estimatedBytes: Int {
        lists.reduce(lists.capacity * MemoryLayout<SlotList>.stride + freeLists.capacity * 4) {
            $0 + $1.estimatedBytes
        }
    }

    /// Checks the lists behind the given heads: each referenced once, sound, two or more
    /// slots; and that no list is lost.
    func checkInvariants<Heads: Sequence<UInt32>>(heads: Heads) {
        var referenced = Set<Int>()
        for head in heads where head != Self.emptyHead && head & Self.listFlag != 0 {
            let index = Int(head & ~Self.listFlag)
            precondition(referenced.insert(index).inserted, "two heads share a list")
            precondition(lists[index].count >= 2, "a list holds fewer than two slots")
            lists[index].checkInvariants()
        }
        precondition(referenced.count + freeLists.count == lists.count, "a list is lost")
    }

    // MARK: Sorted arrays

    /// Inserts into a sorted array; appending is the common case, because a store hands out
    /// slots in increasing order while it replays.
    @discardableResult
    static func insert(_ slot: ContactSlot, intoSorted list: inout [ContactSlot]) -> Bool {
        if let last = list.last {
            if last < slot {
                list.append(slot)
                return true
            }
            // The same contact adding a second word with the same start.
            if last == slot { return false }
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

// MARK: Snapshots

extension SlotSets {
    /// Writes the lists as they are.
    func encode(into writer: inout SnapshotWriter) {
        writer.varint(lists.count)
        for list in lists { list.encode(into: &writer) }
        writer.array(freeLists)
        writer.varint(growthSinceTrim)
    }

    /// Restores lists written by ``encode(into:)``.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        let count = try reader.count()
        lists.reserveCapacity(count)
        for _ in 0..<count { lists.append(try SlotList(from: &reader)) }
        freeLists = try reader.array()
        growthSinceTrim = try reader.count(atMost: Int.max)
        for free in freeLists {
            try reader.check(Int(free) < lists.count && lists[Int(free)].count == 0, "a free slot list is in use")
        }
    }

    /// Throws unless every head is empty, a slot, or one of these lists with two or more slots.
    func check(heads: [UInt32], with reader: borrowing SnapshotReader) throws(SnapshotDecodingError) {
        for head in heads where head != Self.emptyHead && head & Self.listFlag != 0 {
            let index = Int(head & ~Self.listFlag)
            try reader.check(index < lists.count && lists[index].count >= 2, "a head names no slot list")
        }
    }
}
