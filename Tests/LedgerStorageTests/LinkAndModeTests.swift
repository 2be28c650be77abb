import Foundation
import Testing

@testable import LedgerStorage

/// A ledger with records and a snapshot, and a directory outside it for planted links to point into.
private struct PlantedLedger {
    let directory = TemporaryDirectory()
    let ledger: String
    let outside: String
    let receipts: [AppendReceipt]

    init() throws {
        ledger = directory.child("l")
        outside = directory.child("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        receipts = try makeLedger(at: ledger, count: 3)
        let reader = try JournalReader(at: ledger)
        try SnapshotStore(paths: reader.paths, identity: reader.identity).write(
            sequence: 3, hash: try reader.head().hash, state: [1, 2, 3])
    }

    var paths: LedgerPaths { LedgerPaths(root: ledger) }

    /// Every file and directory under `outside`, with the bytes of each file.
    func outsideContents() throws -> [String: [UInt8]] {
        var contents: [String: [UInt8]] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: outside) {
            contents[name] = bytes(of: outside + "/" + name)
        }
        return contents
    }
}

/// Where a test plants a link in a ledger.
enum PlantSite: String, CaseIterable, CustomStringConvertible {
    case lock, journal, snapshots, segment, snapshot, identity

    var description: String { rawValue }

    /// The path inside the ledger.
    func path(in paths: LedgerPaths) -> String {
        switch self {
        case .lock: paths.lock
        case .journal: paths.journal
        case .snapshots: paths.snapshots
        case .segment: paths.segment(firstSequence: 1)
        case .snapshot: paths.snapshots + "/" + SnapshotStore.fileName(sequence: 3)
        case .identity: paths.identity
        }
    }
}

@Suite("Nothing is followed out of a ledger, and a ledger other users can reach is refused")
struct LinkAndModeTests {
    /// Moves what is at `site` outside and leaves a link to it in its place; for `LOCK`, the link
    /// points at a file that does not exist, which an open that creates the lock would make.
    /// Returns the link's target.
    private func plant(_ site: PlantSite, in ledger: PlantedLedger) throws -> String {
        let path = site.path(in: ledger.paths)
        let target = ledger.outside + "/" + site.rawValue
        if site == .lock {
            try FileManager.default.removeItem(atPath: path)
        } else {
            try FileManager.default.moveItem(atPath: path, toPath: target)
        }
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        return target
    }

    /// Removes the link and puts back what it pointed to.
    private func unplant(_ site: PlantSite, in ledger: PlantedLedger, target: String) throws {
        let path = site.path(in: ledger.paths)
        try FileManager.default.removeItem(atPath: path)
        if site != .lock { try FileManager.default.moveItem(atPath: target, toPath: path) }
    }

    /// Whether an error is the refusal of a link at `path`.
    private func isLinkRefusal(_ error: any Error, _ path: String) -> Bool {
        guard case .unsafeFile(let refused, let reason) = error as? StorageError else { return false }
        return refused == path && reason.contains("symbolic link")
    }

    @Test(
        "A link planted after init is refused by every open, nothing is written where it points, nothing is lost",
        arguments: PlantSite.allCases)
    func plantedLinkRefused(site: PlantSite) throws {
        let ledger = try PlantedLedger()
        let target = try plant(site, in: ledger)
        let path = site.path(in: ledger.paths)
        let before = try ledger.outsideContents()

        // A writer opening to commit, and a reader: both refuse, naming the link.
        let writer = #expect(throws: StorageError.self) {
            let journal = try Journal.open(at: ledger.ledger, options: JournalOptions(lockWaitSeconds: 2))
            defer { journal.close() }
            _ = try journal.appendAndWait(entry(4))
            try SnapshotStore(paths: journal.paths, identity: journal.identity).write(
                sequence: 4, hash: journal.durableHead.hash, state: [4])
        }
        #expect(writer.map { isLinkRefusal($0, path) } == true, "\(String(describing: writer))")
        let reader = #expect(throws: StorageError.self) { _ = try JournalReader(at: ledger.ledger).head() }
        #expect(reader.map { isLinkRefusal($0, path) } == true, "\(String(describing: reader))")
        #expect(reader?.description.contains(path) == true)

        // Nothing was created or written where the link points.
        #expect(try ledger.outsideContents() == before)

