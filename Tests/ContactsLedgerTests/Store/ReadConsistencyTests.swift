import Foundation
import Testing

@testable import ContactsLedger

/// Reads racing saves that delete contacts and add others into the freed slots: every contact a
/// read returns must match its predicate, and a limited client must get only what it may see.
@Suite("Contact store: a read sees one state")
struct ReadConsistencyTests {
    /// The limited client reading the ledger beside the writer.
    static let limitedClient = "limited-app"
    /// How long the saves churn.
    static let churnSeconds = 3.0

    /// What the threads of one run share.
    final class Run: Sendable {
        let writer: ContactStore
        let limited: ContactStore
        let team: Group
        let deadline: Date
        /// Contacts alive in the ledger that no writer is deleting: the writers take from it.
        let pool: Locked<[MutableContact]>
        /// Every contact the limited client may see: each Alpha, put here before the save that
        /// creates or grants it. Beta contacts are never granted.
        let visible = Locked<Set<String>>([])
        let problems = Locked<[String]>([])
        let reads = Locked(0)
        let saves = Locked(0)
        let serial = Locked(0)

        init(writer: ContactStore, limited: ContactStore, team: Group, pool: [MutableContact], seconds: Double) {
            self.writer = writer
            self.limited = limited
            self.team = team
            self.pool = Locked(pool)
            deadline = Date(timeIntervalSinceNow: seconds)
        }

        var isOver: Bool { Date() >= deadline || problems.withLock { $0.count >= 20 } }

        func report(_ problem: String) { problems.withLock { $0.append(problem) } }
    }

    /// A contact of one kind: Alpha contacts are in the team and granted to the limited client,
    /// Beta contacts are neither; both carry a note.
    static func contact(alpha: Bool, number: Int) -> MutableContact {
        let kind = alpha ? "Alpha" : "Beta"
        var contact = makeContact(
            given: kind, family: "\(kind)\(number)", emails: [("home", "\(kind.lowercased())-\(number)@example.org")])
        contact.note = "\(kind) note \(number)"
        return contact
    }

    /// Runs the bodies on threads of their own and waits for them all.
    static func runThreads(_ bodies: [@Sendable () -> Void]) {
        let done = DispatchGroup()
        for body in bodies {
            done.enter()
            Thread {
                body()
                done.leave()
            }.start()
        }
        done.wait()
    }

