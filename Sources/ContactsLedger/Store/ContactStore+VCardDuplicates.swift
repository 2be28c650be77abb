import ContactsInterchange
import ContactsModel
import Foundation

/// What an import does with a card whose `UID` names a contact the store holds.
public enum VCardDuplicatePolicy: String, Sendable, CaseIterable {
    /// Adds the card as a new contact with a new identifier, as if it had no `UID`.
    case add
    /// Updates the contact to the card's values; a card that matches it changes nothing, so
    /// that importing the same export twice writes nothing the second time.
    case update
    /// Leaves the contact as it is.
    case skip
}

/// One card of an import with what saving it does.
struct PlannedCard {
    /// What saving the card does.
    enum Action {
        /// Adds a new contact; `fallback` is the card with a new identifier, for when the
        /// card's `UID` turns out to be taken by a contact the client does not see.
        case add(MutableContact, fallback: MutableContact?)
        /// Updates the contact the card's `UID` names.
        case update(MutableContact)
        /// Leaves the contact the card's `UID` names as it is.
        case unchanged(String)
    }

    /// The card's position in the file.
    var index: Int
    /// What saving it does.
    var action: Action

    /// The identifier of the contact the card adds, updates or leaves.
    var identifier: String {
        switch action {
        case .add(let contact, _), .update(let contact): contact.identifier
        case .unchanged(let identifier): identifier
        }
    }
}

extension ContactStore {
    /// Decides, card by card, whether each adds a contact, updates the one its `UID` names, or
    /// leaves it. A card whose `UID` is a UUID no visible contact holds is added under that
    /// identifier, so that a second import of the same file finds it; a `UID` an earlier card of
    /// the same import took is not looked up again, and its card is added anew.
    func plan(_ read: VCardImport, duplicates: VCardDuplicatePolicy) -> [PlannedCard] {
        var claimed: Set<String> = []
        return read.contacts.map { card in
            guard duplicates != .add, let uid = read.uids[card.index].flatMap(UUID.init(uuidString:))?.uuidString,
                claimed.insert(uid).inserted
            else { return PlannedCard(index: card.index, action: .add(card.contact, fallback: nil)) }
            guard let existing = try? unifiedContact(withIdentifier: uid, keysToFetch: [ContactKeySet.all]) else {
                let renamed = MutableContact(
                    identifier: uid, values: card.contact.values, availableKeys: .all, base: nil)
                return PlannedCard(index: card.index, action: .add(renamed, fallback: card.contact))
            }
            if duplicates == .skip { return PlannedCard(index: card.index, action: .unchanged(uid)) }
            return PlannedCard(index: card.index, action: Self.updateAction(existing, card: card.contact.values))
        }
    }

    /// The contact `existing` becomes when a card replaces it, as an import's update makes it
    /// (every key a card carries; the note only when the card has one; equal labeled values
    /// keep their identifiers); nil when the card changes nothing.
    /// With `replacingExtensions`, the card's vCard extensions replace the contact's even when
    /// it has none (a CardDAV card is the whole resource); an import leaves them alone unless
    /// the card has some.
    package static func update(
        _ existing: Contact, toCard card: ContactValues, replacingExtensions: Bool
    ) -> MutableContact? {
        guard case .update(let contact) = updateAction(existing, card: card, replacingExtensions: replacingExtensions)
        else { return nil }
        return contact
    }

    /// The update that gives `existing` a card's values: every key a card carries, except the
    /// note when the card has none (an export without the notes entitlement leaves notes out);
    /// labeled values equal to the contact's keep their identifiers. Nothing when it changes nothing.
    private static func updateAction(
        _ existing: Contact, card: ContactValues, replacingExtensions: Bool = false
    ) -> PlannedCard.Action {
        var keys = VCardSerialization.descriptorForRequiredKeys().subtracting([.identifier])
        if !card.note.isEmpty { keys.insert(.note) }
        if !replacingExtensions && card.vCardExtensions.isEmpty { keys.remove(.vCardExtensions) }
        var values = existing.values
        values.update(keys, from: adoptingIdentifiers(card, from: existing.values))
        guard values != existing.values else { return .unchanged(existing.identifier) }
        return .update(
            MutableContact(
                identifier: existing.identifier, values: values, availableKeys: .all, base: existing.values,
                revision: existing.revision))
    }

    /// The card's values with each labeled value that equals one of the contact's (label and
    /// value) given that one's identifier, so that an unchanged phone number stays the same item.
    private static func adoptingIdentifiers(_ card: ContactValues, from existing: ContactValues) -> ContactValues {
        var values = card
        for key in ContactKeySet.all.keys {
            switch ContactKeyTable.kind(of: key) {
            case .labeledDates:
                values[labeledDates: key] = adopting(card[labeledDates: key], existing[labeledDates: key])
            case .labeledPhoneNumbers:
                values[phoneNumbers: key] = adopting(card[phoneNumbers: key], existing[phoneNumbers: key])
            case .labeledStrings:
                values[labeledStrings: key] = adopting(card[labeledStrings: key], existing[labeledStrings: key])
            case .labeledPostalAddresses:
                values[postalAddresses: key] = adopting(card[postalAddresses: key], existing[postalAddresses: key])
            case .labeledRelations:
                values[contactRelations: key] = adopting(card[contactRelations: key], existing[contactRelations: key])
            case .labeledSocialProfiles:
                values[socialProfiles: key] = adopting(card[socialProfiles: key], existing[socialProfiles: key])
            case .labeledInstantMessageAddresses:
                values[instantMessageAddresses: key] = adopting(
                    card[instantMessageAddresses: key], existing[instantMessageAddresses: key])
            default: break
            }
        }
        return values
    }

    /// `card`'s labeled values, each that equals an unused one of `existing` taking its identifier.
    private static func adopting<Value>(
        _ card: [LabeledValue<Value>], _ existing: [LabeledValue<Value>]
    ) -> [LabeledValue<Value>] {
        var unused = existing
        return card.map { item in
            guard let found = unused.firstIndex(where: { $0.label == item.label && $0.value == item.value }) else {
                return item
            }
            return LabeledValue(identifier: unused.remove(at: found).identifier, label: item.label, value: item.value)
        }
    }
}
