/// Reading one record where the tree recorded it, without scanning its segment.
extension LedgerMerkleTree {
    /// The record with sequence `sequence`, read at the offset `TREE` recorded for it: its frame's
    /// CRC and its body are checked, but not its place in the chain, which the caller checks by
    /// comparing its leaf hash with the one the tree holds (built by a scan that checked the
    /// chain). The record's `hash` is therefore not its chain hash. Nil when anything does not fit
    /// (a format version 1 segment among them), so that the caller scans instead.
    func recordWhereRecorded(_ sequence: UInt64) -> JournalRecord? {
        guard let treeFile = file, sequence >= 1, sequence <= head.sequence,
            let offsetBytes = try? fileSystem.read(
                treeFile, count: TreeFileLayout.offsetBytes, at: TreeFileLayout.recordOffset(leaf: sequence - 1)),
            offsetBytes.count == TreeFileLayout.offsetBytes,
            let first = try? reader.segmentStarts().last(where: { $0 <= sequence })
        else { return nil }
        let offset = offsetBytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return try? readRecord(sequence, segment: paths.segment(firstSequence: first), offset: Int64(offset))
    }

    private func readRecord(_ sequence: UInt64, segment path: String, offset: Int64) throws -> JournalRecord? {
        let segment = try fileSystem.open(path, .readOnly)
        defer { try? fileSystem.close(segment) }
        let headerBytes = try fileSystem.read(segment, count: SegmentHeader.encodedBytes, at: 0)
        guard case .success(let header) = SegmentHeader.decode(headerBytes), header.formatVersion == 2,
            header.ledgerID == identity.ledgerID, offset >= Int64(SegmentHeader.encodedBytes)
        else { return nil }
        let frameHeader = try fileSystem.read(segment, count: RecordFrame.frameHeaderBytes, at: offset)
        guard frameHeader.count == RecordFrame.frameHeaderBytes else { return nil }
        let length = Int(RecordFrame.readUInt32(frameHeader, 0))
        guard Int64(length) <= (try fileSystem.size(of: segment)) - offset else { return nil }
        let frame = try fileSystem.read(segment, count: RecordFrame.frameHeaderBytes + length, at: offset)
        guard case .frame(let bodyStart, let bodyLength) = RecordFrame.parse(frame, at: 0, formatVersion: 2),
            case .success(let record) = RecordFrame.decodeBody(
                frame, bodyStart: bodyStart, bodyLength: bodyLength, previousHash: .zero,
                location: LedgerLocation(file: paths.relative(path), offset: offset), formatVersion: 2),
            record.sequence == sequence
        else { return nil }
        return record
    }
}
