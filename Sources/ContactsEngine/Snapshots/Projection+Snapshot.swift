import ContactsModel
import Dispatch
import Foundation
import LedgerStorage

/// The state bytes a ``Projection`` puts in a snapshot file (`SnapshotStore` in LedgerStorage
/// frames them with the sequence, chain hash, length, digest and CRC).
///
/// Version 7, in order (integers are LEB128 varints unless marked fixed; strings and byte
/// strings are a varint length and the bytes; sets are a count and their sorted elements):
///
/// | field | form |
/// |---|---|
/// | snapshot format version | 1 byte, ``Projection/snapshotFormatVersion`` |
/// | ledger id | 16 bytes |
/// | head sequence, head hash, last commit time | fixed 8, 32 bytes, fixed 8 (signed µs) |
/// | where the search indexes' section starts, from the version byte | fixed 8 |
/// | default country code of the phone index | string |
/// | containers | count; each identifier, name, type |
/// | container identifiers by index | count; strings |
/// | creators by index | count; strings |
/// | contacts | the live contacts' identifiers (a canonical UUID's 16 bytes, any other identifier its UTF-8; ``ContactTable/IdentifierKey``) and encoded values (``ContactCodec``, all keys) back to back, as one byte array; then per slot, as arrays: offset in it, revision, identifier length, encoded length, creator index, container index (65535 for a free slot); the identifier table's buckets; the free slots in the order they will be reused |
/// | groups | count; each identifier, name, container, revision, members, subgroups, parents |
/// | access | count; each client, status, notes entitlement (1 byte) |
/// | grants | count; each client, contact identifiers |
/// | request ids | count; each 16 bytes and sequence |
/// | links | count; each linked contact's identifier and its link set, in link order |
/// | search indexes | 1 byte: 2 = stored, then the indexes as they are in memory (their country code first); 0 = not stored, rebuilt from the contacts; 1 = stored in an earlier layout, rebuilt from the contacts |
///
/// Arrays are a count and the elements' bytes (little-endian). Contacts are stored in the
/// projection's own encoded form and its own table layout, so writing and reading them copies
/// arrays; nothing is decoded. Earlier versions are passed over like any other, and the state is
/// replayed from the journal: version 6 had no links; version 5 hashed the contact table's identifiers otherwise (before
/// ``ByteHash``); version 4 kept every identifier as its text in the arena (versions 5 and later
/// keep a canonical UUID's 16 bytes); version 3 did not record where its index section starts,
/// for restoring it on a thread of its own; version 2 encoded contacts in event schema version 1;
/// version 1 stored contacts slot by slot.
extension Projection {
    /// The version of the state encoding; a snapshot of any other version is ignored.
    package static let snapshotFormatVersion: UInt8 = 7

    /// How the search indexes are kept in the state.
    private enum IndexForm: UInt8 {
        /// Not stored: rebuilt from the contacts, in slot order, when the state is loaded.
        case rebuild = 0
        /// Stored in an earlier layout of the name index (without its per-slot signatures):
        /// passed over and rebuilt from the contacts, never read.
        case storedWithoutSignatures = 1
        /// Stored as they are in memory (``SearchIndexes/encode(into:)``); restoring them copies
        /// arrays. Indexes built for another default country are rebuilt instead, since the
        /// country decides how national phone numbers are keyed.
        case stored = 2
    }

    /// Encodes the whole projection as snapshot state; without `storingIndexes` the search
    /// indexes are left out, to be rebuilt from the contacts on load (index form 0).
    package func snapshotState(storingIndexes: Bool = true) -> [UInt8] {
        var state: [UInt8] = []
        state.reserveCapacity(snapshotStateCapacity)
        encodeSnapshotState(storingIndexes: storingIndexes, appendingTo: &state)
        return state
    }

    /// About the size of the snapshot state, for reserving room for it.
    package var snapshotStateCapacity: Int {
        contacts.arenaBytes + contacts.slotCount * 24 + requests.count * 24 + indexes.estimatedBytes + 4096
    }

