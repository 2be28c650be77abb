import ContactsModel
import Dispatch
import Foundation
import LedgerStorage

/// The state bytes a ``Projection`` puts in a snapshot file (`SnapshotStore` in LedgerStorage
/// frames them with the sequence, chain hash, length and CRC).
///
/// Version 8, in order (integers are LEB128 varints unless marked fixed; strings and byte
/// strings are a varint length and the bytes; sets are a count and their sorted elements):
///
/// | field | form |
/// |---|---|
/// | snapshot format version | 1 byte, ``Projection/snapshotFormatVersion`` |
/// | ledger id | 16 bytes |
/// | head sequence, head hash, last commit time | fixed 8, 32 bytes, fixed 8 (signed µs) |
/// | the lengths of the three sections below | fixed 8 each: table, arena, rest |
/// | table | containers (count; each identifier, name, type); container identifiers by index (count; strings); creators by index (count; strings); the contact table's columns (``ContactTable/encodeColumns(into:)``: per slot its identifier's form, encoded length, revision, creator and container; then the free slots in reuse order) |
/// | arena | the live contacts' identifiers (a canonical UUID's 16 bytes, any other identifier its UTF-8; ``ContactTable/IdentifierKey``) and encoded values (``ContactCodec``, all keys), back to back in slot order |
/// | rest | groups (count; each identifier, name, container, revision, members, subgroups, parents); access (count; each client, status, notes entitlement as 1 byte); grants (count; each client, contact identifiers); request ids (count; each 16 bytes and sequence, in sequence order); links (count; each linked contact's identifier and its link set, in link order) |
///
/// The search indexes are not stored: a projection restored from a snapshot leaves them deferred,
/// as a read-only open does after a replay (decision 0034): the store's first search scans the
/// contacts, and its second, or a non-search read that wants them, builds them (decision 0037). The
/// contacts are stored in the projection's own encoded form, in the order of its slots, so that
/// a restore reads the arena straight into the table's memory, a piece at a time, and decodes
/// nothing; the identifier table is made again from the identifiers. Earlier versions are passed
/// over like any other, and the state is replayed from the journal: version 7 stored the search
/// indexes, the offsets and fixed-width columns of the contact table and its identifier table's
/// buckets; version 6 had no links; version 5 hashed the contact table's identifiers otherwise
/// (before ``ByteHash``); version 4 kept every identifier as its text in the arena (versions 5
/// and later keep a canonical UUID's 16 bytes); version 3 did not record where its index section
/// starts; version 2 encoded contacts in event schema version 1; version 1 stored contacts slot
/// by slot.
extension Projection {
    /// The version of the state encoding; a snapshot of any other version is ignored.
    package static let snapshotFormatVersion: UInt8 = 8

    /// The bytes before the first section: version, ledger id, head, time and the three lengths.
    static let snapshotPrefixBytes = 1 + 16 + 8 + 32 + 8 + 3 * 8

    /// Encodes the whole projection but its search indexes as snapshot state.
    package func snapshotState() -> [UInt8] {
        var state: [UInt8] = []
        state.reserveCapacity(snapshotStateCapacity)
        encodeSnapshotState(appendingTo: &state)
        return state
    }

    /// About the size of the snapshot state, for reserving room for it and for judging when the
    /// replay after the newest snapshot has grown enough to write another (decision 0019).
    package var snapshotStateCapacity: Int {
        contacts.liveBytes + contacts.slotCount * 8 + requests.count * 20 + 4096
    }

    /// Appends the snapshot state (``snapshotState()``) to `bytes`, whatever they hold already: a
    /// snapshot file's header, for one.
    package func encodeSnapshotState(appendingTo bytes: inout [UInt8]) {
        var writer = SnapshotWriter(appendingTo: &bytes)
        defer { writer.giveBack(&bytes) }
        writer.byte(Self.snapshotFormatVersion)
        writer.uuid(ledgerID)
        writer.fixed64(head.sequence)
        head.hash.withUnsafeBytes { writer.raw($0) }
        writer.fixed64(UInt64(bitPattern: lastCommitMicroseconds))
        // The sections' lengths, patched below, so that a restore reads each where it belongs.
        let lengthsAt = writer.offset
        for _ in 0..<3 { writer.fixed64(0) }
        var start = writer.offset
        encodeTableSection(into: &writer)
        writer.patchFixed64(UInt64(writer.offset - start), at: lengthsAt)
        start = writer.offset
        contacts.encodeArena(into: &writer)
        writer.patchFixed64(UInt64(writer.offset - start), at: lengthsAt + 8)
        start = writer.offset
        encodeRestSection(into: &writer)
        writer.patchFixed64(UInt64(writer.offset - start), at: lengthsAt + 16)
    }

    /// The containers, the container and creator indexes, and the contact table's columns.
    private func encodeTableSection(into writer: inout SnapshotWriter) {
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
        contacts.encodeColumns(into: &writer)
    }

