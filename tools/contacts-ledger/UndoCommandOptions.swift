import ContactsLedger
import Foundation
import LedgerAudit

/// The options of the undo commands (`undelete`, `revert`, `restore-contact`) and how they run
/// and report: the write options, `--dry-run`, and the outcome as text or JSON.
struct UndoCommandOptions {
    /// The option names that take a value.
    static let valued = WriteOptions.valued
    /// The flags.
    static let flags: Set<String> = WriteOptions.flags.union(["dry-run"])

    /// The options' help lines.
    static let help = """
          --dry-run            Plans the undo against the current state and prints what it would change,
                               writing nothing (the ledger is opened read-only).
          --author NAME        The transaction author recorded with the undo and shown by the audit log.
          --request-id UUID    The undo's idempotency key: running the same command again with the same id
                               changes nothing and prints the original result.
          --json               Prints {"action", "undoes": {"kind", "sequence"}, "dryRun", "operations",
                               "skipped"} and, once saved, "sequence", "head", "time", "requestId",
                               "alreadyCommitted"; a refusal prints {"error", "message", "conflicts"}.
        """

    var write: WriteOptions
    var dryRun: Bool

    /// Reads the options.
    init(_ arguments: Arguments) throws(CommandFailure) {
        write = try WriteOptions(arguments)
        dryRun = arguments.has("dry-run")
    }

    /// The library's options, with `onlyUnchanged` as given.
    func options(onlyUnchanged: Bool = false) -> UndoOptions {
        UndoOptions(
            author: write.author, requestIdentifier: write.requestID, dryRun: dryRun, onlyUnchanged: onlyUnchanged)
    }

    /// Opens the ledger (read-only for a dry run, so that nothing is written, not even a snapshot),
    /// runs the undo and prints its outcome as `VERB` says; a refusal is printed as JSON too with
    /// `--json`, and fails with exit code 1.
    func run(_ context: CommandContext, verb: String, _ undo: (LedgerUndo) throws -> UndoOutcome) throws {
        let store = try dryRun ? context.openForReading() : context.openForWriting()
        defer { store.close() }
        let outcome: UndoOutcome
        do {
            outcome = try ProgressBar.whileRunning(dryRun ? "planning" : "saving") {
                try undo(LedgerUndo(store: store))
            }
        } catch let error as UndoError {
            if write.json {
                Terminal.json(AuditJSON.value(for: error))
            }
            throw CommandFailure(Tool.describe(error).0, error.message)
        }
        report(outcome, verb: verb, head: store.headDigest.sequence)
    }

    /// Prints the outcome: a line saying what was undone, the changes as the audit log shows them
    /// (a restored contact with its properties), what was left out, and the head; or one JSON object.
    private func report(_ outcome: UndoOutcome, verb: String, head: UInt64) {
        if write.json {
            Terminal.json(
                AuditJSON.value(
                    for: outcome, action: outcome.dryRun ? verb : Self.pastTense(verb), head: head,
                    requestIdentifier: write.requestID))
            return
        }
        var lines = [
            (outcome.dryRun ? "would \(verb): " : "\(Self.pastTense(verb)): ") + AuditText.undone(outcome.undoes)
        ]
        for change in outcome.changes {
            if case .undo = change { continue }
            lines += UndoText.lines(change)
        }
        lines += outcome.skipped.map { "skipped \($0)" }
        if let save = outcome.save {
            if save.wasAlreadyCommitted {
                lines.append(
                    "already committed at sequence \(save.sequence) by request \(write.requestID.uuidString)")
            } else {
                lines.append("saved at sequence \(save.sequence)")
            }
        }
        lines.append("head \(head)")
        Terminal.lines(lines)
    }

    /// `undelete` → `undeleted`, `revert` → `reverted`, `restore` → `restored`.
    static func pastTense(_ verb: String) -> String { verb.hasSuffix("e") ? verb + "d" : verb + "ed" }
}

/// An undo's changes as a diff: the audit log's lines, with a restored contact's properties.
enum UndoText {
    /// The lines of one change.
    static func lines(_ change: AuditChange) -> [String] {
        guard case .addContact(let contact, _) = change else { return AuditText.lines(change) }
        let keys = contact.values.keys(differingFrom: ContactValues(), among: .writable).keys
        return ["    restore contact \(contact.identifier)\(AuditText.name(contact))"]
            + keys.map { "        + \($0.rawValue): " + ContactJSON.value(of: $0, in: contact).serialized() }
    }
}
