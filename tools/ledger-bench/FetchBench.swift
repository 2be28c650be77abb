import ContactsLedger
import Foundation

/// Fetches by identifier through the store's API (`unifiedContact(withIdentifier:keysToFetch:)`):
/// the authorization check, the keys, the read locks, the lookup and the decoding of the keys
/// asked for, as an app pays for them. Identifiers are drawn from the ledger's own contacts, so
/// every fetch finds one; a fetch that returns another contact, or none, is counted as wrong.
struct FetchBench {
    let store: ContactStore
    let projection: Projection
    let quick: Bool

    /// The keys each fetch asks for: a name and the fields a contact list shows beside it.
    static let keys: [any KeyDescriptor] = [
        ContactKey.givenName, ContactKey.familyName, ContactKey.emailAddresses, ContactKey.phoneNumbers,
    ]

    func run() -> [String: Any] {
        var random = SplitMix64(seed: 7_331)
        let slots = projection.occupiedSlots
        guard !slots.isEmpty else { return [:] }
        let identifiers = (0..<(quick ? 200 : 20_000)).map { _ in
            projection.identifier(at: slots.randomElement(using: &random)!)!
        }
        var times: [Double] = []
        times.reserveCapacity(identifiers.count)
        var wrong = 0
        for identifier in identifiers {
            let start = nanoseconds()
            let contact = try? store.unifiedContact(withIdentifier: identifier, keysToFetch: Self.keys)
            times.append(Double(nanoseconds() - start) / 1000)
            if contact?.identifier != identifier { wrong += 1 }
        }
        return [
            "p50_us": percentile(times, 0.5), "p99_us": percentile(times, 0.99), "fetches": identifiers.count,
            "wrong": wrong,
        ]
    }
}
