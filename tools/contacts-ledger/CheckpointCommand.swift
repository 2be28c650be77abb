import ContactsLedger
import LedgerAudit
import LedgerStorage

/// `checkpoint`: prints the Merkle tree head as a C2SP checkpoint, and signs it with an SSH key.
struct CheckpointCommand: ToolCommand {
    static let name = "checkpoint"
    static let summary = "Prints the Merkle tree head as a checkpoint anyone can check; signs it with an SSH key."
    static let usage = "checkpoint [--size N] [--origin ORIGIN] [--output FILE] [--sign KEY [--signature FILE]]"
    static let help = """
        Prints the head of the ledger's Merkle tree (RFC 9162, one leaf per record) in the C2SP
        tlog-checkpoint form: the origin line, the tree size (the number of records) and the root hash
        in base64, each on its own line. Keep a checkpoint elsewhere: `prove` then shows that a record
        is in it, or that a later checkpoint's tree grew from it, and `verify-proof` checks that
        offline. The tree is kept in the ledger's TREE file, brought up to date first.

        With --sign KEY the checkpoint is signed with `ssh-keygen -Y sign` under the namespace
        contacts-ledger-checkpoint, so that anyone can check it with ssh-keygen alone:
          ssh-keygen -Y verify -f ALLOWED_SIGNERS -I IDENTITY -n contacts-ledger-checkpoint \\
              -s CHECKPOINT.sig < CHECKPOINT

        Options:
          --size N             The tree of the first N records (default: every record).
          --origin ORIGIN      The origin line (default: contacts-ledger/ and the ledger's id): a name
                               without spaces or +, such as example.com/contacts.
          --output FILE        Writes the checkpoint to FILE instead of standard output.
          --sign KEY           Signs it with the SSH private key KEY.
          --signature FILE     Where the signature goes (default: the --output file with .sig added).
        """
    static let valued: Set<String> = ["size", "origin", "output", "sign", "signature"]

    var size: UInt64?
    var origin: String?
    var output: String?
    var key: String?
    var signature: String?

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        size = try arguments.single("size").map { text throws(CommandFailure) in try parseCount(text, "--size") }
        origin = try arguments.single("origin")
        if let origin, !TreeCheckpoint.isValidOrigin(origin) {
            throw CommandFailure(.usage, "--origin must be a name without spaces or +, got \"\(origin)\"")
        }
        output = try arguments.single("output")
        key = try arguments.single("sign")
        signature = try arguments.single("signature") ?? output.map { $0 + ".sig" }
        if key != nil && signature == nil {
            throw CommandFailure(.usage, "--sign needs --output or --signature, the files it writes")
        }
        if key == nil && arguments.value("signature") != nil {
            throw CommandFailure(.usage, "--signature goes with --sign")
        }
    }

    func run(_ context: CommandContext) throws {
        try context.requireLedger()
        let prover = try LedgerProver(ledgerAt: context.ledger, lockWaitSeconds: context.waitSeconds)
        let checkpoint = try outOfRange { () throws(StorageError) in try prover.checkpoint(size: size, origin: origin) }
        prover.tree.close()
        if let output {
            try writeFile(output, checkpoint.text)
        } else {
            Terminal.output(checkpoint.text)
        }
        guard let key, let signature else { return }
        do {
            try writeFile(signature, try CheckpointSigning.sign(checkpoint, keyPath: key))
        } catch let error as ProofError {
            throw CommandFailure(.failure, error.message)
        }
    }

    private func writeFile(_ path: String, _ text: String) throws {
        do {
            try SystemFileSystem().replaceAtomically(path, with: Array(text.utf8), permissions: 0o644)
        } catch {
            throw CommandFailure(.cannotCreate, "cannot write \(path): \(error)")
        }
    }
}

/// Runs `body`, turning a size or a sequence the ledger does not hold into a failure (1) that says so.
func outOfRange<T>(_ body: () throws(StorageError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        if case .invalidArgument(let message) = error { throw CommandFailure(.failure, message) }
        throw error
    }
}

/// Parses a whole number of records given to an option.
func parseCount(_ text: String, _ option: String) throws(CommandFailure) -> UInt64 {
    guard let value = UInt64(text) else {
        throw CommandFailure(.usage, "\(option) must be a whole number, got \(text)")
    }
    return value
}
