import CLedgerPrefetch
import ContactsModel
import Foundation
import LedgerStorage

/// Dense ids for byte strings (folded words, folded email addresses, phone keys), with the
/// bytes themselves kept so that a lookup is exact.
///
/// The strings live back to back in one array and a bucket array with linear probing maps
/// them to their ids, so a key costs its bytes, four bytes for where it ends and an
/// eight-byte bucket (at most three quarters full), where a Swift `Dictionary<String, Int>`
/// would cost a heap object per key longer than fifteen bytes.
/// Ids are never reused or removed one by one; an index that accumulates dead keys rebuilds
/// the table with ``compacted(keeping:)``.
struct ByteStringTable: Sendable {
    /// The strings, back to back in id order.
    private var bytes: [UInt8] = []
    /// `ends[id]` is where string `id` ends in ``bytes``; it starts where the previous ends.
    private var ends: [UInt32] = []
    /// Zero for a free bucket, otherwise the low 32 bits of the key's hash shifted up by 32,
    /// plus the id plus one. Keeping the hash lets probing skip most strings without reading
    /// them and lets the table grow without rehashing bytes.
    private var buckets: [UInt64] = []

    /// The number of ids handed out.
    var count: Int { ends.count }

    /// The id of a string, if it has one.
    func find(_ key: UnsafeBufferPointer<UInt8>) -> UInt32? {
        find(key, candidate: { _ in })
    }

    /// ``find(_:)``, calling `candidate` with each id whose hash matches the key's before its
    /// bytes are compared: a caller that goes on to read something of the id found can have it
    /// fetched while the bytes are.
    func find(_ key: UnsafeBufferPointer<UInt8>, candidate: (UInt32) -> Void) -> UInt32? {
        guard !buckets.isEmpty else { return nil }
        let hash = Self.hash32(key)
        return bytes.withUnsafeBufferPointer { stored in
            buckets.withUnsafeBufferPointer { buckets in
                let mask = buckets.count - 1
                var index = Int(hash) & mask
                while true {
                    let bucket = buckets[index]
                    if bucket == 0 { return nil }
                    if UInt32(truncatingIfNeeded: bucket >> 32) == hash {
                        let id = UInt32(truncatingIfNeeded: bucket) - 1
                        candidate(id)
                        if equals(id, key, in: stored) { return id }
                    }
                    index = (index + 1) & mask
                }
            }
        }
    }

    /// The id of a string, given a new one when it has none yet.
    mutating func findOrInsert(_ key: UnsafeBufferPointer<UInt8>) -> (id: UInt32, inserted: Bool) {
        findOrInsert(key, hash: Self.hash(key))
    }

    /// ``findOrInsert(_:)`` of a key whose ``hash(_:)`` the caller has computed.
    mutating func findOrInsert(_ key: UnsafeBufferPointer<UInt8>, hash fullHash: UInt64) -> (id: UInt32, inserted: Bool)
    {
        if (ends.count + 1) * 4 > buckets.count * 3 {
            grow()
        }
        let hash = UInt32(truncatingIfNeeded: fullHash)
        let mask = buckets.count - 1
        var index = Int(hash) & mask
        while true {
            let bucket = buckets[index]
            if bucket == 0 { break }
            if UInt32(truncatingIfNeeded: bucket >> 32) == hash {
                let id = UInt32(truncatingIfNeeded: bucket) - 1
                let found = bytes.withUnsafeBufferPointer { equals(id, key, in: $0) }
                if found { return (id, false) }
            }
            index = (index + 1) & mask
        }
        let id = UInt32(ends.count)
        bytes.append(contentsOf: key)
        precondition(bytes.count <= Int(UInt32.max), "search strings exceed 4 GiB")
        ends.append(UInt32(bytes.count))
        buckets[index] = UInt64(hash) << 32 | UInt64(id + 1)
        return (id, true)
    }

    /// Asks the processor to fetch the bucket where a key with this ``hash(_:)`` starts probing,
    /// so that finding or inserting it soon after does not wait for memory.
    func prefetchBucket(hash: UInt64) {
        guard !buckets.isEmpty else { return }
        buckets.withUnsafeBufferPointer {
            ledger_prefetch($0.baseAddress! + (Int(UInt32(truncatingIfNeeded: hash)) & ($0.count - 1)))
        }
    }

