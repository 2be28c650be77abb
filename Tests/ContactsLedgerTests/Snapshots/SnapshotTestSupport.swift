import Foundation
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A small deterministic generator (SplitMix64), so that a failing history can be rebuilt from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum SnapshotHistory {
    static let givenNames = ["Ada", "José", "Zoë", "Grace", "Kenji", "Łucja", "Søren", "Ангелина", "太郎", "Jean-Luc"]
    static let familyNames = ["Lovelace", "Núñez", "Hopper", "Sato", "Ångström", "O'Brien", "田中", "Müller", "Smith"]
    static let groupNames = ["Family", "Work", "Club", "Neighbours"]

    /// Writes a history of adds, updates, deletes, group changes, access decisions and grants
    /// into `store`, in `requests` save requests; returns the identifiers of the live contacts.
    @discardableResult
    static func write(into store: ContactStore, seed: UInt64, requests: Int) throws -> [String] {
        var random = SeededGenerator(seed: seed)
        var live: [String] = []
        var groups: [String] = []
        for index in 0..<requests {
            var request = SaveRequest(transactionAuthor: "writer-\(index % 3)")
            let choice = Int.random(in: 0..<10, using: &random)
            if choice < 4 || live.count < 4 {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let contact = contact(&random)
                    request.add(contact, toContainerWithIdentifier: nil)
                    live.append(contact.identifier)
                }
            } else if choice < 6 {
                let identifier = live.randomElement(using: &random)!
                var contact = try store.unifiedContact(withIdentifier: identifier, keysToFetch: ContactKey.allCases)
                    .mutableCopy()
                contact.familyName = familyNames.randomElement(using: &random)!
                contact.emailAddresses.append(
                    LabeledValue(label: Label.work, value: "n\(index)@example.\(index % 2 == 0 ? "org" : "com")"))
                if Bool.random(using: &random) { contact.phoneNumbers = [] }
                request.update(contact)
            } else if choice < 7 {
                let position = Int.random(in: 0..<live.count, using: &random)
                let identifier = live.remove(at: position)
                let contact = try store.unifiedContact(withIdentifier: identifier, keysToFetch: ContactKey.allCases)
                request.delete(contact.mutableCopy())
            } else if choice < 8 || groups.isEmpty {
                let group = MutableGroup(name: groupNames.randomElement(using: &random)!)
                request.add(group, toContainerWithIdentifier: nil)
                groups.append(group.identifier)
            } else if choice < 9 {
                let group = Group(identifier: groups.randomElement(using: &random)!, name: "")
                let member = try store.unifiedContact(
                    withIdentifier: live.randomElement(using: &random)!, keysToFetch: [])
                if Bool.random(using: &random) {
                    request.addMember(member, to: group)
                } else {
                    request.removeMember(member, from: group)
                }
            } else {
                let client = "client-\(Int.random(in: 0..<3, using: &random))"
                try store.commitOperations(
                    [
                        .setAuthorization(clientIdentifier: client, status: .limited, notesEntitlement: false),
                        .grantAccess(clientIdentifier: client, contactIdentifiers: Array(live.prefix(3))),
                    ], author: client, requestID: UUID())
                continue
            }
            try store.execute(request)
        }
        return live
    }

    static func contact(_ random: inout SeededGenerator) -> MutableContact {
        var contact = MutableContact()
        contact.givenName = givenNames.randomElement(using: &random)!
        contact.familyName = familyNames.randomElement(using: &random)!
        let number = Int.random(in: 1_000_000...9_999_999, using: &random)
        contact.emailAddresses = [
            LabeledValue(label: Label.home, value: "\(contact.givenName.prefix(3)).\(number)@Example.org")
        ]
        contact.phoneNumbers = [
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+1 415 \(number)"))
        ]
        return contact
    }
}

/// The projection a full replay of the journal gives (through `last`, when given).
func fullReplay(
    of path: String, through last: UInt64? = nil, region: String = ContactsUserDefaults.shared.countryCode
) throws -> Projection {
    let reader = try JournalReader(at: path)
    var projection = Projection(ledgerID: reader.identity.ledgerID, defaultCountryCode: region)
    try reader.forEach { record in
        if let last, record.sequence > last { return }
        try projection.apply(record)
    }
    projection.prepareForQueries()
    return projection
}

/// The queries the comparison asks: every name word's prefixes, two-word names, and every email and phone.
func sampleQueries(_ projection: Projection) -> (names: [String], emails: [String], phones: [String]) {
    var names: Set<String> = ["", "a", "zz", "jo", "田", "ang", "nu"]
    var emails: Set<String> = []
    var phones: Set<String> = ["415", "+1 415"]
    for slot in projection.occupiedSlots {
        guard let values = projection.state(at: slot)?.values else { continue }
        names.insert(String(values.givenName.prefix(2)))
        names.insert(values.familyName)
        names.insert("\(values.givenName.prefix(1)) \(values.familyName.prefix(3))")
        for email in values.emailAddresses { emails.insert(email.value.uppercased()) }
        for phone in values.phoneNumbers { phones.insert(phone.value.stringValue) }
    }
    return (names.sorted(), emails.sorted(), phones.sorted())
}

