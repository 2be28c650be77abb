import ContactsEngine
import ContactsLedger
import Foundation
import LedgerStorage

/// Nanoseconds of the monotonic clock.
func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The CPU time the process has used so far, user and system, over all its threads.
func processCPUSeconds() -> Double {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return .nan }
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The value at `fraction` of the sorted values (nearest rank).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
}

/// The frame bytes of a ledger's records after sequence `after` through `through`, read back from
/// its journal: the records alone, without segment headers or the zeros a running writer keeps
/// ahead of its records.
func journalRecordBytes(_ ledger: String, after: UInt64 = 0, through: UInt64 = .max) throws -> Int {
    var total = 0
    var cursor = try JournalReader(at: ledger).records(from: after + 1)
    while let record = try cursor.next(), record.sequence <= through {
        total +=
            RecordFrame.frameHeaderBytes
            + RecordFrame.bodyBytes(
                sequence: record.sequence, schemaVersion: record.schemaVersion, authorBytes: record.author.utf8.count,
                payloadBytes: record.payload.count)
    }
    return total
}

/// The bytes of the segment files of a ledger's journal (after its writer has closed it, so
/// without zeros ahead of the records).
func journalBytes(_ ledger: String) -> Int {
    let directory = ledger + "/journal"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".seg") }.reduce(0) { total, name in
        let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
        return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
    }
}

/// The commit-path figures: the disk's own append+fdatasync, one writer, and group commit.
struct CommitBench {
    let scratch: String
    let quick: Bool

    /// The size of the record one single-contact save request writes: the frame, envelope,
    /// author and the payload the store's event codec produces for a generated contact.
    func typicalRecordBytes(author: String) -> Int {
        var generator = ContactGenerator(seed: 99)
        var total = 0
        let samples = 200
        for _ in 0..<samples {
            let contact = generator.contact()
            let event = LedgerEvent(operations: [
                .addContact(
                    identifier: contact.identifier, containerIdentifier: UUID().uuidString, createdBy: "bench",
                    values: contact.values)
            ])
            total += EventCodec.encode(event).count
        }
        // The envelope of a record numbered in the thousands, as the single-commit run's are.
        return RecordFrame.frameHeaderBytes
            + RecordFrame.bodyBytes(
                sequence: 1_000, schemaVersion: EventCodec.currentSchemaVersion, authorBytes: author.utf8.count,
                payloadBytes: total / samples)
    }

    /// The raw limit: appends `count` bytes to a file and fdatasyncs it; microseconds.
    final class Baseline {
        private let fileSystem = SystemFileSystem()
        private let file: OpenFile
        private var offset: Int64
        private let bytes: [UInt8]

        init(path: String, recordBytes: Int) throws {
            file = try fileSystem.open(path, .createOrOpen(permissions: 0o600))
            offset = try fileSystem.size(of: file)
            bytes = [UInt8](repeating: 0x5A, count: recordBytes)
        }

        func append() throws -> Double {
            let start = nanoseconds()
            try fileSystem.write(file, bytes, at: offset)
            try fileSystem.synchronizeData(file)
            offset += Int64(bytes.count)
            return Double(nanoseconds() - start) / 1000
        }

        deinit { try? fileSystem.close(file) }
    }

    struct Single {
        var baselineMicroseconds: [Double]
        var commitMicroseconds: [Double]
        var recordBytes: Int
        /// Journal bytes per add record, measured on the ledger the single commits wrote.
        var journalBytesPerAdd: Double
        /// The contacts added, for the vCard comparison.
        var contacts: [MutableContact]
    }

