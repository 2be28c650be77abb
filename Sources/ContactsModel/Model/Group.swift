import LedgerStorage

/// A named group of contacts within a container, like the framework's `CNGroup`.
public struct Group: Sendable, Hashable {
    /// The identifier, unique among the groups of the address book.
    public let identifier: String
    /// The group's name.
    public let name: String

    /// Creates a group value from stored state; a store or a decoder does this.
    package init(identifier: String, name: String) {
        self.identifier = identifier
        self.name = name
    }

    /// Returns a mutable copy with the same identifier.
    public func mutableCopy() -> MutableGroup {
        MutableGroup(identifier: identifier, name: name)
    }
}
