import ContactsLedger
import Foundation
import LedgerAudit

/// One save request the code under test executed, with its author, what it changed and how it
/// ended, as ``ContactsReplay/issuedRequests()`` lists them.
public struct IssuedSaveRequest: Sendable, Hashable {
    /// How a request ended.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// Its record is on disk at this sequence.
        case committed(sequence: UInt64)
        /// The store refused it with this code; nothing was written.
        case failed(CNError.Code)

        /// `committed` or `failed <code> (<number>)`.
        public var description: String {
            switch self {
            case .committed: "committed"
            case .failed(let code): "failed \(code) (\(code.rawValue))"
            }
        }
    }

    /// The native request's identifier (new for every execution).
    public var requestIdentifier: UUID
    /// The request's transaction author, or nil.
    public var author: String?
    /// Each change in words, contacts and groups named by name (`add contact "Ada Lovelace"`):
    /// for a committed request as its audit entry records it, for a failed one as it was asked.
    public var operations: [String]
    /// The committed record's changes as the audit library reads them; empty for a failed request.
    public var changes: [AuditChange]
    /// How it ended.
    public var outcome: Outcome

    /// One line: `author: change; change -> outcome`, with `-` for no author. Stable across
    /// runs (no generated identifiers), so a list of them serves as a golden.
    public var line: String { "\(author ?? "-"): \(operations.joined(separator: "; ")) -> \(outcome)" }
}

/// A request as the replay logged it when it was executed.
struct LoggedRequest: Sendable {
    /// The native request's identifier.
    var requestIdentifier: UUID
    /// The transaction author.
    var author: String?
    /// How it ended.
    var outcome: IssuedSaveRequest.Outcome
    /// What it asked for, in words, for a request that left no record.
    var asked: [AskedOperation]
}

/// One call on a request that failed, with the names it had when it was executed.
struct AskedOperation: Sendable {
    /// The verb and what it acts on: `add contact`, `delete group`, ...
    var verb: String
    /// The identifiers and names of the contact or group it names, then the group it targets.
    var subjects: [(identifier: String, name: String?, isGroup: Bool)]
}

extension ContactsReplay {
    /// Logs a request executed through a `CNContactStore` of this replay.
    func record(_ request: SaveRequest, outcome: IssuedSaveRequest.Outcome, described saveRequest: CNSaveRequest) {
        let asked: [AskedOperation] =
            if case .failed = outcome { saveRequest.operations.map(\.asked) } else { [] }
        let logged = LoggedRequest(
            requestIdentifier: request.requestIdentifier, author: request.transactionAuthor, outcome: outcome,
            asked: asked)
        log.withLock { $0.append(logged) }
    }

    /// The save requests the code executed through this replay's stores, in order; the committed
    /// ones read back from the ledger through the audit library.
    public func issuedRequests() throws -> [IssuedSaveRequest] {
        let logged = log.withLock { $0 }
        let entries = try store.auditEntries()
        var names = RecordNames()
        var byRequest: [UUID: AuditEntry] = [:]
        for entry in entries {
            entry.changes.forEach { names.learn($0) }
            byRequest[entry.requestIdentifier] = entry
        }
        return logged.map { request in
            let entry = byRequest[request.requestIdentifier]
            let operations =
                entry.map { $0.changes.map(names.describe) } ?? request.asked.map(names.describe)
            return IssuedSaveRequest(
                requestIdentifier: request.requestIdentifier, author: request.author, operations: operations,
                changes: entry?.changes ?? [], outcome: request.outcome)
        }
    }

    /// One ``IssuedSaveRequest/line`` per request the code executed, in order: compare it with
    /// an expected list, `#expect(try replay.requestLines() == golden)`, so that a change in what
    /// the code writes shows as a difference.
    public func requestLines() throws -> [String] { try issuedRequests().map(\.line) }

    /// The differences between the requests the code executed and an expected list, one
    /// `- expected` or `+ actual` line each, with the position; empty when they are the same.
    public func differences(fromGolden golden: [String]) throws -> [String] {
        let actual = try requestLines()
        var differences: [String] = []
        for index in 0..<max(actual.count, golden.count) {
            let want = index < golden.count ? golden[index] : nil
            let got = index < actual.count ? actual[index] : nil
            if want == got { continue }
            if let want { differences.append("#\(index + 1) - \(want)") }
            if let got { differences.append("#\(index + 1) + \(got)") }
        }
        return differences
    }
}

extension CNSaveRequest.Operation {
    /// The call in words, for a request that failed.
    var asked: AskedOperation {
        let contact = { (object: CNContact) in (object.identifier, RecordNames.name(of: object.native.copy()), false) }
        let group = { (object: CNGroup) in (object.identifier, Optional(object.name), true) }
        switch self {
        case .addContact(let object, _): return AskedOperation(verb: "add contact", subjects: [contact(object)])
        case .updateContact(let object): return AskedOperation(verb: "update contact", subjects: [contact(object)])
        case .deleteContact(let object): return AskedOperation(verb: "delete contact", subjects: [contact(object)])
        case .addGroup(let object, _): return AskedOperation(verb: "add group", subjects: [group(object)])
        case .updateGroup(let object): return AskedOperation(verb: "rename group", subjects: [group(object)])
        case .deleteGroup(let object): return AskedOperation(verb: "delete group", subjects: [group(object)])
        case .addMember(let member, let target):
            return AskedOperation(verb: "add member", subjects: [contact(member), group(target)])
        case .removeMember(let member, let target):
            return AskedOperation(verb: "remove member", subjects: [contact(member), group(target)])
        case .addSubgroup(let subgroup, let target):
            return AskedOperation(verb: "add subgroup", subjects: [group(subgroup), group(target)])
        case .removeSubgroup(let subgroup, let target):
            return AskedOperation(verb: "remove subgroup", subjects: [group(subgroup), group(target)])
        }
    }
}
