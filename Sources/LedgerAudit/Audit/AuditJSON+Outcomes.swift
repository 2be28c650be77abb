import ContactsInterchange
import ContactsLedger
import Foundation
import LedgerStorage

extension AuditJSON {
    /// What a save did, the `--json` form of every write: `{action, identifiers, sequence, head,
    /// time, requestId, alreadyCommitted}`, with the `extra` members after them in key order.
    /// `action` is `unchanged` when the save changed nothing.
    public static func value(
        for result: SaveResult, action: String, identifiers: [String], head: UInt64, requestIdentifier: UUID,
        extra: [String: JSONValue] = [:]
    ) -> JSONValue {
        let changed = result.wasAlreadyCommitted || !result.affectedIdentifiers.isEmpty
        let members: [(String, JSONValue)] = [
            ("action", .string(changed ? action : "unchanged")),
            ("identifiers", .array(identifiers.map { .string($0) })),
            ("sequence", .integer(result.sequence)),
            ("head", .integer(head)),
            ("time", .string(RFC3339.string(from: result.commitDate))),
            ("requestId", .string(requestIdentifier.uuidString)),
            ("alreadyCommitted", .bool(result.wasAlreadyCommitted)),
        ]
        return .object(JSONObject(members + extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
    }

    /// What an undo did or would do, the `--json` form of `undelete`, `revert` and
    /// `restore-contact`: `{action, undoes, dryRun, operations, skipped, head, requestId}`, and
    /// for a save `{sequence, time, alreadyCommitted}`.
    public static func value(
        for outcome: UndoOutcome, action: String, head: UInt64, requestIdentifier: UUID
    ) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("action", .string(action)), ("undoes", value(for: outcome.undoes)), ("dryRun", .bool(outcome.dryRun)),
            ("operations", .array(outcome.changes.map(value(for:)))),
            (
                "skipped",
                .array(outcome.skipped.map { ["identifier": .string($0.identifier), "reason": .string($0.reason)] })
            ),
            ("head", .integer(head)), ("requestId", .string(requestIdentifier.uuidString)),
        ]
        if let save = outcome.save {
            pairs += [
                ("sequence", .integer(save.sequence)), ("time", .string(RFC3339.string(from: save.commitDate))),
                ("alreadyCommitted", .bool(save.wasAlreadyCommitted)),
            ]
        }
        return .object(JSONObject(pairs))
    }

    /// An undo's conflict: `{identifier, property, recorded, current}`.
    public static func value(for conflict: UndoConflict) -> JSONValue {
        [
            "identifier": .string(conflict.identifier), "property": .string(conflict.property),
            "recorded": conflict.recorded, "current": conflict.current,
        ]
    }

    /// A refused undo: `{error, message, conflicts}`.
    public static func value(for error: UndoError) -> JSONValue {
        [
            "error": .string(error.code.rawValue), "message": .string(error.message),
            "conflicts": .array(error.conflicts.map(value(for:))),
        ]
    }

    /// A verify run's result, the `--json` form of `verify`: `{ok, records, contacts, head, tail}`,
    /// `tail` being `clean` or what a torn final record is.
    public static func value(for verification: LedgerAuditor.Verification) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("ok", true), ("records", .integer(verification.records)), ("contacts", .integer(verification.contacts)),
            ("head", value(for: verification.head)), ("tail", .string(tailText(verification.tail) ?? "clean")),
        ]
        if !verification.redacted.isEmpty { pairs.append(("redacted", value(forRedactions: verification.redacted))) }
        return .object(JSONObject(pairs))
    }

    /// Records by sequence with a reason each (redacted records, or records carried over as
    /// they are): `[{sequence, reason}]`, in order.
    public static func value(forRedactions reasons: [UInt64: String]) -> JSONValue {
        .array(reasons.sorted { $0.key < $1.key }.map { ["sequence": .integer($0.key), "reason": .string($0.value)] })
    }

    /// What a torn final record is, or nil for a clean tail.
    public static func tailText(_ tail: JournalTail) -> String? {
        guard case .tornRecord(let location, let dropped, let reason) = tail else { return nil }
        return "torn final record at \(location) (\(dropped) bytes, \(reason)); opening for writing truncates it"
    }

    /// A client the ledger knows, the `--json` form of `clients`: `{client, status,
    /// notesEntitlement, granted}`, `status` null when no decision is recorded.
    public static func value(for record: ClientAccessRecord) -> JSONValue {
        [
            "client": .string(record.clientIdentifier),
            "status": record.status.map { .string(statusName($0)) } ?? .null,
            "notesEntitlement": .bool(record.notesEntitlement),
            "granted": .array(record.grantedIdentifiers.map { .string($0) }),
        ]
    }
}
