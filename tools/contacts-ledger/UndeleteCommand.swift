import ContactsLedger
import Foundation
import LedgerAudit

/// `undelete ID`: brings a deleted contact back.
struct UndeleteCommand: ToolCommand {
    static let name = "undelete"
    static let summary = "Brings a deleted contact back with its identifier, values and groups."
    static let usage = "undelete ID [--as-of SEQUENCE|TIME] [--dry-run] [--author NAME] [--request-id UUID] [--json]"
    static let help = """
        Brings back the deleted contact with identifier ID, as one new save request: the same identifier,
        container and creator, the values it had when it was deleted (or at the point --as-of names), and
        its group memberships; groups that no longer exist are skipped and listed. The record names the
        delete it undoes, which `log` and `history` show, and can itself be reverted. A contact that
        exists, or one no record deleted, is refused (exit 1) and nothing is written.

        It prints `undeleted: undoes record N (undelete)`, the changes, anything skipped, and the head.

        Options:
          --as-of POINT        The contact's values and groups at POINT, a sequence number or an RFC 3339
                               time, instead of its last ones; it must have existed then.
        \(UndoCommandOptions.help)
        """
    static let valued = UndoCommandOptions.valued.union(["as-of"])
    static let flags = UndoCommandOptions.flags

    var identifier: String
    var point: LedgerPoint?
    var undo: UndoCommandOptions

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifier = try arguments.positionals("ID")[0]
        point = try arguments.single("as-of").map { text throws(CommandFailure) in
            try parseLedgerPoint(text, option: "as-of")
        }
        undo = try UndoCommandOptions(arguments)
    }

    var requestIdentifier: UUID? { undo.dryRun ? nil : undo.write.requestID }

    func run(_ context: CommandContext) throws {
        let identifier = try context.resolvedIdentifier(identifier)
        try undo.run(context, verb: "undelete") { ledger in
            try ledger.undelete(contactWithIdentifier: identifier, asOf: point, options: undo.options())
        }
    }
}