    /// Calls `body` with the bytes of a string.
    func withBytes<Result>(
        of id: UInt32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let range = self.range(of: id)
        return try bytes.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[range]))
        }
    }

    /// Calls `body` with all the strings and a function that cuts one out, so that a sort
    /// or a binary search can compare many strings without a call per access.
    func withStorage<Result>(
        _ body: (_ slice: (UInt32) -> UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { stored in
            try ends.withUnsafeBufferPointer { ends in
                try body { id in
                    let start = id == 0 ? 0 : Int(ends[Int(id) - 1])
                    return UnsafeBufferPointer(rebasing: stored[start..<Int(ends[Int(id)])])
                }
            }
        }
    }

    /// A table of the strings for which `newID` gives an id; the ids must be 0, 1, 2, ... in
    /// the order of the old ids, so that orderings by id survive.
    func compacted(keeping newID: [UInt32?]) -> ByteStringTable {
        var result = ByteStringTable()
        withStorage { slice in
            for (oldID, kept) in newID.enumerated() {
                guard let kept else { continue }
                let inserted = result.findOrInsert(slice(UInt32(oldID)))
                precondition(inserted.inserted && inserted.id == kept, "compaction out of order")
            }
        }
        return result
    }

    /// Gives back unused capacity (see ``Array/trimExcessCapacity(unusedBytesMin:)``).
    mutating func trimExcessCapacity() {
        bytes.trimExcessCapacity()
        ends.trimExcessCapacity()
    }

    /// Roughly the bytes held, for the benchmark's memory report.
    var estimatedBytes: Int {
        bytes.capacity + ends.capacity * 4 + buckets.capacity * 8
    }

    /// Checks that every id can be found again by its bytes.
    func checkInvariants() {
        for id in 0..<UInt32(ends.count) {
            precondition(withBytes(of: id) { find($0) } == id, "string \(id) is lost")
        }
    }

    // MARK: Internals

    private func range(of id: UInt32) -> Range<Int> {
        let start = id == 0 ? 0 : Int(ends[Int(id) - 1])
        return start..<Int(ends[Int(id)])
    }

    private func equals(
        _ id: UInt32, _ key: UnsafeBufferPointer<UInt8>, in stored: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let range = self.range(of: id)
        guard range.count == key.count else { return false }
        return range.isEmpty || memcmp(stored.baseAddress! + range.lowerBound, key.baseAddress!, key.count) == 0
    }

    /// Doubles the buckets (at least 16) and puts every id back by its stored hash.
    private mutating func grow() {
        grow(to: max(16, buckets.count * 2))
    }

    /// Makes room for `strings` more strings of `bytes` bytes in all without growing: their
    /// bytes and ends reserved (untouched until used), and the buckets rehashed once into as
    /// many as that many strings would have grown them to. A bulk build that knows about how
    /// many keys are coming calls it, so that it does not copy and rehash at every doubling.
    mutating func reserveCapacity(strings: Int, bytes: Int) {
        guard strings > 0 else { return }
        self.bytes.reserveCapacity(self.bytes.count + bytes)
        self.bytes.adviseHugePages()
        ends.reserveCapacity(ends.count + strings)
        ends.adviseHugePages()
        var capacity = max(16, buckets.count)
        while (ends.count + strings) * 4 > capacity * 3 { capacity *= 2 }
        if capacity > buckets.count { grow(to: capacity) }
    }

    /// Rehashes the buckets into `capacity` of them, a power of two.
    private mutating func grow(to capacity: Int) {
        var grown = [UInt64](hugePagesRepeating: 0, count: capacity)
        let mask = capacity - 1
        for bucket in buckets where bucket != 0 {
            var index = Int(UInt32(truncatingIfNeeded: bucket >> 32)) & mask
            while grown[index] != 0 { index = (index + 1) & mask }
            grown[index] = bucket
        }
        buckets = grown
    }

    /// The 32 bits of ``hash(_:)`` that the table keeps and probes by.
    private static func hash32(_ key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: hash(key))
    }

    /// The hash the table keeps (``ByteHash/hash(_:seed:)`` from seed 0).
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        ByteHash.hash(key)
    }
}

// MARK: Snapshots

extension ByteStringTable {
    /// Writes the table as it is (strings, ends, buckets), so that restoring it copies arrays.
    func encode(into writer: inout SnapshotWriter) {
        writer.array(bytes)
        writer.array(ends)
        writer.array(buckets)
    }

    /// Restores a table written by ``encode(into:)``, checking that it is well formed.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        bytes = try reader.growableArray()
        ends = try reader.growableArray()
        buckets = try reader.array()
        var previous: UInt32 = 0
        for end in ends {
            try reader.check(end >= previous, "a string table's ends go backwards")
            previous = end
        }
        try reader.check(Int(previous) == bytes.count, "a string table's ends do not reach its bytes")
        try reader.check(buckets.count == 0 || buckets.count & (buckets.count - 1) == 0, "buckets not a power of two")
        try reader.check(ends.count * 4 <= buckets.count * 3 || ends.isEmpty, "a string table is too full")
        for bucket in buckets where bucket != 0 {
            try reader.check(UInt32(truncatingIfNeeded: bucket) <= UInt32(ends.count), "a bucket names no string")
        }
    }
}
