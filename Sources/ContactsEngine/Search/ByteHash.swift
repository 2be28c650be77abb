import ContactsModel
import LedgerStorage

/// The hash of bytes that the projection's tables probe by: the byte-string tables of the search
/// indexes (``ByteStringTable``) and the contact table's identifiers (``ContactTable``). Eight
/// bytes at a time through MurmurHash3's finalizer, then the last one to seven bytes as one
/// word. Not a cryptographic hash: the tables compare bytes, so a collision costs time, never a
/// wrong answer. The values are kept in snapshots, so changing them changes the snapshot format.
enum ByteHash {
    /// A 64-bit hash of `key`, from `seed` (0 for the search indexes' tables).
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> UInt64 {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count) ^ seed
        let raw = UnsafeRawBufferPointer(key)
        var offset = 0
        while offset + 8 <= raw.count {
            state = mix(state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        let rest = raw.count - offset
        if rest > 0 { state = mix(state ^ tail(raw, rest)) }
        return mix(state)
    }

    /// The last `rest` bytes of `raw` (1 to 7) as a little-endian word, byte `i` of them in bits
    /// `8i` to `8i + 7`, read in at most three loads rather than a byte at a time: the eight bytes
    /// that end the key, shifted, when it has eight; else two four-byte loads that overlap, or
    /// the first, middle and last byte.
    @inline(__always)
    private static func tail(_ raw: UnsafeRawBufferPointer, _ rest: Int) -> UInt64 {
        let count = raw.count
        if count >= 8 {
            return raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> (8 * UInt64(8 - rest))
        }
        // The key is its own tail.
        if rest >= 4 {
            let low = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) >> (8 * UInt64(8 - rest))
            return low | high << 32
        }
        return UInt64(raw[0]) | UInt64(raw[rest / 2]) << (8 * UInt64(rest / 2))
            | UInt64(raw[rest - 1]) << (8 * UInt64(rest - 1))
    }

    /// The finalizer of MurmurHash3 (fmix64): every input bit affects every output bit.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}
