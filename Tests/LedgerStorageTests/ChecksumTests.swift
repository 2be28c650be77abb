import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

// MARK: - Shared helpers

/// SplitMix64: a small, seeded, reproducible generator for the randomized checks in this file.
private struct ChecksumTestRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// The run's base seed: LEDGER_CHECKSUM_SEED if set, else random; printed once so a failure can be replayed.
    static let baseSeed: UInt64 = {
        let seed =
            ProcessInfo.processInfo.environment["LEDGER_CHECKSUM_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: .min ... .max)
        print("ChecksumTests: seed \(seed) (set LEDGER_CHECKSUM_SEED=\(seed) to reproduce)")
        return seed
    }()

    /// A generator for one test (case), derived from the base seed and a stable name so cases stay independent.
    static func make(_ testName: String) -> (generator: ChecksumTestRandom, seed: UInt64) {
        var nameHash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for unit in testName.utf8 {
            nameHash = (nameHash ^ UInt64(unit)) &* 0x0000_0100_0000_01b3
        }
        return (ChecksumTestRandom(seed: baseSeed ^ nameHash), baseSeed)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}

// MARK: - CRC32C

/// A known-answer vector for CRC32C.
struct CRC32CVector: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: UInt32

    var testDescription: String { name }
}

/// RFC 3720 appendix B.4 (as in LevelDB's crc32c_test) and the usual check value.
let crc32cVectors: [CRC32CVector] = [
    CRC32CVector(name: "32 zero bytes", bytes: [UInt8](repeating: 0, count: 32), expected: 0x8A91_36AA),
    CRC32CVector(name: "32 0xFF bytes", bytes: [UInt8](repeating: 0xFF, count: 32), expected: 0x62A8_AB43),
    CRC32CVector(name: "0...31 ascending", bytes: (0..<32).map { UInt8($0) }, expected: 0x46DD_794E),
    CRC32CVector(name: "31...0 descending", bytes: (0..<32).map { UInt8(31 - $0) }, expected: 0x113F_DB5C),
    CRC32CVector(
        name: "iSCSI read command",
        bytes: [
            0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
            0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ],
        expected: 0xD996_3A56
    ),
    CRC32CVector(name: "\"123456789\"", bytes: Array("123456789".utf8), expected: 0xE306_9283),
    CRC32CVector(name: "empty", bytes: [], expected: 0),
]

@Suite("CRC32C")
struct CRC32CTests {
    @Test("known answers, every entry point and both paths", arguments: crc32cVectors)
    func knownAnswers(vector: CRC32CVector) {
        #expect(CRC32C.checksum(vector.bytes) == vector.expected)
        #expect(CRC32C.checksum(vector.bytes[...]) == vector.expected)
        #expect(vector.bytes.withUnsafeBytes { CRC32C.checksum($0) } == vector.expected)
        #expect(CRC32C.extend(0, vector.bytes) == vector.expected)
        #expect(vector.bytes.withUnsafeBytes { CRC32C.extendPortable(0, $0) } == vector.expected)
    }

    @Test("an array slice is checksummed from its own start index")
    func arraySliceOffset() {
        let bytes = Array("xx123456789yy".utf8)
        #expect(CRC32C.checksum(bytes[2..<11]) == 0xE306_9283)
    }

    @Test("distinct inputs give distinct values (LevelDB Values)")
    func values() {
        #expect(CRC32C.checksum(Array("a".utf8)) != CRC32C.checksum(Array("foo".utf8)))
    }

    @Test("extend continues a finished CRC (LevelDB Extend)")
    func extendHelloWorld() {
        let hello = CRC32C.checksum(Array("hello ".utf8))
        #expect(CRC32C.extend(hello, Array("world".utf8)) == CRC32C.checksum(Array("hello world".utf8)))
        #expect(CRC32C.extend(hello, []) == hello)
    }

