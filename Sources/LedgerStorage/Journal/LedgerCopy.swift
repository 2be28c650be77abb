import Foundation

extension LedgerDirectory {
    /// Creates a new ledger at `path` holding exactly these records, with the source's identity,
    /// sequence numbers, commit times, authors and request ids, so every chain hash (and so the
    /// head digest) equals the source's; a redacted record is copied redacted, with its reason.
    /// Returns the new ledger's head once it is on disk.
    ///
    /// The records must be a gapless prefix of one ledger's journal, starting at sequence 1.
    @discardableResult
    public static func createCopy(
        at path: String, identity: LedgerIdentity, records: [JournalRecord],
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws -> HeadDigest {
        for (index, record) in records.enumerated() where record.sequence != UInt64(index + 1) {
            throw StorageError.invalidArgument("records to copy must start at 1 without gaps; found \(record.sequence)")
        }
        try create(
            at: path, fileSystem: fileSystem, ledgerID: identity.ledgerID,
            createdMicroseconds: identity.createdMicroseconds)
        let times = RecordedTimes(records.map(\.commitMicroseconds))
        let journal = try Journal.open(
            at: path, options: JournalOptions(fileSystem: fileSystem, clock: { times.next() }))
        defer { journal.close() }
        var head = HeadDigest.empty
        for record in records {
            let receipt = try journal.appendAndWait(
                JournalEntry(
                    requestID: record.requestID, author: record.author, schemaVersion: record.schemaVersion,
                    payload: record.payload, redaction: record.redaction))
            guard receipt.hash == record.hash else {
                throw StorageError.corruption(
                    location: record.location, reason: "the copy of record \(record.sequence) hashes differently")
            }
            head = HeadDigest(sequence: receipt.sequence, hash: receipt.hash)
        }
        return head
    }
}

/// Hands out recorded commit times one per call, so a copy keeps its source's times.
private final class RecordedTimes: @unchecked Sendable {
    // Thread-safety: guarded by `lock`.
    private let lock = NSLock()
    private var times: [Int64]
    private var index = 0
    init(_ times: [Int64]) { self.times = times }
    func next() -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        guard index < times.count else { return times.last ?? WallClock.nowMicroseconds() }
        index += 1
        return times[index - 1]
    }
}
