import ContactsModel
import LedgerStorage

/// A sorted set of slots in one array while it is small, and in blocks of at most
/// ``blockMax`` once it grows, so that inserting or removing in the middle of the set of a
/// common word (a hundred thousand contacts) moves one block, not the whole set.
struct SlotList: Sendable {
    /// The most slots a block holds: 16 KiB, a few microseconds to shift.
    static let blockMax = 4096

    /// The slots while the set is one array; empty once it is in ``blocks``.
    private var small: [ContactSlot]
    /// The blocks, each sorted and not empty, in ascending order; empty while ``small`` is
    /// in use.
    private var blocks: [[ContactSlot]] = []
    /// The number of slots.
    private(set) var count: Int

    /// A set of the given sorted, distinct slots; more than ``blockMax`` of them are put in
    /// full blocks, as growing the set one slot at a time would.
    init(_ sorted: [ContactSlot]) {
        count = sorted.count
        if sorted.count > Self.blockMax {
            small = []
            blocks = stride(from: 0, to: sorted.count, by: Self.blockMax).map {
                Array(sorted[$0..<min(sorted.count, $0 + Self.blockMax)])
            }
        } else {
            small = sorted
        }
    }

    /// The smallest slot; the set must not be empty.
    var first: ContactSlot { blocks.isEmpty ? small[0] : blocks[0][0] }

    /// The slots, sorted ascending.
    var slots: [ContactSlot] {
        if blocks.isEmpty { return small }
        var all: [ContactSlot] = []
        all.reserveCapacity(count)
        for block in blocks { all.append(contentsOf: block) }
        return all
    }

    /// Calls `body` with each block, in ascending order.
    func forEachBlock(_ body: (UnsafeBufferPointer<ContactSlot>) -> Void) {
        if blocks.isEmpty {
            small.withUnsafeBufferPointer(body)
        } else {
            for block in blocks { block.withUnsafeBufferPointer(body) }
        }
    }

    /// Whether the set holds a slot.
    func contains(_ slot: ContactSlot) -> Bool {
        let list = blocks.isEmpty ? small : blocks[blockIndex(for: slot)]
        let position = SlotSets.lowerBound(of: slot, in: list)
        return position < list.count && list[position] == slot
    }

    /// Adds a slot; returns false when it was there already.
    mutating func insert(_ slot: ContactSlot) -> Bool {
        if blocks.isEmpty {
            guard SlotSets.insert(slot, intoSorted: &small) else { return false }
            count += 1
            if small.count > Self.blockMax {
                // Full blocks from the start: sets grow mostly at their end.
                self = SlotList(small)
            }
            return true
        }
        let lastBlock = blocks.count - 1
        if let last = blocks[lastBlock].last, last < slot {
            // The common case while replaying and building: slots come in increasing order.
            if blocks[lastBlock].count >= Self.blockMax {
                blocks.append([slot])
            } else {
                blocks[lastBlock].append(slot)
            }
            count += 1
            return true
        }
        let index = blockIndex(for: slot)
        guard SlotSets.insert(slot, intoSorted: &blocks[index]) else { return false }
        count += 1
        if blocks[index].count > Self.blockMax {
            let half = blocks[index].count / 2
            blocks.insert(Array(blocks[index][half...]), at: index + 1)
            blocks[index].removeSubrange(half...)
        }
        return true
    }

    /// Removes a slot; returns false when it was not there.
    mutating func remove(_ slot: ContactSlot) -> Bool {
        if blocks.isEmpty {
            guard SlotSets.remove(slot, fromSorted: &small) else { return false }
            count -= 1
            return true
        }
        let index = blockIndex(for: slot)
        guard SlotSets.remove(slot, fromSorted: &blocks[index]) else { return false }
        count -= 1
        if blocks[index].isEmpty {
            blocks.remove(at: index)
        } else if index + 1 < blocks.count, blocks[index].count + blocks[index + 1].count <= Self.blockMax / 2 {
            // Two neighbours that together fill under half a block become one, so that
            // removals cannot leave a long tail of nearly empty blocks.
            blocks[index].append(contentsOf: blocks[index + 1])
            blocks.remove(at: index + 1)
        }
        if blocks.count == 1 {
            small = blocks[0]
            blocks = []
        }
        return true
    }

    /// Gives back unused capacity (see ``Array/trimExcessCapacity(unusedBytesMin:)``).
    mutating func trimExcessCapacity() {
        // Small lists lose little to doubling; a copy pays off from 256 unused bytes.
        small.trimExcessCapacity(unusedBytesMin: 256)
        for index in blocks.indices { blocks[index].trimExcessCapacity(unusedBytesMin: 256) }
    }

    /// The block that holds `slot` or would: the last whose first slot is not above it.
    private func blockIndex(for slot: ContactSlot) -> Int {
        if let last = blocks.last, last[0] <= slot { return blocks.count - 1 }
        var low = 0
        var high = blocks.count - 1
        while low < high {
            let middle = (low + high + 1) >> 1
            if blocks[middle][0] <= slot { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Roughly the bytes held: an array's heap object is 32 bytes of header and the
    /// elements, rounded up by the allocator to 16 bytes.
    var estimatedBytes: Int {
        func arrayBytes(_ capacity: Int, _ stride: Int) -> Int {
            capacity == 0 ? 0 : (32 + capacity * stride + 15) & ~15
        }
        return blocks.reduce(arrayBytes(small.capacity, 4) + arrayBytes(blocks.capacity, 8)) {
            $0 + arrayBytes($1.capacity, 4)
        }
    }

    /// Checks that the slots are sorted and distinct across blocks, blocks are not empty nor
    /// overfull, and the count is right.
    func checkInvariants() {
        let all = slots
        precondition(all.count == count, "a list's count is wrong")
        precondition(zip(all, all.dropFirst()).allSatisfy { $0 < $1 }, "a list is not sorted")
        precondition(blocks.allSatisfy { !$0.isEmpty && $0.count <= Self.blockMax }, "a block is misshapen")
        precondition(blocks.isEmpty || (small.isEmpty && blocks.count >= 2), "a list has two shapes")
    }
}

// MARK: Snapshots

extension SlotList {
    /// Writes the set's arrays as they are.
    func encode(into writer: inout SnapshotWriter) {
        writer.array(small)
        writer.varint(blocks.count)
        for block in blocks { writer.array(block) }
    }

    /// Restores a set written by ``encode(into:)``, checking that it is sorted and sound.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        small = try reader.array()
        let blockCount = try reader.count()
        blocks = []
        blocks.reserveCapacity(blockCount)
        for _ in 0..<blockCount { blocks.append(try reader.array()) }
        try reader.check(blocks.isEmpty || small.isEmpty, "a slot set is both small and in blocks")
        count = small.count + blocks.reduce(0) { $0 + $1.count }
        var previous: Int64 = -1
        for slot in small {
            try reader.check(Int64(slot) > previous && slot < SearchIndexes.slotLimit, "a slot set is not sorted")
            previous = Int64(slot)
        }
        for block in blocks {
            try reader.check(!block.isEmpty && block.count <= Self.blockMax, "a block of slots is empty or too long")
            for slot in block {
                try reader.check(Int64(slot) > previous && slot < SearchIndexes.slotLimit, "a slot set is not sorted")
                previous = Int64(slot)
            }
        }
    }
}
