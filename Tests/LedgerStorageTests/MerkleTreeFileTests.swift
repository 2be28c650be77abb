import Foundation
import LedgerStorageTesting
import Testing

@testable import LedgerStorage

/// The leaves of every record of a ledger, read from its journal.
private func leaves(_ ledger: String) throws -> [[UInt8]] {
    try readAll(ledger).map { MerkleLeaf($0).bytes }
}

/// Appends entries numbered `range` to an existing ledger.
private func append(_ ledger: String, _ range: ClosedRange<Int>, limits: JournalLimits = smallLimits) throws {
    let journal = try Journal.open(at: ledger, options: JournalOptions(lockWaitSeconds: 2, limits: limits))
    defer { journal.close() }
    for number in range { _ = try journal.appendAndWait(entry(number)) }
}

/// Checks that the tree of the ledger has every record, and the RFC's root at every size.
private func expectSound(
    _ tree: LedgerMerkleTree, _ ledger: String, sourceLocation: SourceLocation = #_sourceLocation
)
    throws
{
    let all = try leaves(ledger)
    #expect(tree.size == UInt64(all.count), sourceLocation: sourceLocation)
    for size in 0...all.count {
        #expect(
            try tree.root(size: UInt64(size)) == ReferenceTree.mth(all[0..<size]), "size \(size)",
            sourceLocation: sourceLocation)
    }
}

/// A ledger of `count` records in `directory` whose tree has been built, and its path.
private func ledgerWithTree(_ directory: TemporaryDirectory, count: Int) throws -> String {
    let ledger = directory.child("l")
    try makeLedger(at: ledger, count: count)
    try LedgerMerkleTree(ledgerAt: ledger).close()
    return ledger
}

@Suite("Merkle tree: the TREE file")
struct MerkleTreeFileTests {
    @Test("A record's chain hash is SHA-256 of the previous hash and its leaf, and its leaf reads back")
    func leafIsTheChainedForm() throws {
        let directory = TemporaryDirectory()
        try makeLedger(at: directory.child("l"), count: 5)
        var previous = SHA256Digest.zero
        for record in try readAll(directory.child("l")) {
            var hasher = SHA256()
            hasher.update(previous)
            hasher.update(MerkleLeaf(record).bytes)
            #expect(hasher.finalize() == record.hash)
            #expect(try MerkleLeaf(decoding: MerkleLeaf(record).bytes) == MerkleLeaf(record))
            previous = record.hash
        }
        #expect(throws: DecodeFailure.self) { try MerkleLeaf(decoding: Array(repeating: 0, count: 71)) }
    }