    /// Appends the snapshot state (``snapshotState(storingIndexes:)``) to `bytes`, whatever
    /// they hold already: a snapshot file's header, for one.
    package func encodeSnapshotState(storingIndexes: Bool = true, appendingTo bytes: inout [UInt8]) {
        var writer = SnapshotWriter(appendingTo: &bytes)
        defer { writer.giveBack(&bytes) }
        writer.byte(Self.snapshotFormatVersion)
        writer.uuid(ledgerID)
        writer.fixed64(head.sequence)
        head.hash.withUnsafeBytes { writer.raw($0) }
        writer.fixed64(UInt64(bitPattern: lastCommitMicroseconds))
        // Where the index section starts, patched below: a restore reads it on a second thread.
        let indexOffsetAt = writer.offset
        writer.fixed64(0)
        writer.string(indexes.defaultCountryCode)

        writer.varint(containers.count)
        for container in containers.values.sorted(by: { $0.identifier < $1.identifier }) {
            writer.string(container.identifier)
            writer.string(container.name)
            writer.varint(container.type.rawValue)
        }
        writer.varint(containerIdentifiers.count)
        for identifier in containerIdentifiers { writer.string(identifier) }
        writer.varint(creators.count)
        for creator in creators { writer.string(creator) }

        contacts.encode(into: &writer)

        writer.varint(groupsByIdentifier.count)
        for (identifier, group) in groupsByIdentifier.sorted(by: { $0.key < $1.key }) {
            writer.string(identifier)
            writer.string(group.name)
            writer.string(group.containerIdentifier)
            writer.varint(group.revision)
            writer.strings(group.members)
            writer.strings(group.subgroups)
            writer.strings(group.parents)
        }
        writer.varint(accessByClient.count)
        for (client, access) in accessByClient.sorted(by: { $0.key < $1.key }) {
            writer.string(client)
            writer.varint(access.status.rawValue)
            writer.byte(access.notesEntitlement ? 1 : 0)
        }
        writer.varint(grantsByClient.count)
        for (client, contacts) in grantsByClient.sorted(by: { $0.key < $1.key }) {
            writer.string(client)
            writer.strings(contacts)
        }
        writer.varint(requests.count)
        for (request, sequence) in requests {
            writer.uuid(request)
            writer.varint(sequence)
        }
        writer.varint(linksByContact.count)
        for (contact, links) in linksByContact.sorted(by: { $0.key < $1.key }) {
            writer.string(contact)
            writer.varint(links.count)
            for link in links { writer.string(link) }
        }
        writer.patchFixed64(UInt64(writer.offset), at: indexOffsetAt)
        if storingIndexes {
            writer.byte(IndexForm.stored.rawValue)
            indexes.encode(into: &writer)
        } else {
            writer.byte(IndexForm.rebuild.rawValue)
        }
    }

    /// Restores a projection from snapshot state written by ``snapshotState()``.
    ///
    /// Throws when the state is of another version, belongs to another ledger, claims another
    /// head than the snapshot file's header, or is malformed in any way; the caller then ignores
    /// the snapshot and replays the journal.
    package init(
        snapshotState state: [UInt8], ledgerID: UUID, head expected: HeadDigest,
        defaultCountryCode: String = ContactsUserDefaults.shared.countryCode
    ) throws(SnapshotDecodingError) {
        self = try state.withUnsafeBufferPointer { (buffer) throws(SnapshotDecodingError) in
            try Self.restore(
                buffer, ledgerID: ledgerID, expected: expected, defaultCountryCode: defaultCountryCode,
                alongside: { true })
        }
    }

    /// Restores a projection from a snapshot file's state where it lies (mapped or read once),
    /// without copying it out first. The state's checksum is checked on a second thread while
    /// the contacts are restored; a state that fails it is refused like a malformed one.
    package init(
        snapshot: Snapshot, ledgerID: UUID, head expected: HeadDigest,
        defaultCountryCode: String = ContactsUserDefaults.shared.countryCode
    ) throws(SnapshotDecodingError) {
        self = try snapshot.withState { (state) throws(SnapshotDecodingError) in
            try Self.restore(
                state.assumingMemoryBound(to: UInt8.self), ledgerID: ledgerID, expected: expected,
                defaultCountryCode: defaultCountryCode, alongside: { snapshot.stateChecksumMatches() })
        }
    }

