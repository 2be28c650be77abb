import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsLedger
@testable import ContactsModel

/// The first search of a store whose indexes are deferred scans the contacts (decision 0037):
/// whatever the query, it must answer exactly the slots the built indexes answer.
@Suite("Search by a scan of the contacts against the built indexes")
struct SearchScanTests {
    static let givenNames = [
        "John", "Johnny", "JOHN", "Jon", "José", "Jose", "Joseph", "María", "Maria", "Marie-Claire", "Zoë",
        "Chloé", "Ólafur", "Søren", "Soren", "Straße", "Strasse", "O'Neil", "Ｊｏｈｎ", "Łukasz", "Lukasz",
        "Ærøskøbing", "太郎", "花子", "민준", "Дмитрий", "Σοφία", "Nguyễn", "Ångström", "",
    ]
    static let familyNames = [
        "Smith", "Smyth", "Müller", "Mueller", "Muller", "García", "Garcia", "van der Berg", "田中", "田中太郎",
        "김", "Иванов", "Ørsted", "Jean-Luc", "d'Arcy", "", "",
    ]
    static let organizations = ["", "", "", "Apple Inc.", "Acme Corp", "Smith & Sons", "株式会社タナカ", "Ÿ-Industries"]
    static let emails = [
        "john@example.com", "John@Example.COM", " john@example.com ", "mary@example.org", "josé@example.com",
        "JOSÉ@EXAMPLE.COM", "straße@example.de", "STRASSE@example.de", "a@b.c",
    ]
    static let phones = [
        "+1 415 555 0100", "(415) 555-0100", "1-415-555-0100", "415 555 0101", "+44 20 7946 0958",
        "011 44 20 7946 0958", "0044 20 7946 0958", "020 7946 0958", "+44 (0)20 7946 0958", "+49 30 123456",
        "030 123456", "+81 3-1234-5678", "03-1234-5678", "+33 1 23 45 67 89", "01 23 45 67 89", "911", "12",
        "+1 ٤١٥ ٥٥٥ ٠١٠٠", "5550100", "+7 495 123-45-67", "8 495 123 45 67", "+1234567890123456789", "ext. 12",
    ]

    static func randomContact(using generator: inout SearchTestGenerator) -> MutableContact {
        var contact = MutableContact()
        randomize(&contact, using: &generator)
        return contact
    }

