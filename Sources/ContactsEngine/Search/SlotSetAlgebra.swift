import ContactsModel
import LedgerStorage

/// Unions and intersections of sorted, duplicate-free slot arrays, each done the way that
/// costs least for the sizes at hand: a union of a few sorted runs is gathered and merged,
/// a large one goes through a bitmap of every slot; an intersection of a small set with a
/// large one steps through the large one a cache line at a time when the small one's members
/// are a few lines apart in it, and binary-searches (gallops) it when they are further apart,
/// instead of reading it all; filtering candidates by many similar sets goes through a bitmap
/// over the candidates' range.
enum SlotSetAlgebra {
    /// The sorted, duplicate-free union of sorted sets whose sizes add up to `totalCount`,
    /// every slot below `slotBound`. `forEachSet` calls its argument once per set.
    static func union(
        totalCount: Int, slotBound: Int,
        forEachSet: ((UnsafeBufferPointer<ContactSlot>) -> Void) -> Void
    ) -> [ContactSlot] {
        guard totalCount > 0 else { return [] }
        var runs = 0
        forEachSet { _ in runs += 1 }
        // Gathering the sets leaves `runs` sorted runs, which the standard library's sort
        // (a merge sort that finds runs) merges in about log2(runs) passes. A bitmap costs a
        // pass over slotBound / 64 words and two steps per slot. Take the cheaper.
        let runPasses = Int.bitWidth - runs.leadingZeroBitCount
        if totalCount * runPasses > slotBound / 32 + totalCount * 2 {
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

    /// The candidates that are in at least one of the sets, each sorted; `totalCount` is the
    /// sum of the sets' sizes.
    ///
    /// Two ways, whichever costs fewer steps by a first look at the sets' sizes: each set is
    /// galloped or merged against the candidates within its range (good when a set is much
    /// smaller or much larger than the candidates it overlaps); or the candidates go into a
    /// bitmap over their range and every member of every set clears its bit, without a test
    /// or a branch, and the candidates whose bit went are the answer (good when many sets of
    /// similar size overlap the candidates, as the words starting "john" do).
    static func candidates(
        _ candidates: [ContactSlot], inAnyOf totalCount: Int,
        forEachSet: ((UnsafeBufferPointer<ContactSlot>) -> Void) -> Void
    ) -> [ContactSlot] {
        guard let low = candidates.first, let high = candidates.last else { return [] }
        let span = Int(high - low) + 1
        let markingCost = candidates.withUnsafeBufferPointer { candidates in
            var cost = 0
            forEachSet { set in
                let range = overlap(of: candidates, with: set)
                cost += markingSteps(candidates: range.count, set: set.count)
            }
            return cost
        }
        // A merge or gallop step is a compare and an unpredictable branch; a bit cleared is a
        // load and a store. Measured at a million contacts, the first costs about three times
        // the second.
        if markingCost * 3 <= span / 32 + 2 * candidates.count + totalCount {
            return candidates.withUnsafeBufferPointer { candidates in
                withUnsafeTemporaryAllocation(of: Bool.self, capacity: candidates.count) { keep in
                    keep.initialize(repeating: false)
                    forEachSet { set in
                        // Only the candidates within the set's range can be in it; a set in
                        // blocks then costs each candidate once, not once per block.
                        let range = overlap(of: candidates, with: set)
                        guard !range.isEmpty else { return }
                        markMembers(
                            of: UnsafeBufferPointer(rebasing: candidates[range]), in: set,
                            keep: UnsafeMutableBufferPointer(rebasing: keep[range]))
                    }
                    return kept(candidates, keep: UnsafeBufferPointer(keep))
                }
            }
        }
        var bits = [UInt64](repeating: 0, count: (span + 63) >> 6)
        bits.withUnsafeMutableBufferPointer { bits in
            for slot in candidates {
                let offset = Int(slot - low)
                bits[offset >> 6] |= 1 << UInt64(offset & 63)
            }
            forEachSet { set in
                let start = gallop(to: low, in: set, from: 0)
                var end = start
                while end < set.count, set[end] <= high { end += 1 }
                for slot in set[start..<end] {
                    let offset = Int(slot - low)
                    bits[offset >> 6] &= ~(1 << UInt64(offset & 63))
                }
            }
        }
        return bits.withUnsafeBufferPointer { bits in
            [ContactSlot](unsafeUninitializedCapacity: candidates.count) { buffer, count in
                for slot in candidates {
                    let offset = Int(slot - low)
                    if bits[offset >> 6] & (1 << UInt64(offset & 63)) == 0 {
                        buffer[count] = slot
                        count += 1
                    }
                }
            }
        }
    }

    /// The positions of the candidates between a set's first and last slot.
    private static func overlap(
        of candidates: UnsafeBufferPointer<ContactSlot>, with set: UnsafeBufferPointer<ContactSlot>
    ) -> Range<Int> {
        guard let first = set.first, let last = set.last else { return 0..<0 }
        let start = gallop(to: first, in: candidates, from: 0)
        return start..<gallop(to: last &+ 1, in: candidates, from: start)
    }

    /// Roughly the steps ``markMembers(of:in:keep:)`` takes.
    private static func markingSteps(candidates: Int, set: Int) -> Int {
        if candidates == 0 || set == 0 { return 0 }
        if candidates * 16 < set { return candidates * 2 * (Int.bitWidth - (set / candidates).leadingZeroBitCount) }
        if set * 16 < candidates { return set * 2 * (Int.bitWidth - (candidates / set).leadingZeroBitCount) }
        return candidates + set
    }

    /// Marks `keep[i]` for every `candidates[i]` that is in `set`.
    static func markMembers(
        of candidates: UnsafeBufferPointer<ContactSlot>, in set: UnsafeBufferPointer<ContactSlot>,
        keep: UnsafeMutableBufferPointer<Bool>
    ) {
        if candidates.isEmpty || set.isEmpty { return }
        if candidates.count * 16 < set.count, set.count <= candidates.count * 1024 {
            // Few candidates, a few cache lines apart in the set: step a line (16 slots) at a
            // time. The steps' loads do not depend on each other, so they overlap and the
            // hardware streams the lines in; a gallop's probes each wait for the last, and
            // cost a cache miss each when the set is cold.
            var position = 0
            for (index, slot) in candidates.enumerated() {
                while position + 16 <= set.count, set[position + 15] < slot { position += 16 }
                while position < set.count, set[position] < slot { position += 1 }
                if position == set.count { return }
                if set[position] == slot { keep[index] = true }
            }
        } else if candidates.count * 16 < set.count {
            // Few candidates far apart: gallop through the large set.
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
