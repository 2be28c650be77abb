import ContactsLedger
import Foundation

extension CNContactStore {
    /// The contacts a predicate selects, with the keys asked for; an empty array when none
    /// matches. Throws ``CNError/Code/predicateInvalid`` for a predicate that is not one of
    /// `CNContact`'s and ``CNError/Code/unauthorizedKeys`` for a key the app may not fetch.
    public func unifiedContacts(
        matching predicate: NSPredicate, keysToFetch keys: [any CNKeyDescriptor]
    ) throws -> [CNContact] {
        let contactPredicate = try CompatPredicate.contacts(predicate)
        let keySet = try CompatKeys.keys(keys)
        return try CNError.mapping {
            try native.unifiedContacts(matching: contactPredicate, keysToFetch: [keySet]).map(CNContact.init)
        }
    }

    /// The contact with an identifier, with the keys asked for; throws
    /// ``CNError/Code/recordDoesNotExist`` when there is none.
    public func unifiedContact(
        withIdentifier identifier: String, keysToFetch keys: [any CNKeyDescriptor]
    ) throws -> CNContact {
        let keySet = try CompatKeys.keys(keys)
        return try CNError.mapping {
            CNContact(try native.unifiedContact(withIdentifier: identifier, keysToFetch: [keySet]))
        }
    }

    /// The contacts a fetch request selects, in its order, as the objects it asks for.
    func contacts(for fetchRequest: CNContactFetchRequest) throws(CNError) -> [CNContact] {
        let request = try fetchRequest.nativeRequest()
        var contacts: [CNContact] = []
        try CNError.mapping {
            try native.enumerateContacts(with: request) { contact, _ in
                let copy = contact.mutableCopy()
                contacts.append(fetchRequest.mutableObjects ? CNMutableContact(native: copy) : CNContact(native: copy))
            }
        }
        return contacts
    }

    /// The groups a `CNGroup` predicate selects; all groups when nil.
    public func groups(matching predicate: NSPredicate?) throws -> [CNGroup] {
        let groupPredicate = try predicate.map(CompatPredicate.groups)
        return try CNError.mapping {
            try native.groups(matching: groupPredicate).map { CNGroup(native: $0.mutableCopy()) }
        }
    }

    /// The containers a `CNContainer` predicate selects; all containers when nil.
    public func containers(matching predicate: NSPredicate?) throws -> [CNContainer] {
        let containerPredicate = try predicate.map(CompatPredicate.containers)
        return try CNError.mapping { try native.containers(matching: containerPredicate).map(CNContainer.init) }
    }
}