    /// Restores a projection from `state`, on two threads: this one reads everything before the
    /// index section, another reads the index section (its offset is in the state's header) and
    /// runs `alongside`, a check that must hold for the state to be used.
    private static func restore(
        _ state: UnsafeBufferPointer<UInt8>, ledgerID: UUID, expected: HeadDigest, defaultCountryCode: String,
        alongside: @escaping @Sendable () -> Bool
    ) throws(SnapshotDecodingError) -> Projection {
        var result = Projection(ledgerID: ledgerID, defaultCountryCode: defaultCountryCode)
        var reader = SnapshotReader(state)
        let indexOffset = try result.restoreHeader(from: &reader, expected: expected)
        // The index section, and the check, on a thread of their own: the two halves of a restore
        // are mostly copying and page faults, which two cores do side by side. The caller keeps
        // the state alive until the wait below.
        let borrowed = BorrowedBytes(buffer: state)
        let indexSection = BackgroundWork(named: "snapshot load") {
            () -> (indexes: Result<SearchIndexes?, SnapshotDecodingError>, checked: Bool) in
            var reader = SnapshotReader(borrowed.buffer)
            let indexes: Result<SearchIndexes?, SnapshotDecodingError>
            do throws(SnapshotDecodingError) {
                try reader.seek(to: indexOffset)
                indexes = .success(try Projection.storedIndexes(from: &reader, country: defaultCountryCode))
            } catch {
                indexes = .failure(error)
            }
            return (indexes, alongside())
        }
        let contactsPart: Result<Void, SnapshotDecodingError>
        do throws(SnapshotDecodingError) {
            try result.restore(from: &reader, expected: expected)
            try reader.check(reader.offset == indexOffset, "the index section is not where the header says")
            contactsPart = .success(())
        } catch {
            contactsPart = .failure(error)
        }
        let (indexPart, checked) = indexSection.wait()
        guard checked else { throw SnapshotDecodingError("the state does not match its checksum") }
        try contactsPart.get()
        if let indexes = try indexPart.get() {
            result.indexes = indexes
        } else {
            try result.rebuildIndexes()
        }
        return result
    }

    /// The index section: the stored indexes, or nil when they must be rebuilt from the contacts
    /// (index form 0, or indexes keyed for another default country).
    private static func storedIndexes(
        from reader: inout SnapshotReader, country: String
    ) throws(SnapshotDecodingError) -> SearchIndexes? {
        let indexes: SearchIndexes?
        switch IndexForm(rawValue: try reader.byte()) {
        case .rebuild:
            indexes = nil
        case .storedWithoutSignatures:
            reader.skipRest()
            indexes = nil
        case .stored:
            if try SearchIndexes.countryCode(in: reader) == country {
                indexes = try SearchIndexes(from: &reader)
            } else {
                reader.skipRest()
                indexes = nil
            }
        case nil:
            throw SnapshotDecodingError("the search indexes are in an unknown form")
        }
        guard reader.isAtEnd else { throw SnapshotDecodingError("the state has bytes after its end") }
        return indexes
    }

    /// Reads the fixed fields at the start of the state, checks them, and returns the offset of
    /// the index section.
    private mutating func restoreHeader(
        from reader: inout SnapshotReader, expected: HeadDigest
    ) throws(SnapshotDecodingError) -> Int {
        let version = try reader.byte()
        guard version == Self.snapshotFormatVersion else {
            throw SnapshotDecodingError("snapshot format version \(version) is not \(Self.snapshotFormatVersion)")
        }
        let id = try reader.uuid()
        guard id == ledgerID else { throw SnapshotDecodingError("the state belongs to ledger \(id)") }
        let sequence = try reader.fixed64()
        let hash = SHA256Digest(bytes: UnsafeRawBufferPointer(try reader.raw(32)))
        guard sequence == expected.sequence, hash == expected.hash else {
            throw SnapshotDecodingError("the state is of \(sequence):\(hash.hex), the file says \(expected)")
        }
        head = HeadDigest(sequence: sequence, hash: hash)
        lastCommitMicroseconds = Int64(bitPattern: try reader.fixed64())
        let indexOffset = try reader.fixed64()
        try reader.check(
            indexOffset <= UInt64(reader.offset + reader.remaining), "the index section lies outside the state")
        return Int(indexOffset)
    }

