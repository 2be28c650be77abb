import Foundation
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Snapshot format 8 (decision 0034): what a projection holds comes back identical, damage of any
/// byte or length is passed over with the journal replayed, and one snapshot is kept.
@Suite("Compact snapshots")
struct CompactSnapshotTests {
    /// Writes a ledger with every kind of state a projection holds: a contact with a value for
    /// every key, an empty one, one with a huge note and image, one in another container, custom labels,
    /// updates and deletes (free slots), groups with members and subgroups, a second container,
    /// links, access decisions and grants; then a snapshot at its head.
    private func writeRichLedger(_ directory: StoreDirectory) throws {
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        defer { store.close() }
        try store.commitOperations(
            [.addContainer(identifier: "container-two", name: "Ünïcode ✓", type: .cardDAV, isDefault: false)],
            author: "writer", requestID: UUID())
        var request = SaveRequest(transactionAuthor: "writer")
        request.add(everyKeyContact(), toContainerWithIdentifier: nil)
        request.add(MutableContact(), toContainerWithIdentifier: nil)
        var huge = makeContact(given: "Huge", family: "Nøte", emails: [("custom label ✓", "huge@example.org")])
        huge.note = String(repeating: "🦋 a long note, ", count: 20_000)
        huge.imageData = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        request.add(huge, toContainerWithIdentifier: nil)
        let elsewhere = makeContact(given: "Elsewhere", family: "Ünïcode", phones: [("", "+44 20 7946 0000")])
        request.add(elsewhere, toContainerWithIdentifier: "container-two")
        var others: [MutableContact] = []
        for index in 0..<12 {
            let contact = makeContact(
                given: "Given\(index)", family: "家族\(index % 3)", phones: [("mobile", "+1 415 555 01\(10 + index)")])
            others.append(contact)
            request.add(contact, toContainerWithIdentifier: nil)
        }
        let family = MutableGroup(name: "Family")
        let cousins = MutableGroup(name: "Cousins 👪")
        request.add(family, toContainerWithIdentifier: nil)
        request.add(cousins, toContainerWithIdentifier: nil)
        try store.execute(request)
        try changeRichLedger(
            store, others: others,
            groups: (Group(identifier: family.identifier, name: ""), Group(identifier: cousins.identifier, name: "")))
        try store.writeSnapshot()
    }

    /// The second half of ``writeRichLedger(_:)``: memberships, updates, deletes, links, access.
    private func changeRichLedger(_ store: ContactStore, others: [MutableContact], groups: (Group, Group)) throws {
        var request = SaveRequest(transactionAuthor: "writer")
        request.addSubgroup(groups.1, to: groups.0)
        request.addMember(others[0].copy(), to: groups.0)
        request.addMember(others[1].copy(), to: groups.1)
        func fetched(_ index: Int) throws -> MutableContact {
            try store.unifiedContact(withIdentifier: others[index].identifier, keysToFetch: [ContactKeySet.all])
                .mutableCopy()
        }
        var updated = try fetched(2)
        updated.familyName = ""
        updated.note = "changed"
        request.update(updated)
        request.delete(try fetched(3))
        request.delete(try fetched(4))
        try store.execute(request)
        try store.link([others[5].identifier, others[6].identifier, others[7].identifier])
        try store.commitOperations(
            [
                .setAuthorization(clientIdentifier: "limited-app", status: .limited, notesEntitlement: true),
                .grantAccess(clientIdentifier: "limited-app", contactIdentifiers: [others[8].identifier]),
                .setAuthorization(clientIdentifier: "denied-app", status: .denied, notesEntitlement: false),
            ], author: "writer", requestID: UUID())
    }

    @Test("Every field, group, container, link and access decision comes back from a snapshot as a replay gives it")
    func richRoundTrip() throws {
        let directory = StoreDirectory()
        try writeRichLedger(directory)
        let expected = try fullReplay(of: directory.ledger)
        #expect(expected.freeSlots.count == 2)
        #expect(!expected.linksByContact.isEmpty)
        let reader = try JournalReader(at: directory.ledger)
        let loaded = try #require(ProjectionSnapshots.load(ledgerAt: directory.ledger, reader: reader).loaded)
        #expect(loaded.projection.hasDeferredIndexes)
        expectSameState(loaded.projection, expected)
        #expect(loaded.projection.linksByContact == expected.linksByContact)
        #expect(loaded.projection.containerIdentifiers == expected.containerIdentifiers)
        #expect(loaded.projection.creators == expected.creators)
        for slot in expected.occupiedSlots {
            #expect(loaded.projection.contacts.encoded(at: slot) == expected.contacts.encoded(at: slot))
            let restored = try #require(loaded.projection.contacts.record(at: slot))
            let replayed = try #require(expected.contacts.record(at: slot))
            #expect(restored.revision == replayed.revision && restored.creator == replayed.creator)
            #expect(restored.container == replayed.container && restored.identifierIsUUID == replayed.identifierIsUUID)
        }
        // Written again from the restored projection, the state is the same bytes.
        #expect(loaded.projection.snapshotState() == expected.snapshotState())
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        expectSameState(writer.withProjection { $0 }, expected)
        writer.close()
    }

