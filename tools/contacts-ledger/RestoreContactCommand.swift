import ContactsLedger
import Foundation
import LedgerAudit

/// `restore-contact ID --to POINT`: one contact's values back to a point.
struct RestoreContactCommand: ToolCommand {
    static let name = "restore-contact"
    static let summary = "Brings one contact's values back to those it had at a point."
    static let usage = "restore-contact ID --to SEQUENCE|TIME [--dry-run] [--author NAME] [--request-id UUID] [--json]"
    static let help = """
        Gives the contact with identifier ID the values it had at the point (a sequence number, or the last
        record committed at or before an RFC 3339 time), as one update of the properties that differ; other
        contacts and the contact's groups are untouched. The record names the point, which `log` and
        `history` show, and can itself be reverted. A contact that does not exist now (undelete it with
        --as-of instead), did not exist at the point, or already has those values, is refused (exit 1) and
        nothing is written.

        Options:
          --to POINT           The point: a sequence number or an RFC 3339 time.
        \(UndoCommandOptions.help)
        """
    static let valued = UndoCommandOptions.valued.union(["to"])
    static let flags = UndoCommandOptions.flags

    var identifier: String
    var point: LedgerPoint
    var undo: UndoCommandOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifier = try arguments.positionals("ID")[0]
        guard let to = try arguments.single("to") else {
            throw CommandFailure(.usage, "restore-contact needs --to SEQUENCE|TIME")
        }
        point = try parseLedgerPoint(to, option: "to")
        undo = try UndoCommandOptions(arguments)
    }

    var requestIdentifier: UUID? { undo.dryRun ? nil : undo.write.requestID }

    func run(_ context: CommandContext) throws {
        let identifier = try context.resolvedIdentifier(identifier)
        try undo.run(context, verb: "restore") { ledger in
            try ledger.restoreContact(withIdentifier: identifier, to: point, options: undo.options())
        }
    }
}
