import ContactsLedger
import Foundation
import LedgerAudit

/// `erase ID --reason TEXT`: the right to erasure in one command.
struct EraseCommand: ToolCommand {
    static let name = "erase"
    static let summary = "Erases a contact: deletes it, redacts every revision, leaves none of its values on disk."
    static let usage = "erase ID --reason TEXT [--author NAME] [--json]"
    static let help = """
        Erases the contact with identifier ID (a deleted one too): deletes it if it is live, then replaces
        every operation of it the ledger recorded by its digest, in place, and removes the snapshots, so
        that none of its values is left in any file of the ledger. Every chain hash and saved head digest
        still verifies. Who erased what and why is itself recorded, without the erased values; `log`,
        `history` and `verify` show the redacted records as `[redacted]` with the reason. Run again after
        an interruption, it finishes what is left. Only the owner may erase.

        It prints `deleted at record N` (when the contact was live), `redacted record N` for each record,
        the record that recorded the erasure, and the head.

        Options:
          --reason TEXT        Why (required).
          --author NAME        The transaction author of the delete and of the record of the erasure.
          --json               Prints {"action", "redacted", "deletedAt", "recordedAt", "head"}.
        """
    static let valued: Set<String> = ["reason", "author"]
    static let flags: Set<String> = ["json"]

    var identifier: String
    var options: RedactionCommandOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifier = try arguments.positionals("ID")[0]
        options = try RedactionCommandOptions(arguments)
    }

    func run(_ context: CommandContext) throws {
        let identifier = try context.resolvedIdentifier(identifier)
        let outcome = try options.run(context) { redactionOptions in
            try LedgerRedaction.erase(
                ledgerAt: context.ledger, contactIdentifier: identifier, reason: options.reason,
                client: context.client, options: redactionOptions)
        }
        options.report(outcome, action: "erase")
    }
}
