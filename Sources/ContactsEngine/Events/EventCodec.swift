import ContactsModel
import LedgerMigrations
import LedgerStorage

/// Encodes a ``LedgerEvent`` as a journal payload and decodes it back, in the schema of
/// `Documentation/EventSchema.md`.
///
/// A payload of the current schema version is decoded straight from its bytes. An older one is
/// parsed into its stored form, brought to the current version by the ``upcasters`` chain, encoded
/// again and then decoded the same way, so the model is only ever built by one decoder.
package enum EventCodec {
    /// The schema version ``encode(_:)`` writes and the fast decoder reads.
    package static let currentSchemaVersion: UInt16 = 2

    /// The shipped upcasters, from every older schema version to the current one.
    package static let upcasters = UpcasterChain(
        currentVersion: currentSchemaVersion, upcasters: LedgerEventUpcasters.all)

    /// Encodes an event in the current schema version.
    package static func encode(_ event: LedgerEvent) -> [UInt8] {
        encodeLocatingAdds(event).payload
    }

    /// Encodes an event in the current schema version, and says where in the payload the
    /// Contact message of each ``LedgerOperation/addContact(identifier:containerIdentifier:createdBy:values:)``
    /// lies: the bytes a projection stores for the contact (see ``EncodedEvent``).
    package static func encodeLocatingAdds(_ event: LedgerEvent) -> EncodedEvent {
        var encoder = WireEncoder(capacity: 512)
        var addedContacts: [Range<Int>] = []
        for operation in event.operations {
            let message = encoder.beginMessage(field: EventSchema.EventField.operations.rawValue)
            let contact = encode(operation, into: &encoder)
            let before = encoder.count
            encoder.endMessage(message)
            // Ending a message of 128 bytes or more moves its body forward (a longer length).
            let moved = encoder.count - before
            if let contact { addedContacts.append(contact.lowerBound + moved..<contact.upperBound + moved) }
        }
        return EncodedEvent(payload: encoder.finish(), addedContacts: addedContacts)
    }

    /// Decodes a payload written in schema version `schemaVersion`, upcasting it first when it
    /// is older than the current version.
    ///
    /// `upcasters` is for tests, which fabricate older versions; its current version must be
    /// ``currentSchemaVersion``.
    package static func decode(
        _ payload: [UInt8], schemaVersion: UInt16, upcasters: UpcasterChain = EventCodec.upcasters
    ) throws(EventDecodingError) -> LedgerEvent {
        precondition(
            upcasters.currentVersion == currentSchemaVersion,
            "an upcaster chain to version \(upcasters.currentVersion) cannot feed the decoder of \(currentSchemaVersion)"
        )
        if schemaVersion == currentSchemaVersion {
            return try decodeCurrent(payload)
        }
        // Refuse a version that cannot be read before parsing anything.
        do throws(MigrationError) {
            try upcasters.checkReadable(schemaVersion)
        } catch {
            throw EventDecodingError(.migration(error), offset: nil)
        }
        let stored: StoredEvent
        do throws(WireFormatError) {
            stored = try StoredEvent(schemaVersion: schemaVersion, parsing: payload)
        } catch {
            throw EventDecodingError(error)
        }
        let upcast: StoredEvent
        do throws(MigrationError) {
            upcast = try upcasters.upcast(stored)
        } catch {
            throw EventDecodingError(.migration(error), offset: nil)
        }
        do throws(EventDecodingError) {
            return try decodeCurrent(WireEncoder.encode(upcast.message))
        } catch {
            var error = error
            error.upcastFrom = schemaVersion
            throw error
        }
    }

    /// Decodes a payload of the current schema version, straight from its bytes.
    static func decodeCurrent(_ payload: [UInt8]) throws(EventDecodingError) -> LedgerEvent {
        var operations: [LedgerOperation] = []
        try decodeCurrent(payload, into: &operations)
        return LedgerEvent(operations: operations)
    }

    /// Decodes a payload of the current schema version into `operations`, which may keep an
    /// added contact as where its bytes lie in `payload` (see ``DecodedOperations``).
    static func decodeCurrent<Operations: DecodedOperations>(
        _ payload: [UInt8], into operations: inout Operations
    ) throws(EventDecodingError) {
        try WireReader.withReader(payload) { (wire: inout WireReader) throws(EventDecodingError) in
            var reader = PayloadReader(wire: wire)
            var scratch = ContactValues()
            while !reader.isAtEnd {
                let key = try reader.nextKey()
                guard key.field == EventSchema.EventField.operations.rawValue else {
                    try reader.skip(key)
                    continue
                }
                let index = operations.count
                do throws(EventDecodingError) {
                    var nested = try reader.nested(key)
                    try decodeOperation(from: &nested, appendingTo: &operations, scratch: &scratch)
                } catch {
                    throw error.within("operations[\(index)]")
                }
            }
        }
    }
}