    /// Gives a contact random name fields, email addresses and phone numbers from the pools.
    static func randomize(_ contact: inout MutableContact, using generator: inout SearchTestGenerator) {
        contact.givenName = givenNames.randomElement(using: &generator)!
        contact.familyName = familyNames.randomElement(using: &generator)!
        if Int.random(in: 0..<4, using: &generator) == 0 {
            contact.middleName = givenNames.randomElement(using: &generator)!
        }
        if Int.random(in: 0..<6, using: &generator) == 0 {
            contact.nickname = "Rare\(Int.random(in: 0..<300, using: &generator))"
        }
        contact.organizationName = organizations.randomElement(using: &generator)!
        contact.emailAddresses = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            LabeledValue(label: Label.home, value: emails.randomElement(using: &generator)!)
        }
        contact.phoneNumbers = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            LabeledValue(
                label: Label.phoneNumberMobile,
                value: PhoneNumber(stringValue: phones.randomElement(using: &generator)!))
        }
    }

    /// Name queries: starts of every pool word in several cases, several words, and queries
    /// that have no words.
    static func nameQueries(using generator: inout SearchTestGenerator) -> [String] {
        let pool = givenNames + familyNames + organizations + ["Rare1", "Rare12", "Rare", "x", "-", " ", "田", "中太"]
        var queries = [
            "", "  ", "-'.", "jo sm", "sm jo", "jo john", "straße", "strasse", "muller", "MÜLLER", "jean luc",
        ]
        for name in pool {
            for length in [1, 2, 3, name.count] where length <= name.count {
                let start = String(name.prefix(length))
                queries += [start, start.uppercased(), start.lowercased()]
            }
        }
        for _ in 0..<60 {
            queries.append(
                (0..<Int.random(in: 2...3, using: &generator)).map { _ in
                    String(pool.randomElement(using: &generator)!.prefix(Int.random(in: 1...4, using: &generator)))
                }.joined(separator: " "))
        }
        // Without the repeats that changing case gives.
        return Array(Set(queries)).sorted()
    }

    static let emailQueries =
        emails + [
            "", "JOHN@EXAMPLE.COM", "  Mary@Example.org\n", "jose@example.com", "strasse@EXAMPLE.de", "nobody@x", " ",
        ]

    static let phoneQueries =
        phones + [
            "", "4155550100", "+14155550100", "555-0100", "5550100", "55-0100", "79460958", "2079460958", "7946 0958",
            "+44 20 7946 0958", "0 20 7946 0958", "123456", "30123456", "12345678", "0100", "+1", "00", "٥٥٥٠١٠٠",
            "3456789", "56789012345678", "1234567890123456789",
        ]

    /// A read-only store's projection with its indexes deferred, over contacts added and then
    /// updated, deleted and added again after the reader's open and read by its refresh.
    static func deferredProjection(seed: UInt64, contacts: Int) throws -> (StoreDirectory, Projection) {
        var generator = SearchTestGenerator(seed: seed)
        let directory = StoreDirectory()
        let writer = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess("writer"))
        let added = try add((0..<contacts).map { _ in randomContact(using: &generator) }, to: writer)
        let reader = try ContactStore(readingLedgerAt: directory.ledger, client: .fullAccess("reader"))
        var request = SaveRequest()
        for (index, contact) in added.enumerated() where index % 7 == 0 {
            request.delete(contact)
        }
        for (index, contact) in added.enumerated() where index % 5 == 1 {
            var changed = try writer.unifiedContact(
                withIdentifier: contact.identifier, keysToFetch: [ContactKeySet.all]
            )
            .mutableCopy()
            randomize(&changed, using: &generator)
            request.update(changed)
        }
        for _ in 0..<contacts / 10 { request.add(randomContact(using: &generator), toContainerWithIdentifier: nil) }
        try writer.execute(request)
        #expect(try reader.refresh() == 1)
        let projection = reader.pipeline.readState(usingIndexes: false) { projection, _ in copy projection }
        try #require(projection.hasDeferredIndexes)
        return (directory, projection)
    }

    /// Checks that a scan and the built indexes of a region answer every query alike.
    static func checkAgreement(_ base: Projection, region: String, queries: [String], slotsPerThreadMin: Int) {
        var deferred = base
        deferred.indexes = SearchIndexes(defaultCountryCode: region)
        var built = deferred
        built.buildDeferredIndexes()
        let unused = SearchIndexes(defaultCountryCode: "")
        // Queries that found something, so that agreeing on nothing cannot pass for agreement.
        var found = (names: 0, emails: 0, phones: 0)
        for query in queries {
            let scanned = Projection.scannedSlots(
                SearchScan(name: query), in: deferred.contacts, slotsPerThreadMin: slotsPerThreadMin)
            #expect(scanned == built.slots(matchingName: query, from: built.indexes), "name \(query)")
            #expect(scanned == deferred.slots(matchingName: query, from: unused), "name \(query)")
            if !scanned.isEmpty { found.names += 1 }
        }
        for query in emailQueries {
            let scanned = Projection.scannedSlots(
                SearchScan(emailAddress: query), in: deferred.contacts, slotsPerThreadMin: slotsPerThreadMin)
            #expect(scanned == built.slots(matchingEmailAddress: query, from: built.indexes), "email \(query)")
            if !scanned.isEmpty { found.emails += 1 }
        }
        for query in phoneQueries {
            let scan = SearchScan(phoneNumber: query, defaultCountryCode: region)
            let scanned = Projection.scannedSlots(scan, in: deferred.contacts, slotsPerThreadMin: slotsPerThreadMin)
            #expect(
                scanned == built.slots(matchingPhoneNumber: query, from: built.indexes), "phone \(query) in \(region)")
            #expect(scanned == deferred.slots(matchingPhoneNumber: query, from: unused), "phone \(query) in \(region)")
            if !scanned.isEmpty { found.phones += 1 }
        }
        #expect(found.names > queries.count / 2 && found.emails > 5 && found.phones > 10, "\(found)")
    }

    @Test(
        "Every kind of query answers the same slots by a scan as by the built indexes",
        arguments: ["us", "gb", "de", "jp", "ru", "zz"])
    func scanAgreesWithIndexes(region: String) throws {
        let seed = SearchFixtures.seed("SearchScanTests(\(region))")
        let (directory, projection) = try Self.deferredProjection(seed: seed, contacts: 600)
        defer { withExtendedLifetime(directory) {} }
        var generator = SearchTestGenerator(seed: seed)
        let queries = Self.nameQueries(using: &generator)
        // On one thread, and split between two.
        Self.checkAgreement(projection, region: region, queries: queries, slotsPerThreadMin: .max)
        Self.checkAgreement(projection, region: region, queries: queries, slotsPerThreadMin: 64)
    }

    @Test("A scan folds a name query into the words the index folds it into")
    func scanQueryWords() {
        var generator = SearchTestGenerator(seed: SearchFixtures.seed("SearchScanTests.queryWords"))
        let queries =
            Self.nameQueries(using: &generator) + Self.givenNames + Self.familyNames + Self.organizations + [
                "", " ", "-", "'.,;!?", "José José", "jose JOSÉ josé", "Müller müller MÜLLER", "Σοφία σοφια",
                "Дмитрий дмитрий", "田中 田中太郎", "김 민준 김", "Ｊｏｈｎ john", "Nguyễn Nguyen", "a b a c b",
                "Ærøskøbing aeroskobing", "straße strasse", "e\u{301}mile émile", "x\u{200D}y", "🙂 smile 🙂",
            ]
        for query in queries {
            let expected = SearchFolding.queryWords(query)
            let scan = SearchScan(name: query)
            let words = scan.nameWords
            #expect(words?.bytes ?? [] == expected.bytes, "\(query)")
            #expect(words?.ends ?? [] == expected.ends, "\(query)")
            #expect(scan.matchesNothing == expected.isEmpty, "\(query)")
        }
    }

    @Test("A scan finds what a query asks for, and nothing in an empty table")
    func scanExamples() {
        #expect(Projection.scannedSlots(SearchScan(name: "john"), in: ContactTable()).isEmpty)
        #expect(SearchScan(name: " - ").matchesNothing)
        #expect(SearchScan(emailAddress: "  ").matchesNothing)
        #expect(SearchScan(phoneNumber: "12", defaultCountryCode: "us").matchesNothing)
        #expect(!SearchScan(phoneNumber: "5550100", defaultCountryCode: "us").matchesNothing)
    }
}
