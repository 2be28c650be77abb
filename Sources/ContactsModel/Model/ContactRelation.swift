import LedgerStorage

/// A related person's name, like the framework's `CNContactRelation`.
///
/// The name is free text, not a reference to another contact; the relation itself (mother,
/// assistant, ...) is the label of the ``LabeledValue`` that holds it.
public struct ContactRelation: Sendable, Hashable {
    /// The related person's name.
    public let name: String

    /// Creates a relation from a name.
    public init(name: String) {
        self.name = name
    }
}
