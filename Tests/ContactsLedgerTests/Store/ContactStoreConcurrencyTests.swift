import Foundation
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Contact store: concurrency, custom predicates and matching rules")
struct ContactStoreConcurrencyTests {
    @Test("Many tasks saving at once: every save is durable, in one order, and the indexes agree")
    func concurrentSaves() async throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess())
        let tasks = 24
        let perTask = 5
        let results = try await withThrowingTaskGroup(of: [SaveResult].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var mine: [SaveResult] = []
                    for index in 0..<perTask {
                        var request = SaveRequest(transactionAuthor: "task-\(task)")
                        request.add(
                            makeContact(given: "Task\(task)", family: "Number\(index)"), toContainerWithIdentifier: nil)
                        mine.append(try await store.execute(request))
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(results.map(\.sequence)) == Set(1...UInt64(tasks * perTask)))
        #expect(store.headDigest.sequence == UInt64(tasks * perTask))
        #expect(try store.unifiedContacts(matching: .matchingName("task7"), keysToFetch: listKeys).count == perTask)
        store.close()
        let reopened = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess())
        defer { reopened.close() }
        #expect(try reopened.unifiedContacts(matching: .matchingName("number3"), keysToFetch: listKeys).count == tasks)
    }

    @Test(
        "Predicate fetches beside many saves find each save that returned before they began, by name, email and phone, and nothing else"
    )
    func fetchesBesideSaves() async throws {
        let directory = StoreDirectory()
        let store = try ContactStore(
            ledgerAt: directory.ledger, client: .fullAccess())
        defer { store.close() }
        let writers = 16
        let perWriter = 25
        // Each writer checks its own save right after it returns, with the other writers' groups
        // being finished and their index changes pending around it (decision 0014); a reader
        // task checks earlier saves meanwhile, and a name no save has.
        let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var wrong: [String] = []
                    for index in 0..<perWriter {
                        let family = "Writer\(writer)x\(index)"
                        let contact = makeContact(
                            given: "Parallel", family: family,
                            phones: [("mobile", "+1 415 555 \(String(format: "%04d", writer * 100 + index))")],
                            emails: [("home", "\(family)@example.org")])
                        var request = SaveRequest(transactionAuthor: "writer-\(writer)")
                        request.add(contact, toContainerWithIdentifier: nil)
                        try await store.execute(request)
                        let found = [
                            try store.unifiedContacts(matching: .matchingName(family), keysToFetch: []),
                            try store.unifiedContacts(
                                matching: .matchingEmailAddress("\(family)@EXAMPLE.org"), keysToFetch: []),
                            try store.unifiedContacts(
                                matching: .matching(contact.phoneNumbers[0].value), keysToFetch: []),
                        ].map { $0.map(\.identifier) }
                        if found != [[contact.identifier], [contact.identifier], [contact.identifier]] {
                            wrong.append("\(family): \(found)")
                        }
                    }
                    return wrong
                }
            }
            group.addTask {
                var wrong: [String] = []
                for _ in 0..<200 {
                    let absent = try store.unifiedContacts(matching: .matchingName("Nobody"), keysToFetch: [])
                    if !absent.isEmpty { wrong.append("a name no save has: \(absent.count)") }
                    let all = try store.unifiedContacts(matching: .matchingName("parallel"), keysToFetch: [])
                    var count = 0
                    try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: [])) { _, _ in count += 1 }
                    // Saves only add: what the name matched is at most what was there a moment later.
                    if all.count > count { wrong.append("\(all.count) names, \(count) contacts") }
                    await Task.yield()
                }
                return wrong
            }
            var all: [String] = []
            for try await wrong in group { all += wrong }
            return all
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(
            try store.unifiedContacts(matching: .matchingName("parallel"), keysToFetch: []).count == writers * perWriter
        )
    }

    @Test("Requests queued behind each other are validated against each other's staged effects")
    func stagedValidation() throws {
        let store = ContactStore.inMemory()
        let contact = makeContact(given: "Queued", family: "Twice")
        let done = DispatchGroup()
        let outcomes = Locked<[Result<SaveResult, ContactStoreError>]>([])
        // Two adds of the same contact, submitted back to back: exactly one may succeed.
        for _ in 0..<2 {
            done.enter()
            DispatchQueue.global().async {
                var request = SaveRequest()
                request.add(contact, toContainerWithIdentifier: nil)
                let result = Result { try store.execute(request) }.mapError { $0 as! ContactStoreError }
                outcomes.withLock { $0.append(result) }
                done.leave()
            }
        }
        done.wait()
        let results = outcomes.withLock { $0 }
        #expect(results.filter { if case .success = $0 { return true } else { return false } }.count == 1)
        #expect(
            results.contains {
                if case .failure(let error) = $0 {
                    return error.code == .insertedRecordAlreadyExists
                } else {
                    return false
                }
            })
    }

    @Test("A custom Foundation predicate: contacts with at least one phone number")
    func customPredicate() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let hasPhone = #Predicate<Contact> { !$0.phoneNumbers.isEmpty }
        let found = try store.unifiedContacts(matching: .custom(hasPhone), keysToFetch: listKeys)
        #expect(Set(identifiers(found)) == [sample.ada.identifier, sample.jose.identifier, sample.grace.identifier])
        #expect(!found[0].isKeyAvailable(.phoneNumbers), "results carry only the keys asked for")
    }

    @Test(
        "Name matching ignores case and diacritics and needs every word as a prefix",
        arguments: [
            ("jose", true), ("JOSÉ", true), ("nunez", true), ("jo nu", true), ("nu jo", true), ("josé núñez", true),
            ("jose x", false), ("osé", false), ("", false),
        ])
    func nameMatching(query: String, matches: Bool) throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        let found = identifiers(try store.unifiedContacts(matching: .matchingName(query), keysToFetch: listKeys))
        #expect(found.contains(sample.jose.identifier) == matches, "query \(query)")
    }

    @Test(
        "Phone matching compares digits and matches national and international forms",
        arguments: [
            ("415-555-0100", true), ("+1 415 555 0100", true), ("1 (415) 555-0100", true), ("001 415 555 0100", true),
            // Seven digits are a partial number and find the number they end; six are too few.
            ("415 555 0101", false), ("555-0100", true), ("55-0100", false),
        ])
    func phoneMatching(query: String, matches: Bool) throws {
        // "1 (415) …" is a national number with NANP's trunk 1: read in "us", not without a region.
        let store = ContactStore.inMemory(client: .fullAccess(region: "us"))
        let sample = try seedSampleContacts(store)
        let found = identifiers(
            try store.unifiedContacts(matching: .matching(PhoneNumber(stringValue: query)), keysToFetch: listKeys))
        #expect(found.contains(sample.jose.identifier) == matches, "query \(query)")
    }

    @Test("Email matching ignores case and matches whole addresses only")
    func emailMatching() throws {
        let store = ContactStore.inMemory()
        let sample = try seedSampleContacts(store)
        #expect(
            identifiers(
                try store.unifiedContacts(matching: .matchingEmailAddress("GRACE@NAVY.EXAMPLE"), keysToFetch: listKeys))
                == [sample.grace.identifier])
        #expect(try store.unifiedContacts(matching: .matchingEmailAddress("grace@navy"), keysToFetch: listKeys).isEmpty)
    }
}
