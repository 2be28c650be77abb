import Foundation
import LedgerMigrations
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("The event codec")
struct EventCodecTests {
    @Test(
        "Every kind of operation round-trips exactly",
        arguments: EventFixtures.everyOperation() + EventFixtures.laterOperations)
    func roundTrip(operation: LedgerOperation) throws {
        let event = LedgerEvent(operations: [operation])
        let payload = EventCodec.encode(event)
        let decoded = try EventCodec.decode(payload, schemaVersion: EventCodec.currentSchemaVersion)
        #expect(decoded == LedgerEvent(operations: [EventFixtures.normalized(operation)]))
    }

    @Test("The fixtures hold every kind of operation the schema has")
    func everyKindCovered() throws {
        let kinds = try (EventFixtures.everyOperation() + EventFixtures.laterOperations).map { operation in
            let message = try StoredMessage(parsing: EventCodec.encode(LedgerEvent(operations: [operation])))
            return try #require(try message.message(1)?.entries.first?.field)
        }
        #expect(Set(kinds) == Set(EventSchema.OperationField.allCases.map(\.rawValue)))
    }

    @Test("Encoding says where each added contact's values lie, however long the messages around them")
    func locatesAddedContacts() throws {
        let seed = EventFixtures.seed("locatesAddedContacts")
        var generator = EventFixtures.SeededGenerator(seed: seed)
        // Notes of these lengths make the Contact message's length, and with it the lengths of
        // the messages around it, take one, two and three bytes.
        let noteLengths = [0, 100, 200, 20_000]
        for round in 0..<200 {
            var operations: [LedgerOperation] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                if Bool.random(using: &generator) {
                    operations.append(EventFixtures.randomOperation(using: &generator))
                    continue
                }
                guard
                    case .addContact(let identifier, let container, let createdBy, var values) =
                        EventFixtures.typicalAdd(round)
                else { preconditionFailure("typicalAdd is an add") }
                values.note = String(repeating: "n", count: noteLengths.randomElement(using: &generator)!)
                operations.append(
                    .addContact(
                        identifier: identifier, containerIdentifier: container, createdBy: createdBy, values: values))
            }
            let event = LedgerEvent(operations: operations)
            let encoded = EventCodec.encodeLocatingAdds(event)
            #expect(encoded.payload == EventCodec.encode(event))
            let added = operations.compactMap { operation -> ContactValues? in
                guard case .addContact(_, _, _, let values) = operation else { return nil }
                return values
            }
            try #require(encoded.addedContacts.count == added.count, "seed \(seed), round \(round)")
            for (values, range) in zip(added, encoded.addedContacts) {
                // A Bool, so that a failure names the seed rather than printing kilobytes.
                let matches = encoded.payload[range].elementsEqual(ContactCodec.encode(values, keys: .all))
                #expect(matches, "seed \(seed), round \(round)")
            }
        }
    }

    @Test("An event of many operations keeps their order, and an empty event is empty bytes")
    func manyOperations() throws {
        let event = LedgerEvent(operations: EventFixtures.everyOperation())
        let decoded = try EventCodec.decode(EventCodec.encode(event), schemaVersion: EventCodec.currentSchemaVersion)
        #expect(decoded.operations == event.operations.map(EventFixtures.normalized))
        #expect(EventCodec.encode(LedgerEvent(operations: [])) == [])
        #expect(
            try EventCodec.decode([], schemaVersion: EventCodec.currentSchemaVersion) == LedgerEvent(operations: []))
    }

    @Test("Generated events of every kind round-trip exactly")
    func generatedEvents() throws {
        var generator = EventFixtures.SeededGenerator(seed: EventFixtures.seed("Generated events round-trip"))
        for _ in 0..<150 {
            let operations = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                EventFixtures.randomOperation(using: &generator)
            }
            let event = LedgerEvent(operations: operations)
            let payload = EventCodec.encode(event)
            #expect(try EventCodec.decode(payload, schemaVersion: EventCodec.currentSchemaVersion) == event)
            // The encoding is canonical: decoding and encoding again gives the same bytes.
            #expect(
                EventCodec.encode(try EventCodec.decode(payload, schemaVersion: EventCodec.currentSchemaVersion))
                    == payload)
        }
    }

    @Test("A typical add stays small")
    func typicalSize() {
        let payload = EventCodec.encode(LedgerEvent(operations: [EventFixtures.typicalAdd()]))
        // Version 1 wrote it in 448 bytes. Version 2 writes its six UUIDs as 16 bytes instead of
        // 36 (6 × 20 = 120 fewer) and its four standard labels as a one-byte number instead of
        // their 12 or 14 characters (14 + 12 + 12 + 12 = 50 fewer); no length changes its size.
        #expect(payload.count == 448 - 120 - 50, "a typical add takes \(payload.count) bytes")
    }

    @Test("Fields this version does not know are skipped at every level")
    func unknownFieldsSkipped() throws {
        func extra(_ encoder: inout WireEncoder) {
            encoder.appendVarint(field: 99, value: 7)
            encoder.appendString(field: 1000, "later")
        }
        var encoder = WireEncoder()
        extra(&encoder)
        encoder.appendMessage(field: 1) { operation in
            extra(&operation)
            operation.appendMessage(field: 1) { add in
                add.appendString(field: 1, "C1")
                extra(&add)
                add.appendMessage(field: 4) { contact in
                    contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
                    extra(&contact)
                    contact.appendString(field: 2, "Ada")
                    contact.appendMessage(field: 5) { phone in
                        extra(&phone)
                        phone.appendString(field: 3, "555")
                    }
                    contact.appendMessage(field: 22) { date in
                        extra(&date)
                        date.appendSignedVarint(field: 5, value: 3)
                    }
                }
            }
        }
        var values = ContactValues()
        values.givenName = "Ada"
        values.phoneNumbers = [LabeledValue(identifier: "", label: nil, value: PhoneNumber(stringValue: "555"))]
        values.birthday = DateComponents(day: 3)
        let expected = LedgerEvent(operations: [
            .addContact(identifier: "C1", containerIdentifier: "", createdBy: "", values: values)
        ])
        #expect(try EventCodec.decode(encoder.bytes, schemaVersion: EventCodec.currentSchemaVersion) == expected)
    }

    @Test("A singular field written twice keeps its last value, a nested contact included")
    func lastValueWins() throws {
        var encoder = WireEncoder()
        encoder.appendMessage(field: 1) { operation in
            operation.appendMessage(field: 1) { add in
                add.appendString(field: 1, "C1")
                add.appendString(field: 1, "C2")
                add.appendMessage(field: 4) { contact in
                    contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
                    contact.appendString(field: 2, "Ada")
                    contact.appendMessage(field: 5) { $0.appendString(field: 3, "555") }
                }
                add.appendMessage(field: 4) { contact in
                    contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
                    contact.appendString(field: 3, "Lovelace")
                }
            }
        }
        var values = ContactValues()
        values.familyName = "Lovelace"
        let expected = LedgerEvent(operations: [
            .addContact(identifier: "C2", containerIdentifier: "", createdBy: "", values: values)
        ])
        #expect(try EventCodec.decode(encoder.bytes, schemaVersion: EventCodec.currentSchemaVersion) == expected)
    }

    // MARK: Golden bytes

    /// The event the golden bytes hold: every kind of operation, every property of a contact.
    static let goldenEvent = LedgerEvent(operations: EventFixtures.everyOperation().map(EventFixtures.normalized))

    /// ``goldenEvent`` as schema version 1 wrote it. Version 1 payloads are in ledgers forever: these
    /// bytes must keep decoding, through the upcaster chain, to the same event. Never edit them.
    static let goldenHexV1 = """
        0a115a0f0a024b3112054c6f63616c180120010a8e040a8b040a02433112024b311a0361707022fb0308ffffffff0312
        054a6f73c3a91a074ec3bac3b1657a220ce6a0aae5bc8fe4bc9ae7a4be2a210a025031120e5f24213c4d6f62696c653e
        21245f1a0b2b312035353520303130302a0a0a0250321a043031303032150a02453112001a0d6a406578616d706c652e
        636f6d38014201514a0344722e52034a722e5a0450657065620a436869656620f09fa6846a0352264472570a02413112
        0c5f24213c486f6d653e21245f1a430a0f31204d61696e2053740a417074203212084f6c6420546f776e1a0b53707269
        6e676669656c642205436c61726b2a02494c320536323730313a03555341420275737a1f0a0255311204626c6f671a13
        68747470733a2f2f6578616d706c652e636f6d8201024c698a0106686f2d5341599201046b796f6f9a01084e4f4f2d6e
        79657aa201096b6162757368696b69aa01116c696e65206f6e650a6c696e652074776fb201042004283aba010f0a0763
        68696e657365200c28023001c201220a02443112135f24213c416e6e69766572736172793e21245f1a0718a21f200c28
        12ca01190a025231120e5f24213c4d6f746865723e21245f1a03416e61d2012b0a0253311a250a1368747470733a2f2f
        782e6578616d706c652f6a12016a1a023432220754776974746572da011f0a024931120c5f24213c576f726b3e21245f
        1a0b0a026a711205536b797065e20104ffd8ffe00a7c127a0a02433112550888804c12054a6f73c3a92a210a02503112
        0e5f24213c4d6f62696c653e21245f1a0b2b312035353520303130302a0a0a0250321a0430313030aa01116c696e6520
        6f6e650a6c696e652074776fb201042004283a1a1d0888804c12034a6f65aa01116c696e65206f6e650a6c696e652074
        776f0a1322110a02473112024b311a07467269656e64730a172a150a0247311207467269656e64731a0646616d696c79
        0a0a3a080a024331120247310a0a42080a024331120247310a0a22080a02473212024b310a0a4a080a02473212024731
        0a0a52080a024732120247310a0b72090a03617070100418010a11620f0a03617070120243311200120243320a0b6a09
        0a03617070120243310a1e321c0a02473112024b311a0646616d696c7922024331220243322a0247320ada031ad7030a
        02433112024b311a03617070220247322ac30308ffffffff0312034a6f651a074ec3bac3b1657a220ce6a0aae5bc8fe4
        bc9ae7a4be32150a02453112001a0d6a406578616d706c652e636f6d38014201514a0344722e52034a722e5a04506570
        65620a436869656620f09fa6846a0352264472570a024131120c5f24213c486f6d653e21245f1a430a0f31204d61696e
        2053740a417074203212084f6c6420546f776e1a0b537072696e676669656c642205436c61726b2a02494c3205363237
        30313a03555341420275737a1f0a0255311204626c6f671a1368747470733a2f2f6578616d706c652e636f6d8201024c
        698a0106686f2d5341599201046b796f6f9a01084e4f4f2d6e79657aa201096b6162757368696b69aa01116c696e6520
        6f6e650a6c696e652074776fba010f0a076368696e657365200c28023001c201220a02443112135f24213c416e6e6976
        6572736172793e21245f1a0718a21f200c2812ca01190a025231120e5f24213c4d6f746865723e21245f1a03416e61d2
        012b0a0253311a250a1368747470733a2f2f782e6578616d706c652f6a12016a1a023432220754776974746572da011f
        0a024931120c5f24213c576f726b3e21245f1a0b0a026a711205536b797065e20104ffd8ffe0
        """

    /// ``goldenEvent`` encoded in schema version 2 (the current one): the version 1 bytes with every
    /// standard label written as its number. If this test fails, the schema changed: that is a new
    /// schema version with an upcaster, never an edit of these bytes.
    static let goldenHexV2 = """
        0a115a0f0a024b3112054c6f63616c180120010ad5030ad2030a02433112024b311a0361707022c20308ffffffff0312
        054a6f73c3a91a074ec3bac3b1657a220ce6a0aae5bc8fe4bc9ae7a4be2a130a0250311a0b2b31203535352030313030
        280a2a0a0a0250321a043031303032150a02453112001a0d6a406578616d706c652e636f6d38014201514a0344722e52
        034a722e5a0450657065620a436869656620f09fa6846a03522644724b0a0241311a430a0f31204d61696e2053740a41
        7074203212084f6c6420546f776e1a0b537072696e676669656c642205436c61726b2a02494c320536323730313a0355
        53414202757328017a1f0a0255311204626c6f671a1368747470733a2f2f6578616d706c652e636f6d8201024c698a01
        06686f2d5341599201046b796f6f9a01084e4f4f2d6e79657aa201096b6162757368696b69aa01116c696e65206f6e65
        0a6c696e652074776fb201042004283aba010f0a076368696e657365200c28023001c2010f0a0244311a0718a21f200c
        28122807ca01190a025231120e5f24213c4d6f746865723e21245f1a03416e61d2012b0a0253311a250a136874747073
        3a2f2f782e6578616d706c652f6a12016a1a023432220754776974746572da01130a0249311a0b0a026a711205536b79
        70652802e20104ffd8ffe00a6e126c0a02433112470888804c12054a6f73c3a92a130a0250311a0b2b31203535352030
        313030280a2a0a0a0250321a0430313030aa01116c696e65206f6e650a6c696e652074776fb201042004283a1a1d0888
        804c12034a6f65aa01116c696e65206f6e650a6c696e652074776f0a1322110a02473112024b311a07467269656e6473
        0a172a150a0247311207467269656e64731a0646616d696c790a0a3a080a024331120247310a0a42080a024331120247
        310a0a22080a02473212024b310a0a4a080a024732120247310a0a52080a024732120247310a0b72090a036170701004
        18010a11620f0a03617070120243311200120243320a0b6a090a03617070120243310a1e321c0a02473112024b311a06
        46616d696c7922024331220243322a0247320aaf031aac030a02433112024b311a03617070220247322a980308ffffff
        ff0312034a6f651a074ec3bac3b1657a220ce6a0aae5bc8fe4bc9ae7a4be32150a02453112001a0d6a406578616d706c
        652e636f6d38014201514a0344722e52034a722e5a0450657065620a436869656620f09fa6846a03522644724b0a0241
        311a430a0f31204d61696e2053740a417074203212084f6c6420546f776e1a0b537072696e676669656c642205436c61
        726b2a02494c320536323730313a035553414202757328017a1f0a0255311204626c6f671a1368747470733a2f2f6578
        616d706c652e636f6d8201024c698a0106686f2d5341599201046b796f6f9a01084e4f4f2d6e79657aa201096b616275
        7368696b69aa01116c696e65206f6e650a6c696e652074776fba010f0a076368696e657365200c28023001c2010f0a02
        44311a0718a21f200c28122807ca01190a025231120e5f24213c4d6f746865723e21245f1a03416e61d2012b0a025331
        1a250a1368747470733a2f2f782e6578616d706c652f6a12016a1a023432220754776974746572da01130a0249311a0b
        0a026a711205536b7970652802e20104ffd8ffe0
        """

    @Test("The encoding of a fixed event is byte for byte the checked-in golden bytes")
    func goldenEncoding() {
        let hex = EventFixtures.hex(EventCodec.encode(Self.goldenEvent))
        let golden = Self.goldenHexV2.filter(\.isHexDigit)
        #expect(hex == golden, "encoded: \(hex)")
    }

    @Test("A request for access encodes to its checked-in golden bytes and back")
    func goldenRequestAccess() throws {
        // Event.operations (1) of 9 bytes: Operation.requestAccess (15) of 7 bytes:
        // clientIdentifier (1) "app", notesEntitlement (3) 1. Never edit these bytes.
        let golden = "0a 09 7a 07 0a 03 61 70 70 18 01"
        let event = LedgerEvent(operations: [.requestAccess(clientIdentifier: "app", notesEntitlement: true)])
        #expect(EventFixtures.hex(EventCodec.encode(event)) == golden.filter(\.isHexDigit))
        #expect(try EventCodec.decode(EventFixtures.bytes(hex: golden), schemaVersion: 2) == event)
    }

    @Test("A request for access that carries a status is refused")
    func requestWithStatus() throws {
        var encoder = WireEncoder()
        encoder.appendMessage(field: 1) { $0.appendMessage(field: 15) { $0.appendVarint(field: 2, value: 3) } }
        #expect(try Self.decodingError(encoder.bytes).reason == .invalidValue(3))
    }

    @Test("An undo's bytes are the checked-in golden bytes; an unknown or missing kind is refused")
    func goldenUndo() throws {
        // Event.operations (1) of 8 bytes: Operation.undo (16, two-byte key 82 01) of 5 bytes:
        // Undo.sequence (1) = 300, Undo.kind (2) = 2, revert.
        let golden = "0a 08 82 01 05 08 ac 02 10 02"
        let event = LedgerEvent(operations: [.undo(kind: .revert, sequence: 300)])
        #expect(EventFixtures.hex(EventCodec.encode(event)) == golden.filter(\.isHexDigit))
        #expect(try EventCodec.decode(EventFixtures.bytes(hex: golden), schemaVersion: 2) == event)
        for damaged in ["0a 08 82 01 05 08 ac 02 10 04", "0a 06 82 01 03 08 ac 02"] {
            #expect(throws: EventDecodingError.self) {
                try EventCodec.decode(EventFixtures.bytes(hex: damaged), schemaVersion: 2)
            }
        }
    }

    @Test("A recorded redaction and a stand-in encode to their checked-in golden bytes and back")
    func goldenRedaction() throws {
        // Event.operations (1) of 49 bytes: Operation.redaction (20, two-byte key a2 01) of 46 bytes:
        // sequence (1) 3, contactIdentifier (2) "C", reason (3) "why", erased (4) 1, remainingDigest
        // (5) the SHA-256 of no bytes; then one of 15 bytes: a stand-in, contactIdentifier (2) "C",
        // redactedKind (6) 1 (an add), containerIdentifier (7) "K", createdBy (8) "me". Never edit
        // these bytes.
        let golden = """
            0a 31 a2 01 2e 08 03 12 01 43 1a 03 77 68 79 20 01 2a 20
            e3 b0 c4 42 98 fc 1c 14 9a fb f4 c8 99 6f b9 24 27 ae 41 e4 64 9b 93 4c a4 95 99 1b 78 52 b8 55
            0a 0f a2 01 0c 12 01 43 30 01 3a 01 4b 42 02 6d 65
            """
        let event = LedgerEvent(operations: [
            .redaction(
                RedactionNote(
                    sequence: 3, contactIdentifier: "C", reason: "why", erased: true, remainingDigest: SHA256.hash([]))),
            .redacted(
                RedactedOperation(kind: .addContact, contactIdentifier: "C", containerIdentifier: "K", createdBy: "me")),
        ])
        #expect(EventFixtures.hex(EventCodec.encode(event)) == golden.filter(\.isHexDigit))
        #expect(try EventCodec.decode(EventFixtures.bytes(hex: golden), schemaVersion: 2) == event)
        // A redaction that names no record, and a stand-in of a kind that is not a contact operation.
        for damaged in ["0a 05 a2 01 02 12 00", "0a 05 a2 01 02 30 04"] {
            #expect(throws: EventDecodingError.self) {
                try EventCodec.decode(EventFixtures.bytes(hex: damaged), schemaVersion: 2)
            }
        }
    }

    @Test("The golden bytes of every schema version decode to the fixed event")
    func goldenDecoding() throws {
        #expect(try EventCodec.decode(EventFixtures.bytes(hex: Self.goldenHexV2), schemaVersion: 2) == Self.goldenEvent)
        #expect(try EventCodec.decode(EventFixtures.bytes(hex: Self.goldenHexV1), schemaVersion: 1) == Self.goldenEvent)
    }

    /// A typical add as schema version 1 wrote it: every identifier as 36 characters of text, every
    /// label as its string. Never edit these bytes.
    static let typicalAddHexV1 = """
        0abd030aba030a2438433345314135322d374434422d344630452d423641392d30303030303030303030303012243546
        3641324634452d334231432d344438452d394137422d3043314432453346344135421a14636f6d2e6578616d706c652e
        696d706f7274657222d50208ffffffff0312034164611a084c6f76656c6163652216416e616c79746963616c20456e67
        696e6573204c74642a480a2438433345314135322d374434422d344630452d423641392d303030303030303030303031
        120e5f24213c4d6f62696c653e21245f1a102b3434203230203739343620303935382a430a2438433345314135322d37
        4434422d344630452d423641392d303030303030303030303032120c5f24213c576f726b3e21245f1a0d303230203739
        3436203030303032450a2438433345314135322d374434422d344630452d423641392d30303030303030303030303312
        0c5f24213c486f6d653e21245f1a0f616461406578616d706c652e6f726732500a2438433345314135322d374434422d
        344630452d423641392d303030303030303030303034120c5f24213c576f726b3e21245f1a1a612e6c6f76656c616365
        40656e67696e65732e6578616d706c65
        """

    /// The same add in schema version 2: identifiers as 16 UUID bytes, labels as numbers.
    static let typicalAddHexV2 = """
        0a93020a90021a14636f6d2e6578616d706c652e696d706f7274657222d30108ffffffff0312034164611a084c6f7665
        6c6163652216416e616c79746963616c20456e67696e6573204c74642a261a102b343420323020373934362030393538
        22108c3e1a527d4b4f0eb6a9000000000001280a2a231a0d3032302037393436203030303022108c3e1a527d4b4f0eb6
        a9000000000002280232251a0f616461406578616d706c652e6f726722108c3e1a527d4b4f0eb6a90000000000032801
        32301a1a612e6c6f76656c61636540656e67696e65732e6578616d706c6522108c3e1a527d4b4f0eb6a9000000000004
        28022a108c3e1a527d4b4f0eb6a900000000000032105f6a2f4e3b1c4d8e9a7b0c1d2e3f4a5b
        """

    @Test("A typical add's bytes are the checked-in golden bytes, and its version 1 bytes still decode")
    func goldenTypicalAdd() throws {
        let event = LedgerEvent(operations: [EventFixtures.typicalAdd()])
        let hex = EventFixtures.hex(EventCodec.encode(event))
        #expect(hex == Self.typicalAddHexV2.filter(\.isHexDigit), "encoded: \(hex)")
        #expect(try EventCodec.decode(EventFixtures.bytes(hex: Self.typicalAddHexV2), schemaVersion: 2) == event)
        #expect(try EventCodec.decode(EventFixtures.bytes(hex: Self.typicalAddHexV1), schemaVersion: 1) == event)
    }

    @Test("Identifiers in the canonical UUID form are written as 16 bytes; any other form as text")
    func compactIdentifiers() throws {
        let canonical = "8C3E1A52-7D4B-4F0E-B6A9-00000000002A"
        let bytes = try #require(CompactFields.uuidBytes(canonical))
        #expect(bytes.text == canonical)
        let foundation = try #require(UUID(uuidString: canonical))
        #expect(bytes.withBytes { Array($0) } == withUnsafeBytes(of: foundation.uuid) { Array($0) })
        for other in [
            "8c3e1a52-7d4b-4f0e-b6a9-00000000002a", "8C3E1A52-7D4B-4F0E-B6A9-00000000002",
            "8C3E1A52 7D4B-4F0E-B6A9-00000000002A",
            "8C3E1A52-7D4B-4F0E-B6A9-00000000002G", "8C3E1A527D4B4F0EB6A900000000002A1234", "", "K1",
        ] {
            #expect(CompactFields.uuidBytes(other) == nil, "\(other)")
        }
        // Every form round-trips through an event, whichever field it takes.
        for identifier in [canonical, "8c3e1a52-7d4b-4f0e-b6a9-00000000002a", "K1", ""] {
            var values = ContactValues()
            values.emailAddresses = [LabeledValue(identifier: identifier, label: "custom", value: "a@b.example")]
            let event = LedgerEvent(operations: [
                .addContact(identifier: identifier, containerIdentifier: identifier, createdBy: "app", values: values),
                .updateContact(identifier: identifier, keys: [.emailAddresses], old: values, new: ContactValues()),
                .deleteContact(
                    identifier: identifier, containerIdentifier: identifier, createdBy: "app", groupIdentifiers: [],
                    last: values),
            ])
            #expect(try EventCodec.decode(EventCodec.encode(event), schemaVersion: 2) == event)
        }
    }

    @Test("Every standard label is written as its number and reads back; other labels stay text")
    func standardLabels() throws {
        #expect(Set(CompactFields.standardLabels.dropFirst()) == Set(Label.generalLabels))
        for label in Label.allLabels + ["custom", "", "_$!<Unknown>!$_"] {
            var values = ContactValues()
            values.phoneNumbers = [LabeledValue(identifier: "P", label: label, value: PhoneNumber(stringValue: "1"))]
            let event = LedgerEvent(operations: [
                .addContact(identifier: "C", containerIdentifier: "", createdBy: "", values: values)
            ])
            let payload = EventCodec.encode(event)
            #expect(try EventCodec.decode(payload, schemaVersion: 2) == event)
            let stored = try StoredMessage(parsing: payload).message(1)?.message(1)?.message(4)?.message(5)
            #expect((stored?.varint(5) != nil) == (CompactFields.standardLabelNumbers[label] != nil), "\(label)")
        }
    }

    @Test("A UUID field of another length and an unknown label number are refused, naming the field")
    func malformedCompactFields() throws {
        var encoder = WireEncoder()
        encoder.appendMessage(field: 1) { operation in
            operation.appendMessage(field: 1) { add in
                add.appendBytes(field: 5, bytes: [1, 2, 3])
            }
        }
        #expect {
            try EventCodec.decode(encoder.bytes, schemaVersion: 2)
        } throws: { error in
            (error as? EventDecodingError)?.reason == .notAUUID
                && (error as? EventDecodingError)?.field == "operations[0].addContact.identifierUUID"
        }
        var labels = WireEncoder()
        labels.appendMessage(field: 1) { operation in
            operation.appendMessage(field: 1) { add in
                add.appendMessage(field: 4) { contact in
                    contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
                    contact.appendMessage(field: 5) { $0.appendVarint(field: 5, value: 999) }
                }
            }
        }
        #expect {
            try EventCodec.decode(labels.bytes, schemaVersion: 2)
        } throws: { error in
            (error as? EventDecodingError)?.reason == .unknownStandardLabel(999)
        }
    }

    // MARK: Old versions

    /// Version 0 as these tests imagine it: an add's operation field was 20 (not 1); a contact's
    /// given and family names were fields 30 and 31 (not 2 and 3); and a contact had no key set,
    /// every key being implied. Like a real upcaster it knows field numbers, not model types.
    struct FabricatedVersion0: Upcaster {
        let sourceVersion: UInt16 = 0

        func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
            var message = event.message
            try message.updateMessages(1) { (operation: inout StoredMessage) throws(MigrationError) in
                operation.rename(20, to: 1)
                try operation.updateMessages(1) { (add: inout StoredMessage) throws(MigrationError) in
                    guard add.contains(4) else {
                        throw MigrationError.malformed(version: 0, field: 4, reason: "an add without values")
                    }
                    try add.updateMessages(4) { (contact: inout StoredMessage) throws(MigrationError) in
                        contact.rename(30, to: 2)
                        contact.rename(31, to: 3)
                        contact.set(1, .varint(0x3FFF_FFFF))  // bits 0 to 29: every key of version 1
                    }
                }
            }
            return StoredEvent(schemaVersion: 1, message: message)
        }
    }

    /// An upcaster that breaks what it touches: it writes a contact type of 9.
    struct BrokenVersion0: Upcaster {
        let sourceVersion: UInt16 = 0

        func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
            var message = event.message
            try message.updateMessages(1) { (operation: inout StoredMessage) throws(MigrationError) in
                operation.rename(20, to: 1)
                try operation.updateMessages(1) { (add: inout StoredMessage) throws(MigrationError) in
                    try add.updateMessages(4) { (contact: inout StoredMessage) throws(MigrationError) in
                        contact.set(7, .varint(9))
                    }
                }
            }
            return StoredEvent(schemaVersion: 1, message: message)
        }
    }

    /// A version-0 payload, written by hand as a version-0 writer would have written it.
    static func version0Payload() -> [UInt8] {
        var encoder = WireEncoder()
        encoder.appendMessage(field: 1) { operation in
            operation.appendMessage(field: 20) { add in
                add.appendString(field: 1, "C1")
                add.appendString(field: 2, "K1")
                add.appendString(field: 3, "importer")
                add.appendMessage(field: 4) { contact in
                    contact.appendString(field: 30, "Ada")
                    contact.appendString(field: 31, "Lovelace")
                    contact.appendString(field: 4, "Engines")
                    contact.appendMessage(field: 5) { phone in
                        phone.appendString(field: 1, "P1")
                        phone.appendString(field: 2, Label.phoneNumberMobile)
                        phone.appendString(field: 3, "+44 20 7946 0958")
                    }
                }
            }
        }
        encoder.appendMessage(field: 1) { operation in
            operation.appendMessage(field: 4) { group in
                group.appendString(field: 1, "G1")
                group.appendString(field: 3, "Friends")
            }
        }
        return encoder.bytes
    }

    @Test("An event of an older version is decoded through the upcaster chain")
    func oldVersion() throws {
        let chain = UpcasterChain(currentVersion: 2, upcasters: [FabricatedVersion0(), UpcastEventV1ToV2()])
        let decoded = try EventCodec.decode(Self.version0Payload(), schemaVersion: 0, upcasters: chain)
        var values = ContactValues()
        values.givenName = "Ada"
        values.familyName = "Lovelace"
        values.organizationName = "Engines"
        values.phoneNumbers = [
            LabeledValue(
                identifier: "P1", label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+44 20 7946 0958"))
        ]
        #expect(
            decoded
                == LedgerEvent(operations: [
                    .addContact(identifier: "C1", containerIdentifier: "K1", createdBy: "importer", values: values),
                    .addGroup(identifier: "G1", containerIdentifier: "", name: "Friends"),
                ]))
        // The current version takes the fast path even with a test chain.
        let current = EventCodec.encode(decoded)
        #expect(try EventCodec.decode(current, schemaVersion: 2, upcasters: chain) == decoded)
    }

    @Test("Versions that cannot be read are refused before anything is parsed")
    func unreadableVersions() throws {
        let tooNew = try #require(throws: EventDecodingError.self) {
            try EventCodec.decode([0xFF], schemaVersion: 3)
        }
        #expect(tooNew.reason == .migration(.versionTooNew(found: 3, current: 2)))
        #expect(tooNew.offset == nil)
        let noStep = try #require(throws: EventDecodingError.self) {
            try EventCodec.decode(Self.version0Payload(), schemaVersion: 0)
        }
        #expect(noStep.reason == .migration(.missingUpcaster(version: 0)))
    }

    @Test("An old payload that does not parse, or that its upcaster refuses, is a decoding error")
    func oldVersionFailures() throws {
        let chain = UpcasterChain(currentVersion: 2, upcasters: [FabricatedVersion0(), UpcastEventV1ToV2()])
        let truncated = try #require(throws: EventDecodingError.self) {
            try EventCodec.decode([0x0A, 0x05, 0x01], schemaVersion: 0, upcasters: chain)
        }
        #expect(truncated == EventDecodingError(.wireFormat(.lengthOutOfBounds(length: 5, remaining: 1)), offset: 1))
        var encoder = WireEncoder()
        encoder.appendMessage(field: 1) { $0.appendMessage(field: 20) { $0.appendString(field: 1, "C1") } }
        let refused = try #require(throws: EventDecodingError.self) {
            try EventCodec.decode(encoder.bytes, schemaVersion: 0, upcasters: chain)
        }
        #expect(refused.reason == .migration(.malformed(version: 0, field: 4, reason: "an add without values")))
    }

    @Test("A problem in the upcast event says so, since its offsets are not the stored bytes'")
    func brokenUpcaster() throws {
        let chain = UpcasterChain(currentVersion: 2, upcasters: [BrokenVersion0(), UpcastEventV1ToV2()])
        let error = try #require(throws: EventDecodingError.self) {
            try EventCodec.decode(Self.version0Payload(), schemaVersion: 0, upcasters: chain)
        }
        #expect(error.reason == .invalidValue(9))
        #expect(error.field == "operations[0].addContact.values.contactType")
        #expect(error.upcastFrom == 0)
        #expect(error.description.contains("as upcast from schema version 0"))
    }

    // MARK: Errors

    /// An event of one add whose contact message `body` writes.
    static func addPayload(_ body: (inout WireEncoder) -> Void) -> [UInt8] {
        var encoder = WireEncoder()
        encoder.appendMessage(field: 1) { operation in
            operation.appendMessage(field: 1) { add in
                add.appendString(field: 1, "C1")
                add.appendMessage(field: 4) { body(&$0) }
            }
        }
        return encoder.bytes
    }

    static func decodingError(_ payload: [UInt8]) throws -> EventDecodingError {
        try #require(throws: EventDecodingError.self) {
            try EventCodec.decode(payload, schemaVersion: EventCodec.currentSchemaVersion)
        }
    }

    @Test("An error names the field path and the offset of the problem")
    func errorPaths() throws {
        // [0] 0a 10 | [2] 0a 0e | [4] 0a 02 "C1" | [8] 22 08 | [10] 08 ff ff ff ff 03 | [16] 38 05
        let payload = Self.addPayload { contact in
            contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
            contact.appendVarint(field: 7, value: 5)
        }
        let error = try Self.decodingError(payload)
        #expect(
            error
                == EventDecodingError(
                    .invalidValue(5), field: "operations[0].addContact.values.contactType", offset: 17))
        #expect(
            error.description
                == "cannot decode event: value 5 is out of range in field operations[0].addContact.values.contactType at byte 17"
        )
    }

    @Test("The index of a repeated field's element is in the path")
    func repeatedPaths() throws {
        let payload = Self.addPayload { contact in
            contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
            contact.appendMessage(field: 6) { $0.appendString(field: 3, "a@example.com") }
            contact.appendMessage(field: 6) { $0.appendVarint(field: 2, value: 1) }
        }
        let error = try Self.decodingError(payload)
        #expect(error.field == "operations[0].addContact.values.emailAddresses[1].label")
        #expect(error.reason == .wrongWireType(expected: .lengthDelimited, found: .varint))
    }

    @Test("Malformed contacts are refused with the reason")
    func malformedContacts() throws {
        let outside = try Self.decodingError(
            Self.addPayload { contact in
                contact.appendVarint(field: 1, value: ContactKeySet([.givenName]).rawValue)
                contact.appendString(field: 3, "Lovelace")
            })
        #expect(outside.reason == .valueOutsideKeySet)
        #expect(outside.field == "operations[0].addContact.values.familyName")
        let unknownBits = try Self.decodingError(
            Self.addPayload { $0.appendVarint(field: 1, value: 1 << 40) })
        #expect(unknownBits.reason == .invalidValue(1 << 40))
        let calendar = try Self.decodingError(
            Self.addPayload { contact in
                contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
                contact.appendMessage(field: 22) { $0.appendString(field: 1, "martian") }
            })
        #expect(calendar.reason == .unknownCalendar("martian"))
        #expect(calendar.field == "operations[0].addContact.values.birthday.calendar")
        let timeZone = try Self.decodingError(
            Self.addPayload { contact in
                contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
                contact.appendMessage(field: 24) { date in
                    date.appendMessage(field: 3) { $0.appendString(field: 19, "Mars/Olympus_Mons") }
                }
            })
        #expect(timeZone.reason == .unknownTimeZone("Mars/Olympus_Mons"))
        #expect(timeZone.field == "operations[0].addContact.values.dates[0].value.timeZone")
        let leap = try Self.decodingError(
            Self.addPayload { contact in
                contact.appendVarint(field: 1, value: ContactKeySet.all.rawValue)
                contact.appendMessage(field: 23) { $0.appendVarint(field: 6, value: 2) }
            })
        #expect(leap.reason == .invalidValue(2))
        #expect(leap.field == "operations[0].addContact.values.nonGregorianBirthday.isLeapMonth")
    }

    @Test("An operation must hold exactly one kind of operation")
    func operationKinds() throws {
        var none = WireEncoder()
        none.appendMessage(field: 1) { $0.appendVarint(field: 99, value: 1) }
        #expect(
            try Self.decodingError(none.bytes)
                == EventDecodingError(.operationWithoutKind, field: "operations[0]", offset: 2))
        var empty = WireEncoder()
        empty.appendMessage(field: 1) { _ in }
        #expect(try Self.decodingError(empty.bytes).reason == .operationWithoutKind)
        var two = WireEncoder()
        two.appendMessage(field: 1) { operation in
            operation.appendMessage(field: 4) { $0.appendString(field: 1, "G1") }
            operation.appendMessage(field: 7) { $0.appendString(field: 1, "C1") }
        }
        let error = try Self.decodingError(two.bytes)
        #expect(error == EventDecodingError(.operationWithSeveralKinds, field: "operations[0].addMember", offset: 8))
    }

    @Test("An update's old and new values must be for the same keys")
    func updateKeySets() throws {
        var encoder = WireEncoder()
        encoder.appendMessage(field: 1) { operation in
            operation.appendMessage(field: 2) { update in
                update.appendMessage(field: 2) { $0.appendVarint(field: 1, value: ContactKeySet.givenName.rawValue) }
                update.appendMessage(field: 3) { $0.appendVarint(field: 1, value: ContactKeySet.familyName.rawValue) }
            }
        }
        let error = try Self.decodingError(encoder.bytes)
        #expect(
            error.reason
                == .keySetsDiffer(old: ContactKeySet.givenName.rawValue, new: ContactKeySet.familyName.rawValue))
        #expect(error.field == "operations[0].updateContact.old")
    }

    @Test("Enumerations and Booleans out of range are refused")
    func outOfRange() throws {
        var container = WireEncoder()
        container.appendMessage(field: 1) { $0.appendMessage(field: 11) { $0.appendVarint(field: 3, value: 4) } }
        #expect(try Self.decodingError(container.bytes).field == "operations[0].addContainer.type")
        var flag = WireEncoder()
        flag.appendMessage(field: 1) { $0.appendMessage(field: 14) { $0.appendVarint(field: 3, value: 2) } }
        #expect(try Self.decodingError(flag.bytes).field == "operations[0].setAuthorization.notesEntitlement")
        var status = WireEncoder()
        status.appendMessage(field: 1) { $0.appendMessage(field: 14) { $0.appendVarint(field: 2, value: 5) } }
        #expect(try Self.decodingError(status.bytes).reason == .invalidValue(5))
    }
}
