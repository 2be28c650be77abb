import Foundation
import Testing

/// The built `ledger-bench` binary, found beside the test bundle (the test build builds it too).
private func benchPath() throws -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("ledger-bench").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "ledger-bench near \(CommandLine.arguments[0])"])
}

/// Keeps the benchmark from rotting: `ledger-bench --quick` runs every measurement on small
/// ledgers and prints every key of issue 6 with a sane value. The values are not judged as
/// timings (a debug build on a busy machine proves nothing about speed); Performance.md holds
/// the release figures.
@Suite("ledger-bench --quick")
struct LedgerBenchQuickTests {
    private func number(_ object: [String: Any], _ key: String) -> Double? {
        (object[key] as? NSNumber)?.doubleValue
    }

    @Test("prints one JSON object with every key and sane values")
    func quickRun() throws {
        let scratch = NSTemporaryDirectory() + "ledger-bench-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try benchPath())
        process.arguments = ["--quick", "--dir", scratch]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])

        for key in [
            "baseline_append_fdatasync_us", "commit_single_us_p50", "commit_single_us_p99", "commit_single_vs_baseline",
            "journal_bytes_per_add", "vcard_bytes_per_contact", "resident_bytes_per_contact",
        ] {
            let value = try #require(number(json, key), "\(key) is missing or not a number")
            #expect(value > 0 && value.isFinite, "\(key) = \(value)")
        }
        #expect(number(json, "commit_single_us_p99")! >= number(json, "commit_single_us_p50")!)

        let groups = try #require(json["group_commit"] as? [[String: Any]])
        #expect(groups.compactMap { number($0, "writers") } == [1, 4, 16, 64])
        for group in groups {
            let commits = try #require(number(group, "commits_per_s"))
            let syncs = try #require(number(group, "fsyncs_per_s"))
            #expect(commits > 0 && syncs > 0 && syncs <= commits * 1.5, "\(group)")
            // The CPU figures come from getrusage around the same interval: the process does
            // work for every commit, and cannot keep more processors busy than it has threads.
            let cpu = try #require(number(group, "cpu_us_per_commit"))
            let busy = try #require(number(group, "cpus_busy"))
            #expect(cpu > 0 && cpu.isFinite && busy > 0 && busy < 64, "\(group)")
        }

        // The memory probe ran before the commits and before each ledger's replays: a dependent
        // read takes longer than nothing and less than a millisecond on any machine that runs this.
        func plausibleRead(_ nanoseconds: Double?) -> Bool { nanoseconds.map { $0 > 0.1 && $0 < 1e6 } ?? false }
        let context = try #require(json["context"] as? [String: Any])
        #expect(plausibleRead(number(context, "memory_random_read_ns")), "\(context)")

        // The command-line section ran the tool built beside the bench on the first ledger.
        let cli = try #require(json["cli"] as? [String: Any])
        #expect(number(cli, "contacts") == 1_000)
        for key in ["list_json", "export", "log_json"] {
            let entry = try #require(cli[key] as? [String: Any], "\(key) in \(cli)")
            #expect((number(entry, "per_second") ?? 0) > 0, "\(key): \(entry)")
            #expect((number(entry, "output_bytes") ?? 0) > 1_000, "\(key): \(entry)")
        }
        for key in ["show", "search", "history", "digest"] {
            let entry = try #require(cli[key] as? [String: Any], "\(key) in \(cli)")
            #expect((number(entry, "seconds") ?? 0) > 0, "\(key): \(entry)")
        }

        let replay = try #require(json["replay"] as? [String: [String: Any]])
        let readChecksum = try #require(json["read_checksum_seconds"] as? [String: Any])
        let open = try #require(json["open_with_snapshot_ms"] as? [String: Any])
        #expect(replay.count == 2)
        for (contacts, entry) in replay {
            let events = try #require(number(entry, "events"))
            let seconds = try #require(number(entry, "seconds"))
            let rate = try #require(number(entry, "events_per_s"))
            #expect(events >= Double(contacts)! && seconds > 0)
            #expect(abs(rate - events / seconds) <= rate * 1e-6)
            #expect(plausibleRead(number(entry, "memory_random_read_ns")), "\(entry)")
            // A quick run replays once; the figure is the median of the runs it lists.
            #expect((entry["seconds_runs"] as? [Double]) == [seconds])
            let readRuns = try #require(entry["read_checksum_seconds_runs"] as? [Double])
            #expect(readRuns.count == 1 && readRuns.first == number(readChecksum, contacts))
            #expect(number(readChecksum, contacts).map { $0 > 0 } == true, "read_checksum_seconds[\(contacts)]")
            #expect(number(open, contacts).map { $0 > 0 } == true, "open_with_snapshot_ms[\(contacts)]")
        }

        let search = try #require(json["search"] as? [String: Any])
        for kind in ["name_prefix_one_word", "name_prefix_two_words", "email", "phone"] {
            let entry = try #require(search[kind] as? [String: Any], "search.\(kind) is missing")
            let p50 = try #require(number(entry, "p50_us"))
            let p99 = try #require(number(entry, "p99_us"))
            #expect(p50 > 0 && p99 >= p50, "search.\(kind)")
            #expect(try #require(number(entry, "linear_scan_vs_index")) > 0)
            // The scan is the index's reference answer: they must agree on every scanned query.
            #expect(entry["scan_agrees_with_index"] as? Bool == true, "search.\(kind) scan and index disagree")
            #expect(try #require(number(entry, "mean_matches")) >= 1, "search.\(kind) queries match nothing")
        }

        // Search through the public API beside the SQLite peer, which ran (python3 is on the PATH)
        // and returned as many rows as the ledger for every query, or the run would have failed.
        let publicSearch = try #require(json["public_search"] as? [String: Any])
        #expect(number(publicSearch, "first_search_us").map { $0 > 0 } == true, "\(publicSearch)")
        for kind in ["name_prefix_one_word", "name_prefix_two_words", "email", "phone"] {
            let entry = try #require(publicSearch[kind] as? [String: Any], "public_search.\(kind) is missing")
            for way in ["unified", "enumerate", "enumerate_first_screen", "sqlite"] {
                let p50 = try #require(number(entry, way + "_p50_us"), "public_search.\(kind).\(way)")
                let p99 = try #require(number(entry, way + "_p99_us"), "public_search.\(kind).\(way)")
                #expect(p50 > 0 && p99 >= p50, "public_search.\(kind).\(way)")
            }
            #expect(number(entry, "enumerate_disagrees") == 0, "public_search.\(kind)")
            #expect(try #require(number(entry, "mean_matches")) >= 1, "public_search.\(kind) queries match nothing")
            #expect(number(entry, "sqlite_vs_ledger_p50").map { $0 > 0 } == true, "public_search.\(kind)")
        }

        // Fetches by identifier through the store: each asks for a contact of the ledger, so each
        // must return it, with the revision and values the ledger holds for it.
        let fetch = try #require(json["fetch_by_identifier"] as? [String: Any])
        let fetchP50 = try #require(number(fetch, "p50_us"))
        let fetchP99 = try #require(number(fetch, "p99_us"))
        #expect(fetchP50 > 0 && fetchP99 >= fetchP50, "\(fetch)")
        #expect(try #require(number(fetch, "fetches")) > 0 && number(fetch, "wrong") == 0, "\(fetch)")

        // The web server's section, on the last ledger: every figure present, every reader answered.
        let server = try #require(json["server"] as? [String: Any])
        for key in ["list_build_ms", "list_first_page_ms", "contact_page_ms", "search_slowest_ms"] {
            #expect(number(server, key).map { $0 > 0 } == true, "server.\(key) in \(server)")
        }
        let concurrent = try #require(server["concurrent"] as? [String: Any])
        #expect(number(concurrent, "readers") == 64 && number(concurrent, "reader_failures") == 0, "\(concurrent)")
        #expect(number(concurrent, "reader_answers").map { $0 > 0 } == true, "\(concurrent)")
        #expect(number(concurrent, "commit_rate_ratio").map { $0 > 0 } == true, "\(concurrent)")
    }
}
