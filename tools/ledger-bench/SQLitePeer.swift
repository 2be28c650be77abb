import Foundation

/// Runs `tools/sqlite-peer/peer.py` with `python3` from the PATH: SQLite (FTS5 with prefix
/// indexes, and indexed tables of email addresses and phone numbers) answering the bench's
/// search queries over the same contacts, in the same run. The script checks that each query
/// returns as many rows as the ledger returned, and fails otherwise.
struct SQLitePeer {
    /// The interpreter.
    let python: String
    /// The script.
    let script: String

    /// One query for the peer, with the number of contacts the ledger returned for it.
    struct Query {
        var kind: SearchBench.Kind
        var text: String
        var expectedRows: Int
    }

    /// What went wrong starting or running the peer.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The peer, with the script at `script` or, when nil, the repository's
    /// `tools/sqlite-peer/peer.py` found above the executable or the current directory.
    init(script given: String?) throws {
        guard let python = Self.onPath("python3") else {
            throw Failure(
                description:
                    "python3 is not on the PATH; the SQLite peer needs it (pass --no-sqlite-peer to leave it out)"
            )
        }
        guard let script = given ?? Self.repositoryScript() else {
            throw Failure(
                description: "tools/sqlite-peer/peer.py was not found above the executable or the current "
                    + "directory; pass --sqlite-peer PATH, or --no-sqlite-peer to leave the peer out")
        }
        guard FileManager.default.isReadableFile(atPath: script) else {
            throw Failure(description: "the SQLite peer script \(script) cannot be read")
        }
        self.python = python
        self.script = script
    }

    /// Writes the contacts (with `contacts`) and the queries into `scratch`, runs the script on
    /// them, removes them, and returns the script's JSON object.
    func run(contacts: (FileHandle) throws -> Void, queries: [Query], scratch: String) throws -> [String: Any] {
        let contactsPath = scratch + "/sqlite-peer-contacts.tsv"
        let queriesPath = scratch + "/sqlite-peer-queries.tsv"
        defer {
            try? FileManager.default.removeItem(atPath: contactsPath)
            try? FileManager.default.removeItem(atPath: queriesPath)
        }
        guard FileManager.default.createFile(atPath: contactsPath, contents: nil),
            let handle = FileHandle(forWritingAtPath: contactsPath)
        else { throw Failure(description: "cannot write \(contactsPath)") }
        try contacts(handle)
        try handle.close()
        let lines = queries.map { query in
            [query.kind.rawValue, Self.shape(query.kind), Self.prepared(query), String(query.expectedRows)]
                .joined(separator: "\t") + "\n"
        }
        try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: queriesPath))
        return try launch([contactsPath, queriesPath])
    }

    /// Runs the script with `arguments`; its standard error passes through.
    private func launch(_ arguments: [String]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "the SQLite peer \(script) failed with status \(process.terminationStatus)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "the SQLite peer \(script) printed no JSON object")
        }
        return object
    }

    /// The SQL the script runs for a kind (see `QUERIES` in the script).
    static func shape(_ kind: SearchBench.Kind) -> String {
        switch kind {
        case .nameOneWord, .nameTwoWords: "name"
        case .email: "email"
        case .phone: "phone"
        }
    }

    /// A query as the script takes it: a name query's words folded as the ledger folds them
    /// (SQLite's tokenizer folds neither stroked letters nor full-width forms), an address in
    /// lower case, a number as the digits the ledger compares.
    static func prepared(_ query: Query) -> String {
        switch query.kind {
        case .nameOneWord, .nameTwoWords: SearchBench.words(query.text).joined(separator: " ")
        case .email: emailQuery(query.text)
        case .phone: SearchBench.phoneDigits(query.text)
        }
    }

    /// An email address as the ledger compares it: trimmed and in lower case.
    static func emailQuery(_ address: String) -> String {
        field(address.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// A value with the file's separators (tabs and line breaks) replaced by spaces.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0.isNewline }) else { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }

    /// The first executable called `name` in the PATH.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// `tools/sqlite-peer/peer.py` in the nearest directory above the executable, or above the
    /// current directory, that has one.
    static func repositoryScript() -> String? {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        for start in [
            URL(fileURLWithPath: executable).deletingLastPathComponent().path,
            FileManager.default.currentDirectoryPath,
        ] {
            var directory = URL(fileURLWithPath: start)
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent("tools/sqlite-peer/peer.py").path
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }
}
