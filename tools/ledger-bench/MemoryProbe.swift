import Foundation

/// The machine's memory latency, measured in the same run as the figures it bears on: the mean
/// time of one read at an unpredictable place in a buffer far larger than the caches, each read's
/// address coming from the read before it (so that no two overlap).
///
/// Replay, and the commit path at many writers, spend much of their time waiting for memory
/// (page faults, and lookups in tables of hundreds of megabytes). On the development VM the
/// same build moved between two levels from one minute to the next, and this figure moved with
/// them while a loop of arithmetic did not (Documentation/Performance.md, "Where the bars
/// stand"): it tells which level a run met.
enum MemoryProbe {
    /// Nanoseconds per dependent read over a buffer of `bytes`, following `reads` links of one
    /// random cycle through all of its 8-byte words (Sattolo's shuffle, so the chain visits every
    /// word before it repeats).
    static func randomReadNanoseconds(bytes: Int, reads: Int, seed: UInt64) -> Double {
        let count = max(2, bytes / MemoryLayout<UInt64>.stride)
        var next = [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { buffer[index] = UInt64(index) }
            initialized = count
        }
        var random = SplitMix64(seed: seed)
        // Sattolo: swapping each position with one strictly before it leaves a single cycle.
        for index in stride(from: count - 1, to: 0, by: -1) {
            let other = Int(random.next() % UInt64(index))
            next.swapAt(index, other)
        }
        return next.withUnsafeBufferPointer { links in
            var position = 0
            let start = nanoseconds()
            for _ in 0..<reads { position = Int(truncatingIfNeeded: links[position]) }
            let elapsed = nanoseconds() - start
            // The position is used, so that the chain is not optimized away.
            return position < 0 ? .nan : Double(elapsed) / Double(max(1, reads))
        }
    }
}
