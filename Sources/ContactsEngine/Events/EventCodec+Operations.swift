import ContactsModel
import LedgerMigrations
import LedgerStorage

/// The Operation message and the message of each kind of operation.
extension EventCodec {
    /// Appends the fields of an Operation message: one field, named after the operation's kind,
    /// holding that kind's message.
    ///
    /// The operation is borrowed, and its messages are opened and closed around plain code rather
    /// than written in closures, so that a contact's values (close to a kilobyte) are not copied
    /// for the sake of a capture.
    ///
    /// Returns, for an added contact, where its Contact message lies in the encoder's bytes.
    @discardableResult
    static func encode(_ operation: borrowing LedgerOperation, into encoder: inout WireEncoder) -> Range<Int>? {
        typealias Kind = EventSchema.OperationField
        switch operation {
        case .addContact(let identifier, let containerIdentifier, let createdBy, let values):
            return encodeAddContact(identifier, containerIdentifier, createdBy, values, into: &encoder)
        case .updateContact(let identifier, let keys, let old, let new):
            encodeUpdateContact(identifier, keys, old, new, into: &encoder)
        case .deleteContact(let identifier, let containerIdentifier, let createdBy, let groupIdentifiers, let last):
            encodeDeleteContact(identifier, containerIdentifier, createdBy, groupIdentifiers, last, into: &encoder)
        case .addGroup(let identifier, let containerIdentifier, let name):
            typealias Field = EventSchema.AddGroupField
            let kind = encoder.beginMessage(field: Kind.addGroup.rawValue)
            encoder.appendNonEmpty(Field.identifier, identifier)
            encoder.appendNonEmpty(Field.containerIdentifier, containerIdentifier)
            encoder.appendNonEmpty(Field.name, name)
            encoder.endMessage(kind)
        case .updateGroup(let identifier, let oldName, let newName):
            typealias Field = EventSchema.UpdateGroupField
            let kind = encoder.beginMessage(field: Kind.updateGroup.rawValue)
            encoder.appendNonEmpty(Field.identifier, identifier)
            encoder.appendNonEmpty(Field.oldName, oldName)
            encoder.appendNonEmpty(Field.newName, newName)
            encoder.endMessage(kind)
        case .deleteGroup(
            let identifier, let containerIdentifier, let name, let memberIdentifiers, let subgroupIdentifiers,
            let parentGroupIdentifiers):
            encodeDeleteGroup(
                identifier, containerIdentifier, name, memberIdentifiers, subgroupIdentifiers, parentGroupIdentifiers,
                into: &encoder)
        case .addMember(let contactIdentifier, let groupIdentifier):
            encodeMembership(Kind.addMember, contactIdentifier, groupIdentifier, into: &encoder)
        case .removeMember(let contactIdentifier, let groupIdentifier):
            encodeMembership(Kind.removeMember, contactIdentifier, groupIdentifier, into: &encoder)
        case .addSubgroup(let groupIdentifier, let parentGroupIdentifier):
            encodeSubgroup(Kind.addSubgroup, groupIdentifier, parentGroupIdentifier, into: &encoder)
        case .removeSubgroup(let groupIdentifier, let parentGroupIdentifier):
            encodeSubgroup(Kind.removeSubgroup, groupIdentifier, parentGroupIdentifier, into: &encoder)
        case .addContainer(let identifier, let name, let type, let isDefault):
            typealias Field = EventSchema.AddContainerField
            let kind = encoder.beginMessage(field: Kind.addContainer.rawValue)
            encoder.appendNonEmpty(Field.identifier, identifier)
            encoder.appendNonEmpty(Field.name, name)
            if type != .unassigned { encoder.appendVarint(field: Field.type.rawValue, value: UInt64(type.rawValue)) }
            if isDefault { encoder.appendBool(field: Field.isDefault.rawValue, value: true) }
            encoder.endMessage(kind)
        case .setAuthorization(let clientIdentifier, let status, let notesEntitlement):
            typealias Field = EventSchema.SetAuthorizationField
            let kind = encoder.beginMessage(field: Kind.setAuthorization.rawValue)
            encoder.appendNonEmpty(Field.clientIdentifier, clientIdentifier)
            if status != .notDetermined {
                encoder.appendVarint(field: Field.status.rawValue, value: UInt64(status.rawValue))
            }
            if notesEntitlement { encoder.appendBool(field: Field.notesEntitlement.rawValue, value: true) }
            encoder.endMessage(kind)
        case .requestAccess(let clientIdentifier, let notesEntitlement):
            typealias Field = EventSchema.SetAuthorizationField
            let kind = encoder.beginMessage(field: Kind.requestAccess.rawValue)
            encoder.appendNonEmpty(Field.clientIdentifier, clientIdentifier)
            if notesEntitlement { encoder.appendBool(field: Field.notesEntitlement.rawValue, value: true) }
            encoder.endMessage(kind)
        case .grantAccess(let clientIdentifier, let contactIdentifiers):
            encodeAccess(Kind.grantAccess, clientIdentifier, contactIdentifiers, into: &encoder)
        case .revokeAccess(let clientIdentifier, let contactIdentifiers):
            encodeAccess(Kind.revokeAccess, clientIdentifier, contactIdentifiers, into: &encoder)
        case .undo(let undoKind, let sequence):
            typealias Field = EventSchema.UndoField
            let message = encoder.beginMessage(field: Kind.undo.rawValue)
            if sequence != 0 { encoder.appendVarint(field: Field.sequence.rawValue, value: sequence) }
            encoder.appendVarint(field: Field.kind.rawValue, value: UInt64(undoKind.rawValue))
            encoder.endMessage(message)
        case .linkContacts, .unlinkContact: encodeLink(operation, into: &encoder)
        case .redaction, .redacted: encodeRedaction(operation, into: &encoder)
        }
        return nil
    }

