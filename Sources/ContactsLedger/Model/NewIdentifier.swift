import LedgerStorage

/// Identifiers for new contacts, groups and labeled values: random version 4 UUIDs in their
/// canonical upper-case text, as the Contacts framework makes them, drawn without Foundation's
/// per-call `/dev/urandom` read (``RandomUUID``) and written by the event codec's own formatter
/// (``CompactFields/identifier(fromUUIDBytes:)``) rather than Foundation's, which formats each
/// byte with `sprintf`.
enum NewIdentifier {
    /// A new identifier.
    static func make() -> String {
        let uuid = RandomUUID.make().uuid
        return withUnsafeBytes(of: uuid) { raw in
            // Sixteen bytes, so the formatter always answers.
            raw.withMemoryRebound(to: UInt8.self) { CompactFields.identifier(fromUUIDBytes: $0) } ?? ""
        }
    }
}
