import LedgerStorage

/// Rewrites events of one schema version into the next.
///
/// An upcaster reads and writes the stored form by field number, never the model types; once
/// shipped it is never edited, since ledgers written by that version exist somewhere.
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
    /// The upcaster for `version` produced an event of another version than `version + 1`.
    case stepDidNotAdvance(version: UInt16, produced: UInt16)
    /// An upcaster found a field it needs missing or of the wrong kind.
    case malformed(version: UInt16, field: UInt32, reason: String)
    /// Bytes an upcaster parsed as a nested message are not a well-formed message.
    case wireFormat(WireFormatError)
    /// A field an upcaster rewrites as a nested message holds a varint.
    case notAMessage(field: UInt32)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .versionTooNew(let found, let current):
            "event schema version \(found) is newer than this build's \(current)"
        case .missingUpcaster(let version):
            "no upcaster reads event schema version \(version)"
        case .stepDidNotAdvance(let version, let produced):
            "the upcaster for event schema version \(version) produced version \(produced), not \(Int(version) + 1)"
        case .malformed(let version, let field, let reason):
            "event of schema version \(version) has a malformed field \(field): \(reason)"
        case .wireFormat(let error):
            "a nested message is malformed: \(error)"
        case .notAMessage(let field):
            "field \(field) holds a varint where a nested message was expected"
        }
    }
}

/// The chain of upcasters that brings a stored event of any older schema version to the current one.
///
/// Events of the current version take the fast path and are not touched; older ones go through
/// one upcaster per version, in order, each checked to advance the version by exactly one.
public struct UpcasterChain: Sendable {
    /// The schema version current code reads.
    public let currentVersion: UInt16
    /// The upcasters by the version they read. Private, so every chain has passed the checks of
    /// `init`: one upcaster per version, each reading a version below the current one.
    private let upcasters: [UInt16: any Upcaster]

    /// Creates a chain; there must be one upcaster for every version below `currentVersion` that
    /// can occur in a ledger.
    ///
    /// Two upcasters for one version, or one reading `currentVersion` or later, are a programming
    /// error and stop the program.
    public init(currentVersion: UInt16, upcasters: [any Upcaster]) {
        var byVersion: [UInt16: any Upcaster] = [:]
        for upcaster in upcasters {
            precondition(
                upcaster.sourceVersion < currentVersion,
                "an upcaster reads version \(upcaster.sourceVersion), not below the current \(currentVersion)")
            precondition(
                byVersion.updateValue(upcaster, forKey: upcaster.sourceVersion) == nil,
                "two upcasters read version \(upcaster.sourceVersion)")
        }
        self.currentVersion = currentVersion
        self.upcasters = byVersion
    }

    /// The versions the chain has an upcaster for, in ascending order.
    public var sourceVersions: [UInt16] { upcasters.keys.sorted() }

    /// Whether an event of this version can be decoded without any upcasting (the fast path).
    public func isCurrent(_ version: UInt16) -> Bool { version == currentVersion }

    /// Checks that an event of this version can be read at all: it is not newer than the current
    /// version, and every step from it to the current one has an upcaster.
    public func checkReadable(_ version: UInt16) throws(MigrationError) {
        guard version <= currentVersion else {
            throw MigrationError.versionTooNew(found: version, current: currentVersion)
        }
        for step in version..<currentVersion where upcasters[step] == nil {
            throw MigrationError.missingUpcaster(version: step)
        }
    }

    /// Brings an event to the current version, one step at a time; an event of the current
    /// version is returned unchanged.
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
                throw MigrationError.stepDidNotAdvance(version: current.schemaVersion, produced: next.schemaVersion)
            }
            current = next
        }
        return current
    }
}
