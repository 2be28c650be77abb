import ContactsModel
import LedgerStorage

/// The field numbers of the journal's event payload, schema version 2, message by message.
///
/// `Documentation/EventSchema.md` is the contract these enums and the field numbers of
/// ``ContactKeyTable`` implement; the golden test in `Tests/ContactsLedgerTests/Events` fails if
/// the bytes they produce ever change. Every number is written out: a number that has shipped is never reused or renumbered, and a field that is no
/// longer written keeps its number, retired, so that old payloads never read as something else.
package enum EventSchema {
    /// The top-level message of a payload: the operations, in the order they were applied.
    enum EventField: UInt32, CaseIterable {
        case operations = 1
    }

    /// One operation: exactly one of these fields, holding that operation's message.
    enum OperationField: UInt32, CaseIterable {
        case addContact = 1
        case updateContact = 2
        case deleteContact = 3
        case addGroup = 4
        case updateGroup = 5
        case deleteGroup = 6
        case addMember = 7
        case removeMember = 8
        case addSubgroup = 9
        case removeSubgroup = 10
        case addContainer = 11
        case grantAccess = 12
        case revokeAccess = 13
        case setAuthorization = 14
        /// A SetAuthorization message without a status.
        case requestAccess = 15
        /// The record undoes another.
        case undo = 16
        /// Contacts linked into one link set.
        case linkContacts = 18
        /// A contact taken out of its link set.
        case unlinkContact = 19
        /// A recorded redaction, or in a redacted record the stand-in for a removed operation.
        case redaction = 20
    }

    /// ``LedgerOperation/addContact(identifier:containerIdentifier:createdBy:values:)``.
    enum AddContactField: UInt32, CaseIterable {
        case identifier = 1
        case containerIdentifier = 2
        case createdBy = 3
        /// A Contact message.
        case values = 4
        /// Version 2: the identifier as 16 UUID bytes, instead of `identifier`.
        case identifierUUID = 5
        /// Version 2: the container identifier as 16 UUID bytes, instead of `containerIdentifier`.
        case containerIdentifierUUID = 6
    }

    /// ``LedgerOperation/updateContact(identifier:keys:old:new:)``; the key set is the one both
    /// Contact messages carry, and they must agree.
    enum UpdateContactField: UInt32, CaseIterable {
        case identifier = 1
        /// A Contact message.
        case old = 2
        /// A Contact message.
        case new = 3
        /// Version 2: the identifier as 16 UUID bytes, instead of `identifier`.
        case identifierUUID = 4
    }

    /// ``LedgerOperation/deleteContact(identifier:containerIdentifier:createdBy:groupIdentifiers:last:)``.
    enum DeleteContactField: UInt32, CaseIterable {
        case identifier = 1
        case containerIdentifier = 2
        case createdBy = 3
        /// Repeated.
        case groupIdentifiers = 4
        /// A Contact message.
        case last = 5
        /// Version 2: the identifier as 16 UUID bytes, instead of `identifier`.
        case identifierUUID = 6
        /// Version 2: the container identifier as 16 UUID bytes, instead of `containerIdentifier`.
        case containerIdentifierUUID = 7
    }

    /// ``LedgerOperation/addGroup(identifier:containerIdentifier:name:)``.
    enum AddGroupField: UInt32, CaseIterable {
        case identifier = 1
        case containerIdentifier = 2
        case name = 3
    }

    /// ``LedgerOperation/updateGroup(identifier:oldName:newName:)``.
    enum UpdateGroupField: UInt32, CaseIterable {
        case identifier = 1
        case oldName = 2
        case newName = 3
    }

    /// ``LedgerOperation/deleteGroup(identifier:containerIdentifier:name:memberIdentifiers:subgroupIdentifiers:parentGroupIdentifiers:)``.
    enum DeleteGroupField: UInt32, CaseIterable {
        case identifier = 1
        case containerIdentifier = 2
        case name = 3
        /// Repeated.
        case memberIdentifiers = 4
        /// Repeated.
        case subgroupIdentifiers = 5
        /// Repeated.
        case parentGroupIdentifiers = 6
    }

    /// ``LedgerOperation/addMember(contactIdentifier:groupIdentifier:)`` and
    /// ``LedgerOperation/removeMember(contactIdentifier:groupIdentifier:)``.
    enum MembershipField: UInt32, CaseIterable {
        case contactIdentifier = 1
        case groupIdentifier = 2
    }

    /// ``LedgerOperation/addSubgroup(groupIdentifier:parentGroupIdentifier:)`` and
    /// ``LedgerOperation/removeSubgroup(groupIdentifier:parentGroupIdentifier:)``.
    enum SubgroupField: UInt32, CaseIterable {
        case groupIdentifier = 1
        case parentGroupIdentifier = 2
    }

    /// ``LedgerOperation/addContainer(identifier:name:type:isDefault:)``.
    enum AddContainerField: UInt32, CaseIterable {
        case identifier = 1
        case name = 2
        /// ``ContainerType``'s raw value; absent means 0, unassigned.
        case type = 3
        /// 0 or 1; absent means false.
        case isDefault = 4
    }

    /// ``LedgerOperation/setAuthorization(clientIdentifier:status:notesEntitlement:)``, and
    /// ``LedgerOperation/requestAccess(clientIdentifier:notesEntitlement:)`` without `status`.
    enum SetAuthorizationField: UInt32, CaseIterable {
        case clientIdentifier = 1
        /// ``AuthorizationStatus``'s raw value; absent means 0, not determined.
        case status = 2
        /// 0 or 1; absent means false.
        case notesEntitlement = 3
    }

    /// ``LedgerOperation/grantAccess(clientIdentifier:contactIdentifiers:)`` and
    /// ``LedgerOperation/revokeAccess(clientIdentifier:contactIdentifiers:)``.
    enum AccessField: UInt32, CaseIterable {
        case clientIdentifier = 1
        /// Repeated.
        case contactIdentifiers = 2
    }

    /// ``LedgerOperation/undo(kind:sequence:)``.
    enum UndoField: UInt32, CaseIterable {
        /// The sequence the undo names: the record undone, or the point restored to.
        case sequence = 1
        /// ``UndoKind``'s raw value.
        case kind = 2
    }

    /// ``LedgerOperation/redaction(_:)`` and ``LedgerOperation/redacted(_:)``: a stand-in has
    /// `redactedKind`, `contactIdentifier` and, for an add, `containerIdentifier` and `createdBy`.
    enum RedactionField: UInt32, CaseIterable {
        /// The redacted record.
        case sequence = 1
        /// The contact whose operations were redacted (or that the stand-in's operation concerned).
        case contactIdentifier = 2
        case reason = 3
        /// 0 or 1; absent means false.
        case erased = 4
        /// 32 bytes: SHA-256 of the payload the redaction left in the record.
        case remainingDigest = 5
        /// A stand-in only: ``RedactedKind``'s raw value, the field number of the operation removed.
        case redactedKind = 6
        /// A stand-in for an add only: the contact's container.
        case containerIdentifier = 7
        /// A stand-in for an add only: the client that created the contact.
        case createdBy = 8
    }

    /// ``LedgerOperation/linkContacts(contactIdentifiers:)``.
    enum LinkContactsField: UInt32, CaseIterable {
        /// Repeated: the whole link set after the link, in link order.
        case contactIdentifiers = 1
    }

    /// ``LedgerOperation/unlinkContact(contactIdentifier:linkedIdentifiers:)``.
    enum UnlinkContactField: UInt32, CaseIterable {
        case contactIdentifier = 1
        /// Repeated: the contacts it was linked to, in link order.
        case linkedIdentifiers = 2
    }

    /// A contact's values for a key set. Only the set's keys are written, and a value equal to
    /// its default (empty, nil, `.person`) is left out. Field 1 is the key set; every other field
    /// holds one key's value, under the number that key's row in ``ContactKeyTable`` gives it
    /// (the commonest keys have numbers below 16, whose keys take one byte).
    enum ContactField: UInt32, CaseIterable {
        /// ``ContactKeySet/rawValue``: which keys the message holds values for, defaults included.
        case keys = 1
    }

    /// A labeled value of any kind.
    enum LabeledValueField: UInt32, CaseIterable {
        case identifier = 1
        /// Absent means no label (nil); present and empty means the empty label.
        case label = 2
        /// A string or a message, by the kind of value.
        case value = 3
        /// Version 2: the identifier as 16 UUID bytes, instead of `identifier`.
        case identifierUUID = 4
        /// Version 2: a standard label by its number (``CompactFields/standardLabels``), instead of `label`.
        case standardLabel = 5
    }

    /// A `DateComponents`: every component that is set, and only those. Integers are zigzagged.
    enum DateComponentsField: UInt32, CaseIterable {
        /// The calendar's identifier, by the name of its `Calendar.Identifier` case ("gregorian",
        /// "chinese", "islamicUmmAlQura", ...).
        case calendar = 1
        case era = 2
        case year = 3
        case month = 4
        case day = 5
        /// 0 or 1; absent means nil.
        case isLeapMonth = 6
        case hour = 7
        case minute = 8
        case second = 9
        case nanosecond = 10
        case weekday = 11
        case weekdayOrdinal = 12
        case quarter = 13
        case weekOfMonth = 14
        case weekOfYear = 15
        case yearForWeekOfYear = 16
        case dayOfYear = 17
        /// 0 or 1; absent means nil.
        case isRepeatedDay = 18
        /// The time zone's identifier, such as "Europe/Paris".
        case timeZone = 19
    }

    /// A ``PostalAddress``; an absent field is the empty string.
    enum PostalAddressField: UInt32, CaseIterable {
        case street = 1
        case subLocality = 2
        case city = 3
        case subAdministrativeArea = 4
        case state = 5
        case postalCode = 6
        case country = 7
        case isoCountryCode = 8
    }

    /// A ``SocialProfile``; an absent field is the empty string.
    enum SocialProfileField: UInt32, CaseIterable {
        case urlString = 1
        case username = 2
        case userIdentifier = 3
        case service = 4
    }

    /// An ``InstantMessageAddress``; an absent field is the empty string.
    enum InstantMessageAddressField: UInt32, CaseIterable {
        case username = 1
        case service = 2
    }
}
