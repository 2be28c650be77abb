import Foundation

/// Bringing `TREE` up to the journal: checking it, extending it, rebuilding it.
extension LedgerMerkleTree {
    /// A perfect subtree on the tree's right edge, kept while leaves are appended.
    struct EdgeNode {
        var level: Int
        var hash: SHA256Digest
    }

    /// How many node bytes are gathered before they are written.
    static let writeChunkBytes = 4 << 20

    /// Opens (creating if missing) the tree file and takes its lock, waiting up to `waitSeconds`.
    static func openLocked(
        _ path: String, fileSystem: any FileSystem, waitSeconds: Double
    ) throws(StorageError) -> OpenFile {
        let existed = fileSystem.exists(path)
        let file = try fileSystem.open(path, .createOrOpen(permissions: LedgerDirectory.filePermissions))
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, waitSeconds) * 1e9)
        do throws(StorageError) {
            if !existed { try fileSystem.synchronizeDirectory(parentDirectory(of: path)) }
            while try fileSystem.tryLockExclusive(file) != .acquired {
                if DispatchTime.now().uptimeNanoseconds >= deadline { throw StorageError.locked(path: path) }
                usleep(10_000)
            }
            return file
        } catch {
            try? fileSystem.close(file)
            throw error
        }
    }

    /// Checks the file against the journal, then extends it to the journal's head or rebuilds it.
    func bringUpToDate(_ file: OpenFile) throws(StorageError) {
        let header: TreeFileHeader
        switch try readHeader(file) {
        case .failure(let failure):
            try rebuild(file, reason: failure.reason)
            return
        case .success(let decoded):
            header = decoded
        }
        var cursor = try reader.records(from: max(1, header.head.sequence))
        var edge: [EdgeNode] = []
        if header.head.sequence > 0 {
            let first = try cursor.next()
            guard let first, first.sequence == header.head.sequence, first.hash == header.head.hash else {
                let found =
                    first.map { "record \($0.sequence) has hash \($0.hash.hex)" } ?? "the journal ends before it"
                try rebuild(
                    file,
                    reason: "it was built from other records: it records hash \(header.head.hash.hex) for record "
                        + "\(header.head.sequence), but \(found)")
                return
            }
            edge = try loadEdge(file, leaves: header.head.sequence)
        }
        let added = try extend(file, from: header.head, edge: edge, cursor: &cursor, writeHeader: false)
        update = added == 0 ? .current : .extended(records: added)
    }

    /// The file's header, or why it cannot be trusted.
    private func readHeader(_ file: OpenFile) throws(StorageError) -> Result<TreeFileHeader, DecodeFailure> {
        let size = try fileSystem.size(of: file)
        if size == 0 { return .failure(DecodeFailure("it is new")) }
        let bytes = try fileSystem.read(file, count: TreeFileHeader.encodedBytes, at: 0)
        switch TreeFileHeader.decode(bytes) {
        case .failure(let failure): return .failure(failure)
        case .success(let header) where header.ledgerID != identity.ledgerID:
            return .failure(DecodeFailure("it belongs to ledger \(header.ledgerID.uuidString)"))
        case .success(let header):
            let needed = TreeFileLayout.fileBytes(leaves: header.head.sequence)
            guard size >= needed else {
                return .failure(DecodeFailure("it is \(size) bytes, short of the \(needed) its header counts"))
            }
            return .success(header)
        }
    }

    /// Empties the file and builds it again from every record of the journal.
    func rebuild(_ file: OpenFile, reason: String) throws(StorageError) {
        try fileSystem.truncate(file, to: 0)
        var cursor = try reader.records(from: 1)
        _ = try extend(file, from: .empty, edge: [], cursor: &cursor, writeHeader: true)
        update = .rebuilt(reason: reason)
    }

    /// The perfect subtrees on the right edge of a tree of `leaves` leaves, largest first.
    private func loadEdge(_ file: OpenFile, leaves: UInt64) throws(StorageError) -> [EdgeNode] {
        var nodes = TreeFileNodes(fileSystem: fileSystem, file: file, leafCount: leaves)
        var edge: [EdgeNode] = []
        var start: UInt64 = 0
        for level in (0..<64).reversed() where leaves & (UInt64(1) << level) != 0 {
            edge.append(EdgeNode(level: level, hash: try nodes.perfectNode(level: level, index: start >> level)))
            start += UInt64(1) << level
        }
        return edge
    }

    /// Appends the cursor's records as leaves after `start`, writing each node as it completes;
    /// makes the nodes durable, then the header that counts them. Returns how many were added.
    private func extend(
        _ file: OpenFile, from start: HeadDigest, edge: [EdgeNode], cursor: inout JournalCursor, writeHeader: Bool
    ) throws(StorageError) -> UInt64 {
        var edge = edge
        var pending: [UInt8] = []
        var offset = TreeFileLayout.fileBytes(leaves: start.sequence)
        var last = start
        while let record = try cursor.next() {
            let recordOffset = UInt64(record.location.offset)
            for shift in stride(from: 0, to: 64, by: 8) {
                pending.append(UInt8(truncatingIfNeeded: recordOffset >> shift))
            }
            var node = EdgeNode(level: 0, hash: MerkleLeaf(record).hash)
            node.hash.append(to: &pending)
            while let top = edge.last, top.level == node.level {
                edge.removeLast()
                node = EdgeNode(level: node.level + 1, hash: MerkleHash.node(top.hash, node.hash))
                node.hash.append(to: &pending)
            }
            edge.append(node)
            last = HeadDigest(sequence: record.sequence, hash: record.hash)
            if pending.count >= Self.writeChunkBytes {
                try fileSystem.write(file, pending, at: offset)
                offset += Int64(pending.count)
                pending.removeAll(keepingCapacity: true)
            }
        }
        if !pending.isEmpty { try fileSystem.write(file, pending, at: offset) }
        if last != start || writeHeader {
            try fileSystem.synchronizeData(file)
            try fileSystem.write(file, TreeFileHeader(ledgerID: identity.ledgerID, head: last).encoded(), at: 0)
            try fileSystem.synchronizeData(file)
        }
        head = last
        view = MerkleTreeView(TreeFileNodes(fileSystem: fileSystem, file: file, leafCount: last.sequence))
        return last.sequence - start.sequence
    }
}