    @Test(
        "Predicate fetches and a limited client's enumerations beside deletes and adds that reuse slots return only matching, granted contacts without notes"
    )
    func readsBesideSlotReuse() throws {
        let seed = EventFixtures.seed("Reads beside slot reuse")
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("admin"))
        defer { writer.close() }
        let team = MutableGroup(name: "Team")
        var request = SaveRequest()
        request.add(team, toContainerWithIdentifier: nil)
        var seeded: [MutableContact] = []
        for number in 0..<1_200 {
            let contact = Self.contact(alpha: number.isMultiple(of: 2), number: number)
            request.add(contact, toContainerWithIdentifier: nil)
            if contact.givenName == "Alpha" { request.addMember(contact.copy(), to: team.copy()) }
            seeded.append(contact)
        }
        try writer.execute(request)
        let alphas = seeded.filter { $0.givenName == "Alpha" }.map(\.identifier)
        try writer.commitOperations(
            [.grantAccess(clientIdentifier: Self.limitedClient, contactIdentifiers: alphas)], author: "admin",
            requestID: UUID())
        let limited = try ContactStore(
            readingLedgerAt: directory.ledger,
            client: ClientContext(identifier: Self.limitedClient, authorization: .limited, notesEntitlement: false))
        #expect(throws: ContactStoreError.self) {
            try limited.unifiedContacts(matching: .matchingName("alpha"), keysToFetch: [ContactKey.note])
        }
        let run = Run(writer: writer, limited: limited, team: team.copy(), pool: seeded, seconds: Self.churnSeconds)
        run.visible.withLock { $0.formUnion(alphas) }
        run.serial.withLock { $0 = seeded.count }

        var bodies: [@Sendable () -> Void] = []
        for index in 0..<2 {
            bodies.append { Self.churn(run, seed: seed &+ UInt64(index)) }
        }
        bodies.append { Self.refresh(run) }
        bodies.append { Self.readAsWriter(run, seed: seed &+ 10) }
        bodies.append { Self.readAsLimited(run) }
        Self.runThreads(bodies)

        let problems = run.problems.withLock { $0 }
        let (reads, saves) = (run.reads.withLock { $0 }, run.saves.withLock { $0 })
        print("Reads beside slot reuse: \(reads) reads, \(saves) saves, \(problems.count) problems")
        if !problems.isEmpty {
            Issue.record("\(problems.count) wrong results (seed \(seed)), the first: \(problems.prefix(5))")
        }
        #expect(saves > 0 && reads > 0)
    }

    /// Saves until the run is over: each adds a contact of a random kind and deletes a random
    /// one, so that every save frees a slot and the next add reuses it.
    static func churn(_ run: Run, seed: UInt64) {
        var random = EventFixtures.SeededGenerator(seed: seed)
        while !run.isOver {
            let number = run.serial.withLock {
                $0 += 1
                return $0
            }
            let alpha = Bool.random(using: &random)
            let added = contact(alpha: alpha, number: number)
            let victim = run.pool.withLock { $0.remove(at: Int.random(in: 0..<$0.count, using: &random)) }
            var request = SaveRequest(transactionAuthor: "churn")
            request.add(added, toContainerWithIdentifier: nil)
            request.delete(victim)
            if alpha {
                request.addMember(added.copy(), to: run.team)
                run.visible.withLock { _ = $0.insert(added.identifier) }
            }
            do {
                // Half the Alpha contacts the limited client creates, half it is granted.
                if alpha && number.isMultiple(of: 2) {
                    try run.writer.execute(request, onBehalfOf: limitedClient)
                } else {
                    try run.writer.execute(request)
                    if alpha {
                        try run.writer.commitOperations(
                            [.grantAccess(clientIdentifier: limitedClient, contactIdentifiers: [added.identifier])],
                            author: "admin", requestID: UUID())
                    }
                }
            } catch {
                run.report("save \(number) failed: \(error)")
                return
            }
            run.pool.withLock { $0.append(added) }
            run.saves.withLock { $0 += 1 }
        }
    }

    /// Brings the limited client's read-only store up to the writer's records until the run is over.
    static func refresh(_ run: Run) {
        while !run.isOver {
            do { try run.limited.refresh() } catch {
                run.report("refresh failed: \(error)")
                return
            }
        }
    }

    /// Fetches with every kind of predicate as the writer's full-access client, checking each
    /// returned contact against the predicate.
    static func readAsWriter(_ run: Run, seed: UInt64) {
        var random = EventFixtures.SeededGenerator(seed: seed)
        let keys: [any KeyDescriptor] = [ContactKey.givenName, ContactKey.familyName, ContactKey.emailAddresses]
        while !run.isOver {
            do {
                for kind in ["Alpha", "Beta"] {
                    for contact in try run.writer.unifiedContacts(matching: .matchingName(kind), keysToFetch: keys)
                    where contact.givenName != kind {
                        run.report("name \(kind) returned \(contact.givenName) \(contact.familyName)")
                    }
                }
                let members = try run.writer.unifiedContacts(
                    matching: .inGroup(withIdentifier: run.team.identifier), keysToFetch: keys)
                for contact in members where contact.givenName != "Alpha" {
                    run.report("the team returned \(contact.givenName) \(contact.familyName)")
                }
                let sample = run.pool.withLock { pool in (0..<64).map { _ in pool.randomElement(using: &random)! } }
                let wanted = Set(sample.map(\.identifier))
                for contact in try run.writer.unifiedContacts(
                    matching: .withIdentifiers(Array(wanted)), keysToFetch: keys)
                where !wanted.contains(contact.identifier) {
                    run.report("identifiers returned \(contact.givenName) \(contact.familyName), not asked for")
                }
                let address = sample[0].emailAddresses[0].value
                for contact in try run.writer.unifiedContacts(
                    matching: .matchingEmailAddress(address), keysToFetch: keys)
                where contact.emailAddresses.map(\.value) != [address] {
                    run.report("email \(address) returned \(contact.emailAddresses.map(\.value))")
                }
            } catch {
                run.report("a fetch failed: \(error)")
                return
            }
            run.reads.withLock { $0 += 5 }
        }
    }

    /// Enumerates, fetches and reads the change history as the limited client without the notes
    /// entitlement, checking that each returned contact is one it may see, matches the
    /// predicate, and carries no note.
    static func readAsLimited(_ run: Run) {
        let keys: [any KeyDescriptor] = [ContactKey.givenName, ContactKey.familyName]
        let requests = [
            ContactFetchRequest(keysToFetch: keys),
            ContactFetchRequest(keysToFetch: keys, sortOrder: .givenName),
            ContactFetchRequest(keysToFetch: keys, predicate: .matchingName("alpha")),
            ContactFetchRequest(keysToFetch: keys, predicate: .inGroup(withIdentifier: run.team.identifier)),
        ]
        var token: Data?
        while !run.isOver {
            do {
                for request in requests {
                    try run.limited.enumerateContacts(with: request) { contact, _ in check(contact, run) }
                }
                // The change history, from the start and from the previous read's token.
                for start in [nil, token] {
                    let history = try run.limited.changeHistory(
                        ChangeHistoryFetchRequest(startingToken: start, additionalContactKeyDescriptors: keys))
                    for event in history.events {
                        if case .addContact(let contact, _) = event { check(contact, run) }
                        if case .updateContact(let contact) = event { check(contact, run) }
                    }
                    token = history.currentHistoryToken
                }
            } catch {
                run.report("a limited read failed: \(error)")
                return
            }
            run.reads.withLock { $0 += requests.count + 2 }
        }
    }

    /// Reports a contact the limited client got that it may not see, that no predicate of its
    /// reads selects, or that carries a note.
    static func check(_ contact: Contact, _ run: Run) {
        let granted = run.visible.withLock { $0.contains(contact.identifier) }
        if !granted || contact.givenName != "Alpha" {
            run.report("the limited client got \(contact.givenName) \(contact.familyName)")
        }
        if contact.isKeyAvailable(.note) || !contact.values.note.isEmpty {
            run.report("the limited client got the note of \(contact.familyName)")
        }
    }
}
