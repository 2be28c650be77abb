import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation
import LedgerStorage

/// A position in a ledger's change history, handed out as opaque `Data` like the framework's tokens.
///
/// Layout: the bytes `CLHT`, a format byte (1), the ledger id (16 bytes), the sequence (8 bytes,
/// little-endian). A token from another ledger, or one that does not parse, is refused with
/// ``ContactStoreError/Code/changeHistoryInvalidAnchor``.
public struct ChangeHistoryToken: Sendable, Hashable {
    /// The ledger the token belongs to.
    public var ledgerID: UUID
    /// The last sequence the holder has seen.
    public var sequence: UInt64

    /// The token's bytes.
    public var data: Data {
        var writer = ByteWriter(capacity: 29)
        writer.write(bytes: Array("CLHT".utf8))
        writer.write(UInt8(1))
        writer.write(ledgerID)
        writer.write(sequence)
        return Data(writer.bytes)
    }

    /// Parses a token's bytes.
    public init?(data: Data) {
        let bytes = Array(data)
        guard bytes.count == 29, Array(bytes[0..<4]) == Array("CLHT".utf8), bytes[4] == 1 else { return nil }
        var reader = ByteReader(bytes, range: 5..<29)
        guard let id = try? reader.readUUID(), let sequence = try? reader.readUInt64() else { return nil }
        self.init(ledgerID: id, sequence: sequence)
    }

    /// Creates a token.
    public init(ledgerID: UUID, sequence: UInt64) {
        self.ledgerID = ledgerID
        self.sequence = sequence
    }
}

/// What to fetch from the change history, like `CNChangeHistoryFetchRequest`.
public struct ChangeHistoryFetchRequest: Sendable {
    /// Changes after this token; nil returns a drop-everything event and an add for every contact (and group).
    public var startingToken: Data?
    /// Keys the contacts in the events carry, beyond the identifier.
    public var additionalContactKeyDescriptors: [any KeyDescriptor] = []
    /// Whether group events are returned.
    public var includeGroupChanges = false
    /// Records made by these transaction authors are left out.
    public var excludedTransactionAuthors: [String] = []

    /// Creates a request.
    public init(
        startingToken: Data? = nil, additionalContactKeyDescriptors: [any KeyDescriptor] = [],
        includeGroupChanges: Bool = false, excludedTransactionAuthors: [String] = []
    ) {
        self.startingToken = startingToken
        self.additionalContactKeyDescriptors = additionalContactKeyDescriptors
        self.includeGroupChanges = includeGroupChanges
        self.excludedTransactionAuthors = excludedTransactionAuthors
    }
}

/// One change-history event, like the framework's `CNChangeHistoryEvent` subclasses.
public enum ChangeHistoryEvent: Sendable, Hashable {
    /// Forget everything cached; the events after it describe the whole store.
    case dropEverything
    /// A contact was added (its current state).
    case addContact(Contact, containerIdentifier: String)
    /// A contact was changed (its current state).
    case updateContact(Contact)
    /// A contact was deleted.
    case deleteContact(identifier: String)
    /// A group was added.
    case addGroup(Group, containerIdentifier: String)
    /// A group was renamed.
    case updateGroup(Group)
    /// A group was deleted.
    case deleteGroup(identifier: String)
    /// A contact joined a group.
    case addMember(contactIdentifier: String, groupIdentifier: String)
    /// A contact left a group.
    case removeMember(contactIdentifier: String, groupIdentifier: String)
    /// A group became a subgroup.
    case addSubgroup(groupIdentifier: String, parentGroupIdentifier: String)
    /// A group stopped being a subgroup.
    case removeSubgroup(groupIdentifier: String, parentGroupIdentifier: String)
    /// Two contacts were linked as one person, like `CNChangeHistoryLinkContactsEvent`.
    case linkContacts(fromContactIdentifier: String, toContactIdentifier: String)
    /// A contact left the contacts it was linked with, like `CNChangeHistoryUnlinkContactEvent`.
    case unlinkContact(identifier: String)
}

/// The events of a history fetch and the token to start the next one from.
public struct ChangeHistoryResult: Sendable {
    /// The events, coalesced.
    public var events: [ChangeHistoryEvent]
    /// The token for the next fetch.
    public var currentHistoryToken: Data
}

extension ContactStore {
    /// The token for the state this store shows now.
    public var currentHistoryToken: Data {
        ChangeHistoryToken(ledgerID: identity.ledgerID, sequence: headDigest.sequence).data
    }

