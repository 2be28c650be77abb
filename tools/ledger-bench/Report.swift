import Foundation
import LedgerStorage

/// The run's figures as the issue names them, with the bars each must reach.
struct Report {
    let quick: Bool
    let single: CommitBench.Single
    let groups: [CommitBench.Group]
    let vcardBytes: [Int]
    let ledgers: [(built: LedgerBuilder.Built, measured: [String: Any])]
    /// ``MemoryProbe``'s figure before the commits.
    let memoryReadNanoseconds: Double
    /// The command-line section (``CLIBench``), when the tool was built beside the bench.
    var cli: [String: Any]?
    /// The ContactsCompat section (``CompatBench``), on the first ledger.
    var compat: [String: Any]?
    /// The web server's section (``ServerBench``), measured on the last ledger.
    var server: [String: Any]?

    private func number(_ object: [String: Any], _ key: String) -> Double {
        (object[key] as? NSNumber)?.doubleValue ?? .nan
    }

    var baseline: Double { percentile(single.baselineMicroseconds, 0.5) }
    var commitP50: Double { percentile(single.commitMicroseconds, 0.5) }
    var vcardMean: Double { Double(vcardBytes.reduce(0, +)) / Double(max(1, vcardBytes.count)) }
    var largest: [String: Any] { ledgers.last?.measured ?? [:] }

    func groupEntry(_ group: CommitBench.Group) -> [String: Any] {
        [
            "writers": group.writers, "commits_per_s": group.commitsPerSecond, "fsyncs_per_s": group.syncsPerSecond,
            "cpu_us_per_commit": group.cpuMicrosecondsPerCommit, "cpus_busy": group.cpusBusy,
        ]
    }

    func replayEntry(_ ledger: (built: LedgerBuilder.Built, measured: [String: Any])) -> [String: Any] {
        let seconds = number(ledger.measured, "replay_seconds")
        return [
            "events": ledger.built.events, "records": ledger.built.records,
            "events_per_s": Double(ledger.built.events) / seconds, "seconds": seconds,
            "seconds_runs": ledger.measured["replay_seconds_runs"] ?? [],
            "read_checksum_seconds_runs": ledger.measured["read_checksum_seconds_runs"] ?? [],
            "memory_random_read_ns": ledger.measured["memory_random_read_ns"] ?? NSNull(),
        ]
    }

    /// Each bar: the figure, the limit, and whether it is met.
    func bars() -> [String: Any] {
        var result: [String: Any] = [:]
        func bar(_ name: String, _ value: Double, atMost limit: Double? = nil, atLeast floor: Double? = nil) {
            let met = (limit.map { value <= $0 } ?? true) && (floor.map { value >= $0 } ?? true)
            var entry: [String: Any] = ["value": value, "met": met]
            if let limit { entry["at_most"] = limit }
            if let floor { entry["at_least"] = floor }
            result[name] = entry
        }
        bar("commit_single_vs_baseline", commitP50 / baseline, atMost: 1.3)
        if let one = groups.first, let most = groups.last {
            let speedup = most.commitsPerSecond / one.commitsPerSecond
            bar("group_commit_64_vs_1_writer", speedup, atLeast: 10)
            bar("group_commit_64_fsyncs_per_commit", most.syncsPerCommit, atMost: 0.25)
        }
        if let last = ledgers.last {
            let replay = replayEntry(last)
            bar("replay_events_per_s", (replay["events_per_s"] as? Double) ?? .nan, atLeast: 1_000_000)
            bar(
                "replay_vs_read_checksum",
                number(last.measured, "replay_seconds") / number(last.measured, "read_checksum_seconds"), atMost: 4)
            bar("open_with_snapshot_ms", number(last.measured, "open_with_snapshot_ms"), atMost: 500)
            if let search = last.measured["search"] as? [String: Any] {
                for kind in ["name_prefix_one_word", "name_prefix_two_words"] {
                    guard let entry = search[kind] as? [String: Any] else { continue }
                    bar("search_\(kind)_p50_us", number(entry, "p50_us"), atMost: 20)
                    bar("search_\(kind)_vs_linear_scan", number(entry, "linear_scan_vs_index"), atLeast: 1_000)
                }
            }
            bar("resident_bytes_per_contact", number(last.measured, "resident_bytes_per_contact"), atMost: 600)
            footprintBars(last.measured, bar)
            publicSearchBars(last.measured["public_search"] as? [String: Any], bar)
        }
        bar("journal_bytes_per_add_vs_vcard", single.journalBytesPerAdd / vcardMean, atMost: 0.8)
        for operation in CompatBench.Operation.allCases {
            guard let entry = compat?[operation.rawValue] as? [String: Any] else { continue }
            bar("compat_\(operation.rawValue)_vs_native", number(entry, "compat_vs_native"), atMost: 1.2)
        }
        return result
    }

