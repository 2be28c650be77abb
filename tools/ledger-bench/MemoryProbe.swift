import Foundation

/// The machine's memory latency, measured in the same run as the figures it bears on: the mean
/// time of one read of a cache line chosen at random from a buffer several times the size of
/// the last-level cache, each read's address coming from the read before it (so that no two
/// overlap). The figure includes the page walks of the TLB misses, as the ledger's own lookups
/// in large tables do.
///
/// Replay, and the commit path at many writers, spend much of their time waiting for memory
/// (fresh pages, and lookups in tables of hundreds of megabytes). On a virtual machine the same
/// build can move between levels from one minute to the next while a loop of arithmetic does not
/// (Documentation/Performance.md, "Where the bars stand"): this figure, taken right before the
/// commits and right before each ledger's replays, is there to tell the levels apart.
enum MemoryProbe {
    /// The bytes between two links: one cache line, so that every read touches a line of its own.
    static let strideBytes = 64

    /// Nanoseconds per dependent read over a buffer of `bytes`, following `reads` links of one
    /// random cycle through all of its cache lines (Sattolo's shuffle, so the chain visits every
    /// line before it repeats).
    static func randomReadNanoseconds(bytes: Int, reads: Int, seed: UInt64) -> Double {
        let wordsPerLine = strideBytes / MemoryLayout<Int>.stride
        let lines = max(2, bytes / strideBytes)
        var order = Array(0..<lines)
        var random = SplitMix64(seed: seed)
        // Sattolo: swapping each position with one strictly before it leaves a single cycle.
        for index in stride(from: lines - 1, to: 0, by: -1) {
            order.swapAt(index, Int(random.next() % UInt64(index)))
        }
        // Line `i` links to line `order[i]`, through the first word of each line.
        var links = [Int](repeating: 0, count: lines * wordsPerLine)
        for line in 0..<lines { links[line * wordsPerLine] = order[line] * wordsPerLine }
        order = []
        // Each read's bound check is a comparison with the count, which stays in a register: it
        // costs nothing next to the cache miss of the read it guards.
        var position = 0
        let start = nanoseconds()
        for _ in 0..<reads { position = links[position] }
        let elapsed = nanoseconds() - start
        // The position is used, so that the chain is not optimized away.
        return position < 0 ? .nan : Double(elapsed) / Double(max(1, reads))
    }

    /// The figure for a run: 256 MiB and 2,000,000 reads, or 32 MiB and 200,000 with `quick`.
    static func figure(quick: Bool, seed: UInt64) -> Double {
        quick
            ? randomReadNanoseconds(bytes: 32 << 20, reads: 200_000, seed: seed)
            : randomReadNanoseconds(bytes: 256 << 20, reads: 2_000_000, seed: seed)
    }
}
