import LedgerStorage

/// Identifiers for new contacts, groups and labeled values: random version 4 UUIDs in their
/// canonical upper-case text, as the Contacts framework makes them, drawn without Foundation's
/// per-call `/dev/urandom` read and written without its `sprintf` per byte (``RandomUUID``).
package enum NewIdentifier {
    /// A new identifier.
    package static func make() -> String { RandomUUID.makeString() }
}
