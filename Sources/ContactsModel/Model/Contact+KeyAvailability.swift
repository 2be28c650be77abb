import LedgerStorage

extension Contact {
    /// Whether the contact holds the value of a key (`identifier` is always available).
    public func isKeyAvailable(_ key: ContactKey) -> Bool {
        availableKeys.contains(key)
    }

    /// Whether the contact holds the values of every key the descriptors name.
    public func areKeysAvailable(_ keyDescriptors: [any KeyDescriptor]) -> Bool {
        availableKeys.isSuperset(of: ContactKeySet(descriptors: keyDescriptors))
    }
}

extension MutableContact {
    /// Whether the contact holds, and may change, the value of a key.
    public func isKeyAvailable(_ key: ContactKey) -> Bool {
        availableKeys.contains(key)
    }

    /// Whether the contact holds the values of every key the descriptors name.
    public func areKeysAvailable(_ keyDescriptors: [any KeyDescriptor]) -> Bool {
        availableKeys.isSuperset(of: ContactKeySet(descriptors: keyDescriptors))
    }
}

/// Stops the program because a contact property was used without its key having been
/// fetched, as the framework raises `CNPropertyNotFetchedException`.
///
/// This is a programming error, not an operating one, so it is not thrown: like an array
/// index out of range, it must be fixed in the calling code (by adding the key to
/// `keysToFetch`), not handled. The message names the key, so the fix is obvious.
func contactPropertyNotFetched(_ key: ContactKey, in typeName: String) -> Never {
    fatalError(
        "\(typeName) property \"\(key.rawValue)\" was not fetched; "
            + "add ContactKey.\(key.rawValue) to keysToFetch")
}
