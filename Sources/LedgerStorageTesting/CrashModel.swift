import Foundation
import LedgerStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The durability of every file written through any ``FaultInjectingFileSystem`` in the process.
final class CrashModel: @unchecked Sendable {
    // Thread-safety: `files` is guarded by `lock`.

    static let shared = CrashModel()

    /// What a crash would leave of one file.
    struct FileState {
        /// The size at the last successful sync.
        var durableSize: Int64
        /// Whether the file's directory entry has been synced since it was created or renamed here.
        var durableInDirectory: Bool
        /// Bytes written since the last sync.
        var unsynced = ByteRanges()
        /// Bytes written before a sync that failed: zero-filled at a crash (fsyncgate).
        var lost = ByteRanges()
        /// The durable bytes that unsynced writes or truncations replaced, to be put back at a crash.
        var saved: [(offset: Int64, bytes: [UInt8])] = []
        /// Which durable bytes `saved` holds.
        var savedCoverage = ByteRanges()
        /// Whether an unsynced truncation cut durable bytes: a file system keeps or loses a size
        /// change whole, so a crash then restores all of `saved` or none of it.
        var truncatedDurable = false
        /// When a rename put this file over another whose entry was durable, that file's bytes.
        var replaced: [UInt8]?
    }

    private let lock = NSLock()
    private var files: [String: FileState] = [:]

    /// A file that did not exist was created: neither its bytes nor its directory entry are durable.
    func created(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        files[path] = FileState(durableSize: 0, durableInDirectory: false)
    }

    /// The state of a file, starting from "all of it is durable" for a file no instance has seen.
    private func state(_ path: String, base: SystemFileSystem, file: OpenFile) throws(StorageError) -> FileState {
        if let state = files[path] { return state }
        return FileState(durableSize: try base.size(of: file), durableInDirectory: true)
    }

    /// Before `range` of the file is written: keeps a copy of the durable bytes it replaces.
    func willChange(_ file: OpenFile, range: Range<Int64>, base: SystemFileSystem) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        var state = try state(file.path, base: base, file: file)
        try save(&state, range, file, base)
        state.unsynced.insert(range)
        files[file.path] = state
    }

    /// Before the file is cut or extended to `size`.
    func willTruncate(_ file: OpenFile, to size: Int64, base: SystemFileSystem) throws(StorageError) {
        lock.lock()
        defer { lock.unlock() }
        var state = try state(file.path, base: base, file: file)
        let current = try base.size(of: file)
        try save(&state, size..<max(size, state.durableSize), file, base)
        if size < state.durableSize { state.truncatedDurable = true }
        state.unsynced.remove(size..<Int64.max)
        state.lost.remove(size..<Int64.max)
        if size > current { state.unsynced.insert(current..<size) }
        files[file.path] = state
    }

    /// Copies the durable bytes in `range` that are not copied yet (a lost byte is saved as zero).
    private func save(
        _ state: inout FileState, _ range: Range<Int64>, _ file: OpenFile, _ base: SystemFileSystem
    ) throws(StorageError) {
        let durable = range.clamped(to: 0..<max(0, state.durableSize))
        for gap in state.savedCoverage.gaps(in: durable) {
            // Bytes past the file's end read as zeros.
            var bytes = [UInt8](repeating: 0, count: Int(gap.count))
            _ = try base.read(file, into: &bytes, at: gap.lowerBound)
            for hole in state.lost.intersection(with: gap) {
                for position in hole { bytes[Int(position - gap.lowerBound)] = 0 }
            }
            state.saved.append((gap.lowerBound, bytes))
            state.savedCoverage.insert(gap)
        }
    }

    /// A sync of the file succeeded: what it holds now is durable, except bytes a failed sync lost.
    func synced(_ path: String, size: Int64) {
        lock.lock()
        defer { lock.unlock() }
        var state = files[path] ?? FileState(durableSize: size, durableInDirectory: true)
        state.durableSize = size
        state.lost.subtract(state.unsynced)
        state.lost.remove(size..<Int64.max)
        state.unsynced = ByteRanges()
        state.saved = []
        state.savedCoverage = ByteRanges()
        state.truncatedDurable = false
        files[path] = state
    }

    /// A sync of the file failed: the bytes written since the last good sync may never reach the disk.
    func syncFailed(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        guard var state = files[path] else { return }
        state.lost.formUnion(state.unsynced)
        state.unsynced = ByteRanges()
        files[path] = state
    }

    /// The bytes a crash would bring back at `path` if a rename over it were lost: its durable
    /// content when its entry is durable, what an earlier unsynced rename replaced otherwise.
    func durableContent(replacedAt path: String, base: SystemFileSystem) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        if let state = files[path], !state.durableInDirectory { return state.replaced }
        guard base.exists(path) else { return nil }
        return try? base.readAll(path)
    }

    func renamed(_ source: String, to destination: String, replacing previous: [UInt8]?, base: SystemFileSystem) {
        lock.lock()
        defer { lock.unlock() }
        var state: FileState
        if let tracked = files.removeValue(forKey: source) {
            state = tracked
        } else {
            // A file no instance had seen: all of its bytes were durable.
            let size = (try? base.readAll(destination).count) ?? 0
            state = FileState(durableSize: Int64(size), durableInDirectory: true)
        }
        state.durableInDirectory = false
        state.replaced = previous
        files[destination] = state
    }

    func removed(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        files[path] = nil
    }

    func directorySynced(_ directory: String) {
        lock.lock()
        defer { lock.unlock() }
        for (path, var state) in files where parentDirectory(of: path) == directory {
            state.durableInDirectory = true
            state.replaced = nil
            files[path] = state
        }
    }

    /// Applies the crash to the files in `directories` and forgets them: after the "reboot"
    /// everything left on disk is durable.
    func crash(
        inDirectories directories: Set<String>, seed: UInt64, mode: FaultInjectingFileSystem.CrashMode,
        base: SystemFileSystem
    ) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        var outcome = CrashOutcome(random: SplitMix64(seed: seed), loseAll: mode == .loseAllUnsynced, base: base)
        for (path, file) in files.sorted(by: { $0.key < $1.key }) where directories.contains(parentDirectory(of: path))
        {
            files[path] = nil
            outcome.apply(file, at: path)
        }
        return outcome.report
    }
}

