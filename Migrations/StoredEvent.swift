/// An event in its stored, weakly typed form: a schema version and a tree of values.
///
/// Upcasters work on this form only, never on the current model types, so a migration that
/// has shipped never has to change when the model changes.
public struct StoredEvent: Sendable, Hashable {
    /// The schema version the event's fields follow.
    public var schemaVersion: UInt16
    /// The event's fields by name.
    public var fields: [String: StoredValue]

    /// Creates a stored event.
    public init(schemaVersion: UInt16, fields: [String: StoredValue]) {
        self.schemaVersion = schemaVersion
        self.fields = fields
    }
}

/// A value inside a stored event.
public indirect enum StoredValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A signed integer.
    case integer(Int64)
    /// A boolean.
    case boolean(Bool)
    /// Raw bytes.
    case bytes([UInt8])
    /// An ordered list of values.
    case list([StoredValue])
    /// Named values.
    case record([String: StoredValue])
    /// No value.
    case null
}

/// Rewrites events of one schema version into the next.
public protocol Upcaster: Sendable {
    /// The version this upcaster reads; it produces `sourceVersion + 1`.
    var sourceVersion: UInt16 { get }
    /// Returns the event rewritten into the next version.
    func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent
}

/// Why an event could not be brought to the current schema version.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The event is newer than this build understands.
    case versionTooNew(found: UInt16, current: UInt16)
    /// No upcaster reads this version.
    case missingUpcaster(version: UInt16)
    /// An upcaster found a field it needs missing or of the wrong kind.
    case malformed(version: UInt16, field: String)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .versionTooNew(let found, let current):
            return "event schema version \(found) is newer than this build's \(current)"
        case .missingUpcaster(let version):
            return "no upcaster reads event schema version \(version)"
        case .malformed(let version, let field):
            return "event of schema version \(version) has a missing or malformed field \(field)"
        }
    }
}

/// The chain of upcasters the event decoder runs stored events through.
public struct UpcasterChain: Sendable {
    /// The schema version current code reads.
    public let currentVersion: UInt16
    private let upcasters: [UInt16: any Upcaster]

    /// Creates a chain; there must be one upcaster for every version below `currentVersion` that can occur.
    public init(currentVersion: UInt16, upcasters: [any Upcaster]) {
        self.currentVersion = currentVersion
        self.upcasters = Dictionary(upcasters.map { ($0.sourceVersion, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether an event of this version can be decoded without any upcasting (the fast path).
    public func isCurrent(_ version: UInt16) -> Bool { version == currentVersion }

    /// Brings an event to the current version, one step at a time.
    public func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
        if event.schemaVersion == currentVersion { return event }
        guard event.schemaVersion < currentVersion else {
            throw MigrationError.versionTooNew(found: event.schemaVersion, current: currentVersion)
        }
        var current = event
        while current.schemaVersion < currentVersion {
            guard let step = upcasters[current.schemaVersion] else {
                throw MigrationError.missingUpcaster(version: current.schemaVersion)
            }
            let next = try step.upcast(current)
            guard next.schemaVersion == current.schemaVersion + 1 else {
                throw MigrationError.malformed(version: current.schemaVersion, field: "schemaVersion")
            }
            current = next
        }
        return current
    }
}