    /// A small ledger, with its only snapshot's file and the projection a replay gives.
    private func smallLedger() throws -> (directory: StoreDirectory, file: String, bytes: [UInt8], expected: Projection)
    {
        let directory = StoreDirectory()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        var request = SaveRequest(transactionAuthor: "writer")
        request.add(
            makeContact(given: "Ada", family: "Lovelace", emails: [("home", "ada@example.org")]),
            toContainerWithIdentifier: nil)
        request.add(makeContact(given: "Zoë", family: "Ng"), toContainerWithIdentifier: nil)
        try store.execute(request)
        try store.writeSnapshot()
        store.close()
        let file = try #require(snapshotFiles(directory.ledger).last)
        return (
            directory, file, try Array(Data(contentsOf: URL(fileURLWithPath: file))),
            try fullReplay(of: directory.ledger)
        )
    }

    /// Expects the damaged snapshot in `ledger` to be passed over by every open, which then
    /// replays the journal to the state `expected` holds.
    private func expectPassedOver(_ ledger: String, _ expected: Projection, _ what: String) throws {
        let reader = try JournalReader(at: ledger)
        let offered = ProjectionSnapshots.withNewest(
            paths: reader.paths, identity: reader.identity, fileSystem: reader.fileSystem
        ) { _ in true }
        #expect(!offered, "a snapshot \(what) was restored")
        let store = try ContactStore(readingLedgerAt: ledger, client: .fullAccess())
        defer { store.close() }
        store.withProjection { projection in
            #expect(projection.head == expected.head, "\(what)")
            #expect(projection.occupiedSlots == expected.occupiedSlots, "\(what)")
            for slot in expected.occupiedSlots {
                #expect(projection.state(at: slot) == expected.state(at: slot), "\(what)")
            }
        }
    }

    @Test("A snapshot with any one byte flipped is passed over, the journal replayed and nothing lost")
    func everyByteFlipped() throws {
        let (directory, file, bytes, expected) = try smallLedger()
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 0x20
            try Data(damaged).write(to: URL(fileURLWithPath: file))
            try expectPassedOver(directory.ledger, expected, "with byte \(index) flipped")
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let reader = try JournalReader(at: directory.ledger)
        #expect(ProjectionSnapshots.load(ledgerAt: directory.ledger, reader: reader).loaded?.head == expected.head)
    }

    @Test("A snapshot cut short at any length is passed over, the journal replayed and nothing lost")
    func everyLength() throws {
        let (directory, file, bytes, expected) = try smallLedger()
        for length in 0..<bytes.count {
            try Data(bytes[0..<length]).write(to: URL(fileURLWithPath: file))
            try expectPassedOver(directory.ledger, expected, "cut at \(length) bytes")
        }
    }

    @Test("A state of another version, or with a section's length changed, is passed over")
    func wrongVersionOrLengths() throws {
        let (directory, file, bytes, expected) = try smallLedger()
        let paths = LedgerPaths(root: directory.ledger)
        let identity = try LedgerDirectory.identity(at: directory.ledger)
        let state = Array(bytes[SnapshotStore.headerBytes...])
        let lengthsAt = Projection.snapshotPrefixBytes - 24
        var cases: [(String, [UInt8])] = []
        for version in [1, 7, 9] as [UInt8] {
            var other = state
            other[0] = version
            cases.append(("of version \(version)", other))
        }
        for section in 0..<3 {
            for delta in [-1, 1] {
                var other = state
                other[lengthsAt + 8 * section] = UInt8(truncatingIfNeeded: Int(other[lengthsAt + 8 * section]) + delta)
                cases.append(("with section \(section)'s length off by \(delta)", other))
            }
        }
        for (what, other) in cases {
            try FileManager.default.removeItem(atPath: file)
            // Framed anew, so that the file's own checksums hold and only the state is wrong.
            try SnapshotStore(paths: paths, identity: identity).write(
                sequence: expected.head.sequence, hash: expected.head.hash, state: other)
            try expectPassedOver(directory.ledger, expected, what)
        }
    }