/// One crash as it is applied to the files it reaches, one after another, with the random
/// choices that decide what each keeps and the report of what it kept.
private struct CrashOutcome {
    var random: SplitMix64
    /// Whether everything unsynced is lost (``FaultInjectingFileSystem/CrashMode/loseAllUnsynced``).
    let loseAll: Bool
    let base: SystemFileSystem
    /// A line per file saying what was kept.
    var report: [String] = []

    init(random: SplitMix64, loseAll: Bool, base: SystemFileSystem) {
        self.random = random
        self.loseAll = loseAll
        self.base = base
    }

    /// Leaves of the file at `path` what a crash would, given what the model knows of it.
    mutating func apply(_ file: CrashModel.FileState, at path: String) {
        guard base.exists(path) else { return }
        if !file.durableInDirectory && (loseAll || random.next() % 2 == 0) {
            loseEntry(file, at: path)
            return
        }
        guard let handle = try? base.open(path, .readWrite) else { return }
        defer { try? base.close(handle) }
        let (restored, tornAt) = restoreSaved(file, handle)
        let size = (try? base.size(of: handle)) ?? 0
        let (keep, garbage) = cutUnsynced(file, handle, size: size)
        let zeroed = zeroLost(file, handle, keep: keep)
        try? base.synchronize(handle)
        report.append(
            "\(path): kept \(keep) of \(size) bytes (durable \(file.durableSize), garbage \(garbage), "
                + "restored \(restored)\(tornAt.map { ", overwrite torn at \($0)" } ?? ""), "
                + "zero-filled \(zeroed) lost to a failed sync)")
    }

    /// A directory entry that was never synced is lost: a file a rename replaced comes back,
    /// and a created file disappears.
    private mutating func loseEntry(_ file: CrashModel.FileState, at path: String) {
        if let previous = file.replaced {
            rewrite(path, with: previous)
            report.append("\(path): the rename over it was lost; restored its previous \(previous.count) bytes")
        } else {
            _ = unlink(path)
            report.append("\(path): removed (its directory entry was never synced)")
        }
    }

    /// Puts back durable bytes that unsynced writes replaced, from a cut on: all of them, none,
    /// or (like an append) those after a random point, with the new bytes just before that
    /// point possibly garbage (a torn sector). Returns the bytes restored and where the
    /// overwrite was torn, if it was.
    private mutating func restoreSaved(
        _ file: CrashModel.FileState, _ handle: OpenFile
    ) -> (restored: Int, tornAt: Int64?) {
        guard !file.saved.isEmpty else { return (0, nil) }
        let low = file.saved.map(\.offset).min()!
        let high = file.saved.map { $0.offset + Int64($0.bytes.count) }.max()!
        var cut = low
        if !loseAll {
            switch random.next() % (file.truncatedDurable ? 2 : 3) {
            case 0: cut = low
            case 1: cut = high
            default: cut = low + Int64(random.next() % UInt64(high - low + 1))
            }
        }
        var restored = 0
        for (offset, bytes) in file.saved where offset + Int64(bytes.count) > cut {
            let from = Int(max(0, cut - offset))
            try? base.write(handle, bytes[from...], at: offset + Int64(from))
            restored += bytes.count - from
        }
        guard cut > low && cut < high && random.next() % 3 == 0 else { return (restored, nil) }
        let count = Int(min(cut - low, Int64(1 + random.next() % 16)))
        try? base.write(handle, garbage(count), at: cut - Int64(count))
        return (restored, cut)
    }

