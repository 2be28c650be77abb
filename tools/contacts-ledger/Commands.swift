import ContactsLedger
import Foundation

/// One command: its help, the options it takes, and what it runs.
struct Command: Sendable {
    var usage: String
    var help: String
    var valued: Set<String> = []
    var flags: Set<String> = []
    var run: @Sendable (_ ledger: String, _ arguments: Arguments) throws -> Void
}

/// Refuses positionals a command does not take.
func expectNoPositionals(_ arguments: Arguments) throws(CommandFailure) {
    if let extra = arguments.positionals.first {
        throw CommandFailure(code: .usage, message: "unexpected argument \(extra)")
    }
}

let commands: [String: Command] = [
    "init": Command(
        usage: "contacts-ledger [--ledger PATH] init",
        help: """
            Usage: contacts-ledger [--ledger PATH] init

            Creates an empty ledger at the ledger path, with owner-only permissions, and prints its
            id. If a ledger is already there, it is checked instead and its head digest printed, so
            the command can be run again safely.
            """,
        run: { ledger, arguments in
            try expectNoPositionals(arguments)
            let paths = LedgerPaths(root: ledger)
            if FileManager.default.fileExists(atPath: paths.identity) {
                let verified = try JournalReader(at: ledger).verify()
                print(
                    "ledger already exists at \(paths.root); head \(verified.head.sequence) \(verified.head.hash.hex)")
                return
            }
            let identity = try LedgerDirectory.create(at: ledger)
            print("created ledger \(identity.ledgerID.uuidString.lowercased()) at \(paths.root)")
        }),
    "digest": Command(
        usage: "contacts-ledger [--ledger PATH] digest",
        help: """
            Usage: contacts-ledger [--ledger PATH] digest

            Prints the head digest, the last record's sequence number and chain hash, as
            `SEQUENCE HASH`. Write it down elsewhere; `verify --digest SEQUENCE:HASH` later proves
            that nothing up to it was altered, dropped or reordered.
            """,
        run: { ledger, arguments in
            try expectNoPositionals(arguments)
            let head = try JournalReader(at: ledger).head()
            print("\(head.sequence) \(head.hash.hex)")
        }),
    "verify": Command(
        usage: "contacts-ledger [--ledger PATH] verify [--digest SEQUENCE:HASH]",
        help: """
            Usage: contacts-ledger [--ledger PATH] verify [--digest SEQUENCE:HASH]

            Reads the whole journal and checks every record's checksum, its sequence number and its
            chain link, and, with --digest, that the record at that sequence has that hash. Exits 0
            when the ledger is sound and 65 with the first problem's segment and offset when not.
            A torn final record, which opening the ledger for writing would truncate, is reported
            but is not damage.
            """,
        valued: ["digest"],
        run: { ledger, arguments in
            try expectNoPositionals(arguments)
            var expected: HeadDigest?
            if let text = arguments.value("digest") {
                guard let parsed = HeadDigest(parsing: text) else {
                    throw CommandFailure(code: .usage, message: "--digest must be SEQUENCE:HASH, got \(text)")
                }
                expected = parsed
            }
            let verified = try JournalReader(at: ledger).verify(against: expected)
            print("ok: \(verified.records) records, head \(verified.head.sequence) \(verified.head.hash.hex)")
            if case .tornRecord(let location, let dropped, let reason) = verified.tail {
                print(
                    "note: torn final record at \(location) (\(dropped) bytes, \(reason)); opening for writing truncates it"
                )
            }
        }),
]
