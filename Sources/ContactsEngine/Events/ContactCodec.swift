import ContactsModel
import Foundation
import LedgerMigrations
import LedgerStorage

/// Encodes and decodes a contact's values for a key set as a Contact message of the event schema
/// (`Documentation/EventSchema.md`).
///
/// Only the set's keys are written, and a value equal to its default is left out; the key set
/// itself is written first, as a bit mask, so that a decoder tells "this key, at its default"
/// from "not this key", which updates need. Decoding gives back exactly the values encoded
/// (`==`), with the default for every key the set does not hold. A date keeps its calendar by
/// identifier only, with the time zone the date components themselves carry.
package enum ContactCodec {
    /// Encodes the values of `keys` as a standalone Contact message.
    package static func encode(_ values: ContactValues, keys: ContactKeySet) -> [UInt8] {
        var encoder = WireEncoder(capacity: 256)
        encode(values, keys: keys, into: &encoder)
        return encoder.finish()
    }

    /// Appends the fields of a Contact message holding the values of `keys`, in field order.
    ///
    /// A whole contact (every key) without vCard extensions is written without their key bit,
    /// which was added within schema version 2: such a contact's bytes are those written before
    /// the key existed, and absent reads as empty. An update names the key whenever it changes it.
    package static func encode(_ values: ContactValues, keys: ContactKeySet, into encoder: inout WireEncoder) {
        var keys = keys
        if keys == .all && values.vCardExtensions.isEmpty { keys.remove(.vCardExtensions) }
        encoder.appendVarint(field: EventSchema.ContactField.keys.rawValue, value: keys.rawValue)
        for field in fields.inOrder where field.writtenBits & keys.rawValue != 0 {
            encode(field, of: values, into: &encoder)
        }
    }

    /// Appends the field of one key, unless its value is the default.
    private static func encode(_ field: Field, of values: ContactValues, into encoder: inout WireEncoder) {
        let key = field.key
        let number = field.number
        switch field.kind {
        case .identifier, .thumbnailImageData, .imageDataAvailable:
            break
        case .contactType:
            let type = values[contactType: key]
            if type != .person { encoder.appendVarint(field: number, value: UInt64(type.rawValue)) }
        case .string:
            encoder.appendNonEmpty(field: number, values[string: key])
        case .date, .nonGregorianDate:
            if let date = values[date: key] { encoder.appendMessage(field: number) { encodeDate(date, into: &$0) } }
        case .labeledDates:
            for date in values[labeledDates: key] {
                encodeLabeledMessage(date, field: number, into: &encoder, value: encodeDate)
            }
        case .labeledPhoneNumbers:
            for phone in values[phoneNumbers: key] {
                encodeLabeled(phone, field: number, into: &encoder) { value, encoder in
                    encoder.appendNonEmpty(LabeledField.value, value.stringValue)
                }
            }
        case .labeledStrings:
            for labeled in values[labeledStrings: key] {
                encodeLabeled(labeled, field: number, into: &encoder, value: encodeStringValue)
            }
        case .labeledPostalAddresses:
            for address in values[postalAddresses: key] {
                encodeLabeledMessage(address, field: number, into: &encoder, value: encodePostalAddress)
            }
        case .labeledRelations:
            for relation in values[contactRelations: key] {
                encodeLabeled(relation, field: number, into: &encoder) { value, encoder in
                    encoder.appendNonEmpty(LabeledField.value, value.name)
                }
            }
        case .labeledSocialProfiles:
            for profile in values[socialProfiles: key] {
                encodeLabeledMessage(profile, field: number, into: &encoder, value: encodeSocialProfile)
            }
        case .labeledInstantMessageAddresses:
            for address in values[instantMessageAddresses: key] {
                encodeLabeledMessage(address, field: number, into: &encoder, value: encodeInstantMessageAddress)
            }
        case .imageData:
            // Written for any of the three image keys (`writtenBits`), as ContactValues keeps it.
            if let data = values[data: key] { data.withUnsafeBytes { encoder.appendBytes(field: number, bytes: $0) } }
        }
    }

    /// Decodes a standalone Contact message: the values, with defaults for the keys it does not
    /// hold, and the key set it was written for.
    package static func decode(
        _ bytes: [UInt8]
    ) throws(EventDecodingError) -> (values: ContactValues, keys: ContactKeySet) {
        try WireReader.withReader(bytes) { (wire: inout WireReader) throws(EventDecodingError) in
            var reader = PayloadReader(wire: wire)
            var values = ContactValues()
            let keys = try decode(from: &reader, into: &values)
            return (values, keys)
        }
    }

    /// Decodes the values of `keys` from a standalone Contact message that the store holds (one
    /// it wrote, or checked when it read its record): the fields of other keys are skipped, not
    /// read, so a fetch of a few keys builds no strings or arrays for the rest. The image data is
    /// decoded when any of the three image keys is asked for. The values of other keys are left
    /// at their defaults; the message's framing and key set are checked as ``decode(_:)`` checks
    /// them, the skipped values are not.
    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, keeping keys: ContactKeySet
    ) throws(EventDecodingError) -> ContactValues {
        var reader = PayloadReader(wire: WireReader(unsafeBuffer: bytes))
        var wanted = keys.rawValue
        if !keys.isDisjoint(with: .image) { wanted |= ContactKeySet(.imageData).rawValue }
        // Values to be filled start in a box of their own; the identifier alone fills none.
        var values = wanted & ~ContactKeySet(.identifier).rawValue == 0 ? ContactValues() : .unshared()
        _ = try decode(from: &reader, into: &values, wanted: wanted)
        return values
    }

    /// Decodes the rest of a reader's message as a Contact message into `values`, which must be
    /// empty, and returns the key set it was written for. A field whose key bit is not in
    /// `wanted` is skipped (its framing read, its value not).
    ///
    /// The values are filled in place rather than returned: a ``ContactValues`` is close to a
    /// kilobyte, and every copy of it showed up in the replay benchmark.
    static func decode(
        from reader: inout PayloadReader, into values: inout ContactValues, wanted: UInt64 = .max
    ) throws(EventDecodingError) -> ContactKeySet {
        let messageStart = reader.offset
        var keyBits: UInt64 = 0
        // The keys whose fields appeared, checked against the key set at the end, since nothing
        // requires the key set to come first.
        var seenBits: UInt64 = 0
        // The elements of each repeated field read so far, kept or (when the reads only check)
        // not, for the index an error names.
        var elements = Fields.ElementCounts(repeating: 0)
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            if key.field == EventSchema.ContactField.keys.rawValue {
                do throws(EventDecodingError) {
                    keyBits = try readKeySet(&reader, key)
                } catch {
                    throw error.within("keys")
                }
                continue
            }
            guard let field = fields.numbered(key.field) else {
                try reader.skip(key)
                continue
            }
            if field.keyBit & wanted == 0 {
                try reader.skip(key)
                seenBits |= field.keyBit
                continue
            }
            do throws(EventDecodingError) {
                try decode(field, from: &reader, key, into: &values, elements: &elements)
            } catch {
                let element = field.repeatedIndex.map { "[\(elements[$0])]" } ?? ""
                throw error.within(field.key.rawValue + element)
            }
            seenBits |= field.keyBit
        }
        // A value for a key outside the set would be silently dropped by whoever applies the
        // event, so it is refused. The image data belongs to any of the three image keys.
        var allowedBits = keyBits
        if keyBits & ContactKeySet.image.rawValue != 0 { allowedBits |= ContactKeySet.image.rawValue }
        let strayBits = seenBits & ~allowedBits
        if strayBits != 0 {
            let bit: UInt64 = 1 << UInt64(strayBits.trailingZeroBitCount)
            let name = fields.inOrder.first { $0.keyBit == bit }?.key.rawValue ?? ""
            throw EventDecodingError(.valueOutsideKeySet, field: name, offset: messageStart)
        }
        return wholeContactKeys(keyBits)
    }

    /// The key set a message was written for: every key when it names every key but the vCard
    /// extensions, since a whole contact without them is written so (``encode(_:keys:into:)``).
    @inline(__always)
    static func wholeContactKeys(_ keyBits: UInt64) -> ContactKeySet {
        let allButExtensions = ContactKeySet.all.rawValue & ~ContactKeySet.vCardExtensions.rawValue
        return ContactKeySet(rawValue: keyBits == allButExtensions ? ContactKeySet.all.rawValue : keyBits)
    }

    /// Reads a Contact message's key set; a bit no key has is refused.
    @inline(__always)
    private static func readKeySet(_ reader: inout PayloadReader, _ key: WireKey) throws(EventDecodingError) -> UInt64 {
        let start = reader.offset
        let keyBits = try reader.varint(key)
        guard keyBits & ~ContactKeySet.all.rawValue == 0 else {
            throw EventDecodingError(.invalidValue(keyBits), offset: start)
        }
        return keyBits
    }

    /// Reads the value of one key's field into `values`; a repeated field's element is appended
    /// and counted in `elements`.
    @inline(__always)
    private static func decode(
        _ field: Field, from reader: inout PayloadReader, _ key: WireKey, into values: inout ContactValues,
        elements: inout Fields.ElementCounts
    ) throws(EventDecodingError) {
        let contactKey = field.key
        switch field.kind {
        case .identifier, .thumbnailImageData, .imageDataAvailable:
            try reader.skip(key)
        case .contactType:
            values[contactType: contactKey] = try reader.enumeration(key, as: ContactType.self)
        case .string:
            values[string: contactKey] = try reader.string(key)
        case .date, .nonGregorianDate:
            var nested = try reader.nested(key)
            values[date: contactKey] = try decodeDate(from: &nested)
        case .imageData:
            values[data: contactKey] = try reader.withBytes(key) { Data(buffer: $0) }
        default:
            try decodeLabeledField(field, from: &reader, key, into: &values, elements: &elements)
        }
    }

    /// Reads one element of a labeled-values key into `values`, appending it and counting it in
    /// `elements`.
    @inline(__always)
    private static func decodeLabeledField(
        _ field: Field, from reader: inout PayloadReader, _ key: WireKey, into values: inout ContactValues,
        elements: inout Fields.ElementCounts
    ) throws(EventDecodingError) {
        let contactKey = field.key
        let count = field.repeatedIndex ?? 0
        switch field.kind {
        case .labeledDates:
            try appendLabeled(
                to: &values, contactKey, { $0.exchange(labeledDates: $1, &$2) }, counting: &elements[count], &reader,
                key
            ) {
                reader, key throws(EventDecodingError) in
                try decodeLabeledMessage(&reader, key, empty: DateComponents(), value: decodeDate)
            }
        case .labeledPhoneNumbers:
            try appendLabeled(
                to: &values, contactKey, { $0.exchange(phoneNumbers: $1, &$2) }, counting: &elements[count], &reader,
                key
            ) {
                reader, key throws(EventDecodingError) in
                try decodeLabeled(&reader, key, empty: PhoneNumber(stringValue: "")) {
                    reader, key throws(EventDecodingError) in
                    PhoneNumber(stringValue: try reader.string(key))
                }
            }
        case .labeledStrings:
            try appendLabeled(
                to: &values, contactKey, { $0.exchange(labeledStrings: $1, &$2) }, counting: &elements[count], &reader,
                key
            ) {
                reader, key throws(EventDecodingError) in
                try decodeLabeled(&reader, key, empty: "", value: decodeStringValue)
            }
        case .labeledPostalAddresses:
            try appendLabeled(
                to: &values, contactKey, { $0.exchange(postalAddresses: $1, &$2) }, counting: &elements[count], &reader,
                key
            ) {
                reader, key throws(EventDecodingError) in
                try decodeLabeledMessage(&reader, key, empty: PostalAddress(), value: decodePostalAddress)
            }
        case .labeledRelations:
            try appendLabeled(
                to: &values, contactKey, { $0.exchange(contactRelations: $1, &$2) }, counting: &elements[count],
                &reader, key
            ) {
                reader, key throws(EventDecodingError) in
                try decodeLabeled(&reader, key, empty: ContactRelation(name: "")) {
                    reader, key throws(EventDecodingError) in
                    ContactRelation(name: try reader.string(key))
                }
            }
        case .labeledSocialProfiles:
            try appendLabeled(
                to: &values, contactKey, { $0.exchange(socialProfiles: $1, &$2) }, counting: &elements[count], &reader,
                key
            ) {
                reader, key throws(EventDecodingError) in
                try decodeLabeledMessage(&reader, key, empty: SocialProfile(), value: decodeSocialProfile)
            }
        case .labeledInstantMessageAddresses:
            try appendLabeled(
                to: &values, contactKey, { $0.exchange(instantMessageAddresses: $1, &$2) }, counting: &elements[count],
                &reader, key
            ) {
                reader, key throws(EventDecodingError) in
                try decodeLabeledMessage(
                    &reader, key, empty: InstantMessageAddress(username: "", service: ""),
                    value: decodeInstantMessageAddress)
            }
        default:
            preconditionFailure("\(field.kind) is not a labeled-values kind")
        }
    }

    /// Empties values that a Contact message was already decoded into when the same field comes
    /// again, so that the last of two wins, as for every other singular field (writers never
    /// repeat one); `decoded` records that one has been.
    @inline(__always)
    static func reset(_ values: inout ContactValues, _ decoded: inout Bool) {
        if decoded { values = ContactValues() }
        decoded = true
    }

    /// Appends one element to the labeled values of `key`, which `exchange` moves out of `values`
    /// and back: by calls, where an accessor's coroutine, called from this module, would allocate
    /// its frame once per element.
    @inline(__always)
    private static func appendLabeled<Value>(
        to values: inout ContactValues, _ key: ContactKey,
        _ exchange: (inout ContactValues, ContactKey, inout [LabeledValue<Value>]) -> Void,
        counting elements: inout Int, _ reader: inout PayloadReader, _ wireKey: WireKey,
        _ read: (inout PayloadReader, WireKey) throws(EventDecodingError) -> LabeledValue<Value>
    ) throws(EventDecodingError) {
        var list: [LabeledValue<Value>] = []
        exchange(&values, key, &list)
        defer { exchange(&values, key, &list) }
        try appendLabeled(to: &list, counting: &elements, &reader, wireKey, read)
    }

    /// Appends the element of a repeated field that `read` reads, and counts it in `elements`;
    /// when the reads only check, reads it (checking it) and keeps nothing, so that checking a
    /// message allocates no array.
    @inline(__always)
    private static func appendLabeled<Value>(
        to array: inout [LabeledValue<Value>], counting elements: inout Int, _ reader: inout PayloadReader,
        _ key: WireKey,
        _ read: (inout PayloadReader, WireKey) throws(EventDecodingError) -> LabeledValue<Value>
    ) throws(EventDecodingError) {
        if reader.checksOnly {
            _ = try read(&reader, key)
        } else {
            reserve(&array, reader, key)
            array.append(try read(&reader, key))
        }
        elements += 1
    }

    /// Makes room for every element of a repeated field when its first one is read.
    @inline(__always)
    private static func reserve<Element>(_ array: inout [Element], _ reader: PayloadReader, _ key: WireKey) {
        if array.isEmpty { array.reserveCapacity(reader.runLength(startingAt: key)) }
    }
}

