import ContactsEngine
import ContactsLedger
import Foundation
import LedgerAudit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("contacts-ledger: killed writers")
struct CrashTests {
    /// What one `add` process was asked to add.
    struct Job {
        var index: Int
        var requestID: UUID
        var killAfterMicroseconds: UInt32?
        var given: String { "Crash\(index)" }
        var phone: String { "+1 555 01\(String(format: "%02d", index))" }
        var email: String { "crash\(index)@example.com" }

        var arguments: [String] {
            [
                "add", "--given", given, "--family", "Killed", "--phone", "mobile=\(phone)", "--email", "work=\(email)",
                "--note", String(repeating: "n", count: 200 + index * 37), "--author", "crash-test", "--request-id",
                requestID.uuidString, "--wait", "60",
            ]
        }
    }

    @Test("add processes killed with SIGKILL at random moments: what they printed is there, whole, and verifies")
    func killedWriters() throws {
        let seed = testSeed("contacts-ledger crash test")
        var random = SeededRandom(seed: seed)
        let work = try WorkDirectory().initLedger()
        let jobs = (0..<40).map { index in
            Job(
                index: index, requestID: UUID(),
                // Most are killed: half of those within the first 60 ms, around a typical start-up
                // and commit, the others up to a quarter of a second in, while waiting for the lock.
                killAfterMicroseconds: Int.random(in: 0..<10, using: &random) < 8
                    ? UInt32.random(
                        in: Bool.random(using: &random) ? 0..<60_000 : 60_000..<250_000, using: &random) : nil)
        }
        var printed: [Int: String] = [:]
        var killed = 0
        let concurrency = 6
        for wave in stride(from: 0, to: jobs.count, by: concurrency) {
            let batch = Array(jobs[wave..<min(jobs.count, wave + concurrency)])
            let started = try batch.map { job in
                let (process, stdout, _, stdin) = try startTool(job.arguments, in: work.path)
                try stdin.fileHandleForWriting.close()
                return (job, process, stdout)
            }
            // Kill in order of the chosen moments, measured from the start of the wave.
            let waveStart = DispatchTime.now().uptimeNanoseconds
            for (job, process, _) in started.sorted(by: {
                ($0.0.killAfterMicroseconds ?? 0) < ($1.0.killAfterMicroseconds ?? 0)
            }) {
                guard let delay = job.killAfterMicroseconds else { continue }
                let elapsed = (DispatchTime.now().uptimeNanoseconds - waveStart) / 1000
                if elapsed < UInt64(delay) { usleep(UInt32(UInt64(delay) - elapsed)) }
                if process.isRunning, kill(process.processIdentifier, SIGKILL) == 0 { killed += 1 }
            }
            for (job, process, stdout) in started {
                let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                let lines = output.split(separator: "\n").map(String.init)
                if let line = lines.first(where: { $0.hasPrefix("added ") }) {
                    printed[job.index] = String(line.dropFirst("added ".count))
                }
                if process.terminationReason == .exit {
                    #expect(
                        process.terminationStatus == 0,
                        "seed \(seed): job \(job.index) exited \(process.terminationStatus)")
                }
            }
        }
        print("crash test: \(killed) of \(jobs.count) processes killed, \(printed.count) printed an identifier")

        // Verify passes (a torn tail from the last kill is reported, not damage).
        let verify = try work.run(["verify"])
        #expect(verify.status == 0, "seed \(seed): \(verify.stderr)")
        print("crash test: verify says: \(verify.stdout.split(separator: "\n").joined(separator: "; "))")

        // Every identifier a process printed is there.
        for (index, identifier) in printed.sorted(by: { $0.key < $1.key }) {
            let shown = try work.run(["show", identifier, "--json"])
            #expect(shown.status == 0, "seed \(seed): job \(index)'s \(identifier): \(shown.stderr)")
            if shown.status == 0 { #expect(try shown.json()["givenName"] == .string(jobs[index].given)) }
        }

        // No partial request: every record decodes, holds exactly one whole add, and belongs to one job.
        let byRequest = Dictionary(uniqueKeysWithValues: jobs.map { ($0.requestID, $0) })
        var seenRequests = Set<UUID>()
        var committed: [Int: String] = [:]
        try JournalReader(at: work.ledger).forEach { record in
            let job = try #require(byRequest[record.requestID], "seed \(seed): record \(record.sequence) is no job's")
            #expect(seenRequests.insert(record.requestID).inserted, "seed \(seed): request of job \(job.index) twice")
            #expect(record.author == "crash-test")
            let event = try EventCodec.decode(record.payload, schemaVersion: record.schemaVersion)
            try #require(event.operations.count == 1, "seed \(seed): record \(record.sequence)")
            guard case .addContact(let identifier, _, _, let values) = event.operations[0] else {
                Issue.record("seed \(seed): record \(record.sequence) is not an add")
                return
            }
            committed[job.index] = identifier
            #expect(values.givenName == job.given)
            #expect(values.familyName == "Killed")
            #expect(values.note.count == 200 + job.index * 37)
            #expect(values.phoneNumbers.map(\.value.stringValue) == [job.phone])
            #expect(values.phoneNumbers.map(\.label) == [Label.phoneNumberMobile])
            #expect(values.emailAddresses.map(\.value) == [job.email])
        }
        for (index, identifier) in printed {
            #expect(committed[index] == identifier, "seed \(seed): job \(index) printed \(identifier)")
        }
        // A process that was not killed always commits.
        for job in jobs where job.killAfterMicroseconds == nil {
            #expect(committed[job.index] != nil, "seed \(seed): job \(job.index) was not killed but did not commit")
        }
        // The audit log shows the same: one whole add per record, nothing partial.
        let log = try work.succeed(["log", "--json"]).lines.map { try JSONValue(parsing: $0) }
        #expect(log.count == committed.count)
        for event in log {
            let operations = try #require(event["operations"]?.arrayValue)
            try #require(operations.count == 1, "seed \(seed): \(event)")
            #expect(operations[0]["type"] == "addContact")
            let contact = try #require(operations[0]["contact"])
            #expect(contact["familyName"] == "Killed")
            #expect(contact["phoneNumbers"]?.arrayValue?.count == 1)
            #expect(contact["emailAddresses"]?.arrayValue?.count == 1)
            #expect(event["author"] == "crash-test")
        }
        let list = try work.succeed(["list", "--json"]).json()
        #expect(list.arrayValue?.count == committed.count)
    }
}
