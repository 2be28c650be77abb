import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// The fault-injecting layer's model of a power cut, which every crash test relies on.
@Suite("The crash model of the fault-injecting file layer")
struct CrashModelTests {
    @Test(
        "A failed fdatasync loses the bytes written before it, even after a later sync through another layer succeeds")
    func failedSyncLeavesAHole() throws {
        let directory = TemporaryDirectory()
        let path = directory.child("f")
        let first = FaultInjectingFileSystem()
        let file = try first.open(path, .createNew(permissions: 0o600))
        try first.write(file, [UInt8](repeating: 1, count: 100), at: 0)
        try first.synchronize(file)
        try first.synchronizeDirectory(directory.path)
        try first.write(file, [UInt8](repeating: 2, count: 50), at: 100)
        first.inject(.init(.synchronizeData, effect: .fail(errno: EIO)))
        #expect(throws: StorageError.self) { try first.synchronizeData(file) }
        try first.close(file)

        let second = FaultInjectingFileSystem()
        let again = try second.open(path, .readWrite)
        try second.write(again, [UInt8](repeating: 3, count: 10), at: 150)
        try second.synchronizeData(again)
        try second.close(again)
        let cached =
            [UInt8](repeating: 1, count: 100) + [UInt8](repeating: 2, count: 50) + [UInt8](repeating: 3, count: 10)
        #expect(bytes(of: path) == cached, "the page cache still shows the bytes whose sync failed")
        second.simulateCrash(seed: 1, mode: .keepRandomPrefix)
        let afterCrash =
            [UInt8](repeating: 1, count: 100) + [UInt8](repeating: 0, count: 50) + [UInt8](repeating: 3, count: 10)
        #expect(bytes(of: path) == afterCrash)
    }

    @Test("Bytes whose sync failed are kept once they are written again and synced, or truncated away")
    func lostBytesRewrittenOrTruncated() throws {
        let directory = TemporaryDirectory()
        let faults = FaultInjectingFileSystem()
        for rewrite in [false, true] {
            let path = directory.child("f-\(rewrite)")
            let file = try faults.open(path, .createNew(permissions: 0o600))
            try faults.synchronizeDirectory(directory.path)
            try faults.write(file, [UInt8](repeating: 1, count: 40), at: 0)
            faults.inject(.init(.synchronizeData, effect: .fail(errno: EIO)))
            #expect(throws: StorageError.self) { try faults.synchronizeData(file) }
            if rewrite {
                try faults.write(file, [UInt8](repeating: 4, count: 40), at: 0)
            } else {
                try faults.truncate(file, to: 10)
            }
            try faults.synchronize(file)
            try faults.close(file)
        }
        faults.simulateCrash(seed: 2, mode: .loseAllUnsynced)
        #expect(bytes(of: directory.child("f-true")) == [UInt8](repeating: 4, count: 40))
        // Truncated to 10 of the 40 lost bytes: those 10 are still lost.
        #expect(bytes(of: directory.child("f-false")) == [UInt8](repeating: 0, count: 10))
    }

    @Test("A file created through one layer, its directory never synced, is lost by a crash through another")
    func durabilityIsProcessWide() throws {
        let directory = TemporaryDirectory()
        let kept = directory.child("kept")
        let lost = directory.child("lost")
        let first = FaultInjectingFileSystem()
        func create(_ path: String) throws {
            let file = try first.open(path, .createNew(permissions: 0o600))
            try first.write(file, Array("data".utf8), at: 0)
            try first.synchronize(file)
            try first.close(file)
        }
        try create(kept)
        // The directory is synced through another layer: `kept`'s entry is durable from then on.
        try FaultInjectingFileSystem().synchronizeDirectory(directory.path)
        try create(lost)
        // A third layer that has only listed the directory crashes it.
        let third = FaultInjectingFileSystem()
        _ = try third.contentsOfDirectory(directory.path)
        let report = third.simulateCrash(seed: 3, mode: .loseAllUnsynced)
        #expect(bytes(of: kept) == Array("data".utf8), "\(report)")
        #expect(!FileManager.default.fileExists(atPath: lost), "\(report)")
    }

    /// Writes `original` to `path`, cuts it to 40 bytes and writes 9, 9, 9 after them without a
    /// sync, crashes, and returns what the file holds afterwards.
    private static func crashAfterUnsyncedTruncation(
        of original: [UInt8], at path: String, seed: UInt64, mode: FaultInjectingFileSystem.CrashMode
    ) throws -> [UInt8] {
        overwrite(path, with: original)
        let faults = FaultInjectingFileSystem()
        let file = try faults.open(path, .readWrite)
        try faults.truncate(file, to: 40)
        try faults.write(file, [9, 9, 9], at: 40)
        try faults.close(file)
        faults.simulateCrash(seed: seed, mode: mode)
        return bytes(of: path)
    }