/// Expects two projections to hold the same state and answer every sample query the same.
///
/// A projection whose indexes are deferred (restored from a snapshot) is compared with them
/// built, as the first read that uses them builds them.
func expectSameState(
    _ restored: Projection, _ expected: Projection, sourceLocation: SourceLocation = #_sourceLocation
) {
    var actual = restored
    actual.buildDeferredIndexes()
    actual.indexes.checkInvariants()
    actual.contacts.checkInvariants()
    expected.contacts.checkInvariants()
    #expect(actual.head == expected.head, sourceLocation: sourceLocation)
    #expect(actual.lastCommitMicroseconds == expected.lastCommitMicroseconds, sourceLocation: sourceLocation)
    #expect(actual.contactCount == expected.contactCount, sourceLocation: sourceLocation)
    #expect(actual.occupiedSlots == expected.occupiedSlots, sourceLocation: sourceLocation)
    #expect(actual.freeSlots == expected.freeSlots, sourceLocation: sourceLocation)
    for slot in expected.occupiedSlots {
        #expect(
            actual.owner(at: slot)?.identifier == expected.owner(at: slot)?.identifier, sourceLocation: sourceLocation)
        #expect(actual.state(at: slot) == expected.state(at: slot), sourceLocation: sourceLocation)
    }
    #expect(actual.groupIdentifiers == expected.groupIdentifiers, sourceLocation: sourceLocation)
    for group in expected.groupIdentifiers {
        #expect(actual.group(group) == expected.group(group), sourceLocation: sourceLocation)
    }
    #expect(actual.allContainers == expected.allContainers, sourceLocation: sourceLocation)
    #expect(actual.accessByClient == expected.accessByClient, sourceLocation: sourceLocation)
    #expect(actual.grantsByClient == expected.grantsByClient, sourceLocation: sourceLocation)
    #expect(actual.requests == expected.requests, sourceLocation: sourceLocation)
    let queries = sampleQueries(expected)
    for name in queries.names {
        #expect(
            actual.indexes.slots(matchingName: name) == expected.indexes.slots(matchingName: name),
            "name \(name)", sourceLocation: sourceLocation)
    }
    for email in queries.emails {
        #expect(
            actual.indexes.slots(matchingEmailAddress: email) == expected.indexes.slots(matchingEmailAddress: email),
            "email \(email)", sourceLocation: sourceLocation)
    }
    for phone in queries.phones {
        #expect(
            actual.indexes.slots(matchingPhoneNumber: phone) == expected.indexes.slots(matchingPhoneNumber: phone),
            "phone \(phone)", sourceLocation: sourceLocation)
    }
}

/// A contact table written as a snapshot's columns and arena (``ContactTable/encodeColumns(into:)``,
/// ``ContactTable/encodeArena(into:)``) and read back.
func restoredContactTable(
    columns: [UInt8], arena: [UInt8], containers: Int = 1, creators: Int = 1
) -> Result<ContactTable, SnapshotDecodingError> {
    columns.withUnsafeBufferPointer { buffer in
        var reader = SnapshotReader(buffer)
        return Result { () throws(SnapshotDecodingError) in
            let restored = try ContactTable.restoreColumns(from: &reader, containers: containers, creators: creators)
            try reader.check(reader.isAtEnd, "the columns have bytes after their end")
            return try ContactTable(restoring: restored, arena: arena)
        }
    }
}

/// A contact table written as a snapshot's columns and arena and read back.
func snapshotRoundTrip(_ table: ContactTable) throws -> ContactTable {
    var columns = SnapshotWriter(capacity: 0)
    table.encodeColumns(into: &columns)
    var section = SnapshotWriter(capacity: 0)
    table.encodeArena(into: &section)
    var source = SnapshotBytesSource(section.bytes)
    let arena = try SnapshotArena.read(from: &source, sectionBytes: section.bytes.count, spare: { _ in 0 })
    return try restoredContactTable(columns: columns.bytes, arena: arena).get()
}

/// Writes a snapshot file back where it was, with the permissions a ledger requires of it (0600).
func putBack(_ bytes: Data, at path: String) throws {
    try bytes.write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
}

/// The snapshot files of a ledger, oldest first.
func snapshotFiles(_ ledger: String) -> [String] {
    let directory = ledger + "/snapshots"
    return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".snap") }
        .sorted().map { directory + "/" + $0 }
}
