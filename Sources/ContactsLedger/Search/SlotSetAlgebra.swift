/// Unions and intersections of sorted, duplicate-free slot arrays, chosen by size: a sparse
/// union is gathered and sorted, a dense one goes through a bitmap of every slot; an
/// intersection of a small set with a large one binary-searches (gallops) the large one
/// instead of reading it all.
enum SlotSetAlgebra {
    /// The sorted, duplicate-free union of sorted sets whose sizes add up to `totalCount`,
    /// every slot below `slotBound`. `forEachSet` calls its argument once per set.
    static func union(
        totalCount: Int, slotBound: Int,
        forEachSet: ((UnsafeBufferPointer<ContactSlot>) -> Void) -> Void
    ) -> [ContactSlot] {
        guard totalCount > 0 else { return [] }
        // A bitmap costs a pass over slotBound / 64 words; sorting costs about
        // log2(totalCount) passes over the gathered slots. The bitmap wins once the union
        // holds more than about one slot in a thousand.
        if totalCount * 1024 >= slotBound {
            return bitmapUnion(totalCount: totalCount, slotBound: slotBound, forEachSet: forEachSet)
        }
        var gathered = [ContactSlot](unsafeUninitializedCapacity: totalCount) { buffer, count in
            forEachSet { set in
                for slot in set {
                    buffer[count] = slot
                    count += 1
                }
            }
        }
        gathered.sort()
        removeDuplicates(fromSorted: &gathered)
        return gathered
    }

    /// The union through a bitmap of `slotBound` bits.
    private static func bitmapUnion(
        totalCount: Int, slotBound: Int,
        forEachSet: ((UnsafeBufferPointer<ContactSlot>) -> Void) -> Void
    ) -> [ContactSlot] {
        var bits = [UInt64](repeating: 0, count: (slotBound + 63) >> 6)
        bits.withUnsafeMutableBufferPointer { bits in
            forEachSet { set in
                for slot in set {
                    bits[Int(slot >> 6)] |= 1 << UInt64(slot & 63)
                }
            }
        }
        return bits.withUnsafeBufferPointer { bits in
            [ContactSlot](unsafeUninitializedCapacity: totalCount) { buffer, count in
                for (index, word) in bits.enumerated() where word != 0 {
                    var remaining = word
                    let base = ContactSlot(index << 6)
                    while remaining != 0 {
                        buffer[count] = base | ContactSlot(remaining.trailingZeroBitCount)
                        count += 1
                        remaining &= remaining - 1
                    }
                }
            }
        }
    }

    /// Removes the repeats of a sorted array in place.
    static func removeDuplicates(fromSorted array: inout [ContactSlot]) {
        let kept = array.withUnsafeMutableBufferPointer { buffer -> Int in
            guard buffer.count > 1 else { return buffer.count }
            var kept = 1
            for index in 1..<buffer.count where buffer[index] != buffer[kept - 1] {
                buffer[kept] = buffer[index]
                kept += 1
            }
            return kept
        }
        array.removeSubrange(kept...)
    }

    /// Marks `keep[i]` for every `candidates[i]` that is in `set`.
    static func markMembers(
        of candidates: UnsafeBufferPointer<ContactSlot>, in set: UnsafeBufferPointer<ContactSlot>,
        keep: UnsafeMutableBufferPointer<Bool>
    ) {
        if candidates.isEmpty || set.isEmpty { return }
        if candidates.count * 16 < set.count {
            // Few candidates: gallop through the large set.
            var position = 0
            for (index, slot) in candidates.enumerated() {
                position = gallop(to: slot, in: set, from: position)
                if position == set.count { return }
                if set[position] == slot { keep[index] = true }
            }
        } else if set.count * 16 < candidates.count {
            var position = 0
            for slot in set {
                position = gallop(to: slot, in: candidates, from: position)
                if position == candidates.count { return }
                if candidates[position] == slot { keep[position] = true }
            }
        } else {
            var left = 0
            var right = 0
            while left < candidates.count, right < set.count {
                let candidate = candidates[left]
                let member = set[right]
                if candidate == member { keep[left] = true }
                left += candidate <= member ? 1 : 0
                right += member <= candidate ? 1 : 0
            }
        }
    }

    /// The candidates that are in `set`.
    static func intersection(
        _ candidates: [ContactSlot], _ set: UnsafeBufferPointer<ContactSlot>
    ) -> [ContactSlot] {
        candidates.withUnsafeBufferPointer { candidates in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: candidates.count) { keep in
                keep.initialize(repeating: false)
                markMembers(of: candidates, in: set, keep: keep)
                return kept(candidates, keep: UnsafeBufferPointer(keep))
            }
        }
    }

    /// The candidates whose `keep` flag is set.
    static func kept(
        _ candidates: UnsafeBufferPointer<ContactSlot>, keep: UnsafeBufferPointer<Bool>
    ) -> [ContactSlot] {
        [ContactSlot](unsafeUninitializedCapacity: candidates.count) { buffer, count in
            for index in 0..<candidates.count where keep[index] {
                buffer[count] = candidates[index]
                count += 1
            }
        }
    }

    /// The first position at or after `start` whose element is not less than `slot`, found by
    /// doubling steps and then a binary search, so that walking a large set in order costs
    /// the logarithm of each step rather than the step.
    static func gallop(
        to slot: ContactSlot, in set: UnsafeBufferPointer<ContactSlot>, from start: Int
    ) -> Int {
        var low = start
        var step = 1
        var high = start
        while high < set.count, set[high] < slot {
            low = high + 1
            high += step
            step <<= 1
        }
        high = min(high, set.count)
        while low < high {
            let middle = (low + high) >> 1
            if set[middle] < slot { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
