#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file's bytes for reading: mapped into memory where the file layer can map it, or read
/// into memory where it cannot. The bytes stay valid as long as the object lives.
///
/// Mapping a large file that is in the page cache costs page table entries, not a copy: a
/// snapshot of hundreds of megabytes is read where it lies, once, by its decoder.
public final class MappedFile: @unchecked Sendable {
    // Thread-safety: immutable after init; the bytes are only read.
    private let base: UnsafeRawPointer?
    private let count: Int
    private let mapped: Bool
    private let copy: [UInt8]

    /// Maps `count` bytes at `base`, which `munmap` releases when this object goes.
    init(mapping base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
        self.mapped = true
        self.copy = []
    }

    /// Holds bytes read into memory.
    public init(bytes: [UInt8]) {
        self.base = nil
        self.count = bytes.count
        self.mapped = false
        self.copy = bytes
    }

    deinit {
        if mapped, let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// The number of bytes.
    public var byteCount: Int { count }

    /// Calls `body` with the bytes.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if mapped {
            return try body(UnsafeRawBufferPointer(start: base, count: count))
        }
        let result: Swift.Result<Result, Failure> = copy.withUnsafeBytes { buffer in
            do throws(Failure) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// A copy of the bytes in `range`.
    public func bytes(in range: Range<Int>) -> [UInt8] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "a range outside the file")
        return withUnsafeBytes { Array($0[range]) }
    }

    /// The CRC32C of the bytes in `range`, read where they lie.
    public func crc32c(in range: Range<Int>) -> UInt32 {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "a range outside the file")
        return withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}
