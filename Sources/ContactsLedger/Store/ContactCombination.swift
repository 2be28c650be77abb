import ContactsEngine
import ContactsInterchange
import ContactsModel
import Foundation

/// How the values of several contacts combine into one: the values a merge keeps, and the values
/// of a unified contact over a link set.
///
/// The first contact's single values win: another contact's value fills a property only where
/// the first has none. Labeled values are unioned in order (the first contact's, then each other
/// contact's new ones, in the order the contacts are given) without repeats: phone numbers that
/// are the same number under the store's region (``MatchKeys/samePhone(_:_:)``), email addresses
/// that are equal case-folded, and any other labeled values that are equal, count once, with the
/// label and identifier of the first.
package struct ContactCombination: Sendable {
    /// The rules for telling phone numbers and email addresses apart.
    package let matchKeys: MatchKeys

    /// A combination that reads phone numbers with the region's dialling conventions.
    package init(region: String) {
        matchKeys = MatchKeys(region: region)
    }

    /// The single-valued keys a combination fills or notes, in key order.
    package static let singleKeys: [ContactKey] = ContactKey.allCases.filter { key in
        switch ContactKeyTable.kind(of: key) {
        case .string, .date, .nonGregorianDate, .imageData, .contactType: key != .note
        default: false
        }
    }

    /// The labeled-value keys a combination unions, in key order.
    package static let listKeys: [ContactKey] = ContactKey.allCases.filter { key in
        switch ContactKeyTable.kind(of: key) {
        case .labeledDates, .labeledPhoneNumbers, .labeledStrings, .labeledPostalAddresses, .labeledRelations,
            .labeledSocialProfiles, .labeledInstantMessageAddresses:
            true
        default: false
        }
    }

    /// The values of `first` with `others` combined into them, for the keys in `keys`; the
    /// others' single values that differ from the first's are returned too, per other contact,
    /// for a merge to write into the note (``noteAppending(_:to:)``).
    package func combine(
        _ first: ContactValues, _ others: [ContactValues], keys: ContactKeySet
    ) -> (values: ContactValues, conflicts: [[ContactKey]]) {
        var result = first
        var conflicts: [[ContactKey]] = []
        for other in others {
            var differing: [ContactKey] = []
            for key in Self.singleKeys where keys.contains(key) {
                if isEmpty(other, key) || sameValue(result, other, key) { continue }
                if isEmpty(result, key) {
                    result.copyValue(for: key, from: other)
                } else {
                    differing.append(key)
                }
            }
            conflicts.append(differing)
            for key in Self.listKeys where keys.contains(key) { union(&result, other, key) }
        }
        return (result, conflicts)
    }

    /// Whether a single-valued key holds its default (no text, no date, no image, a person).
    private func isEmpty(_ values: ContactValues, _ key: ContactKey) -> Bool {
        values.hasSameValue(as: ContactValues(), for: key)
    }

    /// Whether two contacts hold the same single value: equal, or text equal once case,
    /// diacritics, width and surrounding spaces are ignored.
    private func sameValue(_ first: ContactValues, _ second: ContactValues, _ key: ContactKey) -> Bool {
        if first.hasSameValue(as: second, for: key) { return true }
        guard ContactKeyTable.kind(of: key) == .string else { return false }
        return Self.foldedText(first[string: key]) == Self.foldedText(second[string: key])
    }

    /// Text folded for comparing single values.
    private static func foldedText(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Appends to `values`' list for `key` the labeled values of `other` it does not hold yet.
    private func union(_ values: inout ContactValues, _ other: ContactValues, _ key: ContactKey) {
        switch ContactKeyTable.kind(of: key) {
        case .labeledPhoneNumbers:
            values[phoneNumbers: key] = Self.union(values[phoneNumbers: key], other[phoneNumbers: key]) {
                $0.stringValue == $1.stringValue || matchKeys.samePhone($0.stringValue, $1.stringValue)
            }
        case .labeledStrings where key == .emailAddresses:
            values[labeledStrings: key] = Self.union(values[labeledStrings: key], other[labeledStrings: key]) {
                $0 == $1 || (MatchKeys.email($0) != nil && MatchKeys.email($0) == MatchKeys.email($1))
            }
        case .labeledStrings where key == .vCardExtensions:
            // A card has one identity: the survivor's `UID` and bookkeeping stand, the others' go.
            let kept = other[labeledStrings: key].filter { !VCardWriter.isIdentityLine($0.value) }
            values[labeledStrings: key] = Self.union(values[labeledStrings: key], kept, ==)
        case .labeledStrings:
            values[labeledStrings: key] = Self.union(values[labeledStrings: key], other[labeledStrings: key], ==)
        case .labeledDates:
            values[labeledDates: key] = Self.union(values[labeledDates: key], other[labeledDates: key], ==)
        case .labeledPostalAddresses:
            values[postalAddresses: key] = Self.union(values[postalAddresses: key], other[postalAddresses: key], ==)
        case .labeledRelations:
            values[contactRelations: key] = Self.union(
                values[contactRelations: key], other[contactRelations: key], ==)
        case .labeledSocialProfiles:
            values[socialProfiles: key] = Self.union(values[socialProfiles: key], other[socialProfiles: key], ==)
        case .labeledInstantMessageAddresses:
            values[instantMessageAddresses: key] = Self.union(
                values[instantMessageAddresses: key], other[instantMessageAddresses: key], ==)
        default:
            return
        }
    }

    /// `base` followed by the items of `more` whose values `base` (or an earlier item of `more`)
    /// does not hold already.
    private static func union<Value>(
        _ base: [LabeledValue<Value>], _ more: [LabeledValue<Value>], _ same: (Value, Value) -> Bool
    ) -> [LabeledValue<Value>] {
        var result = base
        for item in more where !result.contains(where: { same($0.value, item.value) }) {
            result.append(item)
        }
        return result
    }
}