    /// Cuts the bytes appended since the last sync: all of them, or all but a random prefix
    /// whose last bytes may be garbage. Returns the size kept and the garbage bytes written.
    private mutating func cutUnsynced(
        _ file: CrashModel.FileState, _ handle: OpenFile, size: Int64
    ) -> (keep: Int64, garbage: Int) {
        var keep = size
        var garbage = 0
        if size > file.durableSize {
            keep = file.durableSize
            if !loseAll { keep += Int64(random.next() % UInt64(size - file.durableSize + 1)) }
            if !loseAll && keep > file.durableSize && random.next() % 3 == 0 {
                garbage = Int(min(keep - file.durableSize, Int64(1 + random.next() % 16)))
            }
        }
        try? base.truncate(handle, to: keep)
        if garbage > 0 {
            try? base.write(handle, self.garbage(garbage), at: keep - Int64(garbage))
        }
        return (keep, garbage)
    }

    /// Fills the bytes a failed sync lost with zeros (a hole), within the kept size; returns how many.
    private func zeroLost(_ file: CrashModel.FileState, _ handle: OpenFile, keep: Int64) -> Int64 {
        var zeroed: Int64 = 0
        for hole in file.lost.intersection(with: 0..<keep) {
            try? base.write(handle, [UInt8](repeating: 0, count: Int(hole.count)), at: hole.lowerBound)
            zeroed += Int64(hole.count)
        }
        return zeroed
    }

    /// `count` random bytes: a torn sector's garbage.
    private mutating func garbage(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    private func rewrite(_ path: String, with bytes: [UInt8]) {
        guard let handle = try? base.open(path, .readWrite) else { return }
        defer { try? base.close(handle) }
        try? base.truncate(handle, to: 0)
        try? base.write(handle, bytes, at: 0)
        try? base.synchronize(handle)
    }
}

/// A set of byte offsets kept as sorted, disjoint, non-touching ranges.
struct ByteRanges: Sendable, Hashable {
    private(set) var ranges: [Range<Int64>] = []

    var isEmpty: Bool { ranges.isEmpty }

    mutating func insert(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        var lower = range.lowerBound
        var upper = range.upperBound
        var result: [Range<Int64>] = []
        var placed = false
        for existing in ranges {
            if existing.upperBound < lower {
                result.append(existing)
            } else if existing.lowerBound > upper {
                if !placed {
                    result.append(lower..<upper)
                    placed = true
                }
                result.append(existing)
            } else {
                lower = min(lower, existing.lowerBound)
                upper = max(upper, existing.upperBound)
            }
        }
        if !placed { result.append(lower..<upper) }
        ranges = result
    }

    mutating func formUnion(_ other: ByteRanges) {
        for range in other.ranges { insert(range) }
    }

    mutating func remove(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        var result: [Range<Int64>] = []
        for existing in ranges {
            if existing.upperBound <= range.lowerBound || existing.lowerBound >= range.upperBound {
                result.append(existing)
                continue
            }
            if existing.lowerBound < range.lowerBound { result.append(existing.lowerBound..<range.lowerBound) }
            if existing.upperBound > range.upperBound { result.append(range.upperBound..<existing.upperBound) }
        }
        ranges = result
    }

    mutating func subtract(_ other: ByteRanges) {
        for range in other.ranges { remove(range) }
    }

    /// The parts of `range` inside the set.
    func intersection(with range: Range<Int64>) -> [Range<Int64>] {
        ranges.compactMap { existing in
            let lower = max(existing.lowerBound, range.lowerBound)
            let upper = min(existing.upperBound, range.upperBound)
            return lower < upper ? lower..<upper : nil
        }
    }

    /// The parts of `range` outside the set.
    func gaps(in range: Range<Int64>) -> [Range<Int64>] {
        var outside = ByteRanges()
        outside.insert(range)
        outside.subtract(self)
        return outside.ranges
    }
}