    /// Reads everything between the header and the index section, on a fresh projection.
    private mutating func restore(from reader: inout SnapshotReader, expected: HeadDigest) throws(SnapshotDecodingError)
    {
        // The indexes are rebuilt below under this store's default country, so the country they
        // were written under does not matter yet.
        _ = try reader.string()

        let limit = Int(UInt32.max)
        for _ in 0..<(try reader.count(atMost: limit)) {
            let identifier = try reader.string()
            let name = try reader.string()
            guard let type = ContainerType(rawValue: Int(try reader.varint())) else {
                throw SnapshotDecodingError("container \(identifier) has an unknown type")
            }
            containers[identifier] = Container(identifier: identifier, name: name, type: type)
        }
        let containerCount = try reader.count(atMost: Int(UInt16.max) + 1)
        containerIdentifiers = []
        containerIndexes = [:]
        for index in 0..<containerCount {
            let identifier = try reader.string()
            containerIdentifiers.append(identifier)
            containerIndexes[identifier] = UInt16(index)
        }
        guard containerIdentifiers.first == defaultContainer.identifier else {
            throw SnapshotDecodingError("the first container index is not the default container")
        }
        let creatorCount = try reader.count(atMost: limit)
        creators = []
        creators.reserveCapacity(creatorCount)
        creatorIndexes = [:]
        for index in 0..<creatorCount {
            let creator = try reader.string()
            creators.append(creator)
            creatorIndexes[creator] = UInt32(index)
        }

        contacts = try ContactTable(
            from: &reader, containers: containerIdentifiers.count, creators: creators.count)

        for _ in 0..<(try reader.count(atMost: limit)) {
            let identifier = try reader.string()
            let name = try reader.string()
            let container = try reader.string()
            let revision = try reader.varint()
            let members = try reader.strings()
            let subgroups = try reader.strings()
            let parents = try reader.strings()
            groupsByIdentifier[identifier] = GroupState(
                name: name, containerIdentifier: container, members: members, subgroups: subgroups, parents: parents,
                revision: revision)
        }
        for _ in 0..<(try reader.count(atMost: limit)) {
            let client = try reader.string()
            guard let status = AuthorizationStatus(rawValue: Int(try reader.varint())) else {
                throw SnapshotDecodingError("client \(client) has an unknown authorization status")
            }
            let notes = try reader.byte()
            accessByClient[client] = ClientAccess(status: status, notesEntitlement: notes != 0)
        }
        for _ in 0..<(try reader.count(atMost: limit)) {
            let client = try reader.string()
            grantsByClient[client] = try reader.strings()
        }
        let requestCount = try reader.count(atMost: limit)
        requests = Dictionary(minimumCapacity: requestCount)
        for _ in 0..<requestCount {
            let request = try reader.uuid()
            requests[request] = try reader.varint()
        }
        try restoreLinks(from: &reader)
    }

    /// Reads the link sets, the last section before the indexes.
    private mutating func restoreLinks(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        let limit = Int(UInt32.max)
        for _ in 0..<(try reader.count(atMost: limit)) {
            let contact = try reader.string()
            var links: [String] = []
            for _ in 0..<(try reader.count(atMost: limit)) { links.append(try reader.string()) }
            linksByContact[contact] = links
        }
    }

    /// Indexes every contact, in slot order, into empty indexes.
    private mutating func rebuildIndexes() throws(SnapshotDecodingError) {
        do throws(IndexBuildFailure) {
            try buildIndexes()
        } catch {
            throw SnapshotDecodingError("\(error)")
        }
    }
}
