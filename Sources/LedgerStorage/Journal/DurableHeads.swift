import Foundation

/// The heads a ledger recorded outside its journal as durable: the `HEAD` marker and the
/// header of every snapshot (decision 0018).
///
/// A scan checks each record it reads at one of these sequences against the recorded chain hash,
/// and at its end that the journal reaches the highest of them. Either failing means records
/// that were acknowledged were altered or lost, which recovery reports as corruption rather
/// than truncating as a torn write. Heads are read before the journal is, so that a writer
/// making a later head durable while a reader scans can never make the reader's older view of
/// the journal look short.
struct DurableHeads: Sendable {
    /// One recorded head and the file that recorded it, for error messages.
    struct Entry: Sendable {
        var head: HeadDigest
        var source: String
    }

    /// The recorded heads, by sequence, lowest first.
    private(set) var entries: [Entry]
    /// The marker's sequence, or nil without a readable marker.
    let markerSequence: UInt64?
    /// Why the `HEAD` file exists but does not check out, if so: the floor it recorded is unknown,
    /// so no end of the journal can be shown to be above it.
    let unreadableMarker: String?

    /// No recorded heads: what a ledger without marker or snapshots has.
    static let none = DurableHeads(entries: [], markerSequence: nil, unreadableMarker: nil)

    private init(entries: [Entry], markerSequence: UInt64?, unreadableMarker: String?) {
        self.entries = entries.sorted { $0.head.sequence < $1.head.sequence }
        self.markerSequence = markerSequence
        self.unreadableMarker = unreadableMarker
    }

    /// The recorded head with the highest sequence, if any.
    var highest: Entry? { entries.last }

    /// Reads the marker and the snapshot headers of a ledger.
    ///
    /// A snapshot whose header does not check out, or that belongs to another ledger, records
    /// nothing, as a snapshot that cannot be used never did; a snapshot is a cache and may be
    /// deleted. A marker that exists but does not check out is reported in ``unreadableMarker``;
    /// one that cannot be read (an I/O error) is an error, like any read of the ledger.
    static func load(
        _ paths: LedgerPaths, _ identity: LedgerIdentity, fileSystem: any FileSystem
    ) throws(StorageError) -> DurableHeads {
        var entries: [Entry] = []
        var markerSequence: UInt64?
        var unreadable: String?
        switch try readMarker(paths, identity, fileSystem: fileSystem) {
        case nil: break
        case .success(let marker)?:
            entries.append(Entry(head: marker.head, source: "HEAD"))
            markerSequence = marker.head.sequence
        case .failure(let failure)?:
            unreadable = failure.reason
        }
        let snapshots = SnapshotStore(paths: paths, identity: identity, fileSystem: fileSystem)
        for sequence in try snapshots.sequences() {
            guard case .success(let hash) = snapshots.recordedHash(sequence: sequence) else { continue }
            entries.append(
                Entry(
                    head: HeadDigest(sequence: sequence, hash: hash),
                    source: paths.relative(paths.snapshots + "/" + SnapshotStore.fileName(sequence: sequence))))
        }
        return DurableHeads(entries: entries, markerSequence: markerSequence, unreadableMarker: unreadable)
    }

    /// The marker of a ledger: nil when there is no `HEAD` file, else the decoded marker or why
    /// it does not check out.
    static func readMarker(
        _ paths: LedgerPaths, _ identity: LedgerIdentity, fileSystem: any FileSystem
    ) throws(StorageError) -> Result<HeadMarker, DecodeFailure>? {
        guard fileSystem.exists(paths.headMarker) else { return nil }
        switch HeadMarker.decode(try fileSystem.readAll(paths.headMarker)) {
        case .failure(let failure): return .failure(failure)
        case .success(let marker) where marker.ledgerID != identity.ledgerID:
            return .failure(DecodeFailure("HEAD belongs to ledger \(marker.ledgerID), not \(identity.ledgerID)"))
        case .success(let marker): return .success(marker)
        }
    }

    /// Records `head` in `HEAD` when the marker, at `marked` (nil for none usable), is behind it;
    /// returns the sequence the marker records afterwards. A marker that cannot be written leaves
    /// the older one, which is still true: the caller goes on. The caller must have made every
    /// record up to `head` durable first.
    static func advanceMarker(
        to head: HeadDigest, from marked: UInt64?, _ paths: LedgerPaths, _ identity: LedgerIdentity,
        fileSystem: any FileSystem
    ) -> UInt64? {
        if let marked, marked >= head.sequence { return marked }
        guard (try? writeMarker(head, paths, identity, fileSystem: fileSystem)) != nil else { return marked }
        return head.sequence
    }

    /// Records `head` in the `HEAD` file (temporary file, fsync, rename, directory fsync). The
    /// caller must have made every record up to it durable first.
    static func writeMarker(
        _ head: HeadDigest, _ paths: LedgerPaths, _ identity: LedgerIdentity, fileSystem: any FileSystem
    ) throws(StorageError) {
        let marker = HeadMarker(ledgerID: identity.ledgerID, head: head)
        try fileSystem.replaceAtomically(
            paths.headMarker, with: marker.encoded(), permissions: LedgerDirectory.filePermissions)
    }
}