    @Test("mask and unmask (LevelDB Mask)")
    func maskRoundTrip() {
        let crc = CRC32C.checksum(Array("foo".utf8))
        #expect(crc != CRC32C.mask(crc))
        #expect(crc != CRC32C.mask(CRC32C.mask(crc)))
        #expect(crc == CRC32C.unmask(CRC32C.mask(crc)))
        #expect(crc == CRC32C.unmask(CRC32C.unmask(CRC32C.mask(CRC32C.mask(crc)))))
        for value: UInt32 in [0, 1, 0x8000_0000, 0xFFFF_FFFF, 0xa282_ead8, 0x1234_5678] {
            #expect(CRC32C.unmask(CRC32C.mask(value)) == value)
            #expect(CRC32C.mask(CRC32C.unmask(value)) == value)
        }
        #expect(CRC32C.mask(0) == 0xa282_ead8)
    }

    @Test("extending in pieces equals checksumming the whole, at every split point")
    func extendInPieces() {
        var (random, seed) = ChecksumTestRandom.make("CRC32C.extendInPieces")
        let bytes = random.bytes(1100)
        let whole = CRC32C.checksum(bytes)
        for split in 0...bytes.count {
            let first = CRC32C.checksum(bytes[..<split])
            let joined = bytes[split...].withUnsafeBytes { CRC32C.extend(first, $0) }
            #expect(joined == whole, "split at \(split), seed \(seed)")
        }
    }

    @Test("extending in random uneven pieces over long input equals the whole")
    func extendInRandomPieces() {
        var (random, seed) = ChecksumTestRandom.make("CRC32C.extendInRandomPieces")
        // Long enough for both the 3 x 8 KiB and 3 x 256 B interleaved blocks of the hardware path.
        let bytes = random.bytes(200_000)
        let whole = CRC32C.checksum(bytes)
        #expect(bytes.withUnsafeBytes { CRC32C.extendPortable(0, $0) } == whole, "seed \(seed)")
        for _ in 0..<20 {
            var crc: UInt32 = 0
            var position = 0
            while position < bytes.count {
                let length = min(bytes.count - position, Int.random(in: 0...30_000, using: &random))
                crc = bytes[position..<(position + length)].withUnsafeBytes { CRC32C.extend(crc, $0) }
                position += length
            }
            #expect(crc == whole, "seed \(seed)")
        }
    }

    @Test(
        "hardware and portable paths agree for every length 0...1100",
        arguments: [0, 1, 2, 3, 5, 7, 8, 13]
    )
    func hardwareMatchesPortable(offset: Int) {
        var (random, seed) = ChecksumTestRandom.make("CRC32C.hardwareMatchesPortable(offset: \(offset))")
        let bytes = random.bytes(1100 + 16)
        bytes.withUnsafeBytes { raw in
            for length in 0...1100 {
                let slice = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
                let initial = length % 3 == 0 ? 0 : UInt32.random(in: .min ... .max, using: &random)
                let dispatched = CRC32C.extend(initial, slice)
                let portable = CRC32C.extendPortable(initial, slice)
                #expect(dispatched == portable, "length \(length), offset \(offset), seed \(seed)")
            }
        }
    }

    @Test(
        "hardware and portable paths agree around the interleaving block sizes",
        arguments: [767, 768, 769, 3 * 8192 - 8, 3 * 8192 - 1, 3 * 8192, 3 * 8192 + 1, 3 * 8192 + 775, 100_003]
    )
    func hardwareMatchesPortableLong(length: Int) {
        var (random, seed) = ChecksumTestRandom.make("CRC32C.hardwareMatchesPortableLong(length: \(length))")
        let bytes = random.bytes(length + 8)
        bytes.withUnsafeBytes { raw in
            for offset in 0..<8 {
                let slice = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
                #expect(
                    CRC32C.extend(0, slice) == CRC32C.extendPortable(0, slice),
                    "length \(length), offset \(offset), seed \(seed)"
                )
            }
        }
    }

    @Test("reports which path it uses")
    func reportsPath() {
        print("CRC32C hardware-accelerated: \(CRC32C.isHardwareAccelerated)")
        #expect(CRC32C.isHardwareAccelerated == CRC32C.isHardwareAccelerated)
    }
}

