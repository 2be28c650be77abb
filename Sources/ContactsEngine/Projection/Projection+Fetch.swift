import ContactsModel
import Foundation
import LedgerStorage

/// One contact as a fetch returns it: its identifier, the values of the keys asked for (the
/// others at their defaults) and its revision.
package struct FetchedContact: Sendable {
    /// The contact's identifier.
    package var identifier: String
    /// The values of the keys asked for.
    package var values: ContactValues
    /// The sequence of the last record that changed it.
    package var revision: UInt64
}

extension Projection {
    /// Calls `body` with the contact in each occupied slot of `slots`, in their order, with only
    /// the values of `keys` decoded, until it returns false. Nothing but the identifier, the
    /// revision and those values is read: a search's page of thousands pays for what it returns
    /// and no more (no container, creator or other key).
    package func forEachContact(
        at slots: ArraySlice<ContactSlot>, keys: ContactKeySet, _ body: (FetchedContact) throws -> Bool
    ) rethrows {
        try contacts.forEachContact(at: slots) { record, identifier, encoded in
            try body(
                FetchedContact(
                    identifier: ContactTable.identifier(identifier, isUUID: record.identifierIsUUID),
                    values: Self.decodeValues(encoded, keeping: keys), revision: record.revision))
        }
    }

    /// The contacts in the occupied slots of `slots`, in their order, copied as they are kept
    /// (identifier and encoded values), to be decoded later without this projection.
    package func encodedContacts(at slots: ArraySlice<ContactSlot>) -> EncodedContacts {
        var copied = EncodedContacts()
        copied.reserve(slots.count, bytes: contacts.estimatedBytes(ofContacts: slots.count))
        contacts.forEachContact(at: slots) { record, identifier, encoded in
            copied.append(identifier: identifier, isUUID: record.identifierIsUUID, encoded: encoded, record.revision)
            return true
        }
        return copied
    }
}

/// Contacts copied out of the projection as they are kept there: each one's identifier bytes and
/// encoded values back to back in one array. An enumeration hands its caller contacts one at a
/// time after the read locks are released, and may be stopped after the first few: copying the
/// bytes of the rest costs a fraction of decoding them, keeps them those of the one state the
/// read saw, and leaves the decoding of each to the moment it is handed out.
package struct EncodedContacts: Sendable {
    /// Where one contact's bytes lie in ``bytes``.
    private struct Entry: Sendable {
        var start: Int
        var identifierBytes: UInt32
        var encodedBytes: UInt32
        var identifierIsUUID: Bool
        var revision: UInt64
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []

    /// No contacts.
    package init() {}

    /// How many contacts there are.
    package var count: Int { entries.count }

    /// Makes room for `contacts` more, of `bytes` bytes in all, without growing.
    mutating func reserve(_ contacts: Int, bytes more: Int) {
        entries.reserveCapacity(entries.count + contacts)
        bytes.reserveCapacity(bytes.count + more)
    }

    /// Adds a contact's bytes.
    mutating func append(
        identifier: UnsafeBufferPointer<UInt8>, isUUID: Bool, encoded: UnsafeBufferPointer<UInt8>, _ revision: UInt64
    ) {
        entries.append(
            Entry(
                start: bytes.count, identifierBytes: UInt32(identifier.count), encodedBytes: UInt32(encoded.count),
                identifierIsUUID: isUUID, revision: revision))
        bytes.append(contentsOf: identifier)
        bytes.append(contentsOf: encoded)
    }

    /// The contact at `index` (below ``count``), with only the values of `keys` decoded.
    package func contact(_ index: Int, keys: ContactKeySet) -> FetchedContact {
        let entry = entries[index]
        return bytes.withUnsafeBufferPointer { bytes in
            let identifierEnd = entry.start + Int(entry.identifierBytes)
            let identifier = UnsafeBufferPointer(rebasing: bytes[entry.start..<identifierEnd])
            let encoded = UnsafeBufferPointer(rebasing: bytes[identifierEnd..<identifierEnd + Int(entry.encodedBytes)])
            return FetchedContact(
                identifier: ContactTable.identifier(identifier, isUUID: entry.identifierIsUUID),
                values: Projection.decodeValues(encoded, keeping: keys), revision: entry.revision)
        }
    }
}
