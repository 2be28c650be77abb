import Foundation
import Testing

/// `tools/sqlite-peer/peer.py`, the SQLite peer of `ledger-bench`'s search through the public
/// API, on a few contacts written as the bench writes them: it must return the rows the ledger's
/// search means (every name word a prefix of a word of the name, the whole address, the whole
/// number), and fail, naming the query, when its row count differs from the ledger's.
@Suite("SQLite peer script")
struct SQLitePeerScriptTests {
    /// The repository's script, found from this file's path.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/sqlite-peer/peer.py").path

    /// Three contacts: identifier, given, family, folded name words, addresses, number digits.
    static let contacts = [
        "A-1\tAnna\tSmith\tanna smith\tanna@example.com\t5551234567",
        "B-2\tBob\tSmithers\tbob smithers\tbob@example.com bobby@example.org\t5559876543 442071234567",
        "C-3\tÅsa\tÖberg\tasa oberg\t\t",
    ]

    /// Writes the contacts and `queries` into a new directory and runs the script on them, with
    /// `options` before the files and `input` on its standard input.
    private func runPeer(
        _ queries: [String], options: [String] = [], input: String = ""
    ) throws -> (status: Int32, output: String, error: String) {
        let directory = NSTemporaryDirectory() + "sqlite-peer-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data((Self.contacts.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: directory + "/contacts.tsv"))
        try Data((queries.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: directory + "/queries.tsv"))
        // Debian's python3, as the vCard peer test runs it (its standard library has sqlite3 with FTS5).
        try #require(
            FileManager.default.isExecutableFile(atPath: VCardPeerTests.python),
            "\(VCardPeerTests.python) is missing: install Debian's python3 (apt-get install -y python3)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: VCardPeerTests.python)
        process.arguments = [Self.script] + options + [directory + "/contacts.tsv", directory + "/queries.tsv"]
        let (standardInput, output, error) = (Pipe(), Pipe(), Pipe())
        process.standardInput = standardInput
        process.standardOutput = output
        process.standardError = error
        try process.run()
        try standardInput.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }

    @Test("serving, it runs the queries it is asked for with the ledger's counts, a line of times each")
    func serves() throws {
        let queries = [
            "name_prefix_one_word\tname\tsmi\t-", "email\temail\tbob@example.com\t-", "phone\tphone\t5551234567\t-",
        ]
        let result = try runPeer(queries, options: ["--serve"], input: "RUN 0 2 1\nRUN 2 1\nEND\n")
        #expect(result.status == 0, "peer.py failed: \(result.error)")
        let lines = result.output.split(separator: "\n").map { Data($0.utf8) }
        try #require(lines.count == 3, "\(result.output)")
        let loaded = try #require(try JSONSerialization.jsonObject(with: lines[0]) as? [String: Any])
        #expect(loaded["contacts"] as? Int == 3 && loaded["sqlite_version"] is String, "\(loaded)")
        for (line, count) in zip(lines.dropFirst(), [2, 1]) {
            let times = try #require(
                (try JSONSerialization.jsonObject(with: line) as? [String: Any])?["us"] as? [Double])
            #expect(times.count == count && times.allSatisfy { $0 > 0 }, "\(times)")
        }

        let wrong = try runPeer(queries, options: ["--serve"], input: "RUN 1 2\nEND\n")
        #expect(wrong.status == 1)
        #expect(wrong.error.contains("'bob@example.com': SQLite returned 1 rows, the ledger 2"), "\(wrong.error)")
    }

    @Test("answers each query kind with the ledger's rows and reports its figures")
    func answers() throws {
        let result = try runPeer([
            "name_prefix_one_word\tname\tsmi\t2",
            "name_prefix_one_word\tname\tsmith\t2",
            "name_prefix_one_word\tname\tsmithe\t1",
            "name_prefix_two_words\tname\tbo smi\t1",
            "name_prefix_two_words\tname\tas ob\t1",
            "email\temail\tbobby@example.org\t1",
            "email\temail\tnobody@example.org\t0",
            "phone\tphone\t5551234567\t1",
            "phone\tphone\t442071234567\t1",
        ])
        #expect(result.status == 0, "peer.py failed: \(result.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["contacts"] as? Int == 3)
        let kinds = try #require(json["kinds"] as? [String: [String: Any]])
        #expect(Set(kinds.keys) == ["name_prefix_one_word", "name_prefix_two_words", "email", "phone"])
        let oneWord = try #require(kinds["name_prefix_one_word"])
        #expect(oneWord["queries"] as? Int == 3)
        #expect((oneWord["mean_rows"] as? Double).map { abs($0 - 5.0 / 3.0) < 1e-9 } == true, "\(oneWord)")
        for (kind, entry) in kinds {
            let p50 = try #require(entry["p50_us"] as? Double, "\(kind)")
            let p99 = try #require(entry["p99_us"] as? Double, "\(kind)")
            #expect(p50 > 0 && p99 >= p50, "\(kind): \(entry)")
        }
    }

    @Test("fails, naming the query, when SQLite returns another number of rows than the ledger")
    func countMismatch() throws {
        let result = try runPeer(["name_prefix_one_word\tname\tsmi\t3", "email\temail\tanna@example.com\t1"])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("'smi': SQLite returned 2 rows, the ledger 3"), "\(result.error)")
        #expect(!result.error.contains("anna@example.com"), "\(result.error)")
    }

    @Test("refuses a malformed input line with a message naming it")
    func malformed() throws {
        let result = try runPeer(["name_prefix_one_word\tname\tsmi"])
        #expect(result.status != 0)
        #expect(result.error.contains("line 1 has 3 fields, not 4"), "\(result.error)")
    }
}
