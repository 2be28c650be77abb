import ContactsLedger
import Foundation

// ContactsCompat: the Contacts framework's public names and behaviour over a `ContactStore`.
//
// Code written for the framework builds here with one changed import line:
//
//     #if canImport(Contacts)
//     import Contacts
//     #else
//     import ContactsCompat
//     #endif
//
// Every class keeps the native value it stands for and converts at the edge, so a fetch through
// this module costs a fetch through the store plus one object per contact. What
// `CNContactStore()` opens, and as which client, is chosen by a ``ContactsReplay`` (decision 0028).

/// Names keys to fetch, like the framework's `CNKeyDescriptor`: the key constants
/// (`CNContactGivenNameKey`, ...) and the descriptors that formatters and
/// ``CNContactVCardSerialization`` return.
public protocol CNKeyDescriptor {
    /// The contact keys the descriptor names; throws ``CNError/Code/unauthorizedKeys`` when it
    /// names none. The store asks each descriptor rather than casting it to each type it knows:
    /// a fetch asks for a few keys every time, and the casts cost more than the fetch's lookup.
    func _contactKeys() throws(CNError) -> ContactKeySet
}

extension CNKeyDescriptor {
    /// A descriptor of a type the framework does not know names no key.
    public func _contactKeys() throws(CNError) -> ContactKeySet {
        throw CNError(.unauthorizedKeys, "\(type(of: self)) is not a contact key descriptor")
    }
}

extension String: CNKeyDescriptor {
    /// The key the string names.
    public func _contactKeys() throws(CNError) -> ContactKeySet { ContactKeySet(try CompatKeys.key(self)) }
}

extension NSString: CNKeyDescriptor {
    /// The key the string names.
    public func _contactKeys() throws(CNError) -> ContactKeySet { ContactKeySet(try CompatKeys.key(self as String)) }
}

extension ContactKeySet: CNKeyDescriptor {
    /// The set itself.
    public func _contactKeys() throws(CNError) -> ContactKeySet { self }
}

/// The name of the exception the framework raises when a property is read that was not fetched;
/// here the program stops with this name and the key in its message.
public let CNContactPropertyNotFetchedExceptionName = "CNPropertyNotFetchedException"

/// The native keys that framework key descriptors name.
enum CompatKeys {
    /// The keys of `descriptors`; a string that names no contact key is refused as the framework
    /// refuses keys an app may not fetch, with ``CNError/Code/unauthorizedKeys`` naming it.
    static func keys(_ descriptors: [any CNKeyDescriptor]) throws(CNError) -> ContactKeySet {
        var keys = ContactKeySet(.identifier)
        for descriptor in descriptors {
            keys.formUnion(try descriptor._contactKeys())
        }
        return keys
    }

    /// Every key by its string: one hash lookup, where `ContactKey(rawValue:)` compares the
    /// string with each key's in turn, on every fetch.
    private static let byString = Dictionary(uniqueKeysWithValues: ContactKey.allCases.map { ($0.rawValue, $0) })

    /// The contact key a framework key string names.
    static func key(_ string: String) throws(CNError) -> ContactKey {
        guard let key = byString[string] else {
            throw CNError(.unauthorizedKeys, "\"\(string)\" is not a contact key", keyPaths: [string])
        }
        return key
    }
}
