import LedgerStorage
import Testing

@testable import LedgerMigrations

/// Version 1 → 2: the given name moved from field 1 to field 2 of the event message.
struct RenameGivenName: Upcaster {
    let sourceVersion: UInt16 = 1
    func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        var message = event.message
        guard message.first(1)?.bytesValue != nil else {
            throw MigrationError.malformed(version: 1, field: 1, reason: "the name is missing")
        }
        message.rename(1, to: 2)
        return StoredEvent(schemaVersion: 2, message: message)
    }
}

/// Version 2 → 3: field 7 (the contact type) was added with a default of 0, and every nested
/// address message (field 5) gained a country (field 3) of "" where it had none.
struct AddDefaults: Upcaster {
    let sourceVersion: UInt16 = 2
    func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        var message = event.message
        if !message.contains(7) { message.append(7, .varint(0)) }
        try message.updateMessages(5) { (address: inout StoredMessage) throws(MigrationError) in
            if !address.contains(3) { address.append(3, .string("")) }
        }
        return StoredEvent(schemaVersion: 3, message: message)
    }
}

/// An upcaster that claims to read version 1 but skips a version, which the chain must refuse.
struct SkipsAVersion: Upcaster {
    let sourceVersion: UInt16 = 1
    func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        StoredEvent(schemaVersion: 3, message: event.message)
    }
}

/// Counts nothing and changes nothing but the version, for chains of several steps.
struct Step: Upcaster {
    let sourceVersion: UInt16
    func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        var message = event.message
        message.append(100, .varint(UInt64(sourceVersion)))
        return StoredEvent(schemaVersion: sourceVersion + 1, message: message)
    }
}

@Suite("The upcaster chain")
struct UpcasterChainTests {
    let chain = UpcasterChain(currentVersion: 3, upcasters: [AddDefaults(), RenameGivenName()])