    /// The footprint's bars (``FootprintBench``) on one ledger: all snapshots together at most half
    /// the journal, the open's peak resident size at most 1.25 times its steady one, and the
    /// steady one no more than 409 bytes a contact.
    func footprintBars(
        _ measured: [String: Any], _ bar: (String, Double, Double?, Double?) -> Void
    ) {
        guard let footprint = measured["footprint"] as? [String: Any],
            let disk = footprint["disk_bytes"] as? [String: Any], let memory = footprint["memory"] as? [String: Any]
        else { return }
        bar("snapshots_vs_journal_bytes", number(disk, "snapshots") / number(disk, "journal"), 0.5, nil)
        bar("open_peak_vs_steady_resident", number(memory, "peak_vs_steady"), 1.25, nil)
        bar("steady_resident_bytes_per_contact", number(memory, "steady_bytes_per_contact"), 409, nil)
    }

    /// The table's lines for a ledger's footprint (``FootprintBench``), if it was measured.
    func footprintLines(_ measured: [String: Any], _ line: (String, String) -> Void) {
        guard let footprint = measured["footprint"] as? [String: Any],
            let disk = footprint["disk_bytes"] as? [String: Any], let memory = footprint["memory"] as? [String: Any]
        else { return }
        func megabytes(_ object: [String: Any], _ key: String) -> String {
            String(format: "%.2f", number(object, key) / 1e6)
        }
        line(
            "  disk: journal / snapshots / other (MB)",
            ["journal", "snapshots", "other"].map { megabytes(disk, $0) }.joined(separator: " / "))
        line(
            "  open: peak / steady resident (MB), per contact",
            "\(megabytes(memory, "peak_open_bytes")) / \(megabytes(memory, "steady_bytes")), "
                + String(format: "%.0f", number(memory, "steady_bytes_per_contact")))
    }