// MARK: - SHA-256

/// A known-answer vector for SHA-256.
struct SHA256Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let message: [UInt8]
    let expected: String

    var testDescription: String { name }
}

/// FIPS 180-4 / NIST example messages.
let sha256Vectors: [SHA256Vector] = [
    SHA256Vector(
        name: "empty",
        message: [],
        expected: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    ),
    SHA256Vector(
        name: "abc",
        message: Array("abc".utf8),
        expected: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    ),
    SHA256Vector(
        name: "448-bit message",
        message: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
        expected: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    SHA256Vector(
        name: "896-bit message",
        message: Array(
            ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8
        ),
        expected: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
    SHA256Vector(
        name: "one million 'a'",
        message: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
        expected: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    ),
]

@Suite("SHA-256")
struct SHA256Tests {
    @Test("known answers, one-shot, streaming and portable", arguments: sha256Vectors)
    func knownAnswers(vector: SHA256Vector) {
        #expect(SHA256.hash(vector.message).hex == vector.expected)
        #expect(vector.message.withUnsafeBytes { SHA256.hash($0) }.hex == vector.expected)
        #expect(vector.message.withUnsafeBytes { SHA256.hashPortable($0) }.hex == vector.expected)
        var hasher = SHA256()
        hasher.update(vector.message)
        #expect(hasher.finalize().hex == vector.expected)
        #expect(SHA256.hash(vector.message) == SHA256Digest(hex: vector.expected))
    }

    @Test("one million 'a' fed one byte at a time up to a block, then in 1000-byte updates")
    func millionAInUpdates() {
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        var hasher = SHA256()
        for _ in 0..<64 {
            hasher.update([UInt8(ascii: "a")])
        }
        hasher.update(Array(chunk[..<936]))
        for _ in 1..<1000 {
            hasher.update(chunk)
        }
        #expect(hasher.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("streaming in uneven chunks equals one-shot")
    func streamingMatchesOneShot() {
        var (random, seed) = ChecksumTestRandom.make("SHA256.streamingMatchesOneShot")
        let bytes = random.bytes(5000)
        for length in [0, 1, 55, 56, 63, 64, 65, 127, 128, 129, 1000, 4097, 5000] {
            let expected = bytes[..<length].withUnsafeBytes { SHA256.hash($0) }
            for _ in 0..<10 {
                var hasher = SHA256()
                var position = 0
                while position < length {
                    let step = min(length - position, Int.random(in: 0...150, using: &random))
                    bytes[position..<(position + step)].withUnsafeBytes { hasher.update($0) }
                    position += step
                }
                #expect(hasher.finalize() == expected, "length \(length), seed \(seed)")
            }
        }
    }

    @Test("a copied hasher forks the computation")
    func copyForks() {
        var prefix = SHA256()
        prefix.update(Array("ab".utf8))
        var fork = prefix
        fork.update(Array("c".utf8))
        prefix.update(Array("d".utf8))
        #expect(fork.finalize() == SHA256.hash(Array("abc".utf8)))
        #expect(prefix.finalize() == SHA256.hash(Array("abd".utf8)))
    }

    @Test("updating with a digest absorbs its 32 bytes")
    func updateWithDigest() {
        let first = SHA256.hash(Array("abc".utf8))
        var chained = SHA256()
        chained.update(first)
        chained.update(Array("tail".utf8))
        #expect(chained.finalize() == SHA256.hash(first.bytes + Array("tail".utf8)))
    }

    @Test(
        "hardware and portable paths agree at padding boundaries",
        arguments: [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 191, 192, 193]
    )
    func hardwareMatchesPortableAtBoundaries(length: Int) {
        var (random, seed) = ChecksumTestRandom.make("SHA256.hardwareMatchesPortableAtBoundaries(\(length))")
        let bytes = random.bytes(length + 16)
        bytes.withUnsafeBytes { raw in
            for offset in 0..<16 {
                let slice = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
                #expect(
                    SHA256.hash(slice) == SHA256.hashPortable(slice),
                    "length \(length), offset \(offset), seed \(seed)"
                )
            }
        }
    }

    @Test("hardware and portable paths agree for every length 0...1100", arguments: [0, 1, 3, 7])
    func hardwareMatchesPortable(offset: Int) {
        var (random, seed) = ChecksumTestRandom.make("SHA256.hardwareMatchesPortable(offset: \(offset))")
        let bytes = random.bytes(1100 + 8)
        bytes.withUnsafeBytes { raw in
            for length in 0...1100 {
                let slice = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
                #expect(
                    SHA256.hash(slice) == SHA256.hashPortable(slice),
                    "length \(length), offset \(offset), seed \(seed)"
                )
            }
        }
    }

    @Test("reports which path it uses")
    func reportsPath() {
        print("SHA-256 hardware-accelerated: \(SHA256.isHardwareAccelerated)")
        #expect(SHA256.isHardwareAccelerated == SHA256.isHardwareAccelerated)
    }
}

// MARK: - SHA256Digest

@Suite("SHA256Digest")
struct SHA256DigestTests {
    static let abcHex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    @Test("hex round-trips and is lowercase")
    func hexRoundTrip() throws {
        let digest = try #require(SHA256Digest(hex: Self.abcHex))
        #expect(digest.hex == Self.abcHex)
        #expect(digest.description == Self.abcHex)
        #expect(SHA256Digest(hex: Self.abcHex.uppercased()) == digest)
        #expect(SHA256Digest(hex: Self.abcHex.uppercased())?.hex == Self.abcHex)
    }

    @Test(
        "malformed hex is rejected",
        arguments: [
            "",
            "ba7816bf",
            String(repeating: "0", count: 63),
            String(repeating: "0", count: 65),
            String(repeating: "0", count: 63) + "g",
            " " + String(repeating: "0", count: 63),
            String(repeating: "é", count: 32),
        ]
    )
    func malformedHex(text: String) {
        #expect(SHA256Digest(hex: text) == nil)
    }

    @Test("bytes, init(bytes:) and withUnsafeBytes agree")
    func bytesRoundTrip() throws {
        let digest = try #require(SHA256Digest(hex: Self.abcHex))
        let bytes = digest.bytes
        #expect(bytes.count == 32)
        #expect(bytes.prefix(4) == [0xba, 0x78, 0x16, 0xbf])
        #expect(bytes.suffix(2) == [0x15, 0xad])
        #expect(bytes.withUnsafeBytes { SHA256Digest(bytes: $0) } == digest)
        #expect(digest.withUnsafeBytes { Array($0) } == bytes)
    }

    @Test("zero is 32 zero bytes and differs from real digests")
    func zero() {
        #expect(SHA256Digest.zero.bytes == [UInt8](repeating: 0, count: 32))
        #expect(SHA256Digest.zero.hex == String(repeating: "0", count: 64))
        #expect(SHA256.hash([]) != .zero)
    }

    @Test("equal digests hash equally; a one-bit change makes them differ")
    func hashable() throws {
        let digest = try #require(SHA256Digest(hex: Self.abcHex))
        var flipped = digest.bytes
        flipped[31] ^= 1
        let other = flipped.withUnsafeBytes { SHA256Digest(bytes: $0) }
        let set: Set<SHA256Digest> = [digest, SHA256.hash(Array("abc".utf8)), other]
        #expect(set.count == 2)
        #expect(other.hex != Self.abcHex)
    }
}

@Suite("Random UUIDs")
struct RandomUUIDTests {
    @Test("Random UUIDs are version 4 with the RFC 4122 variant, distinct, and in canonical text")
    func versionVariantAndDistinctness() {
        var seen = Set<UUID>()
        var bitsSeen: UInt64 = 0
        for _ in 0..<20_000 {
            let uuid = RandomUUID.make()
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4)
            #expect(bytes[8] >> 6 == 0b10)
            bitsSeen |= withUnsafeBytes(of: uuid.uuid) { $0.load(as: UInt64.self) }
            seen.insert(uuid)
        }
        #expect(seen.count == 20_000)
        // Every bit of the first eight bytes that is not fixed came up set at least once.
        #expect(bitsSeen | 0x00F0_0000_0000_0000 == UInt64.max)
        let text = RandomUUID.makeString()
        #expect(UUID(uuidString: text)?.uuidString == text)
        #expect(text == text.uppercased() && text.count == 36)
    }

    @Test("A UUID's text is Foundation's, for every byte value in every place")
    func textMatchesFoundation() {
        var random = SplitMix64(seed: testSeed("UUID text"))
        for round in 0..<4_096 {
            var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
            // Every value of every byte comes up at least once: byte i takes (round + i) mod 256 in
            // the first 256 rounds.
            if round < 256 { bytes = (0..<16).map { UInt8(truncatingIfNeeded: round + $0) } }
            let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            let text = bytes.withUnsafeBufferPointer { UUIDText.canonical($0) }
            #expect(text == uuid.uuidString, "bytes \(bytes)")
            // Written into a larger buffer, it takes its 36 bytes and leaves the rest alone.
            var buffer = [UInt8](repeating: 0xEE, count: 40)
            bytes.withUnsafeBufferPointer { source in
                buffer.withUnsafeMutableBufferPointer { UUIDText.write(source, into: $0) }
            }
            #expect(buffer[..<36].elementsEqual(uuid.uuidString.utf8) && buffer[36...].allSatisfy { $0 == 0xEE })
        }
    }

    @Test("A forked child's UUIDs are not the ones its parent draws next")
    func forkedChildDrawsOtherBytes() throws {
        // The parent's pool holds a part-used block when it forks; without the fork handler the
        // child would hand out the very bytes the parent hands out next. The forks happen in a
        // process of their own (ledger-storage-child fork-uuids): a child forked from this one
        // would share, while it lives, the open files, and so the ledger locks, of the tests
        // running beside it, which then could not reopen their ledgers.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try builtProduct("ledger-storage-child"))
        process.arguments = ["fork-uuids", "20"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.split(separator: "\n").map(String.init) == (0..<20).map { "ROUND \($0) DISJOINT" })
    }

    @Test("The pool hands out each byte once, refills a block at a time, and a forked child's pool starts empty")
    func poolBlocksAndFork() {
        let pool = RandomPool()
        #expect(pool.remainingBytes == 0)
        var handedOut: [[UInt8]] = []
        for _ in 0..<(RandomPool.blockBytes / 16 + 3) {
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes.withUnsafeMutableBytes { pool.fill($0) }
            handedOut.append(bytes)
        }
        // One block, then three draws from the next.
        #expect(pool.remainingBytes == RandomPool.blockBytes - 3 * 16)
        #expect(Set(handedOut).count == handedOut.count)
        // Sixteen bytes of zeros would be a sign of bytes never filled.
        #expect(!handedOut.contains([UInt8](repeating: 0, count: 16)))

        pool.lock()
        pool.emptyAfterFork()
        pool.unlock()
        #expect(pool.remainingBytes == 0)
        var after = [UInt8](repeating: 0, count: 16)
        after.withUnsafeMutableBytes { pool.fill($0) }
        #expect(!handedOut.contains(after))
        #expect(pool.remainingBytes == RandomPool.blockBytes - 16)
    }
}