    /// The changes after a token, coalesced per object as the framework does: an object added
    /// and changed shows as one add with its current state, one added and deleted not at all,
    /// one changed several times as one update. Contacts carry their current state with the
    /// identifier and the requested keys.
    ///
    /// The events, the contacts' states and the token returned are those of one head.
    public func changeHistory(_ request: ChangeHistoryFetchRequest) throws -> ChangeHistoryResult {
        let additional = ContactKeySet(descriptors: request.additionalContactKeyDescriptors)
        // Checked before the journal is read, and again against the state the events describe.
        _ = try historyKeys(additional, currentAccess)
        guard let data = request.startingToken else {
            return try readStateAndAccess { projection, _, access in
                let keys = try historyKeys(additional, access)
                let view = ClientView(client: client, access: access, in: projection)
                var events: [ChangeHistoryEvent] = [.dropEverything]
                for slot in projection.occupiedSlots {
                    guard let owner = projection.owner(at: slot),
                        view.sees(owner.identifier, createdBy: owner.createdBy),
                        let state = projection.state(at: slot, keys: keys)
                    else { continue }
                    events.append(
                        .addContact(
                            Contact(
                                identifier: owner.identifier, limitedValues: state.values, availableKeys: keys,
                                revision: state.revision),
                            containerIdentifier: state.containerIdentifier))
                }
                if request.includeGroupChanges {
                    for identifier in projection.groupIdentifiers {
                        guard let group = projection.group(identifier) else { continue }
                        events.append(
                            .addGroup(
                                Group(identifier: identifier, name: group.name),
                                containerIdentifier: group.containerIdentifier))
                    }
                }
                return ChangeHistoryResult(events: events, currentHistoryToken: historyToken(projection.head.sequence))
            }
        }
        var head = headDigest.sequence
        guard let start = ChangeHistoryToken(data: data), start.ledgerID == identity.ledgerID, start.sequence <= head
        else {
            throw ContactStoreError(
                .changeHistoryInvalidAnchor, "the change-history token is malformed or belongs to another ledger")
        }
        var changes = HistoryChanges(
            excludedAuthors: Set(request.excludedTransactionAuthors), clientIdentifier: client.identifier)
        var scanned = start.sequence
        while true {
            try forEachCommittedEvent(after: scanned, through: head) { record, event in changes.add(record, event) }
            scanned = head
            // The records are read from the journal without the lock; if more were applied
            // meanwhile, they are read too, so that the events and the states are of one head.
            let result: ChangeHistoryResult? = try readStateAndAccess { projection, _, access in
                guard projection.head.sequence == scanned else {
                    head = projection.head.sequence
                    return nil
                }
                let keys = try historyKeys(additional, access)
                let view = ClientView(client: client, access: access, in: projection)
                var events = changes.contactEvents(in: projection, keys: keys, view: view)
                events += changes.personLinkEvents(in: projection, view: view)
                if request.includeGroupChanges {
                    events += changes.groupEvents(in: projection)
                    events += changes.linkEvents(in: projection, view: view)
                }
                return ChangeHistoryResult(events: events, currentHistoryToken: historyToken(scanned))
            }
            if let result { return result }
        }
    }

    /// The keys history events carry for the client, checked against its access.
    private func historyKeys(_ additional: ContactKeySet, _ access: ClientAccess) throws -> ContactKeySet {
        guard access.status == .authorized || access.status == .limited else {
            throw ContactStoreError(
                .authorizationDenied, "client \(client.identifier) is \(access.status), not authorized")
        }
        if additional.contains(.note) && !access.notesEntitlement {
            throw ContactStoreError(
                .unauthorizedKeys, "reading the note needs the notes entitlement", keyPaths: [ContactKey.note.rawValue])
        }
        return additional.union(ContactKeySet(.identifier))
    }

    /// The token for a sequence of this store's ledger.
    private func historyToken(_ sequence: UInt64) -> Data {
        ChangeHistoryToken(ledgerID: identity.ledgerID, sequence: sequence).data
    }

    /// Calls `body` with each committed record after `sequence` through `last`, decoded.
    package func forEachCommittedEvent(
        after sequence: UInt64, through last: UInt64, _ body: (JournalRecord, LedgerEvent) throws -> Void
    ) throws {
        guard sequence < last else { return }
        try forEachRecord(from: sequence + 1) { record in
            guard record.sequence <= last else { return false }
            try body(record, try EventCodec.decode(record.payload, schemaVersion: record.payloadSchemaVersion))
            return record.sequence < last
        }
    }
}

