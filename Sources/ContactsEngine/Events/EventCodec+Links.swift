import ContactsModel
import LedgerStorage

/// The LinkContacts and UnlinkContact messages (operation fields 18 and 19).
extension EventCodec {
    /// Appends a LinkContacts or UnlinkContact message; any other operation is a caller's mistake.
    static func encodeLink(_ operation: borrowing LedgerOperation, into encoder: inout WireEncoder) {
        switch operation {
        case .linkContacts(let contactIdentifiers):
            typealias Field = EventSchema.LinkContactsField
            let message = encoder.beginMessage(field: EventSchema.OperationField.linkContacts.rawValue)
            encoder.appendEach(Field.contactIdentifiers, contactIdentifiers)
            encoder.endMessage(message)
        case .unlinkContact(let contactIdentifier, let linkedIdentifiers):
            typealias Field = EventSchema.UnlinkContactField
            let message = encoder.beginMessage(field: EventSchema.OperationField.unlinkContact.rawValue)
            encoder.appendNonEmpty(Field.contactIdentifier, contactIdentifier)
            encoder.appendEach(Field.linkedIdentifiers, linkedIdentifiers)
            encoder.endMessage(message)
        default:
            preconditionFailure("encodeLink takes only link operations")
        }
    }

    /// Reads a LinkContacts message and appends the operation.
    static func decodeLinkContacts<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var contactIdentifiers: [String] = []
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.LinkContactsField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .contactIdentifiers: contactIdentifiers.append(try reader.string(key))
            }
        }
        operations.append(.linkContacts(contactIdentifiers: contactIdentifiers))
    }

    /// Reads an UnlinkContact message and appends the operation.
    static func decodeUnlinkContact<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var contactIdentifier = ""
        var linkedIdentifiers: [String] = []
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.UnlinkContactField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .contactIdentifier: contactIdentifier = try reader.string(key)
            case .linkedIdentifiers: linkedIdentifiers.append(try reader.string(key))
            }
        }
        operations.append(.unlinkContact(contactIdentifier: contactIdentifier, linkedIdentifiers: linkedIdentifiers))
    }
}