// MARK: The fields

extension ContactCodec {
    /// The field of one key in a Contact message, as the codec reads ``ContactKeyTable`` for it:
    /// only numbers and small enums, so that finding and reading it copies no reference.
    struct Field {
        /// The field number.
        let number: UInt32
        /// The key whose value the field holds.
        let key: ContactKey
        /// The key's value kind.
        let kind: ContactValueKind
        /// The key's bit in a ``ContactKeySet``.
        let keyBit: UInt64
        /// The key-set bits for which an encoder writes the field: the key's own, and for the
        /// image data those of all three image keys.
        let writtenBits: UInt64
        /// Which search index reads the field's values, if any.
        let search: ContactKeySearch?
        /// The field's place among the repeated fields, in field order; nil for a singular field.
        let repeatedIndex: Int?
        /// The field's place among the searched name fields, in field order; nil for the others.
        let nameIndex: Int?
    }

    /// The fields of a Contact message, made from ``ContactKeyTable`` once.
    struct Fields {
        /// A count per repeated field (labeled values), by ``Field/repeatedIndex``.
        typealias ElementCounts = InlineArray<16, Int>
        /// A range per searched name field, by ``Field/nameIndex``.
        typealias NameRanges = InlineArray<16, Range<Int>>

        /// Every field, in ascending number: the order an encoder writes them in.
        let inOrder: [Field]
        /// The fields by number; nil for a number no key has.
        private let byNumber: [Field?]

