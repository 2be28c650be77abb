import ContactsLedger

/// `digest`: prints the head digest.
struct DigestCommand: ToolCommand {
    static let name = "digest"
    static let summary = "Prints the head digest as SEQUENCE HASH."
    static let usage = "digest [--json]"
    static let help = """
        Prints the head digest, the last record's sequence number and chain hash, as `SEQUENCE HASH`.
        Write it down elsewhere; `verify --digest SEQUENCE:HASH` later proves that nothing up to it was
        altered, dropped or reordered.

        Options:
          --json               Prints {"sequence", "hash"}.
        """
    static let flags: Set<String> = ["json"]

    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let head = try JournalReader(at: context.ledger).head()
        if json {
            Terminal.json(["sequence": .integer(head.sequence), "hash": .string(head.hash.hex)])
        } else {
            Terminal.line("\(head.sequence) \(head.hash.hex)")
        }
    }
}
