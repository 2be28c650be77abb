import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel

/// Random owner writes, writes made for the client, grants and revocations, with a limited
/// client reading the same ledger from another store after each step.
@Suite("A limited client's view is the owner's, filtered by the grants in force")
struct AccessPropertyTests {
    static let client = "property-app"
    static let keys = [ContactKey.givenName, ContactKey.familyName, ContactKey.jobTitle] as [any KeyDescriptor]

    /// A contact as the comparison sees it.
    static func summary(_ contact: Contact) -> String {
        "\(contact.givenName)|\(contact.familyName)|\(contact.jobTitle)"
    }

    /// The run's state: the stores, the grants and creators the test expects, and the client's
    /// cache built from change history alone.
    final class Run {
        var generator: EventFixtures.SeededGenerator
        let owner: ContactStore
        let reader: ContactStore
        var granted: Set<String> = []
        var createdByClient: Set<String> = []
        var live: [String] = []
        var groupID = ""
        var cache: [String: String] = [:]
        var token: Data?

        init(seed: UInt64, ledger: String) throws {
            generator = EventFixtures.SeededGenerator(seed: seed)
            owner = try ContactStore(ledgerAt: ledger, client: .owner())
            reader = try ContactStore(
                readingLedgerAt: ledger, client: ClientContext(identifier: client, authorization: .limited))
        }

        func pick(_ identifiers: [String]) -> String? { identifiers.randomElement(using: &generator) }
        func word() -> String { ["Ana", "Bo", "Cy", "Dee", "Eli", "Fay"].randomElement(using: &generator)! }
    }

    @Test(
        "Each step of a random run leaves the client's fetches and its history-built cache equal to the owner's view filtered"
    )
    func randomRuns() async throws {
        let seed = EventFixtures.seed("randomAccessRun")
        let directory = StoreDirectory()
        let run = try Run(seed: seed, ledger: directory.ledger)
        defer { run.owner.close() }
        try await run.owner.setAuthorization(.limited, forClient: Self.client)
        let group = MutableGroup(name: "Group")
        var request = SaveRequest()
        request.add(group, toContainerWithIdentifier: nil)
        try await run.owner.execute(request)
        run.groupID = group.identifier
        for step in 0..<80 {
            let action = try await Self.step(run)
            _ = try run.reader.refresh()
            try Self.check(run, "seed \(seed), step \(step) (\(action))")
        }
    }

    /// Takes one random action and says what it was.
    static func step(_ run: Run) async throws -> String {
        switch Int.random(in: 0..<10, using: &run.generator) {
        case 0, 1, 2:
            var contact = MutableContact()
            contact.givenName = run.word()
            contact.familyName = run.word()
            var request = SaveRequest()
            request.add(contact, toContainerWithIdentifier: nil)
            let forClient = Bool.random(using: &run.generator)
            if forClient {
                try run.owner.execute(request, onBehalfOf: client)
                run.createdByClient.insert(contact.identifier)
            } else {
                try await run.owner.execute(request)
            }
            run.live.append(contact.identifier)
            return "add\(forClient ? " for the client" : "")"
        case 3, 4:
            guard let identifier = run.pick(run.live) else { return "nothing" }
            let noteOnly = Bool.random(using: &run.generator)
            var contact = try run.owner.unifiedContact(
                withIdentifier: identifier, keysToFetch: [ContactKey.jobTitle, ContactKey.note]
            ).mutableCopy()
            if noteOnly { contact.note = run.word() } else { contact.jobTitle = run.word() }
            var request = SaveRequest()
            request.update(contact)
            try await run.owner.execute(request)
            return noteOnly ? "note of \(identifier)" : "update \(identifier)"
        case 5:
            guard let identifier = run.pick(run.live) else { return "nothing" }
            var request = SaveRequest()
            request.delete(try run.owner.unifiedContact(withIdentifier: identifier, keysToFetch: []).mutableCopy())
            try await run.owner.execute(request)
            run.live.removeAll { $0 == identifier }
            return "delete \(identifier)"
        case 6, 7:
            let chosen = (0..<2).compactMap { _ in run.pick(run.live) }
            guard !chosen.isEmpty else { return "nothing" }
            try await run.owner.grantAccess(toContactsWithIdentifiers: chosen, toClient: client)
            run.granted.formUnion(chosen)
            return "grant \(chosen)"
        case 8:
            guard let identifier = run.pick(Array(run.granted).sorted()) else { return "nothing" }
            try await run.owner.revokeAccess(toContactsWithIdentifiers: [identifier], fromClient: client)
            run.granted.remove(identifier)
            return "revoke \(identifier)"
        default:
            guard let identifier = run.pick(run.live) else { return "nothing" }
            var request = SaveRequest()
            request.addMember(
                try run.owner.unifiedContact(withIdentifier: identifier, keysToFetch: []),
                to: Group(identifier: run.groupID, name: ""))
            try await run.owner.execute(request)
            return "add \(identifier) to the group"
        }
    }

    /// Compares the client's fetches, and its cache updated from change history, with the
    /// owner's contacts filtered by the grants and creators the test tracked.
    static func check(_ run: Run, _ context: String) throws {
        var expected: [String: String] = [:]
        for contact in try run.owner.unifiedContacts(matching: .custom(#Predicate { _ in true }), keysToFetch: keys)
        where run.granted.contains(contact.identifier) || run.createdByClient.contains(contact.identifier) {
            expected[contact.identifier] = summary(contact)
        }
        var fetched: [String: String] = [:]
        try run.reader.enumerateContacts(with: ContactFetchRequest(keysToFetch: keys)) { contact, _ in
            fetched[contact.identifier] = summary(contact)
        }
        #expect(fetched == expected, "\(context): fetched")
        let inGroup = try run.reader.unifiedContacts(matching: .inGroup(withIdentifier: run.groupID), keysToFetch: [])
        #expect(Set(inGroup.map(\.identifier)).isSubset(of: Set(expected.keys)), "\(context): group")

        let history = try run.reader.changeHistory(
            ChangeHistoryFetchRequest(startingToken: run.token, additionalContactKeyDescriptors: keys))
        for event in history.events {
            switch event {
            case .dropEverything: run.cache = [:]
            case .addContact(let contact, _), .updateContact(let contact):
                run.cache[contact.identifier] = summary(contact)
            case .deleteContact(let identifier): run.cache[identifier] = nil
            default: continue
            }
        }
        run.token = history.currentHistoryToken
        #expect(run.cache == expected, "\(context): history cache, events \(history.events)")
    }
}
