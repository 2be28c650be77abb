import Testing

@testable import LedgerMigrations

/// Renames a field from version 1 to version 2.
struct RenameField: Upcaster {
    let sourceVersion: UInt16 = 1
    func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        var fields = event.fields
        guard let value = fields.removeValue(forKey: "name") else {
            throw MigrationError.malformed(version: 1, field: "name")
        }
        fields["givenName"] = value
        return StoredEvent(schemaVersion: 2, fields: fields)
    }
}

/// Adds a default field from version 2 to version 3.
struct AddDefault: Upcaster {
    let sourceVersion: UInt16 = 2
    func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        var fields = event.fields
        fields["contactType", default: .integer(0)] = fields["contactType"] ?? .integer(0)
        return StoredEvent(schemaVersion: 3, fields: fields)
    }
}

/// An upcaster that claims to read version 1 but skips a version, which the chain must refuse.
struct SkipsAVersion: Upcaster {
    let sourceVersion: UInt16 = 1
    func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        StoredEvent(schemaVersion: 3, fields: event.fields)
    }
}

@Suite("The upcaster chain")
struct UpcasterChainTests {
    let chain = UpcasterChain(currentVersion: 3, upcasters: [AddDefault(), RenameField()])

    @Test("An old event is brought to the current version one step at a time")
    func upcastsInOrder() throws {
        let old = StoredEvent(schemaVersion: 1, fields: ["name": .string("Ada")])
        let current = try chain.upcast(old)
        #expect(
            current == StoredEvent(schemaVersion: 3, fields: ["givenName": .string("Ada"), "contactType": .integer(0)]))
    }

    @Test("A current event takes the fast path unchanged")
    func currentIsUnchanged() throws {
        let event = StoredEvent(schemaVersion: 3, fields: ["givenName": .string("Grace")])
        #expect(chain.isCurrent(3))
        #expect(try chain.upcast(event) == event)
    }

    @Test("An event newer than the build, a missing step, a malformed event and a skipping upcaster are refused")
    func refusals() {
        #expect(throws: MigrationError.versionTooNew(found: 4, current: 3)) {
            try chain.upcast(StoredEvent(schemaVersion: 4, fields: [:]))
        }
        #expect(throws: MigrationError.missingUpcaster(version: 0)) {
            try chain.upcast(StoredEvent(schemaVersion: 0, fields: [:]))
        }
        #expect(throws: MigrationError.malformed(version: 1, field: "name")) {
            try chain.upcast(StoredEvent(schemaVersion: 1, fields: [:]))
        }
        let skipping = UpcasterChain(currentVersion: 3, upcasters: [SkipsAVersion()])
        #expect(throws: MigrationError.malformed(version: 1, field: "schemaVersion")) {
            try skipping.upcast(StoredEvent(schemaVersion: 1, fields: [:]))
        }
    }
}
