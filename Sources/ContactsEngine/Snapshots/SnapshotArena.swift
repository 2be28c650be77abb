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
        // One buffer for the stored bytes of every compressed block, at most the largest one.
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(1, min(ledger_lz_bound(blockBytes), sectionBytes - 8)), alignment: 16)
        defer { buffer.deallocate() }
        var failure: SnapshotDecodingError?
        let arena = [UInt8](unsafeUninitializedCapacity: total + spare(total)) { arena, initialized in
            initialized = 0
            do throws(SnapshotDecodingError) {
                var filled = 0
                while filled < total {
                    consumed += try readBlock(
                        from: &source, into: UnsafeMutableBufferPointer(rebasing: arena[filled..<total]),
                        buffer: buffer, filled: &filled)
                }
                initialized = total
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard consumed == sectionBytes else {
            throw SnapshotDecodingError("the arena's blocks fill \(consumed) of its section's \(sectionBytes) bytes")
        }
        return arena
    }

    /// Reads one block into the start of `destination`, adding its length to `filled`; returns
    /// the section bytes it took.
    private static func readBlock(
        from source: inout some SnapshotStateSource, into destination: UnsafeMutableBufferPointer<UInt8>,
        buffer: UnsafeMutableRawBufferPointer, filled: inout Int
    ) throws(SnapshotDecodingError) -> Int {
        let raw = Int(try readFixed(4, from: &source))
        let word = UInt32(try readFixed(4, from: &source))
        let stored = Int(word & ~compressedFlag)
        let isCompressed = word & compressedFlag != 0
        guard raw > 0, raw <= blockBytes, raw <= destination.count,
            isCompressed ? stored > 0 && stored <= buffer.count : stored == raw
        else { throw SnapshotDecodingError("an arena block's lengths (\(raw), \(stored)) are out of bounds") }
        let target = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(destination)[0..<raw])
        var decoded = true
        if isCompressed {
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<stored])
            try source.read(into: piece)
            decoded = ledger_lz_decompress(piece.baseAddress!, stored, destination.baseAddress!, raw) == 0
        } else {
            try source.read(into: target)
        }
        guard decoded else { throw SnapshotDecodingError("an arena block does not decompress to its \(raw) bytes") }
        filled += raw
        return 8 + stored
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