/// The changes of the records after a history token, per object in the order first changed,
/// turned into events against the state at the last of them, as the client sees them.
///
/// A contact's event compares what the client saw at the token with what it sees at the head:
/// an add when it comes into view (created, or granted), a delete when it leaves it (deleted, or
/// revoked), an update when it stays in view and changed in a way the client may see. Whether a
/// contact was granted at the token is told by the first grant or revocation for the client
/// after it (the store records only grants that change the set); without one, the grant then
/// was the grant now.
private struct HistoryChanges {
    /// What happened to one contact after the token.
    struct Touch {
        /// Whether the contact existed at the token (its first change was not its add).
        var existedAtStart: Bool
        /// The creator its add or delete recorded.
        var createdBy: String?
        /// Whether it was added or deleted after the token.
        var addedOrDeleted = false
        /// The keys its updates changed.
        var changedKeys = ContactKeySet()
        /// Whether it was granted to the client at the token, when a grant or revocation tells.
        var grantedAtStart: Bool?
    }

    let excludedAuthors: Set<String>
    let clientIdentifier: String
    private var contactOrder: [String] = []
    private var touches: [String: Touch] = [:]
    private var groupOrder: [String] = []
    private var groupWasNew: [String: Bool] = [:]
    private var groupRenamed: Set<String> = []
    private var links: [ChangeHistoryEvent] = []
    /// Links and unlinks of contacts as one person, in order.
    private var personLinks: [ChangeHistoryEvent] = []

    init(excludedAuthors: Set<String>, clientIdentifier: String) {
        self.excludedAuthors = excludedAuthors
        self.clientIdentifier = clientIdentifier
    }

    /// Notes the changes of one record, in sequence order. Grants and revocations for the client
    /// count whoever recorded them: they change what the client sees.
    mutating func add(_ record: JournalRecord, _ event: LedgerEvent) {
        let excluded = excludedAuthors.contains(record.author)
        for operation in event.operations {
            switch operation {
            case .grantAccess(let client, let contacts), .revokeAccess(let client, let contacts):
                guard client == clientIdentifier else { continue }
                let granted: Bool
                if case .grantAccess = operation { granted = true } else { granted = false }
                for identifier in contacts where touches[identifier]?.grantedAtStart == nil {
                    touch(identifier, existed: true) { $0.grantedAtStart = !granted }
                }
            default:
                if !excluded { addChange(operation) }
            }
        }
    }

    /// Notes one operation other than a grant or revocation.
    private mutating func addChange(_ operation: LedgerOperation) {
        switch operation {
        case .addContact(let identifier, _, let createdBy, _), .deleteContact(let identifier, _, let createdBy, _, _):
            var isAdd = false
            if case .addContact = operation { isAdd = true }
            touch(identifier, existed: !isAdd) {
                $0.addedOrDeleted = true
                $0.createdBy = createdBy
            }
        case .updateContact(let identifier, let keys, _, _):
            touch(identifier, existed: true) { $0.changedKeys.formUnion(keys) }
        case .addGroup(let identifier, _, _):
            if groupWasNew[identifier] == nil { groupOrder.append(identifier); groupWasNew[identifier] = true }
        case .updateGroup(let identifier, _, _):
            if groupWasNew[identifier] == nil { groupOrder.append(identifier); groupWasNew[identifier] = false }
            groupRenamed.insert(identifier)
        case .deleteGroup(let identifier, _, _, _, _, _):
            if groupWasNew[identifier] == nil { groupOrder.append(identifier); groupWasNew[identifier] = false }
        case .addMember(let contact, let group):
            links.append(.addMember(contactIdentifier: contact, groupIdentifier: group))
        case .removeMember(let contact, let group):
            links.append(.removeMember(contactIdentifier: contact, groupIdentifier: group))
        case .addSubgroup(let child, let parent):
            links.append(.addSubgroup(groupIdentifier: child, parentGroupIdentifier: parent))
        case .removeSubgroup(let child, let parent):
            links.append(.removeSubgroup(groupIdentifier: child, parentGroupIdentifier: parent))
        case .linkContacts(let contacts):
            // The link set recorded whole, told as the framework tells it: the first to each other.
            for other in contacts.dropFirst() {
                personLinks.append(.linkContacts(fromContactIdentifier: contacts[0], toContactIdentifier: other))
            }
        case .unlinkContact(let contact, _):
            personLinks.append(.unlinkContact(identifier: contact))
        case .redacted(let standIn) where standIn.kind != .updateContact:
            // A redacted add or delete still added or deleted its contact; its values are gone.
            touch(standIn.contactIdentifier, existed: standIn.kind == .deleteContact) { $0.addedOrDeleted = true }
        case .addContainer, .setAuthorization, .requestAccess, .grantAccess, .revokeAccess, .undo, .redaction,
            .redacted:
            break
        }
    }

