import CLedgerChecksums

/// A 32-byte SHA-256 digest, stored inline as four words so that it is cheap to copy, hash and compare.
public struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    // Bytes 0..<8, 8..<16, 16..<24 and 24..<32 of the digest, each read as a big-endian integer.
    private var word0: UInt64
    private var word1: UInt64
    private var word2: UInt64
    private var word3: UInt64

    /// The digest whose 32 bytes are all zero, a placeholder that no real input is expected to hash to.
    public static let zero = SHA256Digest(word0: 0, word1: 0, word2: 0, word3: 0)

    private init(word0: UInt64, word1: UInt64, word2: UInt64, word3: UInt64) {
        self.word0 = word0
        self.word1 = word1
        self.word2 = word2
        self.word3 = word3
    }

    /// Creates a digest from exactly 32 bytes; any other count is a programming error.
    public init(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count == 32, "a SHA-256 digest is 32 bytes, not \(bytes.count)")
        word0 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        word1 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        word2 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        word3 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Creates a digest from exactly 32 bytes; any other count is a programming error.
    public init(bytes: ArraySlice<UInt8>) {
        self = bytes.withUnsafeBytes { SHA256Digest(bytes: $0) }
    }

    /// Parses 64 hexadecimal digits (either case), returning nil for any other length or character.
    public init?(hex: String) {
        let utf8 = hex.utf8
        guard utf8.count == 64 else {
            return nil
        }
        var parsed = SHA256Digest.zero
        var index = 0
        for unit in utf8 {
            guard let nibble = HexText.nibble(unit) else {
                return nil
            }
            let value = UInt64(nibble)
            switch index >> 4 {
            case 0: parsed.word0 = parsed.word0 << 4 | value
            case 1: parsed.word1 = parsed.word1 << 4 | value
            case 2: parsed.word2 = parsed.word2 << 4 | value
            default: parsed.word3 = parsed.word3 << 4 | value
            }
            index += 1
        }
        self = parsed
    }

    /// The digest as 64 lowercase hexadecimal digits.
    public var hex: String {
        withUnsafeBytes { raw in
            String(unsafeUninitializedCapacity: 64) { buffer in
                for (index, byte) in raw.enumerated() {
                    buffer[2 * index] = HexText.digit(byte >> 4)
                    buffer[2 * index + 1] = HexText.digit(byte & 0x0F)
                }
                return 64
            }
        }
    }

    /// The digest as 64 lowercase hexadecimal digits, the same as `hex`.
    public var description: String {
        hex
    }

    /// The digest's 32 bytes, in order, as a new array.
    public var bytes: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// Appends the digest's 32 bytes, in order, to `array`.
    public func append(to array: inout [UInt8]) {
        withUnsafeBytes { array.append(contentsOf: $0) }
    }

    /// Calls `body` with the digest's 32 bytes, in order; the buffer is valid only during the call.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let words = (word0.bigEndian, word1.bigEndian, word2.bigEndian, word3.bigEndian)
        return try Swift.withUnsafeBytes(of: words) { try body($0) }
    }
}

/// A streaming SHA-256 (FIPS 180-4) hasher, using the processor's SHA extensions when present.
///
/// It is a plain value: copying a partly fed hasher forks the computation, which makes digests of a common
/// prefix cheap.
public struct SHA256: Sendable {
    private var context: cl_sha256_ctx

    /// Creates a hasher that has absorbed no bytes yet.
    public init() {
        context = cl_sha256_ctx()
        cl_sha256_init(&context)
    }

    /// Absorbs the bytes in `bytes`.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        cl_sha256_update(&context, bytes.baseAddress, bytes.count)
    }

    /// Absorbs the bytes in `bytes`.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Absorbs the 32 bytes of `digest`, as when hashing a chain of digests.
    public mutating func update(_ digest: SHA256Digest) {
        digest.withUnsafeBytes { update($0) }
    }

    /// Returns the digest of every byte absorbed, consuming the hasher.
    public consuming func finalize() -> SHA256Digest {
        Self.digest { cl_sha256_final(&context, $0) }
    }

    /// Returns the SHA-256 digest of the bytes in `bytes`.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> SHA256Digest {
        digest { cl_sha256(bytes.baseAddress, bytes.count, $0) }
    }

    /// Returns the SHA-256 digest of the bytes in `bytes`.
    public static func hash(_ bytes: [UInt8]) -> SHA256Digest {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// Whether hashing uses the processor's SHA extensions rather than the portable compression function.
    public static var isHardwareAccelerated: Bool {
        cl_sha256_is_hardware() != 0
    }

    /// Returns what `hash` returns, always computed by the portable implementation (for tests and benchmarks).
    static func hashPortable(_ bytes: UnsafeRawBufferPointer) -> SHA256Digest {
        digest { cl_sha256_portable(bytes.baseAddress, bytes.count, $0) }
    }

    private static func digest(_ write: (UnsafeMutablePointer<UInt8>) -> Void) -> SHA256Digest {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { output in
            write(output.baseAddress!)
            return SHA256Digest(bytes: UnsafeRawBufferPointer(output))
        }
    }
}
