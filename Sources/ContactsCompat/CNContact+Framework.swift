import ContactsLedger
import Foundation

extension CNContact {
    /// Whether the contact holds the value of a key; false for a string that names no key.
    public func isKeyAvailable(_ key: String) -> Bool {
        ContactKey(rawValue: key).map(native.isKeyAvailable) ?? false
    }

    /// Whether the contact holds the values of every key the descriptors name; false when one
    /// names no key.
    public func areKeysAvailable(_ keyDescriptors: [any CNKeyDescriptor]) -> Bool {
        guard let keys = try? CompatKeys.keys(keyDescriptors) else { return false }
        return native.availableKeys.isSuperset(of: keys)
    }

    /// The display name of a contact key, or the key itself when it names none.
    public class func localizedString(forKey key: String) -> String {
        ContactKey(rawValue: key).map(Contact.localizedString(forKey:)) ?? key
    }

    /// Whether this contact is, or is unified with, the contact with this identifier; false for
    /// an empty identifier.
    public func isUnifiedWithContact(withIdentifier contactIdentifier: String) -> Bool {
        !contactIdentifier.isEmpty && contactIdentifier == identifier
    }

    /// An immutable copy with the same identifier and fetched keys.
    public func copy(with zone: NSZone? = nil) -> Any { CNContact(native: native) }

    /// A mutable copy with the same identifier and fetched keys, which may change only those keys.
    public func mutableCopy(with zone: NSZone? = nil) -> Any { CNMutableContact(native: native) }

    /// Wraps a contact a store handed out.
    convenience init(_ contact: Contact) { self.init(native: contact.mutableCopy()) }
}

/// Identifiers as UUIDs, for `Identifiable`.
enum CompatIdentifiers {
    /// The identifier itself when it is a UUID, otherwise a version-4-shaped UUID made from two
    /// FNV-1a hashes of its bytes, the same for the same identifier.
    static func uuid(for identifier: String) -> UUID {
        if let uuid = UUID(uuidString: identifier) { return uuid }
        var bytes: [UInt8] = []
        for seed: UInt64 in [0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4] {
            var hash = seed
            for byte in identifier.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: hash >> ($0 * 8)) }
        }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