        init(_ rows: [ContactKeyDescriptor]) {
            let numbered = rows.compactMap { row in row.codecField.map { (number: $0, row: row) } }
            var inOrder: [Field] = []
            var repeated = 0
            var names = 0
            for (number, row) in numbered.sorted(by: { $0.number < $1.number }) {
                precondition(number > EventSchema.ContactField.keys.rawValue, "\(row.key) has a reserved field number")
                precondition(inOrder.last.map { $0.number < number } ?? true, "two keys share field \(number)")
                precondition(
                    Self.isSearchable(row), "\(row.key) cannot be searched as \(row.search.map { "\($0)" } ?? "")")
                let keyBit: UInt64 = 1 << UInt64(row.key.bitIndex)
                let isRepeated = Self.isRepeated(row.kind)
                inOrder.append(
                    Field(
                        number: number, key: row.key, kind: row.kind, keyBit: keyBit,
                        writtenBits: row.kind == .imageData ? ContactKeySet.image.rawValue : keyBit, search: row.search,
                        repeatedIndex: isRepeated ? repeated : nil, nameIndex: row.search == .name ? names : nil))
                if isRepeated { repeated += 1 }
                if row.search == .name { names += 1 }
            }
            precondition(
                repeated <= ElementCounts.count && names <= NameRanges.count, "too many repeated or name fields")
            var byNumber = [Field?](repeating: nil, count: Int(inOrder.last?.number ?? 0) + 1)
            for field in inOrder { byNumber[Int(field.number)] = field }
            self.inOrder = inOrder
            self.byNumber = byNumber
        }

        /// The field with a number, or nil for a number no key has.
        @inline(__always)
        func numbered(_ number: UInt32) -> Field? {
            Int(number) < byNumber.count ? byNumber[Int(number)] : nil
        }

        /// Whether the index a row names can read its field: a name field is text, and an email
        /// address or a phone number is a labeled value whose value is text.
        private static func isSearchable(_ row: ContactKeyDescriptor) -> Bool {
            switch row.search {
            case nil: true
            case .name: row.kind == .string
            case .email: row.kind == .labeledStrings
            case .phone: row.kind == .labeledPhoneNumbers
            }
        }

        /// Whether a kind's field is repeated, one labeled value per element.
        private static func isRepeated(_ kind: ContactValueKind) -> Bool {
            switch kind {
            case .labeledDates, .labeledPhoneNumbers, .labeledStrings, .labeledPostalAddresses, .labeledRelations,
                .labeledSocialProfiles, .labeledInstantMessageAddresses:
                true
            default: false
            }
        }
    }

    /// The fields of a Contact message.
    static let fields = Fields(ContactKeyTable.rows)
}
