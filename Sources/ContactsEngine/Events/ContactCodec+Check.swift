import ContactsModel
import LedgerMigrations
import LedgerStorage

/// Checking a Contact message without decoding it, for a replay (decision 0009).
extension ContactCodec {
    /// Checks the rest of a reader's message as a Contact message and returns the key set it was
    /// written for; refuses exactly what ``decode(from:into:)`` refuses, with the same error.
    ///
    /// A replay keeps an added contact as its record's bytes, so it only needs to know that they
    /// decode. Checking by decoding (with ``PayloadReader/checksOnly``) still built and dropped a
    /// labeled value per element, a string per standard label and a value per field: most of a
    /// replay's decoding thread. This walks the message once and builds nothing. It refuses what
    /// decoding refuses: every field is read as decoding reads it (a wire type, a length, a
    /// varint in range, 16 UUID bytes, a known label number or enumeration case, a date as
    /// decoding decodes it) and the key set is compared with the fields the same way. When the
    /// walk refuses, the message is decoded from its start into `scratch` (only checked), so that
    /// the error thrown is decoding's own, with its path and offset.
    static func check(
        from reader: inout PayloadReader, scratch: inout ContactValues
    ) throws(EventDecodingError) -> ContactKeySet {
        let start = reader
        do throws(EventDecodingError) {
            return try walk(&reader)
        } catch {
            reader = start
            reader.checksOnly = true
            return try decode(from: &reader, into: &scratch)
        }
    }

    /// The walk of ``check(from:scratch:)``; what it throws only says that the message is refused.
    private static func walk(_ reader: inout PayloadReader) throws(EventDecodingError) -> ContactKeySet {
        var keyBits: UInt64 = 0
        var seenBits: UInt64 = 0
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            if key.field == EventSchema.ContactField.keys.rawValue {
                keyBits = try reader.varint(key)
                guard keyBits & ~ContactKeySet.all.rawValue == 0 else { throw refused(key) }
                continue
            }
            guard let field = fields.numbered(key.field) else {
                try reader.skip(key)
                continue
            }
            try walk(field.kind, &reader, key)
            seenBits |= field.keyBit
        }
        // As decoding: no value for a key outside the set; the image data belongs to any image key.
        var allowedBits = keyBits
        if keyBits & ContactKeySet.image.rawValue != 0 { allowedBits |= ContactKeySet.image.rawValue }
        guard seenBits & ~allowedBits == 0 else { throw EventDecodingError(.valueOutsideKeySet, offset: 0) }
        return wholeContactKeys(keyBits)
    }

    /// Walks the value of a field of a key of `kind`, as decoding reads it.
    @inline(__always)
    private static func walk(
        _ kind: ContactValueKind, _ reader: inout PayloadReader, _ key: WireKey
    ) throws(EventDecodingError) {
        switch kind {
        case .string, .imageData, .identifier, .thumbnailImageData, .imageDataAvailable:
            try skipBytes(&reader, key)
        case .labeledPhoneNumbers, .labeledStrings, .labeledRelations:
            try walkLabeled(&reader, key, value: skipBytes)
        case .labeledPostalAddresses:
            try walkLabeled(&reader, key) { reader, key throws(EventDecodingError) in
                try walkStrings(&reader, key, as: EventSchema.PostalAddressField.self)
            }
        case .labeledSocialProfiles:
            try walkLabeled(&reader, key) { reader, key throws(EventDecodingError) in
                try walkStrings(&reader, key, as: EventSchema.SocialProfileField.self)
            }
        case .labeledInstantMessageAddresses:
            try walkLabeled(&reader, key) { reader, key throws(EventDecodingError) in
                try walkStrings(&reader, key, as: EventSchema.InstantMessageAddressField.self)
            }
        case .labeledDates:
            try walkLabeled(&reader, key, value: checkDate)
        case .date, .nonGregorianDate:
            try checkDate(&reader, key)
        case .contactType:
            _ = try reader.enumeration(key, as: ContactType.self)
        }
    }

    /// The error a walk throws for a field it refuses (decoding then says what is wrong).
    private static func refused(_ key: WireKey) -> EventDecodingError {
        EventDecodingError(.wrongWireType(expected: key.wireType, found: key.wireType), offset: key.offset)
    }

    /// Reads past a string or bytes field, as decoding reads one.
    @inline(__always)
    private static func skipBytes(_ reader: inout PayloadReader, _ key: WireKey) throws(EventDecodingError) {
        try reader.expect(key, .lengthDelimited)
        try reader.skip(key)
    }

    /// Walks a LabeledValue message, as ``decodeLabeled(_:_:empty:value:)`` reads one; `value`
    /// walks its value field.
    @inline(__always)
    private static func walkLabeled(
        _ reader: inout PayloadReader, _ key: WireKey,
        value walkValue: (inout PayloadReader, WireKey) throws(EventDecodingError) -> Void
    ) throws(EventDecodingError) {
        var nested = try reader.nested(key)
        try decodeFields(from: &nested, as: LabeledField.self) { field, nested, key throws(EventDecodingError) in
            switch field {
            case .identifier, .label: try skipBytes(&nested, key)
            case .identifierUUID:
                guard try nested.withBytes(key, { $0.count }) == 16 else { throw refused(key) }
            case .standardLabel:
                guard CompactFields.standardLabel(try nested.varint(key)) != nil else { throw refused(key) }
            case .value: try walkValue(&nested, key)
            }
        }
    }

    /// Walks a nested message whose fields are all strings, as ``decodeFields(from:as:_:)``
    /// reads one for a postal address, a social profile or an instant message address.
    private static func walkStrings<Field: RawRepresentable<UInt32>>(
        _ reader: inout PayloadReader, _ key: WireKey, as: Field.Type
    ) throws(EventDecodingError) {
        var nested = try reader.nested(key)
        try decodeFields(from: &nested, as: Field.self) { _, nested, key throws(EventDecodingError) in
            try skipBytes(&nested, key)
        }
    }

    /// Checks a DateComponents message by decoding it (dates are few, and their checks many).
    private static func checkDate(_ reader: inout PayloadReader, _ key: WireKey) throws(EventDecodingError) {
        var nested = try reader.nested(key)
        _ = try decodeDate(from: &nested)
    }
}
