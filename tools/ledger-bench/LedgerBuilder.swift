import ContactsEngine
import ContactsLedger
import Foundation

/// Writes a ledger of `contacts` live contacts through the store, with a realistic history:
/// an import of `contacts + contacts / 20` adds in save requests of 1,000 (what an import or a
/// sync's first run does), then `contacts / 5` updates and `contacts / 20` deletes, shuffled, in
/// save requests of 10 from 32 concurrent tasks (what sync clients do later). Every record is
/// what the store writes, because the store writes it.
struct LedgerBuilder {
    static let addsPerImportRequest = 1_000
    static let operationsPerLaterRequest = 10
    static let concurrentClients = 32

    struct Built {
        var path: String
        var contacts: Int
        var adds: Int
        var updates: Int
        var deletes: Int
        var records: UInt64
        var seconds: Double
        /// Journal bytes per add in the import's 1,000-add requests.
        var journalBytesPerBatchedAdd: Double
        var journalBytes: Int

        var events: Int { adds + updates + deletes }
    }

    let path: String
    let contacts: Int
    let seed: UInt64

    func build() async throws -> Built {
        let start = nanoseconds()
        let store = try ContactStore(ledgerAt: path, client: .fullAccess("bench-import", region: benchRegion))
        var generator = ContactGenerator(seed: seed)
        let deletes = contacts / 20
        let updates = contacts / 5
        let adds = contacts + deletes
        var identifiers: [String] = []
        identifiers.reserveCapacity(adds)
        var remaining = adds
        while remaining > 0 {
            var request = SaveRequest(transactionAuthor: "bench-import")
            for _ in 0..<min(remaining, Self.addsPerImportRequest) {
                let contact = generator.contact()
                identifiers.append(contact.identifier)
                request.add(contact, toContainerWithIdentifier: nil)
            }
            remaining -= min(remaining, Self.addsPerImportRequest)
            try await store.execute(request)
        }
        let importRecords = store.headDigest.sequence

        // Distinct targets: the first `deletes` of a shuffle are deleted, the next `updates` updated.
        identifiers.shuffle(using: &generator.random)
        var work: [(identifier: String, delete: Bool)] =
            identifiers.prefix(deletes).map { ($0, true) }
            + identifiers.dropFirst(deletes).prefix(updates).map { ($0, false) }
        work.shuffle(using: &generator.random)
        let chunks = stride(from: 0, to: work.count, by: Self.operationsPerLaterRequest).map {
            Array(work[$0..<min(work.count, $0 + Self.operationsPerLaterRequest)])
        }
        let clients = Self.concurrentClients
        let baseSeed = seed
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    var changes = ContactGenerator(seed: baseSeed &+ 7_919 &* UInt64(client + 1))
                    for index in stride(from: client, to: chunks.count, by: clients) {
                        var request = SaveRequest(transactionAuthor: "bench-sync-\(client)")
                        for item in chunks[index] {
                            var contact = try store.unifiedContact(
                                withIdentifier: item.identifier, keysToFetch: ContactKey.allCases
                            ).mutableCopy()
                            if item.delete {
                                request.delete(contact)
                            } else {
                                changes.update(&contact)
                                request.update(contact)
                            }
                        }
                        try await store.execute(request)
                    }
                }
            }
            try await group.waitForAll()
        }
        let records = store.headDigest.sequence
        store.close()
        let importBytes = try journalRecordBytes(path, through: importRecords)
        return Built(
            path: path, contacts: contacts, adds: adds, updates: updates, deletes: deletes, records: records,
            seconds: Double(nanoseconds() - start) / 1e9,
            journalBytesPerBatchedAdd: Double(importBytes) / Double(adds), journalBytes: journalBytes(path))
    }
}
