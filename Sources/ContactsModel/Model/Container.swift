import LedgerStorage

/// A collection that holds contacts and groups, such as one account, like `CNContainer`.
///
/// A contact belongs to exactly one container. Containers are made and named by the store,
/// so this type has no public initializer and no mutable counterpart.
public struct Container: Sendable, Hashable {
    /// The identifier, unique among the containers of the address book.
    public let identifier: String
    /// The display name.
    public let name: String
    /// The kind of account the container belongs to.
    public let type: ContainerType

    /// Creates a container value; only a store does this.
    package init(identifier: String, name: String, type: ContainerType) {
        self.identifier = identifier
        self.name = name
        self.type = type
    }
}