/// Where the decoder puts the operations of an event: an array of ``LedgerOperation``s, or a
/// replay's own list, which keeps an added contact as the range of its encoded bytes.
protocol DecodedOperations {
    /// What the decoder makes of the values of an added or updated contact: ``ContactValues``,
    /// decoded, or ``CheckedValues``, nothing (a replay, which stands for an added contact's
    /// and an update's new values by the range of their bytes, and needs no old ones).
    associatedtype Values: DecodedValues
    /// How many operations were put so far.
    var count: Int { get }
    /// Puts an operation.
    mutating func append(_ operation: consuming LedgerOperation)
    /// Puts an added contact: its values, decoded (and so checked), and where its Contact
    /// message lies in the payload.
    mutating func appendAdd(
        identifier: DecodedIdentifier, containerIdentifier: DecodedIdentifier, createdBy: String,
        values: consuming Values, contact: Range<Int>)
    /// Puts an updated contact: its old and new values for `keys`, and where the Contact message
    /// of the new ones lies in the payload.
    mutating func appendUpdate(
        identifier: DecodedIdentifier, keys: ContactKeySet, old: consuming Values, new: consuming Values,
        newContact: Range<Int>)
}

extension DecodedOperations {
    /// Whether every contact's values are decoded, or only checked (``PayloadReader/checksOnly``).
    static var decodesEveryValue: Bool { Values.decodesValues }
}

/// The values of a Contact message as the decoder keeps them (see ``DecodedOperations/Values``).
protocol DecodedValues {
    /// Whether the values are decoded, not only checked.
    static var decodesValues: Bool { get }
    /// Values before any message is decoded.
    init()
    /// Decodes (or only checks, into `scratch`) a Contact message and returns its key set.
    /// `decoded` says whether a message was decoded here before: a second one replaces it.
    mutating func decode(
        from reader: inout PayloadReader, decoded: inout Bool, scratch: inout ContactValues
    ) throws(EventDecodingError) -> ContactKeySet
}

extension ContactValues: DecodedValues {
    static var decodesValues: Bool { true }

    @inline(__always)
    mutating func decode(
        from reader: inout PayloadReader, decoded: inout Bool, scratch: inout ContactValues
    ) throws(EventDecodingError) -> ContactKeySet {
        ContactCodec.reset(&self, &decoded)
        return try ContactCodec.decode(from: &reader, into: &self)
    }
}

/// A Contact message checked and not kept (``ContactCodec/check(from:scratch:)``, which builds
/// no value); a message it refuses is decoded again into a scratch ``ContactValues`` shared by a
/// whole payload, for the error, so that none is built and freed per contact (a
/// ``ContactValues``, close to a kilobyte, cost a replay a tenth of its decoding).
struct CheckedValues: DecodedValues {
    static var decodesValues: Bool { false }

    @inline(__always)
    func decode(
        from reader: inout PayloadReader, decoded: inout Bool, scratch: inout ContactValues
    ) throws(EventDecodingError) -> ContactKeySet {
        reader.checksOnly = true
        return try ContactCodec.check(from: &reader, scratch: &scratch)
    }
}

extension Array: DecodedOperations where Element == LedgerOperation {
    /// Puts the added contact with its values.
    mutating func appendAdd(
        identifier: DecodedIdentifier, containerIdentifier: DecodedIdentifier, createdBy: String,
        values: consuming ContactValues, contact: Range<Int>
    ) {
        append(
            .addContact(
                identifier: identifier.string, containerIdentifier: containerIdentifier.string, createdBy: createdBy,
                values: values))
    }

    /// Puts the update with its values.
    mutating func appendUpdate(
        identifier: DecodedIdentifier, keys: ContactKeySet, old: consuming ContactValues, new: consuming ContactValues,
        newContact: Range<Int>
    ) {
        append(.updateContact(identifier: identifier.string, keys: keys, old: old, new: new))
    }
}

/// An event's payload in the current schema version, with where its added contacts' values lie.
package struct EncodedEvent: Sendable {
    /// The payload, as ``EventCodec/encode(_:)`` writes it.
    package var payload: [UInt8]
    /// For each ``LedgerOperation/addContact(identifier:containerIdentifier:createdBy:values:)``
    /// of the event, in order, the range of `payload` holding its Contact message: exactly
    /// `ContactCodec.encode(values, keys: .all)`, the bytes a projection stores for the contact.
    package var addedContacts: [Range<Int>]
}
