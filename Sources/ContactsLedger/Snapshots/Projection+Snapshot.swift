import Foundation
import LedgerStorage

/// The state bytes a ``Projection`` puts in a snapshot file (`SnapshotStore` in LedgerStorage
/// frames them with the sequence, chain hash, length, digest and CRC).
///
/// Version 2, in order (integers are LEB128 varints unless marked fixed; strings and byte
/// strings are a varint length and the bytes; sets are a count and their sorted elements):
///
/// | field | form |
/// |---|---|
/// | snapshot format version | 1 byte, ``Projection/snapshotFormatVersion`` |
/// | ledger id | 16 bytes |
/// | head sequence, head hash, last commit time | fixed 8, 32 bytes, fixed 8 (signed µs) |
/// | default country code of the phone index | string |
/// | containers | count; each identifier, name, type |
/// | container identifiers by index | count; strings |
/// | creators by index | count; strings |
/// | contacts | the live contacts' identifiers and encoded values (``ContactCodec``, all keys) back to back, as one byte array; then per slot, as arrays: offset in it, revision, identifier length, encoded length, creator index, container index (65535 for a free slot); the identifier table's buckets; the free slots in the order they will be reused |
/// | groups | count; each identifier, name, container, revision, members, subgroups, parents |
/// | access | count; each client, status, notes entitlement (1 byte) |
/// | grants | count; each client, contact identifiers |
/// | request ids | count; each 16 bytes and sequence |
/// | search indexes | 1 byte: 2 = stored, then the indexes as they are in memory (their country code first); 0 = not stored, rebuilt from the contacts; 1 = stored in an earlier layout, rebuilt from the contacts |
///
/// Arrays are a count and the elements' bytes (little-endian). Contacts are stored in the
/// projection's own encoded form and its own table layout, so writing and reading them copies
/// arrays; nothing is decoded. (Version 1 stored contacts slot by slot; such snapshots are passed
/// over like any of another version.)
extension Projection {
    /// The version of the state encoding; a snapshot of any other version is ignored.
    package static let snapshotFormatVersion: UInt8 = 2

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
        var writer = SnapshotWriter(
            capacity: contacts.arenaBytes + contacts.slotCount * 24 + requests.count * 24 + indexes.estimatedBytes
                + 4096)
        writer.byte(Self.snapshotFormatVersion)
        writer.uuid(ledgerID)
        writer.fixed64(head.sequence)
        head.hash.withUnsafeBytes { writer.raw($0) }
        writer.fixed64(UInt64(bitPattern: lastCommitMicroseconds))
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
        if storingIndexes {
            writer.byte(IndexForm.stored.rawValue)
            indexes.encode(into: &writer)
        } else {
            writer.byte(IndexForm.rebuild.rawValue)
        }
        return writer.bytes
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
        var result = Projection(ledgerID: ledgerID, defaultCountryCode: defaultCountryCode)
        try state.withUnsafeBufferPointer { (buffer) throws(SnapshotDecodingError) in
            var reader = SnapshotReader(buffer)
            try result.restore(from: &reader, expected: expected)
        }
        self = result
    }

    /// The body of ``init(snapshotState:ledgerID:head:defaultCountryCode:)``, on a fresh projection.
    private mutating func restore(from reader: inout SnapshotReader, expected: HeadDigest) throws(SnapshotDecodingError)
    {
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
        switch IndexForm(rawValue: try reader.byte()) {
        case .rebuild:
            try rebuildIndexes()
        case .storedWithoutSignatures:
            reader.skipRest()
            try rebuildIndexes()
        case .stored:
            if try SearchIndexes.countryCode(in: reader) == indexes.defaultCountryCode {
                indexes = try SearchIndexes(from: &reader)
            } else {
                reader.skipRest()
                try rebuildIndexes()
            }
        case nil:
            throw SnapshotDecodingError("the search indexes are in an unknown form")
        }
        guard reader.isAtEnd else { throw SnapshotDecodingError("the state has bytes after its end") }
    }

    /// Indexes every contact, in slot order, into empty indexes.
    private mutating func rebuildIndexes() throws(SnapshotDecodingError) {
        for (slot, record) in contacts.records.enumerated() where !record.isFree {
            let values: ContactValues
            do {
                values = try ContactCodec.decode(contacts.encoded(record)).values
            } catch {
                throw SnapshotDecodingError("the contact in slot \(slot) cannot be decoded: \(error)")
            }
            indexes.insert(ContactSlot(slot), values: values)
        }
        prepareForQueries()
    }
}