    /// Groups, access, grants, request ids and links.
    private func encodeRestSection(into writer: inout SnapshotWriter) {
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
        // In sequence order (one record per request), so that a state's bytes depend on it alone.
        for (request, sequence) in requests.sorted(by: { $0.value < $1.value }) {
            writer.uuid(request)
            writer.varint(sequence)
        }
        writer.varint(linksByContact.count)
        for (contact, links) in linksByContact.sorted(by: { $0.key < $1.key }) {
            writer.string(contact)
            writer.varint(links.count)
            for link in links { writer.string(link) }
        }
    }

    /// Restores a projection from snapshot state written by ``snapshotState()``.
    ///
    /// Throws when the state is of another version, belongs to another ledger, claims another
    /// head than the snapshot file's header, or is malformed in any way; the caller then ignores
    /// the snapshot and replays the journal. The search indexes are left deferred
    /// (``hasDeferredIndexes``), for ``buildDeferredIndexes()`` when a read wants them.
    package init(
        snapshotState state: [UInt8], ledgerID: UUID, head expected: HeadDigest,
        defaultCountryCode: String = ContactsUserDefaults.shared.countryCode
    ) throws(SnapshotDecodingError) {
        var source = SnapshotBytesSource(state)
        self = try Self.restore(
            from: &source, ledgerID: ledgerID, expected: expected, defaultCountryCode: defaultCountryCode)
    }

    /// Restores a projection from a snapshot file's state, read front to back a section at a
    /// time, the contacts straight into the table's arena, so that nothing of the file is held
    /// beside what is restored from it; the state's checksum is checked on the way, and a state
    /// that fails it is refused like a malformed one.
    package init(
        snapshot: Snapshot, ledgerID: UUID, head expected: HeadDigest,
        defaultCountryCode: String = ContactsUserDefaults.shared.countryCode
    ) throws(SnapshotDecodingError) {
        var source: SnapshotFileSource
        do {
            source = SnapshotFileSource(try snapshot.openState())
        } catch {
            throw SnapshotDecodingError("the state cannot be read: \(error)")
        }
        let restored = try Self.restore(
            from: &source, ledgerID: ledgerID, expected: expected, defaultCountryCode: defaultCountryCode)
        guard source.reader.checksumMatches else {
            throw SnapshotDecodingError("the state does not match its checksum")
        }
        self = restored
    }

    /// The table section read back: the containers, the container and creator indexes, and the
    /// contact table's columns.
    private struct TableSection: Sendable {
        var containers: [String: Container] = [:]
        var containerIdentifiers: [String] = []
        var creators: [String] = []
        var columns = ContactTable.Columns(records: [], live: 0, freeSlots: [])
    }

    /// Restores a projection from `source`: the prefix, then the table section, whose columns are
    /// read on a thread of their own while this one reads the arena, then the rest.
    private static func restore(
        from source: inout some SnapshotStateSource, ledgerID: UUID, expected: HeadDigest, defaultCountryCode: String
    ) throws(SnapshotDecodingError) -> Projection {
        var result = Projection(ledgerID: ledgerID, defaultCountryCode: defaultCountryCode)
        let prefix = try source.read(count: min(source.remaining, snapshotPrefixBytes))
        let lengths = try prefix.withUnsafeBufferPointer { (buffer) throws(SnapshotDecodingError) in
            var reader = SnapshotReader(buffer)
            return try result.restorePrefix(from: &reader, expected: expected)
        }
        guard lengths.table <= source.remaining, lengths.arena <= source.remaining - lengths.table,
            lengths.rest == source.remaining - lengths.table - lengths.arena
        else { throw SnapshotDecodingError("the state's sections do not fill its \(source.remaining) bytes") }
        let table = try source.read(count: lengths.table)
        let arenaBytes = lengths.arena
        let tableWork = BackgroundWork(named: "snapshot table") { () -> Result<TableSection, SnapshotDecodingError> in
            Result { () throws(SnapshotDecodingError) in try restoreTable(table) }
        }
        let arena = Result { () throws(SnapshotDecodingError) in
            try SnapshotArena.read(from: &source, sectionBytes: arenaBytes, spare: SnapshotReader.growthRoom)
        }
        let section = try tableWork.wait().get()
        let rest = try source.read(count: lengths.rest)
        result.containers = section.containers
        result.containerIdentifiers = section.containerIdentifiers
        result.containerIndexes = Dictionary(
            uniqueKeysWithValues: section.containerIdentifiers.enumerated().map { ($1, UInt16($0)) })
        result.creators = section.creators
        result.creatorIndexes = Dictionary(
            uniqueKeysWithValues: section.creators.enumerated().map { ($1, UInt32($0)) })
        result.contacts = try ContactTable(restoring: section.columns, arena: try arena.get())
        try rest.withUnsafeBufferPointer { (buffer) throws(SnapshotDecodingError) in
            var reader = SnapshotReader(buffer)
            try result.restoreRest(from: &reader)
            try reader.check(reader.isAtEnd, "the state has bytes after its end")
        }
        result.deferIndexes()
        return result
    }

