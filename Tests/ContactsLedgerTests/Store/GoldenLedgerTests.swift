import Foundation
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A ledger written by this version with every kind of operation, checked in under
/// `Tests/ContactsLedgerTests/Golden/store-v1`. Every later version must replay it to the same state.
@Suite("The golden store ledger")
struct GoldenLedgerTests {
    static let richID = "00000000-0000-4000-8000-0000000000c1"
    static let orgID = "00000000-0000-4000-8000-0000000000c2"
    static let goneID = "00000000-0000-4000-8000-0000000000c3"
    static let clubID = "00000000-0000-4000-8000-0000000000a1"
    static let innerID = "00000000-0000-4000-8000-0000000000a2"

    /// The rich contact, with every property set.
    static func richContact() -> MutableContact {
        var values = ContactValues()
        values.namePrefix = "Dr."
        values.givenName = "Zoë"
        values.middleName = "Ana"
        values.familyName = "Ñúñez-Łukasiewicz"
        values.previousFamilyName = "Smith"
        values.nameSuffix = "PhD"
        values.nickname = "Zo"
        values.phoneticGivenName = "Zo-eh"
        values.phoneticMiddleName = "Ah-na"
        values.phoneticFamilyName = "Noo-nyez"
        values.organizationName = "Golden Records"
        values.phoneticOrganizationName = "Gold-en"
        values.departmentName = "Archive"
        values.jobTitle = "Archivist"
        values.note = "Met at the 🏛 museum.\nSecond line."
        values.birthday = DateComponents(month: 2, day: 29)
        var chinese = DateComponents()
        chinese.calendar = Calendar(identifier: .chinese)
        chinese.month = 1
        chinese.day = 15
        values.nonGregorianBirthday = chinese
        values.dates = [
            LabeledValue(
                identifier: "d1", label: Label.dateAnniversary, value: DateComponents(year: 2001, month: 6, day: 30))
        ]
        values.phoneNumbers = [
            LabeledValue(
                identifier: "p1", label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+44 20 7946 0958")),
            LabeledValue(identifier: "p2", label: "Boat", value: PhoneNumber(stringValue: "555-0100")),
        ]
        values.emailAddresses = [LabeledValue(identifier: "e1", label: Label.home, value: "zoe@example.org")]
        values.postalAddresses = [
            LabeledValue(
                identifier: "a1", label: Label.work,
                value: PostalAddress(
                    street: "1 Vault Road\nFloor 2", subLocality: "Old Town", city: "Kraków", subAdministrativeArea: "",
                    state: "Małopolskie", postalCode: "31-001", country: "Poland", isoCountryCode: "pl"))
        ]
        values.urlAddresses = [
            LabeledValue(identifier: "u1", label: Label.urlAddressHomePage, value: "https://example.org/zoe")
        ]
        values.contactRelations = [
            LabeledValue(identifier: "r1", label: Label.contactRelationSister, value: ContactRelation(name: "Ada"))
        ]
        values.socialProfiles = [
            LabeledValue(
                identifier: "s1", label: nil,
                value: SocialProfile(
                    urlString: "https://example.social/zoe", username: "zoe", userIdentifier: "42",
                    service: SocialProfile.Service.twitter))
        ]
        values.instantMessageAddresses = [
            LabeledValue(
                identifier: "i1", label: Label.work,
                value: InstantMessageAddress(username: "zoe", service: InstantMessageAddress.Service.jabber))
        ]
        values.imageData = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 1, 2, 3])
        return MutableContact(identifier: richID, values: values, availableKeys: .all, base: nil)
    }

    /// Writes the golden history into a new ledger.
    static func writeGolden(at path: String) throws {
        let store = try ContactStore(
            ledgerAt: path, client: .fullAccess("golden-writer"))
        defer { store.close() }
        var organization = ContactValues()
        organization.contactType = .organization
        organization.organizationName = "Acme Corporation"
        organization.emailAddresses = [LabeledValue(identifier: "e2", label: Label.work, value: "info@acme.example")]
        var gone = ContactValues()
        gone.givenName = "Temporary"
        var request = SaveRequest(
            requestIdentifier: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, transactionAuthor: "importer")
        request.add(richContact(), toContainerWithIdentifier: nil)
        request.add(
            MutableContact(identifier: orgID, values: organization, availableKeys: .all, base: nil),
            toContainerWithIdentifier: nil)
        request.add(
            MutableContact(identifier: goneID, values: gone, availableKeys: .all, base: nil),
            toContainerWithIdentifier: nil)
        try store.execute(request)

        var rich = try store.unifiedContact(
            withIdentifier: richID, keysToFetch: [ContactKey.jobTitle, ContactKey.phoneNumbers]
        ).mutableCopy()
        rich.jobTitle = "Chief Archivist"
        rich.phoneNumbers.append(
            LabeledValue(identifier: "p3", label: Label.work, value: PhoneNumber(stringValue: "+1 415 555 0199")))
        request = SaveRequest(
            requestIdentifier: UUID(uuidString: "00000000-0000-4000-8000-000000000002")!, transactionAuthor: "editor")
        request.update(rich)
        try store.execute(request)

        let club = MutableGroup(identifier: clubID, name: "Club")
        let inner = MutableGroup(identifier: innerID, name: "Inner")
        request = SaveRequest(
            requestIdentifier: UUID(uuidString: "00000000-0000-4000-8000-000000000003")!, transactionAuthor: "editor")
        request.add(club, toContainerWithIdentifier: nil)
        request.add(inner, toContainerWithIdentifier: nil)
        request.addMember(rich.copy(), to: club.copy())
        request.addMember(Contact(identifier: orgID, values: ContactValues(), availableKeys: []), to: club.copy())
        request.addSubgroup(inner.copy(), to: club.copy())
        try store.execute(request)

        var renamed = club
        renamed.name = "Golden Club"
        request = SaveRequest(
            requestIdentifier: UUID(uuidString: "00000000-0000-4000-8000-000000000004")!, transactionAuthor: "editor")
        request.update(renamed)
        request.removeMember(Contact(identifier: orgID, values: ContactValues(), availableKeys: []), from: club.copy())
        request.removeSubgroup(inner.copy(), from: club.copy())
        try store.execute(request)

        request = SaveRequest(
            requestIdentifier: UUID(uuidString: "00000000-0000-4000-8000-000000000005")!, transactionAuthor: "cleaner")
        request.delete(MutableContact(identifier: goneID, values: gone, availableKeys: .all, base: gone))
        request.delete(inner)
        try store.execute(request)
        store.close()

        let limited = try ContactStore(
            ledgerAt: path,
            client: ClientContext(
                identifier: "limited-app", authorization: .notDetermined, accessDecision: { .limited }))
        let done = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        Task {
            do {
                try await limited.requestAccess(for: .contacts)
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        limited.close()
        let owner = try ContactStore(ledgerAt: path, client: .owner("editor"))
        defer { owner.close() }
        Task {
            do {
                try await owner.grantAccess(toContactsWithIdentifiers: [richID, orgID], toClient: "limited-app")
                try await owner.revokeAccess(toContactsWithIdentifiers: [orgID], fromClient: "limited-app")
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Checks a replayed store against the state the golden history must produce: the checked-in
    /// ledgers hold 8 records; this build records a client's request for access apart from the
    /// answer, so its history holds 9.
    static func checkState(_ store: ContactStore, head: UInt64) throws {
        #expect(store.headDigest.sequence == head)
        let rich = try store.unifiedContact(withIdentifier: richID, keysToFetch: ContactKey.allCases)
        var expected = richContact().values
        expected.jobTitle = "Chief Archivist"
        expected.phoneNumbers.append(
            LabeledValue(identifier: "p3", label: Label.work, value: PhoneNumber(stringValue: "+1 415 555 0199")))
        #expect(rich.values == expected)
        let organization = try store.unifiedContact(
            withIdentifier: orgID, keysToFetch: [ContactKey.contactType, ContactKey.organizationName])
        #expect(organization.contactType == .organization)
        #expect(organization.organizationName == "Acme Corporation")
        #expect(throws: ContactStoreError.self) { try store.unifiedContact(withIdentifier: goneID, keysToFetch: []) }
        #expect(try store.groups().map(\.name) == ["Golden Club"])
        #expect(
            identifiers(try store.unifiedContacts(matching: .inGroup(withIdentifier: clubID), keysToFetch: [])) == [
                richID
            ])
        #expect(
            identifiers(try store.unifiedContacts(matching: .matchingName("zoe nunez"), keysToFetch: [])) == [richID])
        #expect(
            identifiers(
                try store.unifiedContacts(matching: .matchingEmailAddress("INFO@acme.example"), keysToFetch: [])) == [
                    orgID
                ])
        store.withProjection { projection in
            #expect(projection.access(of: "limited-app") == ClientAccess(status: .limited, notesEntitlement: false))
            #expect(projection.grants(of: "limited-app") == [richID])
        }
    }

    /// The golden store ledger written by a version of the formats: `store-v1` by segment format 1
    /// and event schema 1, `store-v2` by segment format 2 and event schema 2 (this build).
    static func goldenPath(version: Int) -> String {
        Bundle.module.path(forResource: "Golden", ofType: nil)! + "/store-v\(version)"
    }

    @Test("Writing the golden history with this build produces the expected state")
    func writesExpectedState() throws {
        let directory = StoreDirectory()
        try Self.writeGolden(at: directory.ledger)
        if let update = ProcessInfo.processInfo.environment["LEDGER_UPDATE_STORE_GOLDEN"] {
            try? FileManager.default.removeItem(atPath: update)
            try FileManager.default.copyItem(atPath: directory.ledger, toPath: update)
            // The golden ledger is the journal: snapshots are a cache, and the lock file is empty.
            for cache in ["snapshots", "LOCK"] { try? FileManager.default.removeItem(atPath: update + "/" + cache) }
        }
        try Self.checkState(try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess()), head: 9)
    }

    @Test(
        "Each checked-in golden ledger replays to the same state, verifies, and re-executes identically",
        arguments: [1, 2])
    func replaysGolden(version: Int) throws {
        // store-v1: segment format 1 and event schema 1; store-v2: segment format 2, event schema 2.
        // A copy with a ledger's modes: git checks the golden files out 0644 and 0755, which an
        // open refuses.
        let directory = StoreDirectory()
        let path = directory.ledger
        try copyLedger(Self.goldenPath(version: version), to: path)
        try Self.checkState(try ContactStore(readingLedgerAt: path, client: .fullAccess()), head: 8)
        let auditor = try LedgerAuditor(ledgerAt: path)
        #expect(try auditor.verify().records == 8)
        let replay = try auditor.replayCheck()
        #expect(replay.firstDivergence == nil)
        #expect(replay.recordsMatched == 8)
    }
}

/// A value shared with a task, guarded by a lock.
final class Locked<Value>: @unchecked Sendable {
    // Thread-safety: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
