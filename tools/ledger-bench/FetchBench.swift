import ContactsEngine
import ContactsLedger
import Foundation

/// Fetches by identifier through the store's API (`unifiedContact(withIdentifier:keysToFetch:)`):
/// the authorization check, the keys, the read locks, the lookup and the decoding of the keys
/// asked for, as an app pays for them. Identifiers are drawn from the ledger's own contacts, so
/// every fetch finds one. Each answer is compared, outside the timing, with the contact the
/// projection holds (its revision and the keys asked for): one that differs, or no answer, is
/// counted as `wrong`.
struct FetchBench {
    let store: ContactStore
    let projection: Projection
    let quick: Bool

    /// The keys each fetch asks for: a name and the fields a contact list shows beside it.
    static let keys: [any KeyDescriptor] = [
        ContactKey.givenName, ContactKey.familyName, ContactKey.emailAddresses, ContactKey.phoneNumbers,
    ]

    /// How many fetches are timed.
    static func fetches(quick: Bool) -> Int { quick ? 200 : 20_000 }

    func run() -> [String: Any] {
        var random = SplitMix64(seed: 7_331)
        let slots = projection.occupiedSlots
        guard !slots.isEmpty else { return [:] }
        let identifiers = (0..<Self.fetches(quick: quick)).map { _ in
            projection.identifier(at: slots.randomElement(using: &random)!)!
        }
        var times: [Double] = []
        times.reserveCapacity(identifiers.count)
        var wrong = 0
        for identifier in identifiers {
            let start = nanoseconds()
            let contact = try? store.unifiedContact(withIdentifier: identifier, keysToFetch: Self.keys)
            times.append(Double(nanoseconds() - start) / 1000)
            if !Self.matches(contact, projection.contact(identifier)) { wrong += 1 }
        }
        return [
            "p50_us": percentile(times, 0.5), "p99_us": percentile(times, 0.99), "fetches": identifiers.count,
            "wrong": wrong,
        ]
    }

    /// Whether a fetched contact has the revision and the values of the keys asked for that the
    /// projection holds for it.
    private static func matches(_ fetched: Contact?, _ held: ContactState?) -> Bool {
        guard let fetched, let held else { return false }
        return fetched.revision == held.revision && fetched.givenName == held.values.givenName
            && fetched.familyName == held.values.familyName && fetched.emailAddresses == held.values.emailAddresses
            && fetched.phoneNumbers == held.values.phoneNumbers
    }
}
