import ContactsLedger
import Foundation

/// Receives change-history events by kind, like the framework's `CNChangeHistoryEventVisitor`:
/// the four contact events are required, the group events have empty defaults.
public protocol CNChangeHistoryEventVisitor: NSObjectProtocol {
    /// Forget everything cached; the events after it describe the whole store.
    func visit(_ event: CNChangeHistoryDropEverythingEvent)
    /// A contact was added.
    func visit(_ event: CNChangeHistoryAddContactEvent)
    /// A contact was changed.
    func visit(_ event: CNChangeHistoryUpdateContactEvent)
    /// A contact was deleted.
    func visit(_ event: CNChangeHistoryDeleteContactEvent)
    /// A group was added.
    func visit(_ event: CNChangeHistoryAddGroupEvent)
    /// A group was changed.
    func visit(_ event: CNChangeHistoryUpdateGroupEvent)
    /// A group was deleted.
    func visit(_ event: CNChangeHistoryDeleteGroupEvent)
    /// A contact joined a group.
    func visit(_ event: CNChangeHistoryAddMemberToGroupEvent)
    /// A contact left a group.
    func visit(_ event: CNChangeHistoryRemoveMemberFromGroupEvent)
    /// A group became a subgroup.
    func visit(_ event: CNChangeHistoryAddSubgroupToGroupEvent)
    /// A group stopped being a subgroup.
    func visit(_ event: CNChangeHistoryRemoveSubgroupFromGroupEvent)
}

extension CNChangeHistoryEventVisitor {
    /// Ignores a group event, as a visitor that does not implement the optional method does.
    public func visit(_ event: CNChangeHistoryAddGroupEvent) {}
    /// Ignores a group event.
    public func visit(_ event: CNChangeHistoryUpdateGroupEvent) {}
    /// Ignores a group event.
    public func visit(_ event: CNChangeHistoryDeleteGroupEvent) {}
    /// Ignores a membership event.
    public func visit(_ event: CNChangeHistoryAddMemberToGroupEvent) {}
    /// Ignores a membership event.
    public func visit(_ event: CNChangeHistoryRemoveMemberFromGroupEvent) {}
    /// Ignores a subgroup event.
    public func visit(_ event: CNChangeHistoryAddSubgroupToGroupEvent) {}
    /// Ignores a subgroup event.
    public func visit(_ event: CNChangeHistoryRemoveSubgroupFromGroupEvent) {}
}

/// One change-history event, like the framework's `CNChangeHistoryEvent`; dispatch on it with
/// ``accept(_:)`` and a visitor, not by its class.
public class CNChangeHistoryEvent: NSObject, NSCopying, @unchecked Sendable {
    /// Calls the visitor's method for this event's kind.
    public func accept(_ visitor: any CNChangeHistoryEventVisitor) {}

    /// The event itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// The framework event for a native one, or nil for a kind the framework does not publish
    /// (linking contacts).
    static func make(_ event: ChangeHistoryEvent, mutable: Bool) -> CNChangeHistoryEvent? {
        let contact = { (native: Contact) in
            mutable ? CNMutableContact(native: native.mutableCopy()) : CNContact(native)
        }
        let group = { (native: Group) in
            mutable ? CNMutableGroup(native: native.mutableCopy()) : CNGroup(native: native.mutableCopy())
        }
        switch event {
        case .dropEverything: return CNChangeHistoryDropEverythingEvent()
        case .addContact(let native, let container):
            return CNChangeHistoryAddContactEvent(contact(native), containerIdentifier: container)
        case .updateContact(let native): return CNChangeHistoryUpdateContactEvent(contact(native))
        case .deleteContact(let identifier): return CNChangeHistoryDeleteContactEvent(identifier)
        case .addGroup(let native, let container):
            return CNChangeHistoryAddGroupEvent(group(native), containerIdentifier: container)
        case .updateGroup(let native): return CNChangeHistoryUpdateGroupEvent(group(native))
        case .deleteGroup(let identifier): return CNChangeHistoryDeleteGroupEvent(identifier)
        default: return makeMembership(event, contact: contact, group: group)
        }
    }

