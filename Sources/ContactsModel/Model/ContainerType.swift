import LedgerStorage

/// The kind of account a container belongs to, with the framework's raw values.
public enum ContainerType: Int, Sendable, Hashable, CaseIterable {
    /// A container whose kind is not known.
    case unassigned = 0
    /// The container kept on this machine.
    case local = 1
    /// A container backed by an Exchange account.
    case exchange = 2
    /// A container backed by a CardDAV account.
    case cardDAV = 3
}
