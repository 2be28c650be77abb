import ContactsLedger
import Foundation

/// The key of `CNGroup.identifier`.
public let CNGroupIdentifierKey = "identifier"
/// The key of `CNGroup.name`.
public let CNGroupNameKey = "name"
/// The key of `CNContainer.identifier`.
public let CNContainerIdentifierKey = "identifier"
/// The key of `CNContainer.name`.
public let CNContainerNameKey = "name"
/// The key of `CNContainer.type`.
public let CNContainerTypeKey = "type"

/// A named group of contacts, like the framework's `CNGroup`; ``CNMutableGroup`` is the one to
/// change and save.
public class CNGroup: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The native group; changed only through ``CNMutableGroup``, which is not thread-safe.
    var native: MutableGroup

    /// Wraps a native group.
    init(native: MutableGroup) { self.native = native }

    /// The identifier, unique among the groups of the address book.
    public var identifier: String { native.identifier }
    /// The group's name.
    public var name: String { native.name }

    /// An immutable copy.
    public func copy(with zone: NSZone? = nil) -> Any { CNGroup(native: native) }
    /// A mutable copy with the same identifier.
    public func mutableCopy(with zone: NSZone? = nil) -> Any { CNMutableGroup(native: native) }
    /// Whether `object` is a group with the same identifier and name.
    public override func isEqual(_ object: Any?) -> Bool { (object as? CNGroup)?.native == native }
    /// A hash of the identifier.
    public override var hash: Int { identifier.hashValue }

    /// The groups with these identifiers.
    public class func predicateForGroups(withIdentifiers identifiers: [String]) -> NSPredicate {
        CompatPredicate(.groups(.withIdentifiers(identifiers)), "groupsWithIdentifiers(\(identifiers))")
    }

    /// The groups of a container.
    public class func predicateForGroupsInContainer(withIdentifier container: String) -> NSPredicate {
        CompatPredicate(.groups(.inContainer(container)), "groupsInContainer(\(container))")
    }

    /// The subgroups of a group (the framework offers it on macOS).
    public class func predicateForSubgroupsInGroup(withIdentifier parent: String) -> NSPredicate {
        CompatPredicate(.groups(.subgroupsOfGroup(parent)), "subgroupsInGroup(\(parent))")
    }
}

/// A group whose name can be changed, like the framework's `CNMutableGroup`.
public final class CNMutableGroup: CNGroup, @unchecked Sendable {
    /// A new group with a new identifier and no name.
    public init() { super.init(native: MutableGroup()) }

    /// Wraps a native group.
    override init(native: MutableGroup) { super.init(native: native) }

    /// The group's name.
    public override var name: String {
        get { native.name }
        set { native.name = newValue }
    }
}

/// The kind of a container, like the framework's `CNContainerType`.
public enum CNContainerType: Int, Sendable, Hashable {
    /// Not assigned.
    case unassigned = 0
    /// The device's local container.
    case local = 1
    /// An Exchange account.
    case exchange = 2
    /// A CardDAV account.
    case cardDAV = 3
}

/// A container of contacts and groups, such as one account, like the framework's `CNContainer`.
public final class CNContainer: NSObject, NSCopying, @unchecked Sendable {
    /// The native container.
    let native: Container

    /// Wraps a native container.
    init(_ native: Container) { self.native = native }

    /// The identifier.
    public var identifier: String { native.identifier }
    /// The display name.
    public var name: String { native.name }
    /// The kind of container.
    public var type: CNContainerType { CNContainerType(rawValue: native.type.rawValue) ?? .unassigned }

    /// The container itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
    /// Whether `object` is the same container.
    public override func isEqual(_ object: Any?) -> Bool { (object as? CNContainer)?.native == native }
    /// A hash of the identifier.
    public override var hash: Int { identifier.hashValue }

    /// The containers with these identifiers.
    public class func predicateForContainers(withIdentifiers identifiers: [String]) -> NSPredicate {
        CompatPredicate(.containers(.withIdentifiers(identifiers)), "containersWithIdentifiers(\(identifiers))")
    }

    /// The container of a contact.
    public class func predicateForContainerOfContact(withIdentifier contact: String) -> NSPredicate {
        CompatPredicate(.containers(.ofContact(contact)), "containerOfContact(\(contact))")
    }

    /// The container of a group.
    public class func predicateForContainerOfGroup(withIdentifier group: String) -> NSPredicate {
        CompatPredicate(.containers(.ofGroup(group)), "containerOfGroup(\(group))")
    }
}
