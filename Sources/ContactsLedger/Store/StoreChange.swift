import ContactsEngine
import Foundation
import LedgerStorage

/// One committed change, as observers see it.
public struct StoreChange: Sendable, Hashable {
    /// Where a change came from.
    public enum Origin: Sendable, Hashable {
        /// A save executed through this store.
        case thisStore
        /// Records another process appended, read by ``ContactStore/refresh()``.
        case otherProcess
    }

    /// The journal sequences the change covers.
    public var sequences: ClosedRange<UInt64>
    /// The transaction authors of those records (empty strings for none).
    public var authors: [String]
    /// The contacts, groups and clients affected.
    public var affectedIdentifiers: [String]
    /// Whether it came from this store or from another process.
    public var origin: Origin

    /// The notification's user info: keys ``ContactStoreChangeKey``.
    public var userInfo: [AnyHashable: Any] {
        [
            ContactStoreChangeKey.sequences: [sequences.lowerBound, sequences.upperBound],
            ContactStoreChangeKey.authors: authors,
            ContactStoreChangeKey.affectedIdentifiers: affectedIdentifiers,
            ContactStoreChangeKey.originatedExternally: origin == .otherProcess,
        ]
    }
}

extension StoreChange {
    /// One change for commits given in sequence order: their sequences from the first to the
    /// last, and their authors and affected identifiers each once, in the order they first
    /// appear; nil for no commits.
    init?(
        covering commits: some BidirectionalCollection<(sequence: UInt64, author: String, affected: [String])>,
        origin: Origin
    ) {
        guard let first = commits.first?.sequence, let last = commits.last?.sequence else { return nil }
        var authors: [String] = []
        var affected: [String] = []
        var seenAuthors: Set<String> = []
        var seenAffected: Set<String> = []
        for commit in commits {
            if seenAuthors.insert(commit.author).inserted { authors.append(commit.author) }
            for identifier in commit.affected where seenAffected.insert(identifier).inserted {
                affected.append(identifier)
            }
        }
        self.init(sequences: first...last, authors: authors, affectedIdentifiers: affected, origin: origin)
    }
}

/// Keys of the `contactStoreDidChange` notification's user info.
public enum ContactStoreChangeKey {
    /// `[UInt64]`: the first and last journal sequence of the change.
    public static let sequences = "ContactStoreChangeSequences"
    /// `[String]`: the transaction authors.
    public static let authors = "ContactStoreChangeAuthors"
    /// `[String]`: the affected identifiers.
    public static let affectedIdentifiers = "ContactStoreChangeAffectedIdentifiers"
    /// `Bool`: whether the change came from another process.
    public static let originatedExternally = "ContactStoreChangeOriginatedExternally"
}

extension Notification.Name {
    /// Posted after a store applies committed changes, with ``StoreChange/userInfo``: once per
    /// group of saves made durable by one fdatasync (a lone save is a group of its own), and
    /// once per ``ContactStore/refresh()`` that reads records (decision 0012).
    ///
    /// A save's notification is posted synchronously, before the group's callers return, on the
    /// thread that finishes the group: the journal's writer thread, a blocking caller that wrote
    /// the group, or the store's finishing queue (decision 0013). An observer should hand work
    /// on rather than save from there: the blocking `execute(_:)` could wait for the very thread
    /// it runs on, and throws ``ContactStoreError/Code/dataAccessError`` instead. Reading the
    /// store, and saving from a task of its own (`Task { try await store.execute(request) }`), are
    /// safe.
    public static let contactStoreDidChange = Notification.Name("ContactStoreDidChange")
}

extension Date {
    /// A date from microseconds since the Unix epoch.
    package init(microseconds: Int64) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}

extension LedgerEvent {
    /// The identifiers of the contacts, groups and clients the event touches, in order.
    package var affectedIdentifiers: [String] {
        var result: [String] = []
        // A set beside the list: a record can touch thousands of contacts.
        var seen: Set<String> = []
        // Room for an identifier an operation, the common case, so that the set is not rehashed
        // as it grows.
        seen.reserveCapacity(operations.count)
        result.reserveCapacity(operations.count)
        func add(_ identifier: String) { if seen.insert(identifier).inserted { result.append(identifier) } }
        for operation in operations {
            switch operation {
            case .addContact(let identifier, _, _, _), .updateContact(let identifier, _, _, _),
                .deleteContact(let identifier, _, _, _, _), .addGroup(let identifier, _, _),
                .updateGroup(let identifier, _, _), .deleteGroup(let identifier, _, _, _, _, _),
                .addContainer(let identifier, _, _, _), .setAuthorization(let identifier, _, _),
                .requestAccess(let identifier, _):
                add(identifier)
            case .addMember(let contact, let group), .removeMember(let contact, let group):
                add(group)
                add(contact)
            case .addSubgroup(let child, let parent), .removeSubgroup(let child, let parent):
                add(parent)
                add(child)
            case .grantAccess(let client, let contacts), .revokeAccess(let client, let contacts):
                add(client)
                contacts.forEach(add)
            case .linkContacts(let contacts):
                contacts.forEach(add)
            case .unlinkContact(let contact, let linked):
                add(contact)
                linked.forEach(add)
            case .redacted(let standIn):
                add(standIn.contactIdentifier)
            case .redaction(let note):
                if !note.contactIdentifier.isEmpty { add(note.contactIdentifier) }
            case .undo:
                break
            }
        }
        return result
    }
}
