import Foundation
import LedgerMigrations
import LedgerStorage
import LedgerStorageTesting
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A replay that starts from no contacts builds its indexes once, from the contacts it ends with
/// (decision 0009); these check that it ends where applying every record one by one ends.
@Suite("Bulk replay")
struct BulkReplayTests {
    /// Writes a generated history into a new ledger and removes its snapshots, so that every
    /// store opened on it replays the whole journal.
    private func writeLedger(_ directory: StoreDirectory, seed: UInt64, requests: Int) throws {
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        try SnapshotHistory.write(into: store, seed: seed, requests: requests)
        store.close()
        try FileManager.default.removeItem(atPath: directory.ledger + "/snapshots")
    }

    /// A current-schema add whose contact claims keys that do not exist: refused while checked.
    static func undecodableEntry() -> JournalEntry {
        var encoder = WireEncoder()
        let operation = encoder.beginMessage(field: EventSchema.EventField.operations.rawValue)
        let add = encoder.beginMessage(field: EventSchema.OperationField.addContact.rawValue)
        encoder.appendString(field: EventSchema.AddContactField.identifier.rawValue, "bad")
        let values = encoder.beginMessage(field: EventSchema.AddContactField.values.rawValue)
        encoder.appendVarint(field: EventSchema.ContactField.keys.rawValue, value: UInt64.max >> 1)
        encoder.endMessage(values)
        encoder.endMessage(add)
        encoder.endMessage(operation)
        return JournalEntry(author: "vandal", schemaVersion: EventCodec.currentSchemaVersion, payload: encoder.finish())
    }

    /// An entry adding one contact.
    static func addEntry(_ identifier: String) -> JournalEntry {
        let event = LedgerEvent(operations: [
            .addContact(
                identifier: identifier, containerIdentifier: "", createdBy: "late",
                values: makeContact(given: "After", family: identifier).values)
        ])
        return JournalEntry(
            author: "late", schemaVersion: EventCodec.currentSchemaVersion, payload: EventCodec.encode(event))
    }

