import ContactsEngine
import ContactsLedger
import ContactsModel
import Foundation

/// What scoring compares of one contact, folded once.
struct DuplicateProfile {
    let identifier: String
    let slot: ContactSlot
    /// The name as the report shows it: given and family name, else the organization.
    let displayName: String
    let given: String
    let family: String
    let nickname: String
    let organization: String
    let emails: Set<String>
    let phones: [(callingCode: UInt16, national: String)]
    /// The contacts it is linked with, itself included.
    let links: Set<String>

    init(
        _ identifier: String, slot: ContactSlot, _ values: ContactValues, links: Set<String>, matchKeys: MatchKeys
    ) {
        self.identifier = identifier
        self.slot = slot
        let written = [values.givenName, values.familyName].filter { !$0.isEmpty }.joined(separator: " ")
        displayName = written.isEmpty ? values.organizationName : written
        given = MatchKeys.foldedName(values.givenName)
        family = MatchKeys.foldedName(values.familyName)
        nickname = MatchKeys.foldedName(values.nickname)
        organization = MatchKeys.foldedName(values.organizationName)
        emails = Set(values.emailAddresses.compactMap { MatchKeys.email($0.value) })
        phones = values.phoneNumbers.compactMap { matchKeys.phone($0.value.stringValue) }
        self.links = links
    }

    /// A contact's name for comparing: its folded given and family names, in the order that
    /// sorts first (so that swapped fields compare equal), or empty without both.
    static func name(_ values: ContactValues) -> String {
        name(MatchKeys.foldedName(values.givenName), MatchKeys.foldedName(values.familyName))
    }

    private static func name(_ given: String, _ family: String) -> String {
        guard !given.isEmpty, !family.isEmpty else { return "" }
        return given <= family ? given + " " + family : family + " " + given
    }

    /// ``name(_:)`` of this profile.
    var name: String { Self.name(given, family) }
}

extension DuplicateFinder {
    /// The score and reasons of two contacts.
    func score(_ left: DuplicateProfile, _ right: DuplicateProfile) -> DuplicatePair {
        var reasons: [DuplicateReason] = []
        if let email = left.emails.intersection(right.emails).min() { reasons.append(.sameEmailAddress(email)) }
        if let phone = Self.sharedPhone(left, right) { reasons.append(.samePhoneNumber(phone)) }
        let name = left.name
        if !name.isEmpty && name == right.name {
            if !left.organization.isEmpty && left.organization == right.organization {
                reasons.append(.sameNameAndOrganization(name: name, organization: left.organization))
            } else {
                reasons.append(.sameName(name))
            }
        } else if let nickname = Self.nickname(left, right) {
            reasons.append(nickname)
        }
        reasons.sort { $0.points > $1.points }
        return DuplicatePair(
            first: left.identifier, second: right.identifier, score: min(100, reasons.map(\.points).reduce(0, +)),
            reasons: reasons)
    }

    /// A phone number both have, as `+CC NATIONAL` (`? NATIONAL` when the code is unknown).
    private static func sharedPhone(_ left: DuplicateProfile, _ right: DuplicateProfile) -> String? {
        for first in left.phones {
            for second in right.phones where first.national == second.national {
                let code = max(first.callingCode, second.callingCode)
                if first.callingCode == second.callingCode || min(first.callingCode, second.callingCode) == 0 {
                    return (code == 0 ? "?" : "+\(code)") + " " + first.national
                }
            }
        }
        return nil
    }

    /// The nickname reason: the same family name, and a given name (or a nickname field) that
    /// is a nickname of the other's given name.
    private static func nickname(_ left: DuplicateProfile, _ right: DuplicateProfile) -> DuplicateReason? {
        guard !left.family.isEmpty, left.family == right.family, !left.given.isEmpty, !right.given.isEmpty else {
            return nil
        }
        if Nicknames.related(left.given, right.given) {
            return left.given.count <= right.given.count
                ? .nickname(left.given, of: right.given) : .nickname(right.given, of: left.given)
        }
        if left.nickname == right.given && left.given != right.given { return .nickname(right.given, of: left.given) }
        if right.nickname == left.given && left.given != right.given { return .nickname(left.given, of: right.given) }
        return nil
    }

    /// Joins pairs that share a contact into clusters (a union of the pairs), highest score
    /// first, ties in store order.
    static func clusters(_ pairs: [DuplicatePair], profiles: [ContactSlot: DuplicateProfile]) -> [DuplicateCluster] {
        let byIdentifier = Dictionary(uniqueKeysWithValues: profiles.values.map { ($0.identifier, $0) })
        var parent: [String: String] = [:]
        func root(_ identifier: String) -> String {
            var current = identifier
            while let next = parent[current], next != current { current = next }
            return current
        }
        for pair in pairs {
            let (left, right) = (root(pair.first), root(pair.second))
            parent[left] = left
            parent[right] = left
        }
        var grouped: [String: [DuplicatePair]] = [:]
        for pair in pairs { grouped[root(pair.first), default: []].append(pair) }
        let clusters = grouped.values.map { group -> DuplicateCluster in
            let members = Set(group.flatMap { [$0.first, $0.second] }).compactMap { byIdentifier[$0] }
                .sorted { $0.slot < $1.slot }
            return DuplicateCluster(
                identifiers: members.map(\.identifier), names: members.map(\.displayName),
                score: group.map(\.score).max() ?? 0, pairs: group.sorted { $0.score > $1.score })
        }
        return clusters.sorted { left, right in
            if left.score != right.score { return left.score > right.score }
            return (byIdentifier[left.identifiers[0]]?.slot ?? 0) < (byIdentifier[right.identifiers[0]]?.slot ?? 0)
        }
    }
}
