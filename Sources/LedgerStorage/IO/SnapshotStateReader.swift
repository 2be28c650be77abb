/// Reads a snapshot's state front to back, in pieces the caller chooses, from its open file, and
/// checks the state's CRC32C on the way.
///
/// The state is read with `pread` into the caller's own memory (the contact arena, or a buffer
/// for a small section), never mapped and never read whole: an open then holds nothing of the
/// file beside what it restores from it, so its peak memory is its steady memory and a piece,
/// and a file truncated while it is read is a short read, not a `SIGBUS`.
public final class SnapshotStateReader: @unchecked Sendable {
    // Thread-safety: none; one thread reads a state at a time.
    private let fileSystem: any FileSystem
    private let file: OpenFile
    private let path: String
    /// Where the state starts in the file.
    private let start: Int
    /// The state's length in bytes.
    public let length: Int
    private let expectedChecksum: UInt32
    private var crc: UInt32 = 0
    /// The bytes of the state read so far.
    public private(set) var offset = 0

    init(
        fileSystem: any FileSystem, path: String, start: Int, length: Int, checksum: UInt32
    ) throws(StorageError) {
        self.fileSystem = fileSystem
        self.path = path
        self.start = start
        self.length = length
        expectedChecksum = checksum
        file = try fileSystem.open(path, .readOnly)
    }

    deinit { try? fileSystem.close(file) }

    /// The bytes of the state not read yet.
    public var remaining: Int { length - offset }

    /// Whether the whole state has been read and matches the checksum in the file's header.
    public var checksumMatches: Bool { offset == length && CRC32C.mask(crc) == expectedChecksum }

    /// Fills `buffer` with the next bytes of the state; throws if the state or the file ends
    /// first (the file changed after its header was read).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(StorageError) {
        guard buffer.count <= remaining else {
            throw StorageError.corruption(
                location: LedgerLocation(file: path, offset: Int64(start + offset)),
                reason: "a read of \(buffer.count) bytes runs past the \(length)-byte state")
        }
        var filled = 0
        while filled < buffer.count {
            // A bounded piece at a time, so that the checksum reads what the read left in cache.
            let piece = UnsafeMutableRawBufferPointer(
                rebasing: buffer[filled..<min(buffer.count, filled + Self.pieceBytes)])
            var span = piece.mutableBytes
            let read = try fileSystem.read(file, into: &span, at: Int64(start + offset + filled))
            guard read == piece.count else {
                throw StorageError.corruption(
                    location: LedgerLocation(file: path, offset: Int64(start + offset + filled + read)),
                    reason: "the snapshot file ends inside its state")
            }
            crc = CRC32C.extend(crc, UnsafeRawBufferPointer(piece))
            filled += read
        }
        offset += filled
    }

    /// Reads the next `count` bytes of the state into a new array.
    public func read(count: Int) throws(StorageError) -> [UInt8] {
        guard count >= 0, count <= remaining else {
            throw StorageError.corruption(
                location: LedgerLocation(file: path, offset: Int64(start + offset)),
                reason: "a read of \(count) bytes runs past the \(length)-byte state")
        }
        return try filledByteArray(count: count) { (buffer) throws(StorageError) in try read(into: buffer) }
    }

    /// Reads the rest of the state, a piece at a time into one reused buffer, for its checksum.
    public func readRest() throws(StorageError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(1, min(remaining, Self.pieceBytes)), alignment: 16)
        defer { buffer.deallocate() }
        while remaining > 0 {
            try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(remaining, buffer.count)]))
        }
    }

    /// The most bytes one `pread` asks for: 1 MiB.
    static let pieceBytes = 1 << 20
}

/// A new array of `count` bytes that `fill` writes into its memory before any is read, with room
/// for `room` more: large reads then neither zero their memory first nor copy it after.
public func filledByteArray<Failure: Error>(
    count: Int, room: Int = 0, _ fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void
) throws(Failure) -> [UInt8] {
    precondition(count >= 0 && room >= 0, "an array of a negative size")
    guard count + room > 0 else { return [] }
    var failure: Failure?
    let bytes = [UInt8](unsafeUninitializedCapacity: count + room) { buffer, initialized in
        do throws(Failure) {
            try fill(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<count])))
            initialized = count
        } catch {
            failure = error
            initialized = 0
        }
    }
    if let failure { throw failure }
    return bytes
}