    /// Reads the fixed fields at the start of the state, checks them, and returns the lengths of
    /// the three sections.
    private mutating func restorePrefix(
        from reader: inout SnapshotReader, expected: HeadDigest
    ) throws(SnapshotDecodingError) -> (table: Int, arena: Int, rest: Int) {
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
        var lengths: [Int] = []
        for _ in 0..<3 {
            let length = try reader.fixed64()
            try reader.check(length <= UInt64(Int.max), "a section's length is out of range")
            lengths.append(Int(length))
        }
        return (lengths[0], lengths[1], lengths[2])
    }

    /// Reads the table section.
    private static func restoreTable(_ table: [UInt8]) throws(SnapshotDecodingError) -> TableSection {
        try table.withUnsafeBufferPointer { (buffer) throws(SnapshotDecodingError) in
            var reader = SnapshotReader(buffer)
            var section = TableSection()
            let limit = Int(UInt32.max)
            for _ in 0..<(try reader.count(atMost: limit)) {
                let identifier = try reader.string()
                let name = try reader.string()
                guard let type = ContainerType(rawValue: Int(try reader.varint())) else {
                    throw SnapshotDecodingError("container \(identifier) has an unknown type")
                }
                section.containers[identifier] = Container(identifier: identifier, name: name, type: type)
            }
            for _ in 0..<(try reader.count(atMost: Int(UInt16.max) + 1)) {
                section.containerIdentifiers.append(try reader.string())
            }
            try reader.check(
                Set(section.containerIdentifiers).count == section.containerIdentifiers.count,
                "a container has two indexes")
            for _ in 0..<(try reader.count(atMost: limit)) { section.creators.append(try reader.string()) }
            try reader.check(Set(section.creators).count == section.creators.count, "a creator has two indexes")
            section.columns = try ContactTable.restoreColumns(
                from: &reader, containers: section.containerIdentifiers.count, creators: section.creators.count)
            try reader.check(reader.isAtEnd, "the table section has bytes after its end")
            return section
        }
    }

    /// Reads the rest section, after the contacts: groups, access, grants, request ids, links.
    private mutating func restoreRest(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        guard containerIdentifiers.first == defaultContainer.identifier else {
            throw SnapshotDecodingError("the first container index is not the default container")
        }
        let limit = Int(UInt32.max)
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
        let requestCount = try reader.count(atMost: reader.remaining / 17)
        requests = Dictionary(minimumCapacity: requestCount)
        for _ in 0..<requestCount {
            let request = try reader.uuid()
            requests[request] = try reader.varint()
        }
        try restoreLinks(from: &reader)
    }

    /// Reads the link sets, the last part of the state.
    private mutating func restoreLinks(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        let limit = Int(UInt32.max)
        for _ in 0..<(try reader.count(atMost: limit)) {
            let contact = try reader.string()
            var links: [String] = []
            for _ in 0..<(try reader.count(atMost: limit)) { links.append(try reader.string()) }
            linksByContact[contact] = links
        }
    }
}

/// Where a restore reads a snapshot's state from, front to back.
protocol SnapshotStateSource {
    /// The bytes not read yet.
    var remaining: Int { get }
    /// Fills `buffer` with the next bytes; throws when fewer remain or they cannot be read.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(SnapshotDecodingError)
}

extension SnapshotStateSource {
    /// The next `count` bytes, in a new array.
    mutating func read(count: Int) throws(SnapshotDecodingError) -> [UInt8] {
        guard count >= 0, count <= remaining else {
            throw SnapshotDecodingError("a section of \(count) bytes runs past the state's end")
        }
        return try filledByteArray(count: count) { (buffer) throws(SnapshotDecodingError) in
            try read(into: buffer)
        }
    }
}

/// A state held in memory.
struct SnapshotBytesSource: SnapshotStateSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(SnapshotDecodingError) {
        guard buffer.count <= remaining else { throw SnapshotDecodingError("the state ends early") }
        let start = offset
        bytes.withUnsafeBytes {
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<start + buffer.count]))
        }
        offset += buffer.count
    }
}

/// A state read from its snapshot file, a piece at a time, checked as it is read.
struct SnapshotFileSource: SnapshotStateSource {
    let reader: SnapshotStateReader

    init(_ reader: SnapshotStateReader) { self.reader = reader }

    var remaining: Int { reader.remaining }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(SnapshotDecodingError) {
        do {
            try reader.read(into: buffer)
        } catch {
            throw SnapshotDecodingError("the state cannot be read: \(error)")
        }
    }
}