    /// Changes a contact's touch, making it (first seen now) with whether it existed at the token.
    private mutating func touch(_ identifier: String, existed: Bool, _ change: (inout Touch) -> Void) {
        if touches[identifier] == nil {
            contactOrder.append(identifier)
            touches[identifier] = Touch(existedAtStart: existed)
        }
        change(&touches[identifier]!)
    }

    /// The contacts' events, as the client sees them: adds and updates with their current state,
    /// deletes of contacts it saw at the token.
    func contactEvents(in projection: Projection, keys: ContactKeySet, view: ClientView) -> [ChangeHistoryEvent] {
        var events: [ChangeHistoryEvent] = []
        for identifier in contactOrder {
            guard let touch = touches[identifier] else { continue }
            let state = projection.contact(identifier, keys: keys)
            let creator = state?.createdBy ?? touch.createdBy ?? ""
            let grantedNow = view.grants.contains(identifier)
            let sawAtStart =
                touch.existedAtStart
                && view.sees(createdBy: creator, granted: touch.grantedAtStart ?? grantedNow)
            guard let state, view.sees(createdBy: creator, granted: grantedNow) else {
                if sawAtStart { events.append(.deleteContact(identifier: identifier)) }
                continue
            }
            let contact = Contact(
                identifier: identifier, limitedValues: state.values, availableKeys: keys, revision: state.revision)
            if !sawAtStart {
                events.append(.addContact(contact, containerIdentifier: state.containerIdentifier))
            } else if touch.addedOrDeleted || (!touch.changedKeys.isEmpty && view.seesChange(of: touch.changedKeys)) {
                events.append(.updateContact(contact))
            }
        }
        return events
    }

    /// Links and unlinks of contacts, in order, between contacts that exist and the client sees.
    func personLinkEvents(in projection: Projection, view: ClientView) -> [ChangeHistoryEvent] {
        personLinks.filter { event in
            switch event {
            case .linkContacts(let from, let to):
                return view.sees(from, in: projection) && view.sees(to, in: projection)
            case .unlinkContact(let identifier):
                return view.sees(identifier, in: projection)
            default: return false
            }
        }
    }

    /// The groups' events: adds, renames, and deletes of groups that existed at the token.
    func groupEvents(in projection: Projection) -> [ChangeHistoryEvent] {
        var events: [ChangeHistoryEvent] = []
        for identifier in groupOrder {
            let wasNew = groupWasNew[identifier]!
            if let group = projection.group(identifier) {
                let value = Group(identifier: identifier, name: group.name)
                if wasNew {
                    events.append(.addGroup(value, containerIdentifier: group.containerIdentifier))
                } else if groupRenamed.contains(identifier) {
                    events.append(.updateGroup(value))
                }
            } else if !wasNew {
                events.append(.deleteGroup(identifier: identifier))
            }
        }
        return events
    }

    /// Membership changes, the last change per pair, only between objects that still exist (and
    /// contacts the client sees).
    func linkEvents(in projection: Projection, view: ClientView) -> [ChangeHistoryEvent] {
        var last: [String: ChangeHistoryEvent] = [:]
        var order: [String] = []
        for link in links {
            let key: String
            switch link {
            case .addMember(let contact, let group), .removeMember(let contact, let group):
                key = "m\(contact)\u{0}\(group)"
            case .addSubgroup(let child, let parent), .removeSubgroup(let child, let parent):
                key = "s\(child)\u{0}\(parent)"
            default: continue
            }
            if last[key] == nil { order.append(key) }
            last[key] = link
        }
        var events: [ChangeHistoryEvent] = []
        for key in order {
            guard let link = last[key] else { continue }
            switch link {
            case .addMember(let contact, let group), .removeMember(let contact, let group):
                guard view.sees(contact, in: projection),
                    projection.group(group) != nil
                else { continue }
            case .addSubgroup(let child, let parent), .removeSubgroup(let child, let parent):
                guard projection.group(child) != nil, projection.group(parent) != nil else { continue }
            default: continue
            }
            events.append(link)
        }
        return events
    }
}
