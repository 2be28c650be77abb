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

    /// One query for the peer.
    struct Query {
        var kind: SearchBench.Kind
        var text: String
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

    /// Writes the contacts (with `contacts`) and the queries into `scratch`, starts the script on
    /// them (`--serve`) and waits until it has loaded them. The files are removed once it has.
    func start(contacts: (FileHandle) throws -> Void, queries: [Query], scratch: String) throws -> Session {
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
            [query.kind.rawValue, Self.shape(query.kind), Self.prepared(query), "-"].joined(separator: "\t") + "\n"
        }
        try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: queriesPath))
        return try Session(python: python, script: script, arguments: ["--serve", contactsPath, queriesPath])
    }

    /// The script running with `--serve`: it answers queries a few at a time, so that the bench
    /// alternates its own with SQLite's.
    final class Session {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffered = Data()
        private let script: String
        /// What the script said once it had loaded the contacts (SQLite's version, the contacts,
        /// the load time).
        private(set) var loaded: [String: Any] = [:]

        init(python: String, script: String, arguments: [String]) throws {
            self.script = script
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [script] + arguments
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            loaded = try readObject()
        }

        /// Runs the queries from `first` on, one for each of the ledger's row counts; returns
        /// their times in microseconds. A count SQLite does not return fails the run.
        func run(first: Int, expectedRows: [Int]) throws -> [Double] {
            let request = "RUN \(first) " + expectedRows.map(String.init).joined(separator: " ") + "\n"
            try input.fileHandleForWriting.write(contentsOf: Data(request.utf8))
            let answer = try readObject()
            guard let times = answer["us"] as? [NSNumber], times.count == expectedRows.count else {
                throw Failure(description: "the SQLite peer \(script) answered a request without its times")
            }
            return times.map(\.doubleValue)
        }

        /// Ends the script and checks that it ended well.
        func end() throws {
            try input.fileHandleForWriting.write(contentsOf: Data("END\n".utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw Failure(description: "the SQLite peer \(script) failed with status \(process.terminationStatus)")
            }
        }

        /// The next line the script prints, as a JSON object; a script that stops instead (a
        /// count that differs, which it names on standard error) fails the run.
        private func readObject() throws -> [String: Any] {
            while !buffered.contains(0x0A) {
                let more = output.fileHandleForReading.availableData
                guard !more.isEmpty else {
                    process.waitUntilExit()
                    throw Failure(
                        description: "the SQLite peer \(script) stopped with status \(process.terminationStatus)")
                }
                buffered += more
            }
            let end = buffered.firstIndex(of: 0x0A)!
            let line = Data(buffered[buffered.startIndex..<end])
            buffered = Data(buffered[(end + 1)...])
            guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                throw Failure(description: "the SQLite peer \(script) printed a line that is not a JSON object")
            }
            return object
        }
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
