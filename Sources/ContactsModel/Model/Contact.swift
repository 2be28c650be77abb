import Foundation
import LedgerStorage

/// An immutable contact, like the framework's `CNContact`, possibly partial.
///
/// A contact handed out by a store holds only the keys that were asked for
/// (``availableKeys``). Reading a property whose key is not available stops the program with
/// a message naming the key, as the framework raises `CNPropertyNotFetchedException`: a
/// missing value is a programming error, never a silent empty string. The identifier is
/// always available. Use ``isKeyAvailable(_:)`` or ``areKeysAvailable(_:)`` to check first.
///
/// String properties are never optional: an empty string means absent, as in the framework.
/// Two contacts are equal when their identifier, available keys, values and store revision
/// are equal.
public struct Contact: Sendable, Hashable {
    /// The identifier, unique among the contacts of the address book and always available.
    public let identifier: String

    /// The keys whose values this contact holds; always includes ``ContactKey/identifier``.
    public let availableKeys: ContactKeySet

    /// The values; those of unavailable keys are the defaults.
    package let values: ContactValues

    /// The store's revision of this contact when it was handed out, or 0 for a contact that
    /// no store has saved.
    package var revision: UInt64

    /// The largest image, in bytes, that serves as its own thumbnail.
    ///
    /// This package has no image codec, so it cannot scale images down. The rule is: the
    /// thumbnail is the image data itself when that is at most this many bytes (64 KiB, the
    /// size of a typical JPEG thumbnail), and nil for a larger image, so that code which
    /// shows thumbnails in a list never loads a full-size photo by accident.
    public static let thumbnailImageDataBytesMax = 64 * 1024

    /// Creates a contact from stored values; a store or a decoder does this.
    ///
    /// The identifier key is always added to the available keys, and the values of
    /// unavailable keys are cleared, so a partial contact carries nothing it was not fetched
    /// with.
    package init(
        identifier: String, values: ContactValues, availableKeys: ContactKeySet,
        revision: UInt64 = 0
    ) {
        let keys = availableKeys.union(ContactKeySet(.identifier))
        self.identifier = identifier
        self.availableKeys = keys
        self.values = keys == .all ? values : values.keeping(keys)
        self.revision = revision
    }

    /// Creates a contact from values that hold nothing outside the available keys, as the
    /// projection decodes them for a fetch, without clearing them a second time.
    package init(
        identifier: String, limitedValues values: ContactValues, availableKeys: ContactKeySet, revision: UInt64
    ) {
        let keys = availableKeys.union(ContactKeySet(.identifier))
        assert(values == values.keeping(keys), "values outside the available keys")
        self.identifier = identifier
        self.availableKeys = keys
        self.values = values
        self.revision = revision
    }

    /// A contact that holds its identifier and no other key, as a change-history event names a
    /// contact that may since have been deleted.
    public init(identifier: String) {
        self.init(identifier: identifier, values: ContactValues(), availableKeys: ContactKeySet(.identifier))
    }

    /// Returns a mutable copy with the same identifier, available keys and revision, which
    /// remembers these values as the ones it started from.
    public func mutableCopy() -> MutableContact {
        // The values already hold nothing outside the available keys, so they are not cleared
        // again: a copy per fetched contact is what the framework's names (ContactsCompat) pay.
        MutableContact(identifier: identifier, limitedValues: values, availableKeys: availableKeys, revision: revision)
    }

    /// Stops the program unless the key is available.
    func require(_ key: ContactKey) {
        if !availableKeys.contains(key) {
            contactPropertyNotFetched(key, in: "Contact")
        }
    }
}
