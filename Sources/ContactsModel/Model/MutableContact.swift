import Foundation
import LedgerStorage

/// A contact whose properties can be changed and then saved, like `CNMutableContact`.
///
/// `MutableContact()` makes a new contact: a new identifier and every key available. A
/// mutable copy of a fetched contact (``Contact/mutableCopy()``) keeps its identifier and its
/// available keys, and reading or setting a property whose key is not available stops the
/// program with a message naming the key: "You may modify only those properties whose values
/// you fetched". To clear a value, set a string or an array to empty and anything else to
/// nil, as in the framework.
///
/// The contact remembers the values it was copied from, so that a store can save only the
/// keys that changed and never overwrite the keys it was not given. Two mutable contacts are
/// equal when their identifier, available keys, values, starting values and revision are
/// equal.
public struct MutableContact: Sendable, Hashable {
    /// The identifier, made when the contact was created and kept by every copy.
    public let identifier: String

    /// The keys whose values this contact holds and may change; always includes
    /// ``ContactKey/identifier``.
    public let availableKeys: ContactKeySet

    /// The current values; those of unavailable keys are the defaults.
    package var values: ContactValues

    /// The values this contact was copied from, or nil for a new contact.
    package let base: ContactValues?

    /// The store's revision of the contact this one was copied from, or 0 for a new contact.
    package var revision: UInt64

    /// Creates a new, empty contact with a new identifier and every key available.
    public init() {
        self.init(
            identifier: NewIdentifier.make(), values: ContactValues(), availableKeys: .all,
            base: nil, revision: 0)
    }

    /// Creates a mutable contact from stored values; a store or a decoder does this.
    ///
    /// The identifier key is always added to the available keys, and the values of
    /// unavailable keys are cleared, in both the current and the starting values.
    package init(
        identifier: String, values: ContactValues, availableKeys: ContactKeySet,
        base: ContactValues?, revision: UInt64 = 0
    ) {
        let keys = availableKeys.union(ContactKeySet(.identifier))
        self.identifier = identifier
        self.availableKeys = keys
        self.values = keys == .all ? values : values.keeping(keys)
        self.base = keys == .all ? base : base?.keeping(keys)
        self.revision = revision
    }

    /// Creates a mutable copy of values that hold nothing outside the available keys (a
    /// contact's own, which always include the identifier), starting from them, without
    /// clearing them again.
    package init(
        identifier: String, limitedValues values: ContactValues, availableKeys: ContactKeySet, revision: UInt64
    ) {
        assert(availableKeys.contains(.identifier) && values == values.keeping(availableKeys))
        self.identifier = identifier
        self.availableKeys = availableKeys
        self.values = values
        self.base = values
        self.revision = revision
    }

    /// Returns an immutable copy with the same identifier, available keys and revision; the
    /// values hold only available keys (every setter checks its key), so they are not cleared again.
    public func copy() -> Contact {
        Contact(identifier: identifier, limitedValues: values, availableKeys: availableKeys, revision: revision)
    }

    /// Stops the program unless the key is available.
    func require(_ key: ContactKey) {
        if !availableKeys.contains(key) {
            contactPropertyNotFetched(key, in: "MutableContact")
        }
    }
}
