import CLedgerChecksums

/// CRC32C (Castagnoli, reflected polynomial 0x82F63B78) with LevelDB's conventions, hardware-accelerated when possible.
///
/// The processor's CRC32C instruction (SSE 4.2 on x86_64) is used when present and a portable slicing-by-8
/// implementation otherwise; both give identical results. `extend` follows LevelDB's `crc32c::Extend`: the
/// value passed in is a finished CRC, so `extend(checksum(a), b) == checksum(a + b)`.
public enum CRC32C {
    /// The value `mask` adds after rotating, LevelDB's `kMaskDelta`.
    private static let maskDelta: UInt32 = 0xa282_ead8

    /// Returns the CRC32C of the bytes in `bytes`.
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        extend(0, bytes)
    }

    /// Returns the CRC32C of the bytes in `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { extend(0, $0) }
    }

    /// Returns the CRC32C of the bytes in `bytes`.
    public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { extend(0, $0) }
    }

    /// Returns the CRC32C of the data that `crc` (a finished CRC32C, 0 for no data) covers followed by `bytes`.
    public static func extend(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        cl_crc32c_extend(crc, bytes.baseAddress, bytes.count)
    }

    /// Returns the CRC32C of the data that `crc` (a finished CRC32C, 0 for no data) covers followed by `bytes`.
    public static func extend(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { extend(crc, $0) }
    }

    /// Returns a masked form of `crc` that is safe to store inside data that is itself checksummed.
    ///
    /// Computing the CRC of a string that contains embedded CRCs is problematic: the CRC of data followed by its
    /// own CRC is a constant, and such records are easily mistaken for valid ones. Following LevelDB, a stored
    /// CRC is therefore rotated right by 15 bits and offset by a constant, and `unmask` reverses that.
    public static func mask(_ crc: UInt32) -> UInt32 {
        ((crc >> 15) | (crc << 17)) &+ maskDelta
    }

    /// Returns the CRC that `mask` turned into `masked`.
    public static func unmask(_ masked: UInt32) -> UInt32 {
        let rotated = masked &- maskDelta
        return (rotated >> 17) | (rotated << 15)
    }

    /// Whether `checksum` and `extend` use the processor's CRC32C instruction rather than the portable tables.
    public static var isHardwareAccelerated: Bool {
        cl_crc32c_is_hardware() != 0
    }

    /// Returns what `extend` returns, always computed by the portable implementation (for tests and benchmarks).
    static func extendPortable(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        cl_crc32c_extend_portable(crc, bytes.baseAddress, bytes.count)
    }
}
