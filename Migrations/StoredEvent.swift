import LedgerStorage

/// An event in its stored, weakly typed form: the schema version its fields follow and its
/// top-level message.
///
/// Upcasters work on this form only, never on the current model types, so a migration that has
/// shipped never has to change when the model changes.
public struct StoredEvent: Sendable, Hashable {
    /// The schema version the event's fields follow.
    public var schemaVersion: UInt16
    /// The event's top-level message.
    public var message: StoredMessage

    /// Creates a stored event.
    public init(schemaVersion: UInt16, message: StoredMessage) {
        self.schemaVersion = schemaVersion
        self.message = message
    }

    /// Parses a stored event from a payload's bytes.
    public init(schemaVersion: UInt16, parsing payload: [UInt8]) throws(WireFormatError) {
        self.init(schemaVersion: schemaVersion, message: try WireDecoder.decode(payload))
    }
}