    @Test("An old event is brought to the current version one step at a time")
    func upcastsInOrder() throws {
        let address = StoredMessage([1: .string("1 Main St"), 2: .string("Springfield")])
        let old = StoredEvent(
            schemaVersion: 1, message: StoredMessage([1: .string("Ada"), 5: .message(address), 9: .varint(3)]))
        let current = try chain.upcast(old)
        let upcastAddress = StoredMessage([1: .string("1 Main St"), 2: .string("Springfield"), 3: .string("")])
        #expect(
            current
                == StoredEvent(
                    schemaVersion: 3,
                    message: StoredMessage([
                        2: .string("Ada"), 5: .message(upcastAddress), 9: .varint(3), 7: .varint(0),
                    ])))
        // Bytes in, bytes out: what the event decoder does with an old payload.
        let reparsed = try StoredEvent(schemaVersion: 3, parsing: current.message.encoded)
        #expect(try reparsed.message.message(5) == upcastAddress)
    }

    @Test("Steps run in version order, one per version, whatever order the chain was given them in")
    func manySteps() throws {
        let chain = UpcasterChain(
            currentVersion: 5,
            upcasters: [Step(sourceVersion: 3), Step(sourceVersion: 1), Step(sourceVersion: 4), Step(sourceVersion: 2)])
        #expect(chain.sourceVersions == [1, 2, 3, 4])
        let current = try chain.upcast(StoredEvent(schemaVersion: 2, message: StoredMessage()))
        #expect(current.schemaVersion == 5)
        #expect(current.message.all(100) == [.varint(2), .varint(3), .varint(4)])
    }

    @Test("A current event takes the fast path unchanged")
    func currentIsUnchanged() throws {
        let event = StoredEvent(schemaVersion: 3, message: StoredMessage([2: .string("Grace")]))
        #expect(chain.isCurrent(3))
        #expect(!chain.isCurrent(2))
        #expect(try chain.upcast(event) == event)
        try chain.checkReadable(3)
    }

    @Test("An event newer than the build, a missing step, a malformed event and a skipping upcaster are refused")
    func refusals() {
        #expect(throws: MigrationError.versionTooNew(found: 4, current: 3)) {
            try chain.upcast(StoredEvent(schemaVersion: 4, message: StoredMessage()))
        }
        #expect(throws: MigrationError.versionTooNew(found: 4, current: 3)) { try chain.checkReadable(4) }
        #expect(throws: MigrationError.missingUpcaster(version: 0)) {
            try chain.upcast(StoredEvent(schemaVersion: 0, message: StoredMessage()))
        }
        #expect(throws: MigrationError.missingUpcaster(version: 0)) { try chain.checkReadable(0) }
        #expect(throws: MigrationError.malformed(version: 1, field: 1, reason: "the name is missing")) {
            try chain.upcast(StoredEvent(schemaVersion: 1, message: StoredMessage()))
        }
        let skipping = UpcasterChain(currentVersion: 3, upcasters: [SkipsAVersion()])
        #expect(throws: MigrationError.stepDidNotAdvance(version: 1, produced: 3)) {
            try skipping.upcast(StoredEvent(schemaVersion: 1, message: StoredMessage()))
        }
        let gap = UpcasterChain(currentVersion: 4, upcasters: [Step(sourceVersion: 1), Step(sourceVersion: 3)])
        #expect(throws: MigrationError.missingUpcaster(version: 2)) {
            try gap.upcast(StoredEvent(schemaVersion: 1, message: StoredMessage()))
        }
        #expect(throws: MigrationError.missingUpcaster(version: 2)) { try gap.checkReadable(1) }
    }

    @Test("A nested message that does not parse is refused as a wire format error")
    func malformedNested() throws {
        let old = StoredEvent(schemaVersion: 2, message: StoredMessage([5: .bytes([0x0A, 0x05, 0x41])]))
        let error = try #require(throws: MigrationError.self) { try chain.upcast(old) }
        #expect(error == .wireFormat(WireFormatError(offset: 1, reason: .lengthOutOfBounds(length: 5, remaining: 1))))
        let varint = StoredEvent(schemaVersion: 2, message: StoredMessage([5: .varint(1)]))
        #expect(throws: MigrationError.notAMessage(field: 5)) { try chain.upcast(varint) }
    }

    @Test("Every error names its problem in one line")
    func descriptions() {
        let errors: [MigrationError] = [
            .versionTooNew(found: 4, current: 3), .missingUpcaster(version: 0),
            .stepDidNotAdvance(version: 1, produced: 3), .malformed(version: 1, field: 2, reason: "missing"),
            .wireFormat(WireFormatError(offset: 3, reason: .truncatedVarint)), .notAMessage(field: 4),
        ]
        for error in errors {
            #expect(!error.description.isEmpty && !error.description.contains("\n"))
        }
        #expect(MigrationError.stepDidNotAdvance(version: 1, produced: 3).description.contains("not 2"))
    }

    @Test("Two upcasters for one version stop the program")
    func duplicateUpcasters() async {
        await #expect(processExitsWith: .failure) {
            _ = UpcasterChain(currentVersion: 3, upcasters: [Step(sourceVersion: 1), Step(sourceVersion: 1)])
        }
    }

    @Test("An upcaster that reads the current version stops the program")
    func upcasterOfCurrentVersion() async {
        await #expect(processExitsWith: .failure) {
            _ = UpcasterChain(currentVersion: 3, upcasters: [Step(sourceVersion: 3)])
        }
    }

    @Test("The shipped chain has one upcaster per older version, and version 1 keeps every field")
    func shippedUpcasters() throws {
        #expect(LedgerEventUpcasters.all.map(\.sourceVersion) == [1])
        let chain = UpcasterChain(currentVersion: 2, upcasters: LedgerEventUpcasters.all)
        let message = StoredMessage([1: .string("C1"), 4: .message(StoredMessage([2: .string("Ada")]))])
        let upcast = try chain.upcast(StoredEvent(schemaVersion: 1, message: message))
        #expect(upcast == StoredEvent(schemaVersion: 2, message: message))
    }
}
