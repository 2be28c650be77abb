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

    /// Writes the contacts and `queries` into a new directory and runs the script on them.
    private func runPeer(_ queries: [String]) throws -> (status: Int32, output: String, error: String) {
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
        let result = try VCardPeerTests.run([Self.script, directory + "/contacts.tsv", directory + "/queries.tsv"])
        return (result.status, String(decoding: result.output, as: UTF8.self), result.error)
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
