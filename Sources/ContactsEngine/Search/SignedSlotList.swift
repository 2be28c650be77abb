import ContactsModel
import LedgerStorage

/// A word's slots, each with the slot's signature of word starts beside it (see
/// ``NameIndex``), as entries `slot << 32 | signature` in ascending order; in blocks of at most
/// ``blockMax`` entries, so that inserting or removing in the middle of a common word's list
/// moves one block, not the whole list.
struct SignedSlotList: Sendable {
    /// The most entries a block holds: 32 KiB, a few microseconds to shift.
    static let blockMax = 4096

    /// The blocks, each sorted and not empty, in ascending order.
    private var blocks: [[UInt64]] = []
    /// The number of entries.
    private(set) var count = 0

    /// A list of the given sorted, distinct slots with their signatures.
    init(slots: [ContactSlot], signature: (ContactSlot) -> UInt32) {
        blocks = stride(from: 0, to: slots.count, by: Self.blockMax).map { start in
            slots[start..<min(slots.count, start + Self.blockMax)].map { UInt64($0) << 32 | UInt64(signature($0)) }
        }
        count = slots.count
    }

    /// The slots, ascending.
    var slots: [ContactSlot] {
        blocks.flatMap { $0.map { ContactSlot(truncatingIfNeeded: $0 >> 32) } }
    }

    /// The entries, ascending.
    var entries: [UInt64] { blocks.flatMap { $0 } }

    /// Appends to `passed` the slots whose signature has every bit of `required`, ascending.
    func appendSlots(passing required: UInt32, to passed: inout [ContactSlot]) {
        for block in blocks {
            for entry in block where UInt32(truncatingIfNeeded: entry) & required == required {
                passed.append(ContactSlot(truncatingIfNeeded: entry >> 32))
            }
        }
    }

    /// Sets a slot's signature, adding the slot if it is not there.
    mutating func upsert(_ slot: ContactSlot, signature: UInt32) {
        let entry = UInt64(slot) << 32 | UInt64(signature)
        guard !blocks.isEmpty else {
            blocks = [[entry]]
            count = 1
            return
        }
        let lastBlock = blocks.count - 1
        if let last = blocks[lastBlock].last, last >> 32 < UInt64(slot) {
            // The common case while replaying and building: slots come in increasing order.
            if blocks[lastBlock].count >= Self.blockMax {
                blocks.append([entry])
            } else {
                blocks[lastBlock].append(entry)
            }
            count += 1
            return
        }
        let index = blockIndex(for: slot)
        let position = Self.lowerBound(of: slot, in: blocks[index])
        if position < blocks[index].count, blocks[index][position] >> 32 == UInt64(slot) {
            blocks[index][position] = entry
            return
        }
        blocks[index].insert(entry, at: position)
        count += 1
        if blocks[index].count > Self.blockMax {
            let half = blocks[index].count / 2
            blocks.insert(Array(blocks[index][half...]), at: index + 1)
            blocks[index].removeSubrange(half...)
        }
    }

    /// Removes a slot; does nothing when it is not there.
    mutating func remove(_ slot: ContactSlot) {
        guard !blocks.isEmpty else { return }
        let index = blockIndex(for: slot)
        let position = Self.lowerBound(of: slot, in: blocks[index])
        guard position < blocks[index].count, blocks[index][position] >> 32 == UInt64(slot) else { return }
        blocks[index].remove(at: position)
        count -= 1
        if blocks[index].isEmpty {
            blocks.remove(at: index)
        } else if index + 1 < blocks.count, blocks[index].count + blocks[index + 1].count <= Self.blockMax / 2 {
            // As in ``SlotList``: neighbours that together fill under half a block become one.
            blocks[index].append(contentsOf: blocks[index + 1])
            blocks.remove(at: index + 1)
        }
    }

    /// Gives back unused capacity (see ``Array/trimExcessCapacity(unusedBytesMin:)``).
    mutating func trimExcessCapacity() {
        for index in blocks.indices { blocks[index].trimExcessCapacity(unusedBytesMin: 256) }
    }

    /// Roughly the bytes held.
    var estimatedBytes: Int {
        blocks.reduce(32 + blocks.capacity * 8) { $0 + 32 + $1.capacity * 8 }
    }

    /// The block that holds `slot` or would: the last whose first slot is not above it.
    private func blockIndex(for slot: ContactSlot) -> Int {
        if let last = blocks.last, last[0] >> 32 <= UInt64(slot) { return blocks.count - 1 }
        var low = 0
        var high = blocks.count - 1
        while low < high {
            let middle = (low + high + 1) >> 1
            if blocks[middle][0] >> 32 <= UInt64(slot) { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The first position of a block whose slot is not below `slot`.
    private static func lowerBound(of slot: ContactSlot, in block: [UInt64]) -> Int {
        let key = UInt64(slot) << 32
        var low = 0
        var high = block.count
        while low < high {
            let middle = (low + high) >> 1
            if block[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Checks that the entries are sorted by slot across blocks, and blocks are not empty nor
    /// overfull.
    func checkInvariants() {
        let all = slots
        precondition(all.count == count, "a signed list's count is wrong")
        precondition(zip(all, all.dropFirst()).allSatisfy { $0 < $1 }, "a signed list is not sorted")
        precondition(blocks.allSatisfy { !$0.isEmpty && $0.count <= Self.blockMax }, "a signed block is misshapen")
    }
}

// MARK: Snapshots

extension SignedSlotList {
    /// Writes the blocks as they are.
    func encode(into writer: inout SnapshotWriter) {
        writer.varint(blocks.count)
        for block in blocks { writer.array(block) }
    }

    /// Restores a list written by ``encode(into:)``, checking that it is sorted and sound.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        let blockCount = try reader.count()
        blocks.reserveCapacity(blockCount)
        var previous: Int64 = -1
        for _ in 0..<blockCount {
            let block: [UInt64] = try reader.array()
            try reader.check(!block.isEmpty && block.count <= Self.blockMax, "a signed block is empty or too long")
            for entry in block {
                try reader.check(Int64(entry >> 32) > previous, "a signed list is not sorted")
                previous = Int64(entry >> 32)
            }
            count += block.count
            blocks.append(block)
        }
    }
}