    @Test("An unsynced truncation is undone by a crash; a synced one is not")
    func truncationRevertsUnlessSynced() throws {
        let directory = TemporaryDirectory()
        let path = directory.child("f")
        let original = (0..<100).map { UInt8($0) }
        #expect(
            try Self.crashAfterUnsyncedTruncation(of: original, at: path, seed: 4, mode: .loseAllUnsynced) == original)

        let second = FaultInjectingFileSystem()
        let again = try second.open(path, .readWrite)
        try second.truncate(again, to: 40)
        try second.synchronize(again)
        try second.close(again)
        second.simulateCrash(seed: 5, mode: .loseAllUnsynced)
        #expect(bytes(of: path) == Array(original.prefix(40)))
    }

    @Test("An unsynced truncation is kept or undone whole by a random crash, never in part")
    func truncationIsKeptOrUndoneWhole() throws {
        let directory = TemporaryDirectory()
        let original = (0..<100).map { UInt8($0) }
        var outcomes: Set<Int> = []
        for seed in UInt64(1)...40 {
            let after = try Self.crashAfterUnsyncedTruncation(
                of: original, at: directory.child("f-\(seed)"), seed: seed, mode: .keepRandomPrefix)
            #expect(
                after == original || after == Array(original.prefix(40)) + [9, 9, 9],
                "seed \(seed): \(after.count) bytes")
            outcomes.insert(after.count)
        }
        #expect(outcomes == [100, 43])
    }

    @Test("A rename over a file, lost by a crash before its directory is synced, brings the old file back")
    func renameRevertsUnlessDirectorySynced() throws {
        let directory = TemporaryDirectory()
        let path = directory.child("f")
        overwrite(path, with: Array("old".utf8))
        let first = FaultInjectingFileSystem()
        let temporary = try first.open(path + ".tmp", .createNew(permissions: 0o600))
        try first.write(temporary, Array("new".utf8), at: 0)
        try first.synchronize(temporary)
        try first.close(temporary)
        try first.rename(path + ".tmp", to: path)
        #expect(bytes(of: path) == Array("new".utf8))
        first.simulateCrash(seed: 6, mode: .loseAllUnsynced)
        #expect(bytes(of: path) == Array("old".utf8))

        let second = FaultInjectingFileSystem()
        try second.replaceAtomically(path, with: Array("newer".utf8))
        second.simulateCrash(seed: 7, mode: .loseAllUnsynced)
        #expect(bytes(of: path) == Array("newer".utf8))
    }

    @Test("A second close of a descriptor is refused and leaves the descriptor number alone")
    func secondCloseRefused() throws {
        let directory = TemporaryDirectory()
        let faults = FaultInjectingFileSystem()
        let file = try faults.open(directory.child("f"), .createNew(permissions: 0o600))
        #expect(faults.openFileCount == 1)
        try faults.close(file)
        #expect(throws: StorageError.system(operation: "close", path: file.path, errno: EBADF)) {
            try faults.close(file)
        }
        #expect(faults.refusedCloseCalls == [file])
        #expect(faults.openFileCount == 0)
    }

    @Test(
        "Unsynced overwrites of durable zeros: a crash keeps all of them, none, or those before a point, maybe torn there"
    )
    func overwritesOfDurableZerosSurviveAsAPrefix() throws {
        let directory = TemporaryDirectory()
        var outcomes: Set<String> = []
        let written = (0..<300).map { UInt8(1 + $0 % 200) }
        for seed in UInt64(1)...60 {
            let path = directory.child("f-\(seed)")
            let faults = FaultInjectingFileSystem()
            let file = try faults.open(path, .createNew(permissions: 0o600))
            try faults.write(file, [UInt8](repeating: 0, count: 1000), at: 0)
            try faults.synchronize(file)
            try faults.synchronizeDirectory(directory.path)
            try faults.write(file, written, at: 100)
            try faults.close(file)
            faults.simulateCrash(seed: seed, mode: .keepRandomPrefix)
            let after = bytes(of: path)
            #expect(after.count == 1000, "the durable size stays")
            #expect(after[..<100].allSatisfy { $0 == 0 } && after[400...].allSatisfy { $0 == 0 })
            let region = Array(after[100..<400])
            // What survives is a prefix of the written bytes, then zeros; bytes just before the cut may be garbage.
            let cut = (region.lastIndex { $0 != 0 } ?? -1) + 1
            let intact = zip(region[..<cut], written).prefix { $0 == $1 }.count
            #expect(cut - intact <= 16, "seed \(seed): only the last bytes before the cut may differ")
            switch cut {
            case 0: outcomes.insert("none")
            case 300 where intact == 300: outcomes.insert("all")
            default: outcomes.insert(intact == cut ? "prefix" : "torn prefix")
            }
        }
        #expect(outcomes == ["none", "all", "prefix", "torn prefix"])
    }
}