    /// Appends an AddContact message and returns where its Contact message lies in the encoder's
    /// bytes.
    @inline(__always)
    private static func encodeAddContact(
        _ identifier: String, _ containerIdentifier: String, _ createdBy: String, _ values: borrowing ContactValues,
        into encoder: inout WireEncoder
    ) -> Range<Int> {
        typealias Field = EventSchema.AddContactField
        let kind = encoder.beginMessage(field: EventSchema.OperationField.addContact.rawValue)
        let uuid = CompactFields.uuidBytes(identifier)
        let containerUUID = CompactFields.uuidBytes(containerIdentifier)
        encoder.appendIdentifierText(identifier, uuid, Field.identifier)
        encoder.appendIdentifierText(containerIdentifier, containerUUID, Field.containerIdentifier)
        encoder.appendNonEmpty(Field.createdBy, createdBy)
        let contact = encoder.beginMessage(field: Field.values.rawValue)
        let bodyStart = encoder.count
        ContactCodec.encode(values, keys: .all, into: &encoder)
        let bodyBytes = encoder.count - bodyStart
        encoder.endMessage(contact)
        let bodyEnd = encoder.count
        encoder.appendIdentifierUUID(uuid, Field.identifierUUID)
        encoder.appendIdentifierUUID(containerUUID, Field.containerIdentifierUUID)
        let beforeEnd = encoder.count
        encoder.endMessage(kind)
        // Ending a message of 128 bytes or more moves its body forward (a longer length).
        let moved = encoder.count - beforeEnd
        return bodyEnd - bodyBytes + moved..<bodyEnd + moved
    }

    /// Appends an UpdateContact message: the old and the new values of `keys`.
    @inline(__always)
    private static func encodeUpdateContact(
        _ identifier: String, _ keys: ContactKeySet, _ old: borrowing ContactValues, _ new: borrowing ContactValues,
        into encoder: inout WireEncoder
    ) {
        typealias Field = EventSchema.UpdateContactField
        let kind = encoder.beginMessage(field: EventSchema.OperationField.updateContact.rawValue)
        let uuid = CompactFields.uuidBytes(identifier)
        encoder.appendIdentifierText(identifier, uuid, Field.identifier)
        let oldMessage = encoder.beginMessage(field: Field.old.rawValue)
        ContactCodec.encode(old, keys: keys, into: &encoder)
        encoder.endMessage(oldMessage)
        let newMessage = encoder.beginMessage(field: Field.new.rawValue)
        ContactCodec.encode(new, keys: keys, into: &encoder)
        encoder.endMessage(newMessage)
        encoder.appendIdentifierUUID(uuid, Field.identifierUUID)
        encoder.endMessage(kind)
    }

