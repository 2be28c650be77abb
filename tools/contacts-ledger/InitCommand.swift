import ContactsLedger
import Foundation

/// `init`: creates a ledger, or checks the one already there.
struct InitCommand: ToolCommand {
    static let name = "init"
    static let summary = "Creates a ledger, or checks and describes the one already there."
    static let usage = "init [--json]"
    static let help = """
        Creates an empty ledger at the ledger path, with owner-only permissions, and prints
        `created ledger ID at PATH`. If a ledger is already there, it is checked instead and
        `ledger already exists at PATH; head SEQUENCE HASH` printed, so the command can be run again
        safely. A path that exists and is neither empty nor a ledger is refused (exit 73).

        Options:
          --json               Prints {"ledger", "ledgerId", "created", "head": {"sequence", "hash"}}.
        """
    static let flags: Set<String> = ["json"]

    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let paths = LedgerPaths(root: context.ledger)
        let created: Bool
        let identity: LedgerIdentity
        let head: HeadDigest
        if FileManager.default.fileExists(atPath: paths.identity) {
            let reader = try JournalReader(at: context.ledger)
            identity = reader.identity
            head = try reader.verify().head
            created = false
        } else {
            identity = try LedgerDirectory.create(at: context.ledger)
            head = .empty
            created = true
        }
        let id = identity.ledgerID.uuidString.lowercased()
        if json {
            Terminal.json([
                "ledger": .string(paths.root), "ledgerId": .string(id), "created": .bool(created),
                "head": ["sequence": .integer(head.sequence), "hash": .string(head.hash.hex)],
            ])
        } else if created {
            Terminal.line("created ledger \(id) at \(paths.root)")
        } else {
            Terminal.line("ledger already exists at \(paths.root); head \(head.sequence) \(head.hash.hex)")
        }
    }
}
