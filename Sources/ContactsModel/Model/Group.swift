import LedgerStorage

/// A named group of contacts within a container, like the framework's `CNGroup`.
public struct Group: Sendable, Hashable {
    /// The identifier, unique among the groups of the address book.
    public let identifier: String
    /// The group's name.
    public let name: String

    /// Creates a group value from stored state; a store, a decoder, or a layer over the model
    /// that names a group it did not fetch (a change-history event of the framework's names) does this.
    public init(identifier: String, name: String) {
        self.identifier = identifier
        self.name = name
    }

    /// Returns a mutable copy with the same identifier.
    public func mutableCopy() -> MutableGroup {
        MutableGroup(identifier: identifier, name: name)
    }
}