    /// One writer, one contact per save request through `ContactStore.execute`, each acknowledged
    /// after fdatasync; each commit alternates with one baseline append on the same filesystem,
    /// so that both see the same disk weather (this machine's fdatasync moves between modes a
    /// dozen times apart, and blocks of each would compare one mode with another).
    func single() throws -> Single {
        let author = "bench-single"
        let recordBytes = typicalRecordBytes(author: author)
        let ledger = scratch + "/single.ledger"
        let store = try ContactStore(ledgerAt: ledger, client: .fullAccess(author, region: benchRegion))
        let baseline = try Baseline(path: scratch + "/baseline.dat", recordBytes: recordBytes)
        var generator = ContactGenerator(seed: 1)
        let samples = quick ? 100 : 1_000
        var baselineSamples: [Double] = []
        var commitSamples: [Double] = []
        var contacts: [MutableContact] = []
        // Warm up both paths: the first appends extend fresh files and fault in code.
        for _ in 0..<10 {
            _ = try baseline.append()
            var request = SaveRequest(transactionAuthor: author)
            request.add(generator.contact(), toContainerWithIdentifier: nil)
            try store.execute(request)
        }
        let warmRecords = store.headDigest.sequence
        for _ in 0..<samples {
            baselineSamples.append(try baseline.append())
            let contact = generator.contact()
            contacts.append(contact)
            var request = SaveRequest(transactionAuthor: author)
            request.add(contact, toContainerWithIdentifier: nil)
            let start = nanoseconds()
            try store.execute(request)
            commitSamples.append(Double(nanoseconds() - start) / 1000)
        }
        let records = store.headDigest.sequence - warmRecords
        store.close()
        let bytes = try journalRecordBytes(ledger, after: warmRecords)
        return Single(
            baselineMicroseconds: baselineSamples, commitMicroseconds: commitSamples, recordBytes: recordBytes,
            journalBytesPerAdd: Double(bytes) / Double(records), contacts: contacts)
    }

    struct Group {
        var writers: Int
        var commits: Int
        var syncs: Int
        var seconds: Double
        /// The process's CPU time (user and system, every thread) over the same interval.
        var cpuSeconds: Double

        var commitsPerSecond: Double { Double(commits) / seconds }
        var syncsPerSecond: Double { Double(syncs) / seconds }
        var syncsPerCommit: Double { Double(syncs) / Double(max(1, commits)) }
        var cpuMicrosecondsPerCommit: Double { cpuSeconds * 1e6 / Double(max(1, commits)) }
        /// How many processors the process kept busy on average.
        var cpusBusy: Double { cpuSeconds / seconds }
    }

    /// `writers` tasks, each executing its own one-contact save requests through the async
    /// `execute`, all at once; counts commits and the fdatasyncs the store's journal made.
    func group(writers: Int, round: Int) async throws -> Group {
        let ledger = scratch + "/group-\(writers)-\(round).ledger"
        let fileSystem = CountingFileSystem()
        let store = try ContactStore(
            ledgerAt: ledger, client: .fullAccess("bench-group", region: benchRegion), fileSystem: fileSystem)
        let perWriter = quick ? max(10, 200 / writers) : max(200, 3_000 / writers)
        var batches: [[MutableContact]] = []
        for writer in 0..<writers {
            var generator = ContactGenerator(seed: 1_000 + UInt64(writer) + 100 * UInt64(round))
            batches.append((0..<perWriter).map { _ in generator.contact() })
        }
        let syncsBefore = fileSystem.dataSyncs
        let before = store.headDigest.sequence
        let cpuBefore = processCPUSeconds()
        let start = nanoseconds()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in batches {
                group.addTask {
                    for contact in batch {
                        var request = SaveRequest(transactionAuthor: "bench-group")
                        request.add(contact, toContainerWithIdentifier: nil)
                        try await store.execute(request)
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Double(nanoseconds() - start) / 1e9
        let cpuSeconds = processCPUSeconds() - cpuBefore
        let commits = Int(store.headDigest.sequence - before)
        let syncs = fileSystem.dataSyncs - syncsBefore
        store.close()
        return Group(writers: writers, commits: commits, syncs: syncs, seconds: seconds, cpuSeconds: cpuSeconds)
    }
}
