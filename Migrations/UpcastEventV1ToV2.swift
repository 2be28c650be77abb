/// Brings an event of schema version 1 to version 2.
///
/// Version 2 only adds compact alternatives to text fields (identifiers as 16 UUID bytes,
/// standard labels as numbers, each in a field of its own), and a version 2 decoder still reads
/// every version 1 field with its version 1 meaning. So a version 1 event is already a valid
/// version 2 event: the upcast keeps every field and changes only the version. It exists so that
/// the chain has a step for version 1, and so that a build that knows only version 1 refuses
/// version 2 payloads (whose compact fields it would skip) instead of misreading them.
public struct UpcastEventV1ToV2: Upcaster {
    /// Creates the upcaster.
    public init() {}

    /// Version 1.
    public var sourceVersion: UInt16 { 1 }

    /// The same fields, as version 2.
    public func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        StoredEvent(schemaVersion: 2, message: event.message)
    }
}