    /// Appends a DeleteContact message, with the contact's last values and groups.
    @inline(__always)
    private static func encodeDeleteContact(
        _ identifier: String, _ containerIdentifier: String, _ createdBy: String, _ groupIdentifiers: [String],
        _ last: borrowing ContactValues, into encoder: inout WireEncoder
    ) {
        typealias Field = EventSchema.DeleteContactField
        let kind = encoder.beginMessage(field: EventSchema.OperationField.deleteContact.rawValue)
        let uuid = CompactFields.uuidBytes(identifier)
        let containerUUID = CompactFields.uuidBytes(containerIdentifier)
        encoder.appendIdentifierText(identifier, uuid, Field.identifier)
        encoder.appendIdentifierText(containerIdentifier, containerUUID, Field.containerIdentifier)
        encoder.appendNonEmpty(Field.createdBy, createdBy)
        encoder.appendEach(Field.groupIdentifiers, groupIdentifiers)
        let contact = encoder.beginMessage(field: Field.last.rawValue)
        ContactCodec.encode(last, keys: .all, into: &encoder)
        encoder.endMessage(contact)
        encoder.appendIdentifierUUID(uuid, Field.identifierUUID)
        encoder.appendIdentifierUUID(containerUUID, Field.containerIdentifierUUID)
        encoder.endMessage(kind)
    }

    /// Appends a DeleteGroup message, with the group's members, subgroups and parents.
    @inline(__always)
    private static func encodeDeleteGroup(
        _ identifier: String, _ containerIdentifier: String, _ name: String, _ memberIdentifiers: [String],
        _ subgroupIdentifiers: [String], _ parentGroupIdentifiers: [String], into encoder: inout WireEncoder
    ) {
        typealias Field = EventSchema.DeleteGroupField
        let kind = encoder.beginMessage(field: EventSchema.OperationField.deleteGroup.rawValue)
        encoder.appendNonEmpty(Field.identifier, identifier)
        encoder.appendNonEmpty(Field.containerIdentifier, containerIdentifier)
        encoder.appendNonEmpty(Field.name, name)
        encoder.appendEach(Field.memberIdentifiers, memberIdentifiers)
        encoder.appendEach(Field.subgroupIdentifiers, subgroupIdentifiers)
        encoder.appendEach(Field.parentGroupIdentifiers, parentGroupIdentifiers)
        encoder.endMessage(kind)
    }

    private static func encodeMembership(
        _ kind: EventSchema.OperationField, _ contactIdentifier: String, _ groupIdentifier: String,
        into encoder: inout WireEncoder
    ) {
        typealias Field = EventSchema.MembershipField
        let message = encoder.beginMessage(field: kind.rawValue)
        encoder.appendNonEmpty(Field.contactIdentifier, contactIdentifier)
        encoder.appendNonEmpty(Field.groupIdentifier, groupIdentifier)
        encoder.endMessage(message)
    }

    private static func encodeSubgroup(
        _ kind: EventSchema.OperationField, _ groupIdentifier: String, _ parentGroupIdentifier: String,
        into encoder: inout WireEncoder
    ) {
        typealias Field = EventSchema.SubgroupField
        let message = encoder.beginMessage(field: kind.rawValue)
        encoder.appendNonEmpty(Field.groupIdentifier, groupIdentifier)
        encoder.appendNonEmpty(Field.parentGroupIdentifier, parentGroupIdentifier)
        encoder.endMessage(message)
    }

    private static func encodeAccess(
        _ kind: EventSchema.OperationField, _ clientIdentifier: String, _ contactIdentifiers: [String],
        into encoder: inout WireEncoder
    ) {
        typealias Field = EventSchema.AccessField
        let message = encoder.beginMessage(field: kind.rawValue)
        encoder.appendNonEmpty(Field.clientIdentifier, clientIdentifier)
        encoder.appendEach(Field.contactIdentifiers, contactIdentifiers)
        encoder.endMessage(message)
    }