    func json() -> [String: Any] {
        var replay: [String: Any] = [:]
        var readChecksum: [String: Any] = [:]
        var open: [String: Any] = [:]
        var built: [String: Any] = [:]
        var merkle: [String: Any] = [:]
        var footprint: [String: Any] = [:]
        for ledger in ledgers {
            let key = String(ledger.built.contacts)
            footprint[key] = ledger.measured["footprint"] ?? NSNull()
            replay[key] = replayEntry(ledger)
            merkle[key] = ledger.measured["merkle_tree"] ?? NSNull()
            readChecksum[key] = number(ledger.measured, "read_checksum_seconds")
            open[key] = number(ledger.measured, "open_with_snapshot_ms")
            built[key] = [
                "adds": ledger.built.adds, "updates": ledger.built.updates, "deletes": ledger.built.deletes,
                "records": ledger.built.records, "journal_bytes": ledger.built.journalBytes,
                "write_seconds": ledger.built.seconds,
                "resident_bytes_per_contact": ledger.measured["resident_bytes_per_contact"] ?? NSNull(),
                "index_bytes_estimate": ledger.measured["index_bytes_estimate"] ?? NSNull(),
                "journal_bytes_per_add_in_1000_add_requests": ledger.built.journalBytesPerBatchedAdd,
            ]
        }
        var search = (largest["search"] as? [String: Any]) ?? [:]
        search["contacts"] = ledgers.last?.built.contacts ?? 0
        return [
            "quick": quick,
            "baseline_append_fdatasync_us": baseline,
            "commit_single_us_p50": commitP50,
            "merkle_tree": merkle,
            "footprint": footprint,
            "commit_single_us_p99": percentile(single.commitMicroseconds, 0.99),
            "commit_single_vs_baseline": commitP50 / baseline,
            "group_commit": groups.map(groupEntry),
            "replay": replay,
            "read_checksum_seconds": readChecksum,
            "open_with_snapshot_ms": open,
            "search": search,
            "public_search": largest["public_search"] ?? NSNull(),
            "fetch_by_identifier": largest["fetch_by_identifier"] ?? NSNull(),
            "resident_bytes_per_contact": largest["resident_bytes_per_contact"] ?? NSNull(),
            "journal_bytes_per_add": single.journalBytesPerAdd,
            "vcard_bytes_per_contact": vcardMean,
            "cli": cli ?? NSNull(),
            "compat": compat ?? NSNull(),
            "server": server ?? NSNull(),
            "bars": bars(),
            "context": [
                "record_bytes_typical": single.recordBytes,
                "baseline_append_fdatasync_us_p99": percentile(single.baselineMicroseconds, 0.99),
                "crc32c_hardware": CRC32C.isHardwareAccelerated,
                "sha256_hardware": SHA256.isHardwareAccelerated,
                "processors": ProcessInfo.processInfo.activeProcessorCount,
                "memory_random_read_ns": memoryReadNanoseconds,
                "ledgers": built,
                "date": ISO8601DateFormatter().string(from: Date()),
            ] as [String: Any],
        ]
    }

