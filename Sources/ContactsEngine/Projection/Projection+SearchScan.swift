import ContactsModel
import Foundation
import LedgerStorage

/// Answering a name, email or phone query from the search indexes, or, while they are deferred,
/// by a scan of the contacts (decision 0037).
extension Projection {
    /// The slots of the contacts whose name matches `query`, sorted ascending: from `indexes`, or
    /// by a scan while the indexes are deferred.
    package func slots(matchingName query: String, from indexes: borrowing SearchIndexes) -> [ContactSlot] {
        guard indexesDeferred else { return indexes.slots(matchingName: query) }
        return Self.scannedSlots(SearchScan(name: query), in: contacts)
    }

    /// The slots of the contacts with the email address `query`, sorted ascending: from
    /// `indexes`, or by a scan while the indexes are deferred. The contact an address names is
    /// asked of memory while the index confirms the address, since a search goes on to read it.
    package func slots(matchingEmailAddress query: String, from indexes: borrowing SearchIndexes) -> [ContactSlot] {
        guard indexesDeferred else {
            return indexes.slots(matchingEmailAddress: query) { contacts.prefetchContact(at: $0) }
        }
        return Self.scannedSlots(SearchScan(emailAddress: query), in: contacts)
    }

    /// The slots of the contacts with a phone number matching `query`, whole or, for a partial
    /// number, by its end, sorted ascending: from `indexes`, or by a scan while the indexes are
    /// deferred.
    package func slots(matchingPhoneNumber query: String, from indexes: borrowing SearchIndexes) -> [ContactSlot] {
        guard indexesDeferred else {
            return indexes.slots(matchingPhoneNumber: query, numbersOf: phoneNumberTexts(at:))
        }
        let scan = SearchScan(phoneNumber: query, defaultCountryCode: self.indexes.defaultCountryCode)
        return Self.scannedSlots(scan, in: contacts)
    }

    /// The text of the phone numbers of the contact in a slot (none for a free slot): what the
    /// candidates of a partial number are checked against.
    package func phoneNumberTexts(at slot: ContactSlot) -> [String] {
        state(at: slot, keys: [.phoneNumbers])?.values.phoneNumbers.map(\.value.stringValue) ?? []
    }

    /// The fewest slots a scan splits between two threads: below it, starting a thread costs
    /// about what it saves.
    static let scanSlotsPerThreadMin = 16384

    /// The slots of the contacts of `contacts` that `scan` matches, sorted ascending; the
    /// slots' upper half is scanned by a thread of its own when each half has at least
    /// `slotsPerThreadMin`.
    ///
    /// Every contact was checked when it was added or merged, so one whose searched fields
    /// cannot be read is a broken arena, not bad input, as for the index build.
    static func scannedSlots(
        _ scan: SearchScan, in contacts: ContactTable, slotsPerThreadMin: Int = scanSlotsPerThreadMin
    ) -> [ContactSlot] {
        if scan.matchesNothing { return [] }
        let slotCount = contacts.slotCount
        guard slotCount / 2 >= slotsPerThreadMin else { return scanned(scan, contacts, slots: 0..<slotCount) }
        let middle = slotCount / 2
        let upper = BackgroundWork(named: "search scan") { scanned(scan, contacts, slots: middle..<slotCount) }
        var found = scanned(scan, contacts, slots: 0..<middle)
        found += upper.wait()
        return found
    }

    /// The slots in `slots` whose contacts `scan` matches, in slot order.
    private static func scanned(_ scan: SearchScan, _ contacts: ContactTable, slots: Range<Int>) -> [ContactSlot] {
        var matcher = SearchScan.Matcher(scan)
        var found: [ContactSlot] = []
        let failure = contacts.forEachContact(inSlots: slots) { slot, encoded, _ -> IndexBuildFailure? in
            do throws(EventDecodingError) {
                if try matcher.matches(encoded) { found.append(slot) }
                return nil
            } catch {
                return IndexBuildFailure(slot: slot, error: error)
            }
        }
        if let failure { preconditionFailure("\(failure)") }
        return found
    }
}
