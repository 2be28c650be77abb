import CLedgerCompression
import Foundation
import LedgerStorage

/// The contact arena's section of a snapshot state: the live contacts' bytes, back to back in
/// slot order, compressed a block at a time (decision 0034).
///
/// The section is the arena's length (fixed 8), then blocks of at most ``blockBytes`` of it,
/// each its length (fixed 4), its stored length (fixed 4, with bit 31 set when the block is
/// compressed) and its stored bytes: compressed (`ledger_lz_compress`, Documentation/LogFormat.md,
/// "Compressed blocks") where that is shorter, else as they are. Names, labels, domains and the
/// framing of labeled values repeat from contact to contact, so a block takes about two thirds
/// of its bytes; a restore reads a block at a time into one buffer and decompresses it straight
/// into the arena, so the open holds no more of the file than a block.
enum SnapshotArena {
    /// The most arena bytes one block holds.
    static let blockBytes = 1 << 20
    /// Set in a block's stored length when its bytes are compressed.
    static let compressedFlag: UInt32 = 1 << 31

    /// Gathers byte runs into blocks and appends each, compressed where that pays, to a state.
    struct Writer {
        private var block: [UInt8] = []
        private var compressed: [UInt8]

        init() {
            block.reserveCapacity(SnapshotArena.blockBytes)
            compressed = [UInt8](repeating: 0, count: ledger_lz_bound(SnapshotArena.blockBytes))
        }

        /// Appends `bytes` to the arena, writing each block as it fills.
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, to writer: inout SnapshotWriter) {
            var rest = bytes
            while !rest.isEmpty {
                let room = SnapshotArena.blockBytes - block.count
                block.append(contentsOf: UnsafeBufferPointer(rebasing: rest.prefix(room)))
                rest = UnsafeBufferPointer(rebasing: rest.dropFirst(room))
                if block.count == SnapshotArena.blockBytes { flush(to: &writer) }
            }
        }

        /// Writes the last, partly filled block.
        mutating func finish(to writer: inout SnapshotWriter) {
            if !block.isEmpty { flush(to: &writer) }
        }

