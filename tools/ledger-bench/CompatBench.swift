import ContactsCompat
import ContactsLedger
import Foundation

/// The cost of the framework's names (ContactsCompat) over the native API, in one run, on the
/// same operations against two in-memory copies of one ledger: a fetch by identifier, a name
/// search and a save (an add, which through ContactsCompat also fetches the contact again, as
/// the framework's save request does by default). The two sides alternate, so that a change of
/// the machine's speed during the run lands on both; each figure is a median, and the ratio is
/// ContactsCompat's median over the native one (the bar: at most 1.2).
struct CompatBench {
    /// The ledger both copies are made from.
    let ledger: String
    let quick: Bool

    /// How many of each operation are timed on each side.
    var rounds: Int { quick ? 200 : 5_000 }

    func run() async throws -> [String: Any] {
        let native = try ContactStore.inMemory(
            copyingLedgerAt: ledger, client: .fullAccess("bench-compat", region: benchRegion))
        defer { native.close() }
        let replay = try await ContactsReplay(opening: .copy(ofLedgerAt: ledger), clientIdentifier: "bench-compat")
        defer { replay.close() }
        let sample = try Self.sample(native, count: rounds)
        let compat = replay.run { CNContactStore() }
        var figures: [String: Any] = [:]
        for operation in Operation.allCases {
            var nativeTimes: [Double] = []
            var compatTimes: [Double] = []
            for (index, contact) in sample.enumerated() {
                nativeTimes.append(try time { try operation.native(native, contact, index) })
                compatTimes.append(try time { try operation.compat(compat, contact, index) })
            }
            let (nativeMedian, compatMedian) = (percentile(nativeTimes, 0.5), percentile(compatTimes, 0.5))
            figures[operation.rawValue] = [
                "native_p50_us": nativeMedian, "compat_p50_us": compatMedian,
                "compat_vs_native": compatMedian / nativeMedian,
                "operations": sample.count,
            ]
        }
        return figures
    }

    /// Microseconds `body` takes.
    private func time(_ body: () throws -> Void) throws -> Double {
        let start = nanoseconds()
        try body()
        return Double(nanoseconds() - start) / 1000
    }

    /// Identifiers and given names of up to `count` contacts of the ledger, for the fetches and searches.
    private static func sample(_ store: ContactStore, count: Int) throws -> [(identifier: String, name: String)] {
        var sample: [(String, String)] = []
        var request = ContactFetchRequest(keysToFetch: [ContactKey.givenName])
        request.unifyResults = false
        try store.enumerateContacts(with: request) { contact, stop in
            if !contact.givenName.isEmpty { sample.append((contact.identifier, contact.givenName)) }
            stop = sample.count >= count
        }
        return sample
    }

    /// The operations measured, each through both APIs.
    enum Operation: String, CaseIterable {
        case fetchByIdentifier = "fetch_by_identifier"
        case nameSearch = "name_search"
        case save

        /// The keys each fetch asks for, as ``FetchBench`` asks for them.
        static var compatKeys: [CNKeyDescriptor] {
            [CNContactGivenNameKey, CNContactFamilyNameKey, CNContactEmailAddressesKey, CNContactPhoneNumbersKey]
        }

        func native(_ store: ContactStore, _ contact: (identifier: String, name: String), _ index: Int) throws {
            switch self {
            case .fetchByIdentifier:
                _ = try store.unifiedContact(withIdentifier: contact.identifier, keysToFetch: FetchBench.keys).givenName
            case .nameSearch:
                _ = try store.unifiedContacts(matching: .matchingName(contact.name), keysToFetch: FetchBench.keys).count
            case .save:
                var added = MutableContact()
                added.givenName = "Bench \(index)"
                var request = SaveRequest()
                request.add(added, toContainerWithIdentifier: nil)
                try store.execute(request)
            }
        }

        func compat(_ store: CNContactStore, _ contact: (identifier: String, name: String), _ index: Int) throws {
            switch self {
            case .fetchByIdentifier:
                _ = try store.unifiedContact(withIdentifier: contact.identifier, keysToFetch: Self.compatKeys).givenName
            case .nameSearch:
                let predicate = CNContact.predicateForContacts(matchingName: contact.name)
                _ = try store.unifiedContacts(matching: predicate, keysToFetch: Self.compatKeys).count
            case .save:
                let added = CNMutableContact()
                added.givenName = "Bench \(index)"
                let request = CNSaveRequest()
                request.add(added, toContainerWithIdentifier: nil)
                try store.execute(request)
            }
        }
    }
}