    /// Reads an Operation message, which must hold exactly one kind of operation, and appends
    /// the operation.
    ///
    /// The operation goes straight into the array rather than being returned: a ``LedgerOperation``
    /// is nearly two kilobytes (an update holds two ``ContactValues``), so each copy of one costs
    /// a replay time on every record.
    ///
    /// `scratch` takes the values of contacts that are only checked (see
    /// ``DecodedOperations/decodesEveryValue``); what it holds afterwards means nothing.
    static func decodeOperation<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations, scratch: inout ContactValues
    ) throws(EventDecodingError) {
        let messageStart = reader.offset
        var found = false
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            guard let kind = EventSchema.OperationField(rawValue: key.field) else {
                try reader.skip(key)
                continue
            }
            guard !found else {
                throw EventDecodingError(.operationWithSeveralKinds, field: "\(kind)", offset: key.offset)
            }
            do throws(EventDecodingError) {
                var nested = try reader.nested(key)
                try decodeOperation(kind, from: &nested, appendingTo: &operations, scratch: &scratch)
            } catch {
                throw error.within("\(kind)")
            }
            found = true
        }
        guard found else {
            throw EventDecodingError(.operationWithoutKind, offset: messageStart)
        }
    }

    /// Reads the message of one kind of operation and appends the operation.
    private static func decodeOperation<Operations: DecodedOperations>(
        _ kind: EventSchema.OperationField, from reader: inout PayloadReader,
        appendingTo operations: inout Operations, scratch: inout ContactValues
    ) throws(EventDecodingError) {
        switch kind {
        case .addContact: try decodeAddContact(from: &reader, appendingTo: &operations, scratch: &scratch)
        case .updateContact: try decodeUpdateContact(from: &reader, appendingTo: &operations, scratch: &scratch)
        case .deleteContact: try decodeDeleteContact(from: &reader, appendingTo: &operations, scratch: &scratch)
        case .addGroup: try decodeAddGroup(from: &reader, appendingTo: &operations)
        case .updateGroup: try decodeUpdateGroup(from: &reader, appendingTo: &operations)
        case .deleteGroup: try decodeDeleteGroup(from: &reader, appendingTo: &operations)
        case .addMember, .removeMember: try decodeMembership(kind, from: &reader, appendingTo: &operations)
        case .addSubgroup, .removeSubgroup: try decodeSubgroup(kind, from: &reader, appendingTo: &operations)
        case .addContainer: try decodeAddContainer(from: &reader, appendingTo: &operations)
        case .setAuthorization, .requestAccess:
            try decodeSetAuthorization(kind, from: &reader, appendingTo: &operations)
        case .grantAccess, .revokeAccess: try decodeAccess(kind, from: &reader, appendingTo: &operations)
        case .undo: try decodeUndo(from: &reader, appendingTo: &operations)
        case .linkContacts: try decodeLinkContacts(from: &reader, appendingTo: &operations)
        case .unlinkContact: try decodeUnlinkContact(from: &reader, appendingTo: &operations)
        case .redaction: try decodeRedaction(from: &reader, appendingTo: &operations)
        }
    }

    /// Reads an AddContact message and appends the added contact, with where its Contact
    /// message lies in the payload.
    @inline(__always)
    private static func decodeAddContact<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations, scratch: inout ContactValues
    ) throws(EventDecodingError) {
        var identifier = DecodedIdentifier.text(""), containerIdentifier = DecodedIdentifier.text("")
        var createdBy = ""
        var values = Operations.Values()
        var valuesDecoded = false
        var contact = 0..<0
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.AddContactField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .identifier: identifier = .text(try reader.string(key))
            case .identifierUUID: identifier = .uuid(try reader.uuidBytes(key))
            case .containerIdentifier: containerIdentifier = .text(try reader.string(key))
            case .containerIdentifierUUID: containerIdentifier = .uuid(try reader.uuidBytes(key))
            case .createdBy: createdBy = try reader.string(key)
            case .values:
                var nested = try reader.nested(key)
                contact = nested.remainingRange
                _ = try values.decode(from: &nested, decoded: &valuesDecoded, scratch: &scratch)
            }
        }
        operations.appendAdd(
            identifier: identifier, containerIdentifier: containerIdentifier, createdBy: createdBy,
            values: consume values, contact: contact)
    }

    /// Reads an UpdateContact message, whose old and new values must be for the same keys, and
    /// appends the update, with where its new Contact message lies in the payload.
    @inline(__always)
    private static func decodeUpdateContact<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations, scratch: inout ContactValues
    ) throws(EventDecodingError) {
        var identifier = DecodedIdentifier.text("")
        var old = Operations.Values(), new = Operations.Values()
        var oldKeys = ContactKeySet(), newKeys = ContactKeySet()
        var oldDecoded = false, newDecoded = false
        var oldOffset = reader.offset
        var newContact = 0..<0
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.UpdateContactField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .identifier: identifier = .text(try reader.string(key))
            case .identifierUUID: identifier = .uuid(try reader.uuidBytes(key))
            case .old:
                oldOffset = key.offset
                var nested = try reader.nested(key)
                oldKeys = try old.decode(from: &nested, decoded: &oldDecoded, scratch: &scratch)
            case .new:
                var nested = try reader.nested(key)
                newContact = nested.remainingRange
                newKeys = try new.decode(from: &nested, decoded: &newDecoded, scratch: &scratch)
            }
        }
        guard oldKeys == newKeys else {
            throw EventDecodingError(
                .keySetsDiffer(old: oldKeys.rawValue, new: newKeys.rawValue), field: "old", offset: oldOffset)
        }
        operations.appendUpdate(
            identifier: identifier, keys: newKeys, old: consume old, new: consume new, newContact: newContact)
    }

    /// Reads a DeleteContact message and appends the delete; the contact's last values are
    /// decoded only when every value is, and checked otherwise.
    @inline(__always)
    private static func decodeDeleteContact<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations, scratch: inout ContactValues
    ) throws(EventDecodingError) {
        var identifier = "", containerIdentifier = "", createdBy = ""
        var groupIdentifiers: [String] = []
        var last = ContactValues()
        var lastDecoded = false
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.DeleteContactField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .identifier: identifier = try reader.string(key)
            case .identifierUUID: identifier = try reader.uuidIdentifier(key)
            case .containerIdentifier: containerIdentifier = try reader.string(key)
            case .containerIdentifierUUID: containerIdentifier = try reader.uuidIdentifier(key)
            case .createdBy: createdBy = try reader.string(key)
            case .groupIdentifiers: groupIdentifiers.append(try reader.string(key))
            case .last:
                var nested = try reader.nested(key)
                if Operations.decodesEveryValue {
                    _ = try last.decode(from: &nested, decoded: &lastDecoded, scratch: &scratch)
                } else {
                    _ = try CheckedValues().decode(from: &nested, decoded: &lastDecoded, scratch: &scratch)
                }
            }
        }
        operations.append(
            .deleteContact(
                identifier: identifier, containerIdentifier: containerIdentifier, createdBy: createdBy,
                groupIdentifiers: groupIdentifiers, last: consume last))
    }

    /// Reads an AddGroup message and appends the operation.
    @inline(__always)
    private static func decodeAddGroup<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var identifier = "", containerIdentifier = "", name = ""
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.AddGroupField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .identifier: identifier = try reader.string(key)
            case .containerIdentifier: containerIdentifier = try reader.string(key)
            case .name: name = try reader.string(key)
            }
        }
        operations.append(.addGroup(identifier: identifier, containerIdentifier: containerIdentifier, name: name))
    }

    /// Reads an UpdateGroup message and appends the operation.
    @inline(__always)
    private static func decodeUpdateGroup<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var identifier = "", oldName = "", newName = ""
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.UpdateGroupField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .identifier: identifier = try reader.string(key)
            case .oldName: oldName = try reader.string(key)
            case .newName: newName = try reader.string(key)
            }
        }
        operations.append(.updateGroup(identifier: identifier, oldName: oldName, newName: newName))
    }

    /// Reads a DeleteGroup message and appends the operation.
    @inline(__always)
    private static func decodeDeleteGroup<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var identifier = "", containerIdentifier = "", name = ""
        var memberIdentifiers: [String] = [], subgroupIdentifiers: [String] = []
        var parentGroupIdentifiers: [String] = []
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.DeleteGroupField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .identifier: identifier = try reader.string(key)
            case .containerIdentifier: containerIdentifier = try reader.string(key)
            case .name: name = try reader.string(key)
            case .memberIdentifiers: memberIdentifiers.append(try reader.string(key))
            case .subgroupIdentifiers: subgroupIdentifiers.append(try reader.string(key))
            case .parentGroupIdentifiers: parentGroupIdentifiers.append(try reader.string(key))
            }
        }
        operations.append(
            .deleteGroup(
                identifier: identifier, containerIdentifier: containerIdentifier, name: name,
                memberIdentifiers: memberIdentifiers, subgroupIdentifiers: subgroupIdentifiers,
                parentGroupIdentifiers: parentGroupIdentifiers))
    }

    /// Reads a Membership message and appends the added (`kind` addMember) or removed member.
    @inline(__always)
    private static func decodeMembership<Operations: DecodedOperations>(
        _ kind: EventSchema.OperationField, from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var contactIdentifier = "", groupIdentifier = ""
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.MembershipField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .contactIdentifier: contactIdentifier = try reader.string(key)
            case .groupIdentifier: groupIdentifier = try reader.string(key)
            }
        }
        operations.append(
            kind == .addMember
                ? .addMember(contactIdentifier: contactIdentifier, groupIdentifier: groupIdentifier)
                : .removeMember(contactIdentifier: contactIdentifier, groupIdentifier: groupIdentifier))
    }

    /// Reads a Subgroup message and appends the added (`kind` addSubgroup) or removed subgroup.
    @inline(__always)
    private static func decodeSubgroup<Operations: DecodedOperations>(
        _ kind: EventSchema.OperationField, from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var groupIdentifier = "", parentGroupIdentifier = ""
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.SubgroupField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .groupIdentifier: groupIdentifier = try reader.string(key)
            case .parentGroupIdentifier: parentGroupIdentifier = try reader.string(key)
            }
        }
        operations.append(
            kind == .addSubgroup
                ? .addSubgroup(groupIdentifier: groupIdentifier, parentGroupIdentifier: parentGroupIdentifier)
                : .removeSubgroup(groupIdentifier: groupIdentifier, parentGroupIdentifier: parentGroupIdentifier))
    }

    /// Reads an AddContainer message and appends the operation.
    @inline(__always)
    private static func decodeAddContainer<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var identifier = "", name = ""
        var type = ContainerType.unassigned
        var isDefault = false
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.AddContainerField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .identifier: identifier = try reader.string(key)
            case .name: name = try reader.string(key)
            case .type: type = try reader.enumeration(key, as: ContainerType.self)
            case .isDefault: isDefault = try reader.bool(key)
            }
        }
        operations.append(.addContainer(identifier: identifier, name: name, type: type, isDefault: isDefault))
    }

    /// Reads a SetAuthorization message and appends the decision (`kind` setAuthorization) or the
    /// request for access (`kind` requestAccess, which has no status).
    @inline(__always)
    private static func decodeSetAuthorization<Operations: DecodedOperations>(
        _ kind: EventSchema.OperationField, from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var clientIdentifier = ""
        var status = AuthorizationStatus.notDetermined
        var notesEntitlement = false
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.SetAuthorizationField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .clientIdentifier: clientIdentifier = try reader.string(key)
            case .status: status = try reader.enumeration(key, as: AuthorizationStatus.self)
            case .notesEntitlement: notesEntitlement = try reader.bool(key)
            }
        }
        if kind == .requestAccess {
            guard status == .notDetermined else {
                throw EventDecodingError(.invalidValue(UInt64(status.rawValue)), offset: 0).within("requestAccess")
            }
            operations.append(.requestAccess(clientIdentifier: clientIdentifier, notesEntitlement: notesEntitlement))
            return
        }
        operations.append(
            .setAuthorization(clientIdentifier: clientIdentifier, status: status, notesEntitlement: notesEntitlement))
    }

    /// Reads an Access message and appends the granted (`kind` grantAccess) or revoked access.
    @inline(__always)
    private static func decodeAccess<Operations: DecodedOperations>(
        _ kind: EventSchema.OperationField, from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var clientIdentifier = ""
        var contactIdentifiers: [String] = []
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.AccessField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .clientIdentifier: clientIdentifier = try reader.string(key)
            case .contactIdentifiers: contactIdentifiers.append(try reader.string(key))
            }
        }
        operations.append(
            kind == .grantAccess
                ? .grantAccess(clientIdentifier: clientIdentifier, contactIdentifiers: contactIdentifiers)
                : .revokeAccess(clientIdentifier: clientIdentifier, contactIdentifiers: contactIdentifiers))
    }

    /// Reads an Undo message, whose kind must be one ``UndoKind`` has, and appends the operation.
    @inline(__always)
    private static func decodeUndo<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var sequence: UInt64 = 0
        var kind: UndoKind?
        let start = reader.offset
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.UndoField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .sequence: sequence = try reader.varint(key)
            case .kind: kind = try reader.enumeration(key, as: UndoKind.self)
            }
        }
        guard let kind else { throw EventDecodingError(.invalidValue(0), field: "kind", offset: start) }
        operations.append(.undo(kind: kind, sequence: sequence))
    }
}
