import ContactsLedger
import Foundation

/// The cards of an address book: how a resource name maps to a contact, their ETags and vCards.
///
/// A card's resource name is its contact's identifier and `.vcf`. A client that creates a card
/// under a name that is a UUID gets a contact with that identifier, so the card keeps the name
/// the client chose (upper-cased, as every identifier is; the client's spelling is kept for its
/// href); any other name stands for a UUID derived from it (the first 16 bytes of its SHA-256,
/// marked as a version 8 UUID), which the same name finds again.
enum CardDAVCards {
    /// The identifier of the contact a resource name stands for.
    static func identifier(forResource name: String) -> String {
        let stem = name.lowercased().hasSuffix(".vcf") ? String(name.dropLast(4)) : name
        if UUID(uuidString: stem) != nil { return stem.uppercased() }
        var hasher = SHA256()
        hasher.update(Array("contacts-ledger carddav resource\n\(stem)".utf8))
        var bytes = Array(hasher.finalize().bytes.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    /// The vCard extension that keeps a client's name for a card whose name is not its
    /// contact's identifier; the vCard writer never writes it into a card.
    static let nameProperty = "X-CONTACTS-LEDGER-CARDDAV-HREF"

    /// The name a card is served under: the one its client gave it, else its identifier and `.vcf`.
    static func resourceName(of contact: Contact) -> String {
        storedName(in: contact.isKeyAvailable(.vCardExtensions) ? contact.values.vCardExtensions : [])
            ?? contact.identifier + ".vcf"
    }

    /// The client's name for a card kept in its extensions, if any.
    static func storedName(in extensions: [LabeledValue<String>]) -> String? {
        let prefix = nameProperty + ":"
        return extensions.first { $0.value.hasPrefix(prefix) }.map { String($0.value.dropFirst(prefix.count)) }
    }

    /// The bookkeeping a card keeps besides its own properties (its `UID` among them): its
    /// client's name when that is not its identifier's.
    static func bookkeeping(name: String, identifier: String) -> [LabeledValue<String>] {
        var lines: [LabeledValue<String>] = []
        if name != identifier + ".vcf" {
            lines.append(LabeledValue(label: nil, value: nameProperty + ":" + name))
        }
        return lines
    }

    /// A card's ETag: its contact's revision, which every change moves on.
    static func etag(_ contact: Contact) -> String { "\"\(contact.revision)\"" }

    /// The keys a card is written from: every key a vCard carries, and the note when the
    /// reading client holds the notes entitlement now (as the ledger last recorded it).
    static func keys(for store: ContactStore) -> ContactKeySet {
        var keys = VCardSerialization.descriptorForRequiredKeys()
        if store.currentAccess.notesEntitlement { keys.insert(.note) }
        return keys
    }

    /// The `UID` a client gave a card, kept in its extensions; nil for a card no client wrote.
    static func clientUID(of contact: Contact) -> String? {
        guard contact.isKeyAvailable(.vCardExtensions) else { return nil }
        for item in contact.values.vCardExtensions {
            guard let colon = item.value.firstIndex(of: ":"),
                VCardWriter.groupAndName(of: item.value[..<colon]) == (nil, "UID")
            else { continue }
            return String(item.value[item.value.index(after: colon)...])
        }
        return nil
    }

    /// The contacts of a container the store's client sees, with their revisions.
    static func members(of container: String, in store: ContactStore) throws -> [Contact] {
        var request = ContactFetchRequest(
            keysToFetch: [ContactKeySet([.identifier, .vCardExtensions])],
            predicate: .inContainer(withIdentifier: container))
        request.unifyResults = false
        var contacts: [Contact] = []
        try store.enumerateContacts(with: request) { contact, _ in contacts.append(contact) }
        return contacts
    }

    /// The contact a resource name stands for, with every key its card needs, when it is in
    /// `container` and the client sees it; 404 otherwise.
    static func contact(named name: String, in container: Container, store: ContactStore) throws -> Contact {
        guard let contact = try existingContact(named: name, in: container, store: store) else {
            throw HTTPError(404, "notFound", "there is no card \(name) in this address book")
        }
        return contact
    }

    /// The contact a resource name stands for, when it is in `container` and the client sees
    /// it; nil when there is none. Any other failure (storage, access) is thrown, never taken
    /// for a missing card.
    static func existingContact(named name: String, in container: Container, store: ContactStore) throws -> Contact? {
        let identifier = identifier(forResource: name)
        let contact: Contact
        do {
            contact = try store.unifiedContact(withIdentifier: identifier, keysToFetch: [keys(for: store)])
        } catch let error as ContactStoreError where error.code == .recordDoesNotExist {
            return nil
        }
        let containers = try store.containers(matching: .ofContact(identifier))
        return containers.contains { $0.identifier == container.identifier } ? contact : nil
    }

    /// The vCard version a request asks for: 4.0 when its `Accept` (or the report's
    /// `address-data`) names it, else 3.0.
    static func version(accept: String?) -> VCardVersion {
        guard let accept = accept?.lowercased() else { return .v3_0 }
        return accept.contains("version=4.0") || accept.contains("version=\"4.0\"") ? .v4_0 : .v3_0
    }

    /// A contact's card as text, as its client gave it (its own `UID` and `FN`).
    static func vCard(_ contact: Contact, version: VCardVersion) throws -> String {
        let data = try VCardSerialization.data(with: [contact], version: version, writingClientIdentity: true)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Sync tokens (RFC 6578): the ledger's identity and a sequence, as a URI.
enum CardDAVSyncToken {
    static let prefix = "urn:contacts-ledger:sync:"

    /// The token of the state a store shows now.
    static func current(of store: ContactStore) -> String {
        token(ledger: store.identity.ledgerID, sequence: store.headDigest.sequence)
    }

    /// A token for a ledger and a sequence.
    static func token(ledger: UUID, sequence: UInt64) -> String {
        "\(prefix)\(ledger.uuidString.lowercased()):\(sequence)"
    }

    /// The sequence a token names, when it is a token of this store's ledger no later than its
    /// head; otherwise the `valid-sync-token` precondition fails (403).
    static func sequence(of token: String, in store: ContactStore) throws(HTTPError) -> UInt64 {
        let trimmed = token.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.dropFirst(prefix.count).split(separator: ":")
        guard trimmed.hasPrefix(prefix), parts.count == 2, let ledger = UUID(uuidString: String(parts[0])),
            let sequence = UInt64(parts[1])
        else {
            throw invalid("\(trimmed.prefix(80)) is not a sync token of this server")
        }
        guard ledger == store.identity.ledgerID else { throw invalid("the sync token belongs to another ledger") }
        guard sequence <= store.headDigest.sequence else {
            throw invalid("the sync token names sequence \(sequence), after the ledger's head")
        }
        return sequence
    }

    /// The `valid-sync-token` precondition's failure.
    static func invalid(_ message: String) -> HTTPError {
        HTTPError(403, "valid-sync-token", message + "; sync again from an empty token")
    }
}
