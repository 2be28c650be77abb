import Foundation
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Projection snapshots")
struct ProjectionSnapshotTests {
    /// Writes a generated history into a new ledger, a snapshot at its head, and closes the store
    /// (which writes none: too little was committed for one to be due).
    private func writeLedger(_ directory: StoreDirectory, seed: UInt64, requests: Int = 120) throws {
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        try SnapshotHistory.write(into: store, seed: seed, requests: requests)
        try store.writeSnapshot()
        store.close()
    }

    @Test("A snapshot and a full replay give identical state", arguments: [1, 2, 3] as [UInt64])
    func snapshotEqualsReplay(seed: UInt64) throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: seed)
        let expected = try fullReplay(of: directory.ledger)
        #expect(snapshotFiles(directory.ledger).count == 1)

        let reader = try JournalReader(at: directory.ledger)
        let loaded = try #require(ProjectionSnapshots.load(ledgerAt: directory.ledger, reader: reader).loaded)
        #expect(loaded.head == expected.head)
        expectSameState(loaded.projection, expected)

        // The stores built on it: a writer, a reader, and an in-memory copy.
        let writer = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        expectSameState(writer.withProjection { $0 }, expected)
        writer.close()
        expectSameState(
            try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess()).withProjection { $0 }, expected)
        expectSameState(
            try ContactStore.inMemory(copyingLedgerAt: directory.ledger).withProjection { $0 }, expected)
    }

    @Test("A snapshot file holds, after its header, exactly the projection's snapshot state")
    func snapshotFileHoldsTheState() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 5)
        let projection = try fullReplay(of: directory.ledger)
        #expect(projection.contacts.slotCount > projection.contactCount, "the history deletes contacts")
        let paths = LedgerPaths(root: directory.ledger)
        let identity = try LedgerDirectory.identity(at: directory.ledger)
        try FileManager.default.removeItem(atPath: paths.snapshots)
        try ProjectionSnapshots.write(projection, paths: paths, identity: identity)
        let store = SnapshotStore(paths: paths, identity: identity)
        let snapshot = try store.read(sequence: projection.head.sequence).get()
        let holdsTheState = try snapshot.readState() == projection.snapshotState()
        #expect(holdsTheState, "the file's state differs from the projection's snapshot state")
        #expect(snapshot.hash == projection.head.hash)
        let file = try Array(
            Data(
                contentsOf: URL(
                    fileURLWithPath: paths.snapshots + "/" + SnapshotStore.fileName(sequence: projection.head.sequence))
            ))
        #expect(file.count == SnapshotStore.headerBytes + snapshot.stateLength)
    }

    /// A contact table's snapshot columns: contacts in slots from 0, each its identifier's form
    /// (1 for a UUID's 16 bytes, `n + 2` for `n` bytes of text) and encoded length, creator and
    /// container 0; then `free` slots that hold no contact, listed as free.
    private static func contactTableColumns(
        _ contacts: [(form: Int, encoded: Int)], free: Int = 0, creator: Int = 0, freeList: [Int]? = nil
    ) -> [UInt8] {
        var writer = SnapshotWriter(capacity: 0)
        writer.varint(contacts.count + free)
        for (index, contact) in contacts.enumerated() {
            writer.varint(contact.form)
            writer.varint(contact.encoded)
            writer.varint(index + 1)
            writer.varint(creator)
            writer.varint(0)
        }
        for _ in 0..<free { writer.byte(0) }
        let list = freeList ?? Array(contacts.count..<contacts.count + free)
        writer.varint(list.count)
        for slot in list { writer.varint(slot) }
        return writer.bytes
    }

    /// The reason a table of these columns over `arena` is refused, or nil when it is restored.
    private static func refusal(_ columns: [UInt8], arena: [UInt8]) -> String? {
        switch restoredContactTable(columns: columns, arena: arena) {
        case .success: nil
        case .failure(let error): error.reason
        }
    }

    @Test(
        "A contact table restores its contacts where their lengths put them, and refuses lengths that do not fill the arena"
    )
    func contactTableArena() throws {
        let arena = (0..<100).map { UInt8($0) }
        let table = try restoredContactTable(
            columns: Self.contactTableColumns([(6, 36), (6, 20)], free: 1), arena: Array(arena[0..<64])
        ).get()
        #expect(table.count == 2)
        #expect(table.arenaBytes == 64)
        #expect(table.encoded(at: 0) == (4..<40).map { UInt8($0) })
        #expect(table.identifier(at: 1) == String(decoding: (40..<44).map { UInt8($0) }, as: UTF8.self))
        #expect(table.encoded(at: 1) == (44..<64).map { UInt8($0) })
        #expect(table.freeSlots == [2])
        #expect(table.slot(of: String(decoding: (0..<4).map { UInt8($0) }, as: UTF8.self)) == 0)
        #expect(
            Self.refusal(Self.contactTableColumns([(6, 96)]), arena: arena) == nil,
            "one contact filling the arena")
        for (encoded, total) in [(97, 101), (95, 99)] {
            let reason = Self.refusal(Self.contactTableColumns([(6, encoded)]), arena: arena)
            #expect(reason?.contains("add up to \(total) bytes, the arena holds 100") == true)
        }
    }

    @Test("A contact table restores an identifier kept as a UUID's 16 bytes")
    func contactTableUUIDIdentifier() throws {
        let arena = (60..<100).map { UInt8($0) }
        let table = try restoredContactTable(columns: Self.contactTableColumns([(1, 24)]), arena: arena).get()
        #expect(table.records[0].identifierIsUUID && table.records[0].identifierBytes == 16)
        let bytes = (60..<76).map { UInt8($0) }
        let identifier = try #require(bytes.withUnsafeBufferPointer { UUIDText.canonical($0) })
        #expect(table.identifier(table.records[0]) == identifier)
        #expect(table.slot(of: identifier) == 0)
        #expect(table.encoded(at: 0) == (76..<100).map { UInt8($0) })
    }

    @Test("A contact table refuses a canonical UUID kept as text, two contacts of one identifier, and bad indexes")
    func contactTableRefusesSecondKeys() throws {
        let canonical = Array("E621E1F8-C36C-495A-93FC-0C247A3E6E5F".utf8)
        let columns = Self.contactTableColumns([(38, 2)])
        #expect(
            Self.refusal(columns, arena: canonical + [0x0A, 0x00])?.contains(
                "contact 0 keeps a UUID identifier as text")
                == true)
        // Any other 36-character identifier is text, as the table keeps it.
        let lower = Array("e621e1f8-c36c-495a-93fc-0c247a3e6e5f".utf8)
        let table = try restoredContactTable(columns: columns, arena: lower + [0x0A, 0x00]).get()
        #expect(table.identifier(at: 0) == String(decoding: lower, as: UTF8.self))
        // Two contacts of the identifier "a".
        #expect(
            Self.refusal(Self.contactTableColumns([(3, 1), (3, 1)]), arena: Array("a1a2".utf8))?
                .contains("contact 1 has the identifier of another") == true)
        // A creator that does not exist, and free slots that are not the slots without a contact.
        #expect(
            Self.refusal(Self.contactTableColumns([(3, 1)], creator: 1), arena: Array("a1".utf8))?
                .contains("creator that does not exist") == true)
        for (free, list) in [(1, [0]), (2, [1, 1]), (1, [])] {
            let columns = Self.contactTableColumns([(3, 1)], free: free, freeList: list)
            #expect(
                Self.refusal(columns, arena: Array("a1".utf8))?.contains("free slots") == true, "free list \(list)")
        }
    }

    /// The projection of a ledger written with `seed`, replayed in full, and the projection
    /// restored from a snapshot of it.
    private func replayedAndRestored(seed: UInt64) throws -> (expected: Projection, restored: Projection) {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: seed)
        let expected = try fullReplay(of: directory.ledger)
        let restored = try Projection(
            snapshotState: expected.snapshotState(), ledgerID: expected.ledgerID, head: expected.head)
        return (expected, restored)
    }

    @Test("Encoding a restored projection gives a projection with the same state")
    func restoredRoundTrips() throws {
        let (expected, once) = try replayedAndRestored(seed: 7)
        let twice = try Projection(
            snapshotState: once.snapshotState(), ledgerID: expected.ledgerID, head: expected.head)
        expectSameState(twice, expected)
    }

    @Test("A restored projection has room to grow, so that the first save after an open does not copy its contacts")
    func restoredProjectionHasRoom() throws {
        var restored = try replayedAndRestored(seed: 7).restored
        let bytes = restored.contacts.arenaBytes
        let capacity = restored.contacts.arenaCapacity
        #expect(bytes > 0)
        #expect(capacity >= bytes + SnapshotReader.growthRoom(bytes))
        for index in 0..<3 {
            var values = ContactValues()
            values.givenName = "After"
            values.familyName = "Open\(index)"
            restored.putContact(
                "after-open-\(index)",
                ContactState(
                    values: values, containerIdentifier: restored.defaultContainer.identifier, createdBy: "w",
                    revision: 1))
        }
        #expect(restored.contacts.arenaBytes > bytes)
        #expect(restored.contacts.arenaCapacity == capacity, "the arena moved on the first saves after a restore")
    }

    @Test("A projection restored from a snapshot leaves its indexes to the first read, which builds those of a replay")
    func restoredIndexesDeferred() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 8)
        let expected = try fullReplay(of: directory.ledger)
        var restored = try Projection(
            snapshotState: expected.snapshotState(), ledgerID: expected.ledgerID, head: expected.head)
        #expect(restored.hasDeferredIndexes)
        restored.buildDeferredIndexes()
        #expect(!restored.hasDeferredIndexes)
        restored.indexes.checkInvariants()
        expectSameState(restored, expected)
    }

    @Test("A writer opened from a snapshot finds, at its first search, the contacts it saved before it, and later ones")
    func writerSearchesAfterDeferredIndexes() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 13)
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        defer { store.close() }
        func save(_ given: String) throws {
            var request = SaveRequest(transactionAuthor: "writer")
            request.add(
                makeContact(given: given, family: "Zyxwv", emails: [("home", "\(given)@deferred.example")]),
                toContainerWithIdentifier: nil)
            try store.execute(request)
        }
        try save("Before")
        let first = try store.unifiedContacts(matching: .matchingName("zyxwv"), keysToFetch: [ContactKeySet.all])
        #expect(first.map { $0.givenName } == ["Before"])
        try save("After")
        #expect(try store.unifiedContacts(matching: .matchingName("zyxwv"), keysToFetch: []).count == 2)
        #expect(
            try store.unifiedContacts(matching: .matchingEmailAddress("after@deferred.example"), keysToFetch: []).count
                == 1)
        expectSameState(store.withProjection { $0 }, try fullReplay(of: directory.ledger))
    }

    @Test("Indexes are built for the default country of the store that restores the snapshot")
    func indexesOfAnotherCountry() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 9)
        let us = try fullReplay(of: directory.ledger, region: "us")
        #expect(us.indexes.defaultCountryCode == "us")
        var restored = try Projection(
            snapshotState: us.snapshotState(), ledgerID: us.ledgerID, head: us.head, defaultCountryCode: "gb")
        restored.buildDeferredIndexes()
        #expect(restored.indexes.defaultCountryCode == "gb")
        let reader = try JournalReader(at: directory.ledger)
        var gb = Projection(ledgerID: reader.identity.ledgerID, defaultCountryCode: "gb")
        try reader.forEach { try gb.apply($0) }
        gb.prepareForQueries()
        expectSameState(restored, gb)
        // A national number reads differently in the two countries.
        #expect(
            restored.indexes.slots(matchingPhoneNumber: "415 555 0100")
                == gb.indexes.slots(matchingPhoneNumber: "415 555 0100"))
    }

    @Test("Saves after opening from a snapshot behave as after a replay")
    func savesAfterSnapshot() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 11)
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        // Reused slots, new slots, updates and deletes, on top of the restored state.
        try SnapshotHistory.write(into: store, seed: 12, requests: 60)
        let live = store.withProjection { $0 }
        store.close()
        let expected = try fullReplay(of: directory.ledger)
        expectSameState(live, expected)
        let reopened = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        expectSameState(reopened.withProjection { $0 }, expected)
        reopened.close()
    }

    /// The ways a snapshot can be unusable.
    enum Damage: String, CaseIterable, Sendable {
        case missingDirectory
        case flippedStateByte
        case truncated
        case garbage
        case otherLedger
        case wrongHash
        case undecodableState
        case unknownStateVersion
        case olderStateVersion
        case sequenceBeyondJournal

        /// Whether the damaged snapshot still checks out on its own, and so records a head as
        /// durable that the journal must have (decision 0018).
        var recordsAHead: Bool { self == .wrongHash || self == .sequenceBeyondJournal }
    }

    /// Every file of a ledger with its bytes.
    private func directoryContents(_ ledger: String) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: ledger))
        while let name = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: ledger + "/" + name, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            contents[name] = FileManager.default.contents(atPath: ledger + "/" + name)
        }
        return contents
    }

    /// Damages the ledger's only snapshot.
    private func damage(_ damage: Damage, _ ledger: String) throws {
        let file = try #require(snapshotFiles(ledger).last)
        let identity = try LedgerDirectory.identity(at: ledger)
        let paths = LedgerPaths(root: ledger)
        let head = try JournalReader(at: ledger).head()
        switch damage {
        case .missingDirectory:
            try FileManager.default.removeItem(atPath: ledger + "/snapshots")
        case .flippedStateByte:
            var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
            bytes[SnapshotStore.headerBytes + bytes.count / 3] ^= 0x40
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        case .truncated:
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            try bytes.prefix(bytes.count - 7).write(to: URL(fileURLWithPath: file))
        case .garbage:
            try Data(repeating: 0x5A, count: 400).write(to: URL(fileURLWithPath: file))
        case .otherLedger:
            let other = LedgerIdentity(createdMicroseconds: 1)
            try FileManager.default.removeItem(atPath: file)
            let projection = try fullReplay(of: ledger)
            try SnapshotStore(paths: paths, identity: other).write(
                sequence: head.sequence, hash: head.hash, state: projection.snapshotState())
        case .wrongHash:
            try FileManager.default.removeItem(atPath: file)
            let projection = try fullReplay(of: ledger)
            try SnapshotStore(paths: paths, identity: identity).write(
                sequence: head.sequence, hash: SHA256.hash([1, 2, 3]), state: projection.snapshotState())
        case .undecodableState:
            try FileManager.default.removeItem(atPath: file)
            var state = try fullReplay(of: ledger).snapshotState()
            state.removeLast(3)
            try SnapshotStore(paths: paths, identity: identity).write(
                sequence: head.sequence, hash: head.hash, state: state)
        case .unknownStateVersion:
            try FileManager.default.removeItem(atPath: file)
            var state = try fullReplay(of: ledger).snapshotState()
            state[0] = Projection.snapshotFormatVersion &+ 1
            try SnapshotStore(paths: paths, identity: identity).write(
                sequence: head.sequence, hash: head.hash, state: state)
        case .olderStateVersion:
            // Version 7, which held the search indexes: the bytes after the version are not read.
            try FileManager.default.removeItem(atPath: file)
            var state = try fullReplay(of: ledger).snapshotState()
            state[0] = Projection.snapshotFormatVersion - 1
            try SnapshotStore(paths: paths, identity: identity).write(
                sequence: head.sequence, hash: head.hash, state: state)
        case .sequenceBeyondJournal:
            try FileManager.default.removeItem(atPath: file)
            let projection = try fullReplay(of: ledger)
            try SnapshotStore(paths: paths, identity: identity).write(
                sequence: head.sequence + 5, hash: head.hash, state: projection.snapshotState())
        }
    }

    @Test(
        "A missing or corrupt snapshot is ignored and the journal is used",
        arguments: Damage.allCases.filter { !$0.recordsAHead })
    func damagedSnapshotIgnored(_ kind: Damage) throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 21)
        let expected = try fullReplay(of: directory.ledger)
        try damage(kind, directory.ledger)

        let reader = try JournalReader(at: directory.ledger)
        let search = ProjectionSnapshots.load(ledgerAt: directory.ledger, reader: reader)
        #expect(search.loaded == nil)
        if kind != .missingDirectory { #expect(!search.rejected.isEmpty) }

        expectSameState(
            try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess()).withProjection { $0 }, expected)
        let writer = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        expectSameState(writer.withProjection { $0 }, expected)
        try writer.writeSnapshot()
        writer.close()
        // The next snapshot written is good, and the next open uses it.
        let repaired = ProjectionSnapshots.load(ledgerAt: directory.ledger, reader: reader).loaded
        #expect(repaired?.head == expected.head)
    }

    @Test(
        "A snapshot that checks out but disagrees with the journal stops every open as corruption",
        arguments: Damage.allCases.filter(\.recordsAHead))
    func disagreeingSnapshotIsCorruption(_ kind: Damage) throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 22)
        try damage(kind, directory.ledger)
        let before = try directoryContents(directory.ledger)
        for open in [
            { try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess()).close() },
            { try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer")).close() },
        ] as [() throws -> Void] {
            #expect {
                try open()
            } throws: {
                guard case .corruption(_, let reason)? = ($0 as? ContactStoreError)?.storageError else { return false }
                return reason.contains("snapshots/")
            }
        }
        #expect(try directoryContents(directory.ledger) == before, "nothing was truncated or rewritten")
    }

    @Test(
        "A snapshot the policy writes while saves go on holds the state of its own head, the finishing group's included"
    )
    func policySnapshotHoldsItsIndexes() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        // Enough adds, in requests of 500, that one request crosses the policy's least number of
        // operations between snapshots; its group is still finishing when the snapshot is taken.
        let perRequest = 500
        let requests = ProjectionSnapshotter.eventsBetweenSnapshotsMin / perRequest + 1
        for request in 0..<requests {
            var save = SaveRequest(transactionAuthor: "writer")
            for index in 0..<perRequest {
                let number = request * perRequest + index
                save.add(
                    makeContact(
                        given: "Given\(number % 97)", family: "Family\(number)",
                        phones: [("mobile", "+1 415 555 \(1000 + number % 9000)")],
                        emails: [("home", "person\(number)@example.org")]),
                    toContainerWithIdentifier: nil)
            }
            try store.execute(save)
        }
        // The policy's snapshot, at the request that crossed the threshold, written in the
        // background; close may write another at the head, in its place.
        store.pipeline.snapshotter?.waitForWrites()
        try #require(snapshotFiles(directory.ledger).count == 1)
        let reader = try JournalReader(at: directory.ledger)
        let loaded = try #require(ProjectionSnapshots.load(ledgerAt: directory.ledger, reader: reader).loaded)
        let crossing = UInt64(ProjectionSnapshotter.eventsBetweenSnapshotsMin / perRequest)
        #expect(loaded.head.sequence == crossing)
        expectSameState(loaded.projection, try fullReplay(of: directory.ledger, through: crossing))
        store.close()
    }

    @Test("A snapshot older than the head is topped up by replaying the records after it")
    func olderSnapshotToppedUp() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        try SnapshotHistory.write(into: store, seed: 31, requests: 80)
        try store.writeSnapshot()
        let snapshotHead = store.headDigest
        let older = try #require(snapshotFiles(directory.ledger).last)
        let olderBytes = try Data(contentsOf: URL(fileURLWithPath: older))
        try SnapshotHistory.write(into: store, seed: 32, requests: 50)
        store.close()
        // Close wrote one at the head if it was due, in its place; keep only the older one.
        for file in snapshotFiles(directory.ledger) { try FileManager.default.removeItem(atPath: file) }
        try putBack(olderBytes, at: older)
        #expect(snapshotFiles(directory.ledger).count == 1)

        let expected = try fullReplay(of: directory.ledger)
        #expect(expected.head.sequence > snapshotHead.sequence)
        let reader = try JournalReader(at: directory.ledger)
        #expect(ProjectionSnapshots.load(ledgerAt: directory.ledger, reader: reader).loaded?.head == snapshotHead)
        expectSameState(
            try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess()).withProjection { $0 }, expected)
        let writer = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        expectSameState(writer.withProjection { $0 }, expected)
        writer.close()
    }

    @Test("When the newest snapshot disagrees with the journal, no older one is used: the open reports corruption")
    func newestSnapshotMismatch() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        try SnapshotHistory.write(into: store, seed: 35, requests: 40)
        try store.writeSnapshot()
        let older = store.headDigest
        try SnapshotHistory.write(into: store, seed: 36, requests: 20)
        store.close()
        #expect(snapshotFiles(directory.ledger).count == 1, "close wrote none: too little was committed")
        let olderFile = try #require(snapshotFiles(directory.ledger).last)
        let olderBytes = try Data(contentsOf: URL(fileURLWithPath: olderFile))
        let head = try JournalReader(at: directory.ledger).head()
        // A snapshot that is sound on its own (its state claims the same wrong hash as its
        // header), so only the journal can tell.
        var forged = try fullReplay(of: directory.ledger)
        forged.head = HeadDigest(sequence: head.sequence, hash: SHA256.hash([7]))
        try SnapshotStore(
            paths: LedgerPaths(root: directory.ledger), identity: try LedgerDirectory.identity(at: directory.ledger)
        ).write(sequence: head.sequence, hash: forged.head.hash, state: forged.snapshotState())
        // Writing it removed the older one; an older build kept two, so put it back.
        #expect(snapshotFiles(directory.ledger).count == 1)
        try putBack(olderBytes, at: olderFile)

        var offered: [UInt64] = []
        let reader = try JournalReader(at: directory.ledger)
        _ = ProjectionSnapshots.withNewest(
            paths: reader.paths, identity: reader.identity, fileSystem: reader.fileSystem
        ) {
            offered.append($0.head.sequence)
            return false
        }
        #expect(offered == [head.sequence, older.sequence])
        // The forged snapshot records a head the journal does not have: either the snapshot or
        // the journal was altered, and only a person can tell which.
        let mismatch = "but snapshots/\(SnapshotStore.fileName(sequence: head.sequence)) recorded"
        #expect {
            try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        } throws: {
            ($0 as? ContactStoreError)?.storageError?.description.contains(mismatch) == true
        }
        #expect {
            try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess())
        } throws: {
            ($0 as? ContactStoreError)?.storageError?.description.contains(mismatch) == true
        }
    }

    @Test("A record that cannot be decoded stops the open with an error, with or without a snapshot")
    func undecodableRecordFailsOpen() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 71, requests: 20)
        let journal = try Journal.open(at: directory.ledger)
        _ = try journal.appendAndWait(JournalEntry(author: "vandal", schemaVersion: 1, payload: [0xFF, 0xFF, 0xFF]))
        journal.close()
        for withSnapshot in [true, false] {
            if !withSnapshot { try FileManager.default.removeItem(atPath: directory.ledger + "/snapshots") }
            #expect(throws: ContactStoreError.self) {
                try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess())
            }
            #expect(throws: ContactStoreError.self) {
                try ContactStore(
                    ledgerAt: directory.ledger, client: .fullAccess("writer"))
            }
        }
    }

    @Test("A point-in-time view uses only a snapshot at or before its point")
    func pointInTimeUsesEarlierSnapshot() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        try SnapshotHistory.write(into: store, seed: 41, requests: 40)
        try store.writeSnapshot()
        let early = store.headDigest.sequence
        let earlyFile = try #require(snapshotFiles(directory.ledger).last)
        let earlyBytes = try Data(contentsOf: URL(fileURLWithPath: earlyFile))
        try SnapshotHistory.write(into: store, seed: 42, requests: 40)
        try store.writeSnapshot()
        store.close()
        #expect(snapshotFiles(directory.ledger).count == 1, "only the newest snapshot is kept")
        for point in [early - 3, early, early + 4] {
            let view = try ContactStore(
                readingLedgerAt: directory.ledger, asOf: .sequence(point), client: .fullAccess())
            expectSameState(view.withProjection { $0 }, try fullReplay(of: directory.ledger, through: point))
        }
        // With the earlier one there too, as an older build left them, each view takes the newest
        // at or before its point.
        try putBack(earlyBytes, at: earlyFile)
        #expect(snapshotFiles(directory.ledger).count == 2)
        for point in [early - 3, early, early + 4] {
            let view = try ContactStore(
                readingLedgerAt: directory.ledger, asOf: .sequence(point), client: .fullAccess())
            expectSameState(view.withProjection { $0 }, try fullReplay(of: directory.ledger, through: point))
            let copy = try ContactStore.inMemory(copyingLedgerAt: directory.ledger, through: .sequence(point))
            expectSameState(copy.withProjection { $0 }, try fullReplay(of: directory.ledger, through: point))
        }
    }

    @Test("Deleting snapshots/ is harmless; short-lived stores write none, and a store writes one when asked")
    func deletingSnapshotsIsHarmless() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 51, requests: 10)
        let expected = try fullReplay(of: directory.ledger)
        try FileManager.default.removeItem(atPath: directory.ledger + "/snapshots")
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        expectSameState(store.withProjection { $0 }, expected)
        store.close()
        #expect(snapshotFiles(directory.ledger).isEmpty, "too little was committed for a snapshot to be due")
        // Stores opened for one save each, as the command-line tool's, write none either.
        try oneSaveStores(directory, count: 5)
        #expect(snapshotFiles(directory.ledger).isEmpty)
        let last = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        try last.writeSnapshot()
        last.close()
        #expect(snapshotFiles(directory.ledger).count == 1)
        expectSameState(
            try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess()).withProjection { $0 },
            try fullReplay(of: directory.ledger))
    }

    @Test(
        "A store that commits enough for its snapshot to pay writes one at close; the next short-lived one none")
    func bigStoreWritesOneAtClose() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        for index in 0..<200 {
            var contact = makeContact(given: "Given\(index)", family: "Family")
            contact.note = String(repeating: "a long note that the snapshot holds too ", count: 25)
            var request = SaveRequest(transactionAuthor: "writer")
            request.add(contact, toContainerWithIdentifier: nil)
            try store.execute(request)
        }
        let head = store.headDigest.sequence
        store.close()
        #expect(
            snapshotFiles(directory.ledger).map { URL(fileURLWithPath: $0).lastPathComponent } == [
                SnapshotStore.fileName(sequence: head)
            ])
        try oneSaveStores(directory, count: 3)
        #expect(snapshotFiles(directory.ledger).count == 1)
    }

    /// Opens the ledger `count` times, saves one contact each time and closes it again.
    private func oneSaveStores(_ directory: StoreDirectory, count: Int) throws {
        for index in 0..<count {
            let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
            var request = SaveRequest(transactionAuthor: "writer")
            request.add(makeContact(given: "Short\(index)", family: "Lived"), toContainerWithIdentifier: nil)
            try store.execute(request)
            store.close()
        }
    }

    @Test("At close a snapshot is due when the records after the newest one reach a share of its size")
    func closeWritesOnlyWhenDue() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 52, requests: 10)
        let identity = try LedgerDirectory.identity(at: directory.ledger)
        let paths = LedgerPaths(root: directory.ledger)
        try FileManager.default.removeItem(atPath: paths.snapshots)
        let projection = try fullReplay(of: directory.ledger)
        let threshold = max(
            ProjectionSnapshotter.closeBytesMin,
            projection.snapshotStateCapacity / ProjectionSnapshotter.closeSnapshotShare)
        #expect(threshold == ProjectionSnapshotter.closeBytesMin, "a small ledger: the least amount counts")
        // Records after the snapshot, replayed on open, one byte short of due: none.
        let short = ProjectionSnapshotter(
            paths: paths, identity: identity, fileSystem: SystemFileSystem(), newestSnapshot: 1,
            payloadBytesSince: threshold - 1)
        #expect(!short.writeFinal(projection))
        #expect(snapshotFiles(directory.ledger).isEmpty)
        let due = ProjectionSnapshotter(
            paths: paths, identity: identity, fileSystem: SystemFileSystem(), newestSnapshot: 1,
            payloadBytesSince: threshold)
        #expect(due.writeFinal(projection))
        #expect(
            snapshotFiles(directory.ledger).map { URL(fileURLWithPath: $0).lastPathComponent } == [
                SnapshotStore.fileName(sequence: projection.head.sequence)
            ])
        // A large snapshot needs a thirty-second of its size.
        #expect(!ProjectionSnapshotter.isDueAtClose(bytesSince: 1 << 20, snapshotBytes: 32 << 20 + 32))
        #expect(ProjectionSnapshotter.isDueAtClose(bytesSince: 1 << 20, snapshotBytes: 32 << 20))
    }

    @Test("An empty ledger gets no snapshot, and an in-memory or read-only store never writes one")
    func noSnapshotWithoutChanges() throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        store.close()
        #expect(snapshotFiles(directory.ledger).isEmpty)
        let memory = ContactStore.inMemory()
        try memory.writeSnapshot()
        memory.close()

        try writeLedger(directory, seed: 61, requests: 10)
        try FileManager.default.removeItem(atPath: directory.ledger + "/snapshots")
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess())
        try reader.writeSnapshot()
        reader.close()
        #expect(snapshotFiles(directory.ledger).isEmpty)
    }
}
