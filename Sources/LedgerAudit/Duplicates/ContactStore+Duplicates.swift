import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation

/// Finding likely duplicates: contacts are put in blocks by key (each email address, each phone
/// number's national number, each name at an organization), only contacts that share a block
/// are compared, and the pairs that score at least the threshold are joined into clusters.
/// Nothing is merged.
extension ContactStore {
    /// The likely duplicate pairs among the contacts the client sees, joined into clusters, with
    /// their scores and reasons (``DuplicateReason``). Contacts linked with each other are one
    /// person already and are not reported as a pair.
    ///
    /// `progress` is told how many contacts were keyed, of how many, as the work goes.
    public func duplicates(
        _ options: DuplicateOptions = DuplicateOptions(), progress: LedgerAuditor.Progress? = nil
    ) throws -> DuplicateReport {
        let matchKeys = MatchKeys(region: options.region ?? client.region)
        let access = currentAccess
        switch access.status {
        case .authorized, .limited: break
        case .notDetermined, .denied, .restricted:
            throw ContactStoreError(
                .authorizationDenied, "client \(client.identifier) is \(access.status), not authorized")
        }
        let client = client
        return readState { projection, _ in
            var finder = DuplicateFinder(matchKeys: matchKeys, options: options)
            let view = ClientView(client: client, access: access, in: projection)
            let slots = projection.occupiedSlots.filter { slot in
                guard access.status != .authorized, let owner = projection.owner(at: slot) else { return true }
                return view.sees(owner.identifier, createdBy: owner.createdBy)
            }
            return finder.report(slots: slots, in: projection, progress: progress)
        }
    }
}

/// The work of ``ContactStore/duplicates(_:progress:)`` over one state.
struct DuplicateFinder {
    /// The keys a contact is read with: what blocking and scoring look at.
    static let keys = ContactKeySet([
        .givenName, .familyName, .nickname, .organizationName, .emailAddresses, .phoneNumbers,
    ])

    let matchKeys: MatchKeys
    let options: DuplicateOptions
    /// Blocks larger than the limit, passed over.
    private(set) var blocksPassedOver = 0

    init(matchKeys: MatchKeys, options: DuplicateOptions) {
        self.matchKeys = matchKeys
        self.options = options
    }

    /// Keys every contact, finds the candidate pairs, scores them and joins the clusters.
    mutating func report(
        slots: [ContactSlot], in projection: borrowing Projection, progress: LedgerAuditor.Progress?
    ) -> DuplicateReport {
        var entries: [(key: Int, slot: ContactSlot)] = []
        entries.reserveCapacity(slots.count * 3)
        for (index, slot) in slots.enumerated() {
            if let state = projection.state(at: slot, keys: Self.keys) {
                for key in blockKeys(state.values) { entries.append((key, slot)) }
            }
            if index % 4096 == 0 { progress?(UInt64(index), UInt64(slots.count)) }
        }
        progress?(UInt64(slots.count), UInt64(slots.count))
        let candidates = candidatePairs(entries)
        var profiles: [ContactSlot: DuplicateProfile] = [:]
        var pairs: [DuplicatePair] = []
        for (first, second) in candidates {
            guard let left = profile(first, projection, &profiles), let right = profile(second, projection, &profiles),
                !left.links.contains(right.identifier)
            else { continue }
            let pair = score(left, right)
            if pair.score >= options.minimumScore { pairs.append(pair) }
        }
        return DuplicateReport(
            clusters: Self.clusters(pairs, profiles: profiles), contactsExamined: slots.count,
            pairsScored: candidates.count, blocksPassedOver: blocksPassedOver)
    }

    /// The block keys of a contact's values, hashed: each folded email address, each phone
    /// number's national number, and its folded name at its folded organization.
    private func blockKeys(_ values: ContactValues) -> [Int] {
        var keys: [Int] = []
        for email in values.emailAddresses {
            if let folded = MatchKeys.email(email.value) { keys.append(Self.hash("e", folded)) }
        }
        for phone in values.phoneNumbers {
            if let key = matchKeys.phone(phone.value.stringValue) { keys.append(Self.hash("p", key.national)) }
        }
        let name = DuplicateProfile.name(values)
        let organization = MatchKeys.foldedName(values.organizationName)
        if !name.isEmpty && !organization.isEmpty { keys.append(Self.hash("o", name + "@" + organization)) }
        return keys
    }

    private static func hash(_ kind: String, _ text: String) -> Int {
        var hasher = Hasher()
        hasher.combine(kind)
        hasher.combine(text)
        return hasher.finalize()
    }

    /// The pairs of slots that share a block, each once, in slot order; blocks above the size
    /// limit are counted and passed over.
    private mutating func candidatePairs(_ entries: [(key: Int, slot: ContactSlot)]) -> [(ContactSlot, ContactSlot)] {
        let sorted = entries.sorted { $0.key != $1.key ? $0.key < $1.key : $0.slot < $1.slot }
        var seen = Set<UInt64>()
        var pairs: [(ContactSlot, ContactSlot)] = []
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && sorted[end].key == sorted[start].key { end += 1 }
            defer { start = end }
            // Most keys belong to one contact: no block to look at.
            guard end - start > 1 else { continue }
            let block = Array(Set(sorted[start..<end].map(\.slot))).sorted()
            guard block.count > 1 else { continue }
            guard block.count <= options.blockSizeLimit else {
                blocksPassedOver += 1
                continue
            }
            for (index, first) in block.enumerated() {
                for second in block[(index + 1)...]
                where seen.insert(UInt64(first) << 32 | UInt64(second)).inserted {
                    pairs.append((first, second))
                }
            }
        }
        return pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    }

    /// The profile of the contact in a slot, made once.
    private func profile(
        _ slot: ContactSlot, _ projection: borrowing Projection, _ profiles: inout [ContactSlot: DuplicateProfile]
    ) -> DuplicateProfile? {
        if let known = profiles[slot] { return known }
        guard let owner = projection.owner(at: slot), let state = projection.state(at: slot, keys: Self.keys) else {
            return nil
        }
        let made = DuplicateProfile(
            owner.identifier, slot: slot, state.values, links: Set(projection.links(of: owner.identifier)),
            matchKeys: matchKeys)
        profiles[slot] = made
        return made
    }
}
