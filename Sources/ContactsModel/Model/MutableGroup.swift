import Foundation
import LedgerStorage

/// A group that can be renamed and then added or updated with a save request.
public struct MutableGroup: Sendable, Hashable {
    /// The identifier, made when the group was first created and kept by copies.
    public let identifier: String
    /// The group's name.
    public var name: String

    /// Creates a new group with a new identifier and the given name.
    public init(name: String = "") {
        self.init(identifier: NewIdentifier.make(), name: name)
    }

    /// Creates a mutable group with an identifier that already exists.
    package init(identifier: String, name: String) {
        self.identifier = identifier
        self.name = name
    }

    /// Returns an immutable copy with the same identifier.
    public func copy() -> Group {
        Group(identifier: identifier, name: name)
    }
}