    @Test("A full replay gives the state that applying each record gives", arguments: [4, 5, 6] as [UInt64])
    func fullReplayMatchesRecordByRecord(seed: UInt64) throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: seed, requests: 250)
        let expected = try fullReplay(of: directory.ledger)
        #expect(expected.contactCount > 20)

        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess())
        let replayed = reader.withProjection { $0 }
        #expect(!replayed.indexesDeferred)
        replayed.indexes.checkInvariants()
        expectSameState(replayed, expected)
        expectSameState(try ContactStore.inMemory(copyingLedgerAt: directory.ledger).withProjection { $0 }, expected)

        // The writer replays while it opens, then keeps its indexes up to date commit by commit.
        let writer = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess("writer"))
        expectSameState(writer.withProjection { $0 }, expected)
        try SnapshotHistory.write(into: writer, seed: seed + 100, requests: 40)
        let afterMore = writer.withProjection { $0 }
        writer.close()
        expectSameState(afterMore, try fullReplay(of: directory.ledger))
    }

    @Test(
        "A full replay keeps identifiers written as text or as UUID bytes, in several containers, as applying each record does"
    )
    func identifierFormsAndContainersReplayed() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 11, requests: 30)
        let journal = try Journal.open(at: directory.ledger)
        let containers = ["", UUID().uuidString, "team-container", UUID().uuidString]
        var added: [String] = []
        for index in 0..<60 {
            // Text identifiers, canonical UUIDs (written as 16 bytes) and a lower-case UUID (text).
            let identifier =
                switch index % 3 {
                case 0: "text-\(index)"
                case 1: UUID().uuidString
                default: UUID().uuidString.lowercased()
                }
            // Runs of one container, and changes from one to another, both ways.
            let container = containers[(index / 4 + index % 2) % containers.count]
            let event = LedgerEvent(operations: [
                .addContact(
                    identifier: identifier, containerIdentifier: container, createdBy: "writer-\(index % 2)",
                    values: makeContact(given: "Given\(index)", family: "Family\(index % 7)").values)
            ])
            _ = try journal.appendAndWait(
                JournalEntry(
                    author: "raw", schemaVersion: EventCodec.currentSchemaVersion, payload: EventCodec.encode(event)))
            added.append(identifier)
        }
        for identifier in added.enumerated().filter({ $0.offset % 5 == 0 }).map(\.element) {
            var new = ContactValues()
            new.familyName = "Renamed"
            let event = LedgerEvent(operations: [
                .updateContact(identifier: identifier, keys: [.familyName], old: ContactValues(), new: new)
            ])
            _ = try journal.appendAndWait(
                JournalEntry(
                    author: "raw", schemaVersion: EventCodec.currentSchemaVersion, payload: EventCodec.encode(event)))
        }
        journal.close()
        let expected = try fullReplay(of: directory.ledger)
        let replayed = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess()).withProjection { $0 }
        expectSameState(replayed, expected)
        for identifier in added {
            #expect(replayed.contact(identifier) != nil, "\(identifier)")
        }
        #expect(replayed.indexes.slots(matchingName: "renamed").count == 12)
        #expect(Set(added.compactMap { replayed.contact($0)?.containerIdentifier }) == Set(containers))
    }

    @Test("A replay through a point builds the indexes of that point")
    func replayThroughPoint() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 7, requests: 120)
        let last: UInt64 = 60
        let expected = try fullReplay(of: directory.ledger, through: last)
        let view = try ContactStore(readingLedgerAt: directory.ledger, asOf: .sequence(last), client: .fullAccess())
        expectSameState(view.withProjection { $0 }, expected)
    }

    @Test(
        "A record in the middle that cannot be decoded stops a full replay with its error, and a view before it opens")
    func undecodableRecordStopsReplay() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 9, requests: 300)
        let journal = try Journal.open(at: directory.ledger)
        let bad = try journal.appendAndWait(Self.undecodableEntry())
        // Records after it, which must not be applied.
        for index in 0..<300 { _ = try journal.appendAndWait(Self.addEntry("after-\(index)")) }
        journal.close()
        #expect {
            try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess())
        } throws: { error in
            "\(error)".contains("record \(bad.sequence) ") && "\(error)".contains("cannot be decoded")
        }
        #expect(throws: ContactStoreError.self) {
            try ContactStore(
                ledgerAt: directory.ledger, client: .fullAccess("writer"))
        }
        let before = try ContactStore(
            readingLedgerAt: directory.ledger, asOf: .sequence(bad.sequence - 1), client: .fullAccess())
        expectSameState(before.withProjection { $0 }, try fullReplay(of: directory.ledger, through: bad.sequence - 1))
    }

    @Test("A record that cannot be decoded is the error reported even when a later record is damaged")
    func undecodableRecordReportedBeforeLaterDamage() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 10, requests: 40)
        let journal = try Journal.open(at: directory.ledger)
        let bad = try journal.appendAndWait(Self.undecodableEntry())
        var after: [AppendReceipt] = []
        for index in 0..<6 { after.append(try journal.appendAndWait(Self.addEntry("after-\(index)"))) }
        journal.close()
        // Damage a record after the bad one, with good records after it: the scan fails there.
        // (An in-memory copy copies the whole journal before it replays, so it reports the damage.)
        let reader = try JournalReader(at: directory.ledger)
        var damaged: LedgerLocation?
        try reader.forEach { record in
            if record.sequence == after[2].sequence { damaged = record.location }
        }
        let location = try #require(damaged)
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: directory.ledger + "/" + location.file))
        try file.seek(toOffset: UInt64(location.offset) + 30)
        let byte = try #require(try file.read(upToCount: 1)?.first)
        try file.seek(toOffset: UInt64(location.offset) + 30)
        try file.write(contentsOf: [byte ^ 0x5A])
        try file.close()
        for open in [
            { () throws -> Void in _ = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess()) },
            { () throws -> Void in
                _ = try ContactStore(
                    ledgerAt: directory.ledger, client: .fullAccess("writer"))
            },
        ] {
            #expect {
                try open()
            } throws: { error in
                "\(error)".contains("record \(bad.sequence) ") && "\(error)".contains("cannot be decoded")
            }
        }
    }

    /// Where a test has each batch decoded: on the caller's thread, on the applying thread, or
    /// on each in turn by the parity of the batch's first sequence.
    static let placements: [String: @Sendable (UInt64) -> Bool] = [
        "caller": { _ in true }, "applying": { _ in false }, "alternating": { $0 % 2 == 0 },
    ]

    /// Feeds every record of a ledger to a replay whose batches are decoded where `placement`
    /// says, as the store's replay does, and returns what it finished with.
    private func replay(
        _ path: String, fileSystem: any FileSystem = SystemFileSystem(),
        decodesOnCaller: @escaping @Sendable (UInt64) -> Bool,
        applyingWillDecode: (@Sendable (ProjectionReplay) -> Void)? = nil
    ) throws -> Result<Projection, ContactStoreError> {
        let reader = try JournalReader(at: path)
        var records: [JournalRecord] = []
        try reader.forEach { records.append($0) }
        final class Started: @unchecked Sendable {
            // Set once, before the first record is added; read by the applying thread after.
            var replay: ProjectionReplay?
        }
        let started = Started()
        var hold: (@Sendable () -> Void)?
        if let applyingWillDecode {
            hold = {
                if let replay = started.replay { applyingWillDecode(replay) }
            }
        }
        // The arena's room reserved as the store reserves it.
        let replay = ProjectionReplay(
            Projection(ledgerID: reader.identity.ledgerID),
            journalBytes: LedgerDirectory.segmentBytes(reader.paths, from: 1, fileSystem: reader.fileSystem),
            fileSystem: fileSystem, decodesOnCaller: decodesOnCaller, applyingWillDecode: hold)
        started.replay = replay
        do throws(ContactStoreError) {
            for record in records { try replay.add(record) }
            return .success(try replay.finish())
        } catch {
            // Finishing repeats the error that adding threw.
            #expect(throws: error) { try replay.finish() }
            return .failure(error)
        }
    }

    @Test(
        "A replay gives the state that applying each record gives, whichever thread decodes its batches",
        arguments: ["caller", "applying", "alternating"])
    func replayWhicheverThreadDecodes(placement: String) throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 7, requests: 300)
        let expected = try fullReplay(of: directory.ledger)
        let replayed = try replay(directory.ledger, decodesOnCaller: try #require(Self.placements[placement])).get()
        replayed.indexes.checkInvariants()
        expectSameState(replayed, expected)
    }

    /// A ledger of imports (2,500 contacts, over 600 KB, a record: more arena than one chunk of
    /// backing) after a history, and the projection that applying each record gives.
    private func importLedger(_ directory: StoreDirectory) throws -> Projection {
        try writeLedger(directory, seed: 11, requests: 40)
        let journal = try Journal.open(at: directory.ledger)
        for index in 0..<8 { _ = try journal.appendAndWait(Self.importEntry("import\(index)", count: 2_500)) }
        journal.close()
        return try fullReplay(of: directory.ledger)
    }

    /// Replays a ledger with every batch decoded on an applying thread that dawdles, so that the
    /// queue fills and the caller's thread would wait; returns the projection and the bytes of
    /// arena room the caller's thread backed.
    private func replayWithSlowApplying(
        _ path: String, fileSystem: any FileSystem
    ) throws -> (projection: Projection, backed: Int) {
        final class Seen: @unchecked Sendable {
            // Set by the applying thread before it decodes; read once the replay has finished.
            var replay: ProjectionReplay?
        }
        let seen = Seen()
        // 20 ms a batch: far longer than reading one takes, even in a debug build on a slow
        // machine, so that the caller's thread finds the queue full.
        let replayed = try replay(path, fileSystem: fileSystem, decodesOnCaller: { _ in false }) { replay in
            seen.replay = replay
            usleep(20_000)
        }.get()
        return (replayed, try #require(seen.replay).warmedBytes)
    }

    /// Whether this system backs memory on advice (Linux 5.14 and later).
    static let systemPopulatesMemory: Bool = {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let region = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * page, alignment: page)
        defer { region.deallocate() }
        return (try? SystemFileSystem().populateForWriting(UnsafeMutableRawBufferPointer(rebasing: region[..<page])))
            != nil
    }()

    @Test(
        "While the applying thread is behind, the caller's thread backs the arena's room, and the state is unchanged",
        .enabled(if: systemPopulatesMemory, "this system does not back memory on advice"))
    func callerBacksTheArenaWhileWaiting() throws {
        let directory = StoreDirectory()
        let expected = try importLedger(directory)
        let fileSystem = FaultInjectingFileSystem()
        let (replayed, backed) = try replayWithSlowApplying(directory.ledger, fileSystem: fileSystem)
        expectSameState(replayed, expected)
        #expect(backed > 0)
        #expect(fileSystem.callCount(.populateMemory) > 0)
    }

    @Test(
        "Memory advice the system refuses stops the backing, and the replay's state is unchanged",
        arguments: [EINVAL, ENOMEM])
    func refusedAdviceStopsBacking(errno code: Int32) throws {
        let directory = StoreDirectory()
        let expected = try importLedger(directory)
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(.init(.populateMemory, effect: .fail(errno: code)))
        let (replayed, backed) = try replayWithSlowApplying(directory.ledger, fileSystem: fileSystem)
        expectSameState(replayed, expected)
        #expect(backed == 0)
        // Not asked again: after EINVAL for the replay, after any other refusal for the arena's
        // address, which its reserved room keeps for the whole replay here.
        #expect(fileSystem.callCount(.populateMemory) == 1)
    }

    /// An entry adding `count` contacts, as an import writes them.
    static func importEntry(_ prefix: String, count: Int) -> JournalEntry {
        let event = LedgerEvent(
            operations: (0..<count).map { index in
                .addContact(
                    identifier: "\(prefix)-\(index)", containerIdentifier: "", createdBy: "import",
                    values: makeContact(given: "Imported", family: "\(prefix)\(index)").values)
            })
        return JournalEntry(
            author: "import", schemaVersion: EventCodec.currentSchemaVersion, payload: EventCodec.encode(event))
    }

    @Test(
        "The first record that cannot be decoded is reported, whichever thread finds it and in whichever order",
        arguments: ["caller", "applying", "alternating", "the first on the applying thread, found last"])
    func firstUndecodableRecordWhicheverThread(placement: String) throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 8, requests: 60)
        let journal = try Journal.open(at: directory.ledger)
        // A batch ends at the record that passes 64 KiB: these imports make each bad record the
        // first of a batch.
        _ = try journal.appendAndWait(Self.importEntry("import0", count: 2_500))
        let first = try journal.appendAndWait(Self.undecodableEntry())
        _ = try journal.appendAndWait(Self.importEntry("import1", count: 2_500))
        let second = try journal.appendAndWait(Self.undecodableEntry())
        _ = try journal.appendAndWait(Self.importEntry("import2", count: 2_500))
        for index in 0..<20 { _ = try journal.appendAndWait(Self.addEntry("after-\(index)")) }
        journal.close()
        var placements = Self.placements
        // Only the batch holding the first bad record goes to the applying thread, which is held
        // until the caller's thread has found the second bad record, in a later batch: the
        // caller must then wait for the applying thread before it reports either.
        let foundLast = "the first on the applying thread, found last"
        placements[foundLast] = { $0 != first.sequence }
        let holdUntilFound: @Sendable (ProjectionReplay) -> Void = { replay in
            let deadline = Date().addingTimeInterval(10)
            while !replay.hasFailure && Date() < deadline { usleep(1_000) }
        }
        let decodesOnCaller = try #require(placements[placement])
        let outcome = try replay(
            directory.ledger, decodesOnCaller: decodesOnCaller,
            applyingWillDecode: placement == foundLast ? holdUntilFound : nil)
        guard case .failure(let error) = outcome else {
            Issue.record("a replay over undecodable records succeeded")
            return
        }
        #expect("\(error)".contains("record \(first.sequence) "), "\(error)")
        #expect(!"\(error)".contains("record \(second.sequence) "))
    }

    @Test("Work on a thread of its own carries its name where the system shows it")
    func backgroundWorkNamed() throws {
        #if os(Linux)
            let work = BackgroundWork(named: "index build") {
                (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            }
            #expect(work.wait() == "index build\n")
        #endif
    }

    /// An object that work on a thread of its own captures, and a weak view of it.
    private final class Captured: Sendable { let number = 7 }
    private final class WeakView { weak var object: Captured? }

    /// Starts work that captures an object no one else holds once this returns.
    private func workCapturingAnObject() -> (BackgroundWork<Int>, WeakView) {
        let object = Captured()
        let view = WeakView()
        view.object = object
        return (BackgroundWork(named: "captures") { object.number }, view)
    }

    @Test("What work on a thread of its own captures is released before its value is returned")
    func backgroundWorkReleasesCaptures() {
        // A thread ends after it signals; repeated, so that releasing only then would show.
        for _ in 0..<20 {
            let (work, view) = workCapturingAnObject()
            #expect(work.wait() == 7)
            #expect(view.object == nil)
        }
    }

    @Test("A reservation hint far beyond the machine's memory is bounded, not allocated")
    func hugeReservationBounded() throws {
        let replay = ProjectionReplay(Projection(ledgerID: UUID()), journalBytes: Int.max / 2)
        let projection = try replay.finish()
        #expect(projection.contactCount == 0)
        #expect(ContactTable.arenaReservationMax > 0 && ContactTable.arenaReservationMax <= 4 << 30)
    }

    @Test("Indexes built from contacts with every kind of name field answer every word as maintained ones do")
    func builtIndexesMatchMaintainedForEveryField() {
        let seed = EventFixtures.seed("builtIndexesMatchMaintainedForEveryField")
        var generator = EventFixtures.SeededGenerator(seed: seed)
        var maintained = Projection(ledgerID: UUID(), defaultCountryCode: "gb")
        var words: Set<String> = []
        var emails: [String] = []
        var phones: [String] = []
        for index in 0..<30 {
            let values = EventFixtures.randomValues(using: &generator)
            maintained.putContact(
                "c\(index)",
                ContactState(
                    values: values, containerIdentifier: maintained.defaultContainer.identifier, createdBy: "w",
                    revision: 1))
            SearchFolding.forEachNameField(of: values) { field in
                for word in field.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }) {
                    words.insert(String(word))
                    words.insert(String(word.prefix(2)))
                }
            }
            emails += values.emailAddresses.map(\.value)
            phones += values.phoneNumbers.map(\.value.stringValue)
            if index % 7 == 3 { maintained.putContact("c\(index - 2)", nil) }
        }
        maintained.prepareForQueries()
        var built = maintained
        built.deferIndexes()
        #expect(throws: Never.self) { try built.buildIndexes() }
        for word in words.sorted().prefix(120) {
            #expect(
                built.indexes.slots(matchingName: word) == maintained.indexes.slots(matchingName: word),
                "seed \(seed): \(word)")
        }
        for email in emails {
            #expect(
                built.indexes.slots(matchingEmailAddress: email)
                    == maintained.indexes.slots(matchingEmailAddress: email))
        }
        for phone in phones {
            #expect(
                built.indexes.slots(matchingPhoneNumber: phone) == maintained.indexes.slots(matchingPhoneNumber: phone))
        }
    }

    @Test(
        "The build's email and phone indexes, whose fields are handed from thread to thread in batches, whose keys are read a batch of contacts ahead, and whose tables take room estimated from the first batch, answer what insertion answers",
        arguments: [("gb", 8192, 150), ("zz", 8192, 150), ("gb", 7, 150), ("zz", 7, 150), ("gb", 1100, 2600)])
    func builtAddressesAndNumbersMatchMaintained(country: String, contactsHandedOn: Int, contacts: Int) {
        let seed = EventFixtures.seed("builtAddressesAndNumbersMatchMaintained")
        var generator = EventFixtures.SeededGenerator(seed: seed)
        // Keys shared between contacts, within and across the build's batches; national and
        // international numbers; numbers too long for an integer key (packed); and, with "zz",
        // no default region (the calling codes are counted).
        let emails = (0..<60).map { "User\($0)@Example.org" }
        let phones =
            (0..<40).map { "020 7946 \(1000 + $0)" } + (0..<40).map { "+1 212 555 \(2000 + $0)" }
            + (0..<20).map { "+44 12345 67890 12345 678\($0)" }
        var maintained = Projection(ledgerID: UUID(), defaultCountryCode: country)
        for index in 0..<contacts {
            var values = ContactValues()
            values.givenName = "n\(index)"
            values.emailAddresses = (0..<Int.random(in: 0...3, using: &generator)).map { number in
                LabeledValue(
                    identifier: "e\(index).\(number)", label: nil, value: emails.randomElement(using: &generator)!)
            }
            values.phoneNumbers = (0..<Int.random(in: 0...3, using: &generator)).map { number in
                LabeledValue(
                    identifier: "p\(index).\(number)", label: nil,
                    value: PhoneNumber(stringValue: phones.randomElement(using: &generator)!))
            }
            maintained.putContact(
                "c\(index)",
                ContactState(
                    values: values, containerIdentifier: maintained.defaultContainer.identifier, createdBy: "w",
                    revision: 1))
            // Deleted contacts leave free slots, which later contacts take.
            if index % 11 == 5 { maintained.putContact("c\(index - 3)", nil) }
        }
        maintained.prepareForQueries()
        var built = maintained
        built.deferIndexes()
        #expect(throws: Never.self) { try built.buildIndexes(contactsHandedOn: contactsHandedOn) }
        built.indexes.checkInvariants()
        for email in emails {
            #expect(
                built.indexes.slots(matchingEmailAddress: email)
                    == maintained.indexes.slots(matchingEmailAddress: email), "seed \(seed): \(email)")
        }
        for phone in phones {
            #expect(
                built.indexes.slots(matchingPhoneNumber: phone)
                    == maintained.indexes.slots(matchingPhoneNumber: phone), "seed \(seed): \(phone)")
        }
        #expect(emails.contains { !built.indexes.slots(matchingEmailAddress: $0).isEmpty })
        #expect(phones.suffix(20).contains { !built.indexes.slots(matchingPhoneNumber: $0).isEmpty })
    }

    @Test("Indexes built from the contacts answer what indexes kept up to date answer")
    func builtIndexesMatchMaintained() throws {
        let directory = StoreDirectory()
        try writeLedger(directory, seed: 8, requests: 200)
        let maintained = try fullReplay(of: directory.ledger)
        var rebuilt = maintained
        rebuilt.deferIndexes()
        #expect(rebuilt.indexes.slots(matchingName: "a").isEmpty)
        try rebuilt.buildIndexes()
        #expect(!rebuilt.indexesDeferred)
        rebuilt.indexes.checkInvariants()
        expectSameState(rebuilt, maintained)
    }

    @Test("A contact whose bytes are not a Contact message fails the build, naming its slot")
    func unreadableContactNamed() throws {
        var projection = Projection(ledgerID: UUID())
        projection.deferIndexes()
        let good = ContactCodec.encode(makeContact(given: "Ada", family: "Lovelace").values, keys: .all)
        _ = projection.contacts.insert("a", encoded: good, container: 0, creator: 0, revision: 1)
        // A length-delimited given name that claims more bytes than there are.
        _ = projection.contacts.insert("b", encoded: [0x12, 0x7F, 0x41], container: 0, creator: 0, revision: 2)
        #expect {
            try projection.buildIndexes()
        } throws: { error in
            (error as? Projection.IndexBuildFailure)?.slot == 1 && "\(error)".contains("slot 1")
        }
    }

    @Test("An update of a contact stored in an unusual field order is applied by decoding it")
    func unusualStoredContactUpdated() throws {
        var projection = Projection(ledgerID: UUID())
        projection.deferIndexes()
        // The key set, then family name "B" before given name "A": decodable, not as the encoder writes.
        let stored = ContactCodec.encode(ContactValues(), keys: .all) + [0x1A, 0x01, 0x42, 0x12, 0x01, 0x41]
        let creator = projection.creatorIndex("writer")
        _ = projection.contacts.insert("c", encoded: stored, container: 0, creator: creator, revision: 1)
        var update = ContactValues()
        update.givenName = "Ada"
        let updateBytes = ContactCodec.encode(update, keys: [.givenName])
        var scratch: [UInt8] = []
        updateBytes.withUnsafeBufferPointer { bytes in
            projection.updateEncodedContact(.text("c"), keys: [.givenName], new: bytes, revision: 2, scratch: &scratch)
        }
        let state = try #require(projection.contact("c"))
        #expect(state.values.givenName == "Ada" && state.values.familyName == "B" && state.revision == 2)
        // A missing contact is left alone, as applying the operation leaves it.
        updateBytes.withUnsafeBufferPointer { bytes in
            projection.updateEncodedContact(
                .text("missing"), keys: [.givenName], new: bytes, revision: 3, scratch: &scratch)
        }
        #expect(projection.contact("missing") == nil && projection.contactCount == 1)
    }

    @Test(
        "Folding and keying UTF-8 bytes agrees with folding and keying the decoded string",
        arguments: [
            Array("José Ångström-O'Brien".utf8), Array("田中太郎".utf8), Array("ＪＯＨＮ smith".utf8),
            Array("Ada.Lovelace@Example.ORG ".utf8), Array("+44 (0)20 7946 0958".utf8), Array("٤١٥ ٥٥٥ ٠١٠٠".utf8),
            [0x41, 0xFF, 0x62, 0xC3], [0xE2, 0x82], [],
        ] as [[UInt8]])
    func utf8PathsAgree(bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var fromBytes = FoldedWords()
        var fromText = FoldedWords()
        var emailFromBytes: [UInt8] = []
        var emailFromText: [UInt8] = []
        var packedFromBytes: [UInt8] = []
        var packedFromText: [UInt8] = []
        bytes.withUnsafeBufferPointer { utf8 in
            SearchFolding.appendWords(ofUTF8: utf8, to: &fromBytes)
            #expect(
                SearchFolding.foldEmail(utf8: utf8, into: &emailFromBytes)
                    == SearchFolding.foldEmail(text, into: &emailFromText))
            let dialing = PhoneNumbering.dialing(for: "gb")
            let keyFromBytes = PhoneNumbering.storedKey(forUTF8: utf8, dialing: dialing, packed: &packedFromBytes)
            let keyFromText = PhoneNumbering.storedKey(for: text, dialing: dialing, packed: &packedFromText)
            #expect(keyFromBytes?.key == keyFromText?.key && keyFromBytes?.callingCode == keyFromText?.callingCode)
        }
        SearchFolding.appendWords(of: text, to: &fromText)
        #expect(
            (0..<fromBytes.count).map { Array(fromBytes.word($0)) }
                == (0..<fromText.count).map { Array(fromText.word($0)) })
        #expect(emailFromBytes == emailFromText)
        #expect(packedFromBytes == packedFromText)
    }
}
