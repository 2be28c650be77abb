import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation
import LedgerStorage

extension LedgerUndo {
    /// An empty request with the options' author and request id.
    func request(_ options: UndoOptions) -> SaveRequest {
        SaveRequest(requestIdentifier: options.requestIdentifier, transactionAuthor: options.author)
    }

    /// The outcome of an undo whose request id is already committed, read from its record, so
    /// that a retry after an unknown outcome reports the undo instead of failing because the
    /// first attempt did its work; nil when no record holds the id.
    func earlierOutcome(_ options: UndoOptions) throws -> UndoOutcome? {
        try checkClient()
        guard let earlier = try store.result(ofRequest: options.requestIdentifier) else { return nil }
        let event = try event(at: earlier.sequence).event
        guard let undoes = event.undoReference else {
            throw UndoError(
                .notRevertible,
                "request \(options.requestIdentifier.uuidString) is already committed at sequence \(earlier.sequence),"
                    + " and it is not an undo")
        }
        return UndoOutcome(
            undoes: undoes, changes: event.operations.map(LedgerAuditor.change), skipped: [], save: earlier)
    }

    /// Plans the request against the current state (through the save path's own checks, access
    /// included), then saves it unless this is a dry run. Refuses a request that would record
    /// nothing but its name.
    func finish(
        _ request: SaveRequest, undoes: UndoReference, skipped: [UndoSkip], options: UndoOptions
    ) throws -> UndoOutcome {
        let planned = try store.dryRun([request])[0]
        guard planned.contains(where: { if case .undo = $0 { false } else { true } }) else {
            let reasons = skipped.isEmpty ? "" : " (" + skipped.map(\.description).joined(separator: "; ") + ")"
            throw UndoError(
                .nothingToUndo, "nothing to undo: the state already is what the undo would make it\(reasons)")
        }
        var outcome = UndoOutcome(
            undoes: undoes, changes: planned.map(LedgerAuditor.change), skipped: skipped, save: nil)
        if options.dryRun { return outcome }
        outcome.save = try store.execute(request)
        return outcome
    }

    /// Refuses a client that may not save at all, before anything of the ledger is read for it.
    func checkClient() throws {
        let status = store.currentAccess.status
        guard status == .authorized || status == .limited else {
            throw ContactStoreError(
                .authorizationDenied, "client \(store.client.identifier) is \(status), not authorized to save")
        }
    }

    /// Whether a contact exists now: nil when it does not, else whether the client sees it.
    func contactExists(_ identifier: String) -> Bool? {
        store.readState { projection, _ in
            guard let state = projection.contact(identifier) else { return nil }
            return view(projection).sees(identifier, createdBy: state.createdBy)
        }
    }

    /// Whether the client sees a deleted contact made by `createdBy` (decision 0024).
    func seesDeleted(_ identifier: String, createdBy: String) -> Bool {
        store.readState { projection, _ in view(projection).sees(identifier, createdBy: createdBy) }
    }

    /// Refuses, for a client without full access, a record that touched a contact the client does
    /// not see: its inverse would change, or show, what the client may not reach (decision 0024).
    func checkSeesEverything(in event: LedgerEvent, sequence: UInt64) throws {
        guard store.currentAccess.status != .authorized else { return }
        let hidden = store.readState { projection, _ -> Bool in
            let visible = Set(view(projection).visibleIdentifiers(of: event, in: projection))
            return event.operations.contains { operation in
                switch operation {
                case .addContact(let identifier, _, _, _), .updateContact(let identifier, _, _, _),
                    .deleteContact(let identifier, _, _, _, _), .addMember(let identifier, _),
                    .removeMember(let identifier, _):
                    return !visible.contains(identifier)
                case .deleteGroup(_, _, _, let members, _, _): return members.contains { !visible.contains($0) }
                default: return false
                }
            }
        }
        if hidden {
            throw UndoError(
                .notRevertible,
                "record \(sequence) changed contacts this client may not see; only the owner can revert it")
        }
    }

    /// What the store's client sees of a state.
    private func view(_ projection: borrowing Projection) -> ClientView {
        ClientView(client: store.client, access: store.currentAccess, in: projection)
    }

    /// The contact now, or nil; one a limited client may not see is refused as missing, as the
    /// save path refuses it, so that its values never reach a conflict or a plan.
    func currentContact(_ identifier: String) throws -> ContactState? {
        let (state, visible) = store.readState { projection, _ -> (ContactState?, Bool) in
            guard let state = projection.contact(identifier) else { return (nil, true) }
            return (state, view(projection).sees(identifier, createdBy: state.createdBy))
        }
        guard visible else {
            throw ContactStoreError(
                .recordDoesNotExist, "contact \(identifier) does not exist", affectedIdentifiers: [identifier])
        }
        return state
    }

    /// Whether the client may read the note, which conflicts then show.
    var readsNotes: Bool { store.currentAccess.notesEntitlement }

    /// The group now, or nil.
    func currentGroup(_ identifier: String) -> GroupState? {
        store.readState { projection, _ in projection.group(identifier) }
    }

    /// Adds memberships of a contact to the request, for the groups that still exist; the others
    /// are returned as skipped.
    func addMemberships(
        of identifier: String, to groups: some Sequence<String>, in request: inout SaveRequest
    ) -> [UndoSkip] {
        var skipped: [UndoSkip] = []
        for group in groups.sorted() {
            guard currentGroup(group) != nil else {
                skipped.append(
                    UndoSkip(
                        identifier: group, reason: "group no longer exists; membership of \(identifier) not restored"))
                continue
            }
            request.addMember(Self.placeholder(identifier), to: Group(identifier: group, name: ""))
        }
        return skipped
    }

    /// A contact that stands only for its identifier in a membership change.
    static func placeholder(_ identifier: String) -> Contact {
        Contact(identifier: identifier, values: ContactValues(), availableKeys: [])
    }

    /// A contact as it is now, as a save request's update or delete starts from it.
    static func mutable(_ identifier: String, _ state: ContactState) -> MutableContact {
        MutableContact(
            identifier: identifier, values: state.values, availableKeys: .all, base: state.values,
            revision: state.revision)
    }
}