    @Test("The tree is built once, then extended with the records committed since, across segments")
    func builtThenExtended() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 20, limits: smallLimits)
        let first = try LedgerMerkleTree(ledgerAt: ledger)
        #expect(first.update == .rebuilt(reason: "it is new"))
        try expectSound(first, ledger)
        first.close()
        let again = try LedgerMerkleTree(ledgerAt: ledger)
        #expect(again.update == .current)
        again.close()
        try append(ledger, 21...57)
        let extended = try LedgerMerkleTree(ledgerAt: ledger)
        #expect(extended.update == .extended(records: 37))
        try expectSound(extended, ledger)
        let size = try FileManager.default.attributesOfItem(atPath: ledger + "/TREE")[.size] as? Int
        #expect(size == 72 + 32 * (2 * 57 - 57.nonzeroBitCount) + 8 * 57)
    }

    @Test("A damaged, torn, foreign or stale TREE is rebuilt, never trusted")
    func untrustedFilesAreRebuilt() throws {
        let directory = TemporaryDirectory()
        let ledger = try ledgerWithTree(directory, count: 9)
        let good = bytes(of: ledger + "/TREE")
        var damaged = good
        damaged[30] ^= 1
        let other = directory.child("other")
        try makeLedger(at: other, count: 9)
        try LedgerMerkleTree(ledgerAt: other).close()
        // A header that counts one record more than the journal holds, with its checksum redone.
        var ahead = good
        ahead[28] = 10
        let crc = CRC32C.mask(CRC32C.checksum(ahead[0..<68]))
        for index in 0..<4 { ahead[68 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
        let cases: [(String, [UInt8], String)] = [
            ("damaged header", damaged, "checksum"), ("torn header", Array(good[0..<40]), "bytes"),
            ("torn nodes", Array(good[0..<200]), "short of"),
            ("another ledger's", bytes(of: other + "/TREE"), "ledger"),
            ("ahead of the journal", ahead + Array(repeating: 0, count: 96), "journal ends before it"),
        ]
        for (name, contents, reason) in cases {
            overwrite(ledger + "/TREE", with: contents)
            let tree = try LedgerMerkleTree(ledgerAt: ledger)
            guard case .rebuilt(let said) = tree.update else {
                Issue.record("\(name): \(tree.update)")
                continue
            }
            #expect(said.contains(reason), "\(name): \(said)")
            try expectSound(tree, ledger)
            tree.close()
        }
    }

    @Test("An inclusion proof whose stored leaf is not the record's rebuilds the file first")
    func damagedLeafIsRebuilt() throws {
        let directory = TemporaryDirectory()
        let ledger = try ledgerWithTree(directory, count: 11)
        var contents = bytes(of: ledger + "/TREE")
        let offset = Int(TreeFileLayout.offset(level: 0, index: 6))
        contents[offset] ^= 0xff
        overwrite(ledger + "/TREE", with: contents)
        let tree = try LedgerMerkleTree(ledgerAt: ledger)
        #expect(tree.update == .current)
        let proof = try tree.inclusionProof(sequence: 7, size: 11)
        guard case .rebuilt(let reason) = tree.update else {
            Issue.record("not rebuilt: \(tree.update)")
            return
        }
        #expect(reason.contains("record 7"))
        #expect(proof.verifies(root: ReferenceTree.mth(try leaves(ledger)[0..<11])))
        #expect(proof.path == ReferenceTree.path(6, try leaves(ledger)[0..<11]))
    }

    @Test("A record is read where the tree recorded it, and a wrong offset falls back to a scan")
    func recordsReadWhereRecorded() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 30, limits: smallLimits, payloadBytes: 300)
        #expect(try segmentPaths(ledger).count > 2)
        let tree = try LedgerMerkleTree(ledgerAt: ledger)
        let records = try readAll(ledger)
        for record in records {
            let read = try #require(tree.recordWhereRecorded(record.sequence))
            #expect(MerkleLeaf(read) == MerkleLeaf(record))
            #expect(read.location == record.location)
        }
        tree.close()
        var contents = bytes(of: ledger + "/TREE")
        let position = Int(TreeFileLayout.recordOffset(leaf: 19))
        contents[position] ^= 0x10
        overwrite(ledger + "/TREE", with: contents)
        let damaged = try LedgerMerkleTree(ledgerAt: ledger)
        #expect(damaged.recordWhereRecorded(20).map(MerkleLeaf.init) != MerkleLeaf(records[19]))
        let proof = try damaged.inclusionProof(sequence: 20, size: 30)
        #expect(proof.leaf == MerkleLeaf(records[19]))
        #expect(damaged.update == .current)
        #expect(proof.verifies(root: ReferenceTree.mth(try leaves(ledger)[0..<30])))
    }

    @Test("Two trees of one ledger exclude each other, and the second waits no longer than asked")
    func oneUpdaterAtATime() throws {
        let directory = TemporaryDirectory()
        let ledger = directory.child("l")
        try makeLedger(at: ledger, count: 3)
        let first = try LedgerMerkleTree(ledgerAt: ledger)
        #expect(throws: StorageError.locked(path: ledger + "/TREE")) {
            try LedgerMerkleTree(ledgerAt: ledger, lockWaitSeconds: 0.05)
        }
        first.close()
        try LedgerMerkleTree(ledgerAt: ledger, lockWaitSeconds: 0.05).close()
    }

    @Test("A crash at any write or sync of an update leaves a tree that is sound or rebuilt when opened")
    func crashAtEveryStep() throws {
        let seed = testSeed("crashAtEveryStep")
        for operation in [FaultInjectingFileSystem.Operation.write, .synchronizeData, .truncate] {
            for step in 0..<8 {
                let directory = TemporaryDirectory()
                let ledger = directory.child("l")
                try makeLedger(at: ledger, count: 6, limits: smallLimits)
                try LedgerMerkleTree(ledgerAt: ledger).close()
                try append(ledger, 7...25)
                if operation == .truncate { overwrite(ledger + "/TREE", with: [1, 2, 3]) }
                let faults = FaultInjectingFileSystem()
                faults.inject(.init(operation, pathContains: "/TREE", skip: step, effect: .fail(errno: EIO)))
                do {
                    try LedgerMerkleTree(ledgerAt: ledger, fileSystem: faults).close()
                    break
                } catch {
                    faults.simulateCrash(seed: seed &+ UInt64(step), mode: .keepRandomPrefix)
                }
                let tree = try LedgerMerkleTree(ledgerAt: ledger)
                try expectSound(tree, ledger)
                tree.close()
            }
        }
    }
}