        private mutating func flush(to writer: inout SnapshotWriter) {
            let raw = block.count
            let stored = block.withUnsafeBufferPointer { source in
                compressed.withUnsafeMutableBufferPointer {
                    ledger_lz_compress(source.baseAddress!, raw, $0.baseAddress!)
                }
            }
            writer.fixed32(UInt32(raw))
            if stored > 0 && stored < raw {
                writer.fixed32(UInt32(stored) | SnapshotArena.compressedFlag)
                compressed.withUnsafeBufferPointer { writer.raw(UnsafeBufferPointer(rebasing: $0[0..<stored])) }
            } else {
                writer.fixed32(UInt32(raw))
                writer.raw(block)
            }
            block.removeAll(keepingCapacity: true)
        }
    }

    /// Reads an arena section of `sectionBytes` from `source` into a new array with room for
    /// `spare(length)` more bytes; throws when a length is out of bounds, a block does not
    /// decompress to its length, or the blocks do not fill the section exactly.
    ///
    /// This thread reads the blocks in order (the state's checksum is taken as they are read)
    /// and decompresses every other one; a second thread decompresses the rest, a few blocks
    /// behind, so that the two cores share the decompression and its fresh pages.
    static func read(
        from source: inout some SnapshotStateSource, sectionBytes: Int, spare: (Int) -> Int
    ) throws(SnapshotDecodingError) -> [UInt8] {
        guard sectionBytes >= 8 else { throw SnapshotDecodingError("the arena section is too short") }
        let length = try readFixed(8, from: &source)
        // Checked before the allocation: a block expands at most about 255 times.
        guard length <= UInt64(sectionBytes) * 256, length <= ProcessInfo.processInfo.physicalMemory else {
            throw SnapshotDecodingError("the arena's length of \(length) bytes cannot come from its section")
        }
        let total = Int(length)
        var consumed = 8
        var failure: SnapshotDecodingError?
        let arena = [UInt8](unsafeUninitializedCapacity: total + spare(total)) { arena, initialized in
            initialized = 0
            let target = Target(arena: UnsafeMutableBufferPointer(rebasing: arena[0..<total]))
            let handed = Handoff<Block>(capacity: 2)
            let returned = Handoff<[UInt8]>(capacity: .max)
            let helper = BackgroundWork(named: "snapshot arena") { () -> Bool in
                var sound = true
                while var block = handed.take() {
                    sound = target.decompress(block) && sound
                    // Moved out, so that the reader finds it unshared and reads into it in place.
                    returned.put(block.takeStored())
                }
                return sound
            }
            do throws(SnapshotDecodingError) {
                consumed += try readBlocks(
                    from: &source, into: target, handingEveryOtherTo: handed, buffersBack: returned)
            } catch {
                failure = error
            }
            handed.close()
            if !helper.wait() && failure == nil {
                failure = SnapshotDecodingError("an arena block does not decompress to its length")
            }
            if failure == nil { initialized = total }
        }
        if let failure { throw failure }
        guard consumed == sectionBytes else {
            throw SnapshotDecodingError("the arena's blocks fill \(consumed) of its section's \(sectionBytes) bytes")
        }
        return arena
    }

    /// A compressed block read from the state, and where in the arena its bytes go.
    struct Block: Sendable {
        /// A buffer whose first `storedCount` bytes are the block's stored bytes.
        var stored: [UInt8]
        var storedCount: Int
        var at: Int
        var count: Int

        /// The buffer, leaving the block without it.
        mutating func takeStored() -> [UInt8] {
            var taken: [UInt8] = []
            swap(&taken, &stored)
            return taken
        }
    }

    /// The arena's memory, which the two threads of ``read(from:sectionBytes:spare:)`` fill in
    /// blocks that do not overlap, while the array that owns it is being made.
    struct Target: @unchecked Sendable {
        let arena: UnsafeMutableBufferPointer<UInt8>

        /// Decompresses `block` into its place; whether it gave exactly its length.
        func decompress(_ block: Block) -> Bool {
            block.stored.withUnsafeBufferPointer {
                ledger_lz_decompress($0.baseAddress!, block.storedCount, arena.baseAddress! + block.at, block.count)
                    == 0
            }
        }
    }

    /// Reads the blocks that fill `target`, decompressing the even ones here and handing the odd
    /// ones on; returns the section bytes they took. Buffers the helper is done with come back
    /// through `buffersBack`, so that a few serve every block instead of one fresh each.
    private static func readBlocks(
        from source: inout some SnapshotStateSource, into target: Target, handingEveryOtherTo handed: Handoff<Block>,
        buffersBack: Handoff<[UInt8]>
    ) throws(SnapshotDecodingError) -> Int {
        var consumed = 0
        var filled = 0
        var index = 0
        var own: [UInt8] = []
        while filled < target.arena.count {
            let raw = Int(try readFixed(4, from: &source))
            let word = UInt32(try readFixed(4, from: &source))
            let stored = Int(word & ~compressedFlag)
            let isCompressed = word & compressedFlag != 0
            guard raw > 0, raw <= blockBytes, raw <= target.arena.count - filled,
                isCompressed ? stored > 0 && stored <= ledger_lz_bound(raw) : stored == raw
            else { throw SnapshotDecodingError("an arena block's lengths (\(raw), \(stored)) are out of bounds") }
            if isCompressed {
                let helps = index % 2 == 1
                // Taken out of `own`, so that reading into it does not copy it.
                var buffer = helps ? buffersBack.poll() ?? [] : own
                if !helps { own = [] }
                try read(stored, from: &source, into: &buffer)
                let block = Block(stored: buffer, storedCount: stored, at: filled, count: raw)
                if helps {
                    handed.put(block)
                } else {
                    guard target.decompress(block) else {
                        throw SnapshotDecodingError("an arena block does not decompress to its \(raw) bytes")
                    }
                    var done = block
                    own = done.takeStored()
                }
            } else {
                let place = UnsafeMutableBufferPointer(rebasing: target.arena[filled..<filled + raw])
                try source.read(into: UnsafeMutableRawBufferPointer(place))
            }
            filled += raw
            consumed += 8 + stored
            index += 1
        }
        return consumed
    }

    /// Reads the next `count` bytes of `source` into the start of `buffer`, making it that long
    /// first if it is shorter (a block's stored bytes are at most ``ledger_lz_bound(_:)`` of
    /// ``blockBytes``, so a buffer grows once).
    private static func read(
        _ count: Int, from source: inout some SnapshotStateSource, into buffer: inout [UInt8]
    ) throws(SnapshotDecodingError) {
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: ledger_lz_bound(blockBytes)) }
        var failure: SnapshotDecodingError?
        buffer.withUnsafeMutableBytes { bytes in
            do throws(SnapshotDecodingError) {
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// A little-endian integer of `count` bytes from `source`.
    private static func readFixed(
        _ count: Int, from source: inout some SnapshotStateSource
    ) throws(SnapshotDecodingError) -> UInt64 {
        var value: UInt64 = 0
        try withUnsafeMutableBytes(of: &value) { (bytes) throws(SnapshotDecodingError) in
            try source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]))
        }
        return UInt64(littleEndian: value)
    }
}