        // With the link gone and the file back, every record committed before is there.
        try unplant(site, in: ledger, target: target)
        let records = try readAll(ledger.ledger)
        #expect(records.map(\.hash) == ledger.receipts.map(\.hash))
        let journal = try Journal.open(at: ledger.ledger, options: JournalOptions(lockWaitSeconds: 2))
        #expect(try journal.appendAndWait(entry(4)).sequence == 4)
        journal.close()
    }

    @Test("A ledger directory, journal/ or segment open to other users is refused, naming the path and its mode")
    func wideModesRefused() throws {
        let ledger = try PlantedLedger()
        let cases: [(path: String, mode: mode_t, restore: mode_t)] = [
            (ledger.ledger, 0o755, 0o700), (ledger.paths.journal, 0o750, 0o700),
            (ledger.paths.segment(firstSequence: 1), 0o644, 0o600), (ledger.paths.identity, 0o604, 0o600),
            (ledger.paths.snapshots + "/" + SnapshotStore.fileName(sequence: 3), 0o640, 0o600),
        ]
        for (path, mode, restore) in cases {
            #expect(chmod(path, mode) == 0)
            let opens: [() throws -> Void] = [
                { _ = try JournalReader(at: ledger.ledger) },
                { try Journal.open(at: ledger.ledger, options: JournalOptions(lockWaitSeconds: 2)).close() },
            ]
            for open in opens {
                let error = #expect(throws: StorageError.self) { try open() }
                guard case .unsafeFile(let refused, let reason) = error else {
                    Issue.record("\(path) mode \(String(mode, radix: 8)): \(String(describing: error))")
                    continue
                }
                #expect(refused == path)
                #expect(reason.contains("mode 0" + String(mode, radix: 8)), "\(reason)")
            }
            #expect(chmod(path, restore) == 0)
        }
        #expect(try readAll(ledger.ledger).map(\.hash) == ledger.receipts.map(\.hash))
    }

    @Test("Every entry of the ledger directory is checked, not only the files the format names")
    func everyEntryChecked() throws {
        let ledger = try PlantedLedger()
        let extra = ledger.ledger + "/HEAD"
        #expect(FileManager.default.createFile(atPath: extra, contents: Data([1])))
        #expect(chmod(extra, 0o644) == 0)
        var error = #expect(throws: StorageError.self) { _ = try JournalReader(at: ledger.ledger) }
        #expect(error?.description.contains("\(extra) has mode 0644") == true, "\(String(describing: error))")
        try FileManager.default.removeItem(atPath: extra)
        try FileManager.default.createSymbolicLink(atPath: extra, withDestinationPath: ledger.outside + "/head")
        error = #expect(throws: StorageError.self) { _ = try JournalReader(at: ledger.ledger) }
        #expect(isLinkRefusal(try #require(error), extra))
        try FileManager.default.removeItem(atPath: extra)
        #expect(try readAll(ledger.ledger).count == 3)
    }

    @Test("A ledger file that belongs to another user is refused (run as root only)")
    func otherOwnerRefused() throws {
        guard geteuid() == 0 else { return }
        let ledger = try PlantedLedger()
        #expect(chown(ledger.paths.identity, 65_534, 65_534) == 0)
        let error = #expect(throws: StorageError.self) { _ = try JournalReader(at: ledger.ledger) }
        guard case .unsafeFile(let refused, let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(refused == ledger.paths.identity)
        #expect(reason.contains("belongs to user 65534"))
    }

    @Test("A FIFO in journal/ is refused, not opened (an open of it would wait forever)")
    func specialFileRefused() throws {
        let ledger = try PlantedLedger()
        let fifo = ledger.paths.segment(firstSequence: 9)
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = #expect(throws: StorageError.self) { _ = try JournalReader(at: ledger.ledger).head() }
        #expect(error == .unsafeFile(path: fifo, reason: "is not a regular file"))
    }

    @Test("The ledger's own path may be a link, as the user gave it")
    func ledgerPathMayBeALink() throws {
        let ledger = try PlantedLedger()
        let link = ledger.directory.child("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: ledger.ledger)
        let journal = try Journal.open(at: link, options: JournalOptions(lockWaitSeconds: 2))
        #expect(try journal.appendAndWait(entry(4)).sequence == 4)
        journal.close()
        #expect(try readAll(link).count == 4)
    }

    @Test("Creating a ledger in an existing empty directory closes it to other users")
    func createClosesExistingDirectory() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("empty")
        try FileManager.default.createDirectory(atPath: ledger, withIntermediateDirectories: false)
        #expect(chmod(ledger, 0o755) == 0)
        try makeLedger(at: ledger, count: 2)
        let mode = try FileManager.default.attributesOfItem(atPath: ledger)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
        #expect(try readAll(ledger).count == 2)
    }

    @Test("The file layer opens no file through a link and creates none at a link's target")
    func fileLayerDoesNotFollow() throws {
        let directory = TemporaryDirectory()
        let target = directory.child("target")
        let link = directory.child("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let fileSystem = SystemFileSystem()
        for mode in [OpenMode.createOrOpen(permissions: 0o600), .createNew(permissions: 0o600), .readOnly] {
            let error = #expect(throws: StorageError.self) { _ = try fileSystem.open(link, mode) }
            #expect(error?.errno == ELOOP || (mode == .createNew(permissions: 0o600) && error?.errno == EEXIST))
            #expect(!FileManager.default.fileExists(atPath: target))
        }
        let linkedDirectory = directory.child("linked-directory")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: linkedDirectory, withDestinationPath: target)
        #expect(throws: StorageError.self) { try fileSystem.makeDirectory(linkedDirectory, permissions: 0o700) }
        #expect(try fileSystem.status(linkedDirectory, followingLinks: false)?.kind == .symbolicLink)
        #expect(try fileSystem.status(linkedDirectory, followingLinks: true)?.kind == .directory)
        #expect(try fileSystem.status(directory.child("none"), followingLinks: false) == nil)
    }
}