    func table() -> String {
        var lines: [String] = []
        func line(_ label: String, _ value: String) {
            lines.append(label.padding(toLength: 52, withPad: " ", startingAt: 0) + value)
        }
        func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        line("baseline append+fdatasync p50 (us)", format(baseline))
        line("memory random read before the commits (ns)", format(memoryReadNanoseconds))
        line(
            "commit, one writer, p50 / p99 (us)",
            "\(format(commitP50)) / \(format(percentile(single.commitMicroseconds, 0.99)))")
        line("commit p50 / baseline", format(commitP50 / baseline, 2))
        for group in groups {
            line(
                "group commit, \(group.writers) writers",
                "\(format(group.commitsPerSecond, 0)) commits/s, \(format(group.syncsPerSecond, 0)) fsyncs/s, "
                    + "\(format(group.cpuMicrosecondsPerCommit)) CPU us/commit, \(format(group.cpusBusy, 2)) CPUs busy"
            )
        }
        for ledger in ledgers {
            let replay = replayEntry(ledger)
            line(
                "replay \(ledger.built.contacts) contacts",
                "\(ledger.built.events) events in \(format(number(ledger.measured, "replay_seconds"), 3)) s = \(format((replay["events_per_s"] as? Double) ?? .nan, 0)) events/s"
            )
            line("  read + checksum of its journal (s)", format(number(ledger.measured, "read_checksum_seconds"), 3))
            func runs(_ key: String) -> String {
                ((ledger.measured[key] as? [Double]) ?? []).map { format($0, 3) }.joined(separator: ", ")
            }
            line(
                "  runs: replay / read + checksum (s)",
                "\(runs("replay_seconds_runs")) / \(runs("read_checksum_seconds_runs"))")
            line("  memory random read before them (ns)", format(number(ledger.measured, "memory_random_read_ns")))
            line("  open with snapshot (ms)", format(number(ledger.measured, "open_with_snapshot_ms")))
            line("  resident bytes per contact", format(number(ledger.measured, "resident_bytes_per_contact"), 0))
            footprintLines(ledger.measured, line)
        }
        if let search = largest["search"] as? [String: Any] {
            for kind in SearchBench.Kind.allCases {
                guard let entry = search[kind.rawValue] as? [String: Any] else { continue }
                line(
                    "search \(kind.rawValue) p50 / p99 (us)",
                    "\(format(number(entry, "p50_us"), 2)) / \(format(number(entry, "p99_us"), 2)), scan \(format(number(entry, "linear_scan_vs_index"), 0))x slower"
                )
            }
        }
        publicSearchLines(line)
        if let fetch = largest["fetch_by_identifier"] as? [String: Any] {
            line(
                "fetch by identifier p50 / p99 (us)",
                "\(format(number(fetch, "p50_us"), 2)) / \(format(number(fetch, "p99_us"), 2)), "
                    + "\(format(number(fetch, "wrong"), 0)) of \(format(number(fetch, "fetches"), 0)) wrong")
        }
        for operation in CompatBench.Operation.allCases {
            guard let entry = compat?[operation.rawValue] as? [String: Any] else { continue }
            line(
                "ContactsCompat \(operation.rawValue) p50 (us)",
                "\(format(number(entry, "compat_p50_us"), 2)) vs native \(format(number(entry, "native_p50_us"), 2)) = "
                    + "\(format(number(entry, "compat_vs_native"), 2))x")
        }
        line("journal bytes per add / vCard bytes", "\(format(single.journalBytesPerAdd, 0)) / \(format(vcardMean, 0))")
        lines.append("")
        for (name, value) in bars().sorted(by: { $0.key < $1.key }) {
            guard let entry = value as? [String: Any] else { continue }
            let met = (entry["met"] as? Bool) == true ? "met" : "MISSED"
            line("bar \(name)", "\(format(number(entry, "value"), 2)) \(met)")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Search through the public API

    /// The bars of the search through the public API (``PublicSearchBench``): for every query
    /// kind, SQLite's time over the ledger's, at least 3 at p50 and 1.5 at p99.
    private func publicSearchBars(
        _ search: [String: Any]?, _ bar: (String, Double, Double?, Double?) -> Void
    ) {
        for kind in SearchBench.Kind.allCases {
            guard let entry = search?[kind.rawValue] as? [String: Any], entry["sqlite_vs_ledger_p50"] != nil else {
                continue
            }
            bar("public_search_\(kind.rawValue)_sqlite_vs_ledger_p50", number(entry, "sqlite_vs_ledger_p50"), nil, 3)
            bar("public_search_\(kind.rawValue)_sqlite_vs_ledger_p99", number(entry, "sqlite_vs_ledger_p99"), nil, 1.5)
        }
    }

    /// The table's lines for the search through the public API.
    private func publicSearchLines(_ line: (String, String) -> Void) {
        guard let search = largest["public_search"] as? [String: Any] else { return }
        func format(_ value: Double) -> String { String(format: "%.1f", value) }
        line(
            "public search, first search / the same again (us)",
            "\(format(number(search, "first_search_us"))) / \(format(number(search, "first_search_again_us")))")
        for kind in SearchBench.Kind.allCases {
            guard let entry = search[kind.rawValue] as? [String: Any] else { continue }
            func pair(_ name: String) -> String {
                "\(format(number(entry, name + "_p50_us"))) / \(format(number(entry, name + "_p99_us")))"
            }
            line(
                "public search \(kind.rawValue) p50 / p99 (us)",
                "unified \(pair("unified")), enumerate \(pair("enumerate")), first screen \(pair("enumerate_first_screen")), "
                    + "SQLite \(pair("sqlite")), \(format(number(entry, "mean_matches"))) matches")
        }
    }
}