    /// The framework event for a native membership or subgroup event, naming objects by identifier.
    private static func makeMembership(
        _ event: ChangeHistoryEvent, contact: (Contact) -> CNContact, group: (Group) -> CNGroup
    ) -> CNChangeHistoryEvent? {
        func named(_ identifier: String) -> CNGroup { group(Group(identifier: identifier, name: "")) }
        switch event {
        case .addMember(let member, let target):
            return CNChangeHistoryAddMemberToGroupEvent(contact(Contact(identifier: member)), named(target))
        case .removeMember(let member, let target):
            return CNChangeHistoryRemoveMemberFromGroupEvent(contact(Contact(identifier: member)), named(target))
        case .addSubgroup(let subgroup, let parent):
            return CNChangeHistoryAddSubgroupToGroupEvent(named(subgroup), named(parent))
        case .removeSubgroup(let subgroup, let parent):
            return CNChangeHistoryRemoveSubgroupFromGroupEvent(named(subgroup), named(parent))
        default: return nil
        }
    }
}

/// Forget everything cached: the events after it add every contact (and group) there is.
public final class CNChangeHistoryDropEverythingEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A contact was added.
public final class CNChangeHistoryAddContactEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The contact as it is now, with the identifier and the requested keys.
    public let contact: CNContact
    /// The container it was added to.
    public let containerIdentifier: String?
    /// An event.
    init(_ contact: CNContact, containerIdentifier: String?) {
        self.contact = contact
        self.containerIdentifier = containerIdentifier
    }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A contact was changed.
public final class CNChangeHistoryUpdateContactEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The contact as it is now.
    public let contact: CNContact
    /// An event.
    init(_ contact: CNContact) { self.contact = contact }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A contact was deleted.
public final class CNChangeHistoryDeleteContactEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The deleted contact's identifier.
    public let contactIdentifier: String
    /// An event.
    init(_ identifier: String) { contactIdentifier = identifier }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A group was added.
public final class CNChangeHistoryAddGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The group as it is now.
    public let group: CNGroup
    /// The container it was added to.
    public let containerIdentifier: String
    /// An event.
    init(_ group: CNGroup, containerIdentifier: String) {
        self.group = group
        self.containerIdentifier = containerIdentifier
    }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A group was changed.
public final class CNChangeHistoryUpdateGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The group as it is now.
    public let group: CNGroup
    /// An event.
    init(_ group: CNGroup) { self.group = group }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A group was deleted.
public final class CNChangeHistoryDeleteGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The deleted group's identifier.
    public let groupIdentifier: String
    /// An event.
    init(_ identifier: String) { groupIdentifier = identifier }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A contact joined a group; both are named by identifier alone.
public final class CNChangeHistoryAddMemberToGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The contact.
    public let member: CNContact
    /// The group.
    public let group: CNGroup
    /// An event.
    init(_ member: CNContact, _ group: CNGroup) {
        self.member = member
        self.group = group
    }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A contact left a group; both are named by identifier alone.
public final class CNChangeHistoryRemoveMemberFromGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The contact.
    public let member: CNContact
    /// The group.
    public let group: CNGroup
    /// An event.
    init(_ member: CNContact, _ group: CNGroup) {
        self.member = member
        self.group = group
    }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A group became a subgroup; both are named by identifier alone.
public final class CNChangeHistoryAddSubgroupToGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The subgroup.
    public let subgroup: CNGroup
    /// The parent group.
    public let group: CNGroup
    /// An event.
    init(_ subgroup: CNGroup, _ group: CNGroup) {
        self.subgroup = subgroup
        self.group = group
    }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A group stopped being a subgroup; both are named by identifier alone.
public final class CNChangeHistoryRemoveSubgroupFromGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The subgroup.
    public let subgroup: CNGroup
    /// The parent group.
    public let group: CNGroup
    /// An event.
    init(_ subgroup: CNGroup, _ group: CNGroup) {
        self.subgroup = subgroup
        self.group = group
    }
    /// Calls `visitor.visit(self)`.
    public override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}
