import ContactsModel
import LedgerStorage

/// A recorded redaction: the owner replaced the personal content of a record by its digest.
///
/// It is an operation of its own record, saved as any request is, and holds no redacted value:
/// the record, the contact, the reason, and the digest of what the redaction left in that record,
/// so that the chain, which covers this record, vouches for the remaining payload too.
package struct RedactionNote: Sendable, Hashable {
    /// The redacted record.
    package var sequence: UInt64
    /// The contact whose operations were redacted; empty when every contact's were.
    package var contactIdentifier: String
    /// Why.
    package var reason: String
    /// Whether the redaction was part of erasing the contact.
    package var erased: Bool
    /// The SHA-256 of the payload the redaction left in the record.
    package var remainingDigest: SHA256Digest

    /// Creates a note.
    package init(
        sequence: UInt64, contactIdentifier: String, reason: String, erased: Bool, remainingDigest: SHA256Digest
    ) {
        self.sequence = sequence
        self.contactIdentifier = contactIdentifier
        self.reason = reason
        self.erased = erased
        self.remainingDigest = remainingDigest
    }
}

/// The kind of contact operation a redacted one was: its Operation field number.
package enum RedactedKind: Int, Sendable, Hashable, CaseIterable {
    /// An added contact.
    case addContact = 1
    /// An updated contact.
    case updateContact = 2
    /// A deleted contact.
    case deleteContact = 3
}

/// What stands in a redacted record for a contact operation whose content was removed: its kind
/// and its contact, which replay needs (a redacted delete still removes the contact), and for an
/// add the container and creator, which are no personal values (a redacted add still creates the
/// contact, empty, for the later updates that superseded every value it set).
package struct RedactedOperation: Sendable, Hashable {
    /// The kind of operation it was.
    package var kind: RedactedKind
    /// The contact it concerned.
    package var contactIdentifier: String
    /// An add's container; empty otherwise.
    package var containerIdentifier: String
    /// An add's creator; empty otherwise.
    package var createdBy: String

    /// Creates a stand-in.
    package init(
        kind: RedactedKind, contactIdentifier: String, containerIdentifier: String = "", createdBy: String = ""
    ) {
        self.kind = kind
        self.contactIdentifier = contactIdentifier
        self.containerIdentifier = containerIdentifier
        self.createdBy = createdBy
    }

    /// The stand-in for an operation, when it is a contact operation of `contact` (any contact's,
    /// when `contact` is nil); nil for any other operation.
    package static func standIn(for operation: LedgerOperation, contact: String?) -> RedactedOperation? {
        let standIn: RedactedOperation
        switch operation {
        case .addContact(let id, let container, let createdBy, _):
            standIn = RedactedOperation(
                kind: .addContact, contactIdentifier: id, containerIdentifier: container, createdBy: createdBy)
        case .updateContact(let id, _, _, _): standIn = RedactedOperation(kind: .updateContact, contactIdentifier: id)
        case .deleteContact(let id, _, _, _, _):
            standIn = RedactedOperation(kind: .deleteContact, contactIdentifier: id)
        default: return nil
        }
        return contact == nil || contact == standIn.contactIdentifier ? standIn : nil
    }
}

extension LedgerEvent {
    /// The event with the contact operations of `contact` (of every contact, when nil) replaced
    /// by their stand-ins, and how many were replaced.
    package func redacting(contact: String?) -> (event: LedgerEvent, replaced: Int) {
        var replaced = 0
        let operations = operations.map { operation -> LedgerOperation in
            guard let standIn = RedactedOperation.standIn(for: operation, contact: contact) else { return operation }
            replaced += 1
            return .redacted(standIn)
        }
        return (LedgerEvent(operations: operations), replaced)
    }
}

/// The Redaction message (operation field 20): a recorded redaction, or in a redacted record the
/// stand-in for a removed contact operation (then `redactedKind` is set).
extension EventCodec {
    /// Appends a Redaction message for either operation; any other is a caller's mistake.
    static func encodeRedaction(_ operation: borrowing LedgerOperation, into encoder: inout WireEncoder) {
        typealias Field = EventSchema.RedactionField
        let message = encoder.beginMessage(field: EventSchema.OperationField.redaction.rawValue)
        switch operation {
        case .redaction(let note):
            if note.sequence != 0 { encoder.appendVarint(field: Field.sequence.rawValue, value: note.sequence) }
            encoder.appendNonEmpty(Field.contactIdentifier, note.contactIdentifier)
            encoder.appendNonEmpty(Field.reason, note.reason)
            if note.erased { encoder.appendBool(field: Field.erased.rawValue, value: true) }
            encoder.appendBytes(field: Field.remainingDigest.rawValue, bytes: note.remainingDigest.bytes)
        case .redacted(let standIn):
            encoder.appendNonEmpty(Field.contactIdentifier, standIn.contactIdentifier)
            encoder.appendVarint(field: Field.redactedKind.rawValue, value: UInt64(standIn.kind.rawValue))
            encoder.appendNonEmpty(Field.containerIdentifier, standIn.containerIdentifier)
            encoder.appendNonEmpty(Field.createdBy, standIn.createdBy)
        default:
            preconditionFailure("encodeRedaction takes only redaction operations")
        }
        encoder.endMessage(message)
    }

    /// Reads a Redaction message and appends the operation it holds.
    static func decodeRedaction<Operations: DecodedOperations>(
        from reader: inout PayloadReader, appendingTo operations: inout Operations
    ) throws(EventDecodingError) {
        var note = RedactionNote(sequence: 0, contactIdentifier: "", reason: "", erased: false, remainingDigest: .zero)
        var kind: RedactedKind?
        var container = ""
        var createdBy = ""
        let start = reader.offset
        try ContactCodec.decodeFields(from: &reader, as: EventSchema.RedactionField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .sequence: note.sequence = try reader.varint(key)
            case .contactIdentifier: note.contactIdentifier = try reader.checkedName(key)
            case .reason: note.reason = try reader.checkedName(key)
            case .erased: note.erased = try reader.bool(key)
            case .remainingDigest: note.remainingDigest = try reader.digest(key)
            case .redactedKind: kind = try reader.enumeration(key, as: RedactedKind.self)
            case .containerIdentifier: container = try reader.checkedName(key)
            case .createdBy: createdBy = try reader.checkedName(key)
            }
        }
        if let kind {
            operations.append(
                .redacted(
                    RedactedOperation(
                        kind: kind, contactIdentifier: note.contactIdentifier, containerIdentifier: container,
                        createdBy: createdBy)))
        } else if note.sequence == 0 {
            throw EventDecodingError(.invalidValue(0), field: "sequence", offset: start)
        } else {
            operations.append(.redaction(note))
        }
    }
}

extension PayloadReader {
    /// Reads a 32-byte SHA-256 digest.
    mutating func digest(_ key: WireKey) throws(EventDecodingError) -> SHA256Digest {
        let offset = self.offset
        let digest = try withBytes(key) { bytes in
            bytes.count == 32 ? SHA256Digest(bytes: UnsafeRawBufferPointer(bytes)) : nil
        }
        guard let digest else { throw EventDecodingError(.invalidValue(0), field: "remainingDigest", offset: offset) }
        return digest
    }
}

extension LedgerOperation {
    /// The contact an add, update, delete or redacted stand-in concerns; nil for other operations.
    package var contactIdentifier: String? {
        switch self {
        case .addContact(let identifier, _, _, _), .updateContact(let identifier, _, _, _),
            .deleteContact(let identifier, _, _, _, _):
            return identifier
        case .redacted(let standIn): return standIn.contactIdentifier
        default: return nil
        }
    }
}