    @Test("After a snapshot is written only it is kept; when it is damaged, the open replays the whole journal")
    func onlyTheNewestIsKept() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        for round in 0..<3 {
            var request = SaveRequest(transactionAuthor: "writer")
            request.add(makeContact(given: "Round\(round)", family: "Kept"), toContainerWithIdentifier: nil)
            try store.execute(request)
            try store.writeSnapshot()
            #expect(
                snapshotFiles(directory.ledger).map { URL(fileURLWithPath: $0).lastPathComponent } == [
                    SnapshotStore.fileName(sequence: store.headDigest.sequence)
                ])
        }
        store.close()
        #expect(SnapshotStore.keptCount == 1)
        let expected = try fullReplay(of: directory.ledger)
        let file = try #require(snapshotFiles(directory.ledger).last)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[bytes.count - 1] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try expectPassedOver(directory.ledger, expected, "with its last byte flipped")
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        expectSameState(writer.withProjection { $0 }, expected)
        writer.close()
    }
}

/// The arena section's blocks (``SnapshotArena``) and the compression under them.
@Suite("Snapshot arena blocks")
struct SnapshotArenaTests {
    /// The arena section written for `runs` and read back.
    private func roundTrip(_ runs: [[UInt8]]) throws -> (section: [UInt8], arena: [UInt8]) {
        var writer = SnapshotWriter(capacity: 0)
        writer.fixed64(UInt64(runs.reduce(0) { $0 + $1.count }))
        var blocks = SnapshotArena.Writer()
        for run in runs { run.withUnsafeBufferPointer { blocks.append($0, to: &writer) } }
        blocks.finish(to: &writer)
        var source = SnapshotBytesSource(writer.bytes)
        let arena = try SnapshotArena.read(from: &source, sectionBytes: writer.bytes.count, spare: { $0 / 8 })
        return (writer.bytes, arena)
    }

    @Test("Runs of every kind come back as written: empty, short, repetitive, random, and across blocks")
    func roundTrips() throws {
        var random = SeededGenerator(seed: 34)
        let noise = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let text = Array(String(repeating: "given.family@example.org +1 415 555 0100 ", count: 40_000).utf8)
        let cases: [[[UInt8]]] = [
            [], [[]], [[7]], [[1, 2, 3]], [Array(repeating: 0, count: 5_000_000)], [noise], [text],
            [noise, text, noise], (0..<2_000).map { Array(text[($0 * 37)..<($0 * 37 + 500)]) },
        ]
        for runs in cases {
            let expected = Array(runs.joined())
            let (section, arena) = try roundTrip(runs)
            #expect(arena == expected, "\(runs.count) runs of \(expected.count) bytes")
            #expect(arena.capacity >= expected.count + expected.count / 8)
            if expected.count > 1_000_000 && runs != [noise] {
                #expect(section.count < expected.count / 2, "repetitive bytes are compressed")
            }
        }
        let (section, _) = try roundTrip([noise])
        #expect(section.count <= noise.count + 8 + 8, "bytes that do not compress are stored as they are")
    }

    @Test("A damaged arena section is refused with a reason, whatever byte is changed or wherever it ends")
    func damagedSections() throws {
        let text = Array(String(repeating: "Ada Lovelace ada@example.org ", count: 100).utf8)
        let (section, _) = try roundTrip([text])
        for index in section.indices {
            for flip in [0x01, 0x80] as [UInt8] {
                var damaged = section
                damaged[index] ^= flip
                var source = SnapshotBytesSource(damaged)
                // A changed literal byte decodes to other bytes (the state's checksum catches it);
                // anything else must be refused, never read or written out of bounds.
                if let arena = try? SnapshotArena.read(from: &source, sectionBytes: damaged.count, spare: { _ in 0 }) {
                    #expect(arena.count == text.count)
                }
            }
        }
        for length in 0..<section.count {
            var source = SnapshotBytesSource(Array(section[0..<length]))
            #expect(throws: SnapshotDecodingError.self) {
                try SnapshotArena.read(from: &source, sectionBytes: length, spare: { _ in 0 })
            }
        }
    }
}
