import LedgerStorage

/// Something that names contact keys to fetch, like the framework's `CNKeyDescriptor`.
///
/// Fetch APIs take `[any KeyDescriptor]`, so callers can mix single keys, key sets and the
/// descriptors that formatters return, as they pass `keysToFetch` to the framework.
public protocol KeyDescriptor: Sendable {
    /// The contact keys this descriptor names.
    var contactKeys: ContactKeySet { get }
}

extension ContactKey: KeyDescriptor {
    /// A set holding this key alone.
    public var contactKeys: ContactKeySet { ContactKeySet(self) }
}

extension ContactKeySet: KeyDescriptor {
    /// The set itself.
    public var contactKeys: ContactKeySet { self }
}
