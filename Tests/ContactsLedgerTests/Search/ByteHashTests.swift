import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The tables' byte hash reads a key's last bytes in a few loads; it must give exactly what
/// reading them one at a time gives, since its values are kept in snapshots.
@Suite("Byte hash")
struct ByteHashTests {
    /// The hash as first written: the tail gathered byte by byte. Its own copy of the mix, so that
    /// a change to the one under test, which would change the values snapshots keep, fails here.
    static func byteByByte(_ key: [UInt8], seed: UInt64) -> UInt64 {
        func mix(_ value: UInt64) -> UInt64 {
            var x = value
            x ^= x >> 33
            x &*= 0xFF51_AFD7_ED55_8CCD
            x ^= x >> 33
            x &*= 0xC4CE_B9FE_1A85_EC53
            x ^= x >> 33
            return x
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count) ^ seed
        var offset = 0
        while offset + 8 <= key.count {
            var word: UInt64 = 0
            for index in 0..<8 { word |= UInt64(key[offset + index]) << (8 * UInt64(index)) }
            state = mix(state ^ word)
            offset += 8
        }
        if offset < key.count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while offset < key.count {
                word |= UInt64(key[offset]) << shift
                shift += 8
                offset += 1
            }
            state = mix(state ^ word)
        }
        return mix(state)
    }

    @Test("Every key length from 0 to 40 bytes hashes as reading its bytes one at a time does")
    func tailMatchesByteByByte() {
        var random = SeededRandom(seed: 0xB17E)
        for length in 0...40 {
            for _ in 0..<50 {
                let key = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                for seed: UInt64 in [0, 1 << 63] {
                    let hashed = key.withUnsafeBufferPointer { ByteHash.hash($0, seed: seed) }
                    #expect(hashed == Self.byteByByte(key, seed: seed), "length \(length), seed \(seed)")
                }
                #expect(key.withUnsafeBufferPointer(ByteStringTable.hash) == Self.byteByByte(key, seed: 0))
            }
        }
    }
}
