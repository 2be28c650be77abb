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

    /// Appends the fields of a Contact message holding the values of `keys`.
    package static func encode(_ values: ContactValues, keys: ContactKeySet, into encoder: inout WireEncoder) {
        typealias Field = EventSchema.ContactField
        encoder.appendVarint(field: Field.keys.rawValue, value: keys.rawValue)
        if keys.contains(.givenName) { encoder.appendNonEmpty(Field.givenName, values.givenName) }
        if keys.contains(.familyName) { encoder.appendNonEmpty(Field.familyName, values.familyName) }
        if keys.contains(.organizationName) {
            encoder.appendNonEmpty(Field.organizationName, values.organizationName)
        }
        if keys.contains(.phoneNumbers) {
            for phone in values.phoneNumbers {
                encodeLabeled(phone, field: Field.phoneNumbers, into: &encoder) { value, encoder in
                    encoder.appendNonEmpty(EventSchema.LabeledValueField.value, value.stringValue)
                }
            }
        }
        if keys.contains(.emailAddresses) {
            for email in values.emailAddresses {
                encodeLabeled(email, field: Field.emailAddresses, into: &encoder, value: encodeStringValue)
            }
        }
        if keys.contains(.contactType), values.contactType != .person {
            encoder.appendVarint(field: Field.contactType.rawValue, value: UInt64(values.contactType.rawValue))
        }
        if keys.contains(.middleName) { encoder.appendNonEmpty(Field.middleName, values.middleName) }
        if keys.contains(.namePrefix) { encoder.appendNonEmpty(Field.namePrefix, values.namePrefix) }
        if keys.contains(.nameSuffix) { encoder.appendNonEmpty(Field.nameSuffix, values.nameSuffix) }
        if keys.contains(.nickname) { encoder.appendNonEmpty(Field.nickname, values.nickname) }
        if keys.contains(.jobTitle) { encoder.appendNonEmpty(Field.jobTitle, values.jobTitle) }
        if keys.contains(.departmentName) { encoder.appendNonEmpty(Field.departmentName, values.departmentName) }
        if keys.contains(.postalAddresses) {
            for address in values.postalAddresses {
                encodeLabeled(address, field: Field.postalAddresses, into: &encoder) { value, encoder in
                    encoder.appendMessage(field: EventSchema.LabeledValueField.value.rawValue, omitIfEmpty: true) {
                        encodePostalAddress(value, into: &$0)
                    }
                }
            }
        }
        if keys.contains(.urlAddresses) {
            for url in values.urlAddresses {
                encodeLabeled(url, field: Field.urlAddresses, into: &encoder, value: encodeStringValue)
            }
        }
        if keys.contains(.previousFamilyName) {
            encoder.appendNonEmpty(Field.previousFamilyName, values.previousFamilyName)
        }
        if keys.contains(.phoneticGivenName) {
            encoder.appendNonEmpty(Field.phoneticGivenName, values.phoneticGivenName)
        }
        if keys.contains(.phoneticMiddleName) {
            encoder.appendNonEmpty(Field.phoneticMiddleName, values.phoneticMiddleName)
        }
        if keys.contains(.phoneticFamilyName) {
            encoder.appendNonEmpty(Field.phoneticFamilyName, values.phoneticFamilyName)
        }
        if keys.contains(.phoneticOrganizationName) {
            encoder.appendNonEmpty(Field.phoneticOrganizationName, values.phoneticOrganizationName)
        }
        if keys.contains(.note) { encoder.appendNonEmpty(Field.note, values.note) }
        if keys.contains(.birthday), let birthday = values.birthday {
            encoder.appendMessage(field: Field.birthday.rawValue) { encodeDate(birthday, into: &$0) }
        }
        if keys.contains(.nonGregorianBirthday), let birthday = values.nonGregorianBirthday {
            encoder.appendMessage(field: Field.nonGregorianBirthday.rawValue) { encodeDate(birthday, into: &$0) }
        }
        if keys.contains(.dates) {
            for date in values.dates {
                encodeLabeled(date, field: Field.dates, into: &encoder) { value, encoder in
                    encoder.appendMessage(field: EventSchema.LabeledValueField.value.rawValue, omitIfEmpty: true) {
                        encodeDate(value, into: &$0)
                    }
                }
            }
        }
        if keys.contains(.contactRelations) {
            for relation in values.contactRelations {
                encodeLabeled(relation, field: Field.contactRelations, into: &encoder) { value, encoder in
                    encoder.appendNonEmpty(EventSchema.LabeledValueField.value, value.name)
                }
            }
        }
        if keys.contains(.socialProfiles) {
            for profile in values.socialProfiles {
                encodeLabeled(profile, field: Field.socialProfiles, into: &encoder) { value, encoder in
                    encoder.appendMessage(field: EventSchema.LabeledValueField.value.rawValue, omitIfEmpty: true) {
                        encodeSocialProfile(value, into: &$0)
                    }
                }
            }
        }
        if keys.contains(.instantMessageAddresses) {
            for address in values.instantMessageAddresses {
                encodeLabeled(address, field: Field.instantMessageAddresses, into: &encoder) { value, encoder in
                    encoder.appendMessage(field: EventSchema.LabeledValueField.value.rawValue, omitIfEmpty: true) {
                        encodeInstantMessageAddress(value, into: &$0)
                    }
                }
            }
        }
        // The image data is kept whenever any of the three image keys is (see ContactValues).
        if !keys.isDisjoint(with: .image), let imageData = values.imageData {
            imageData.withUnsafeBytes { encoder.appendBytes(field: Field.imageData.rawValue, bytes: $0) }
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
        var values = ContactValues()
        var wanted = keys.rawValue
        if !keys.isDisjoint(with: .image) { wanted |= ContactKeySet(.imageData).rawValue }
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
        typealias Field = EventSchema.ContactField
        let messageStart = reader.offset
        var keyBits: UInt64 = 0
        // The keys whose fields appeared, checked against the key set at the end, since nothing
        // requires the key set to come first.
        var seenBits: UInt64 = 0
        // The elements of each repeated field read so far when the reads only check (they are
        // not kept): phone numbers, email, postal and URL addresses, dates, relations, social
        // profiles and instant message addresses, for the index an error names.
        var checked = InlineArray<8, Int>(repeating: 0)
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            guard let field = Field(rawValue: key.field) else {
                try reader.skip(key)
                continue
            }
            if field != .keys && field.keyBits & wanted == 0 {
                try reader.skip(key)
                seenBits |= field.keyBits
                continue
            }
            do throws(EventDecodingError) {
                switch field {
                case .keys:
                    let start = reader.offset
                    keyBits = try reader.varint(key)
                    guard keyBits & ~ContactKeySet.all.rawValue == 0 else {
                        throw EventDecodingError(.invalidValue(keyBits), offset: start)
                    }
                case .givenName: values.givenName = try reader.string(key)
                case .familyName: values.familyName = try reader.string(key)
                case .organizationName: values.organizationName = try reader.string(key)
                case .phoneNumbers:
                    try appendLabeled(to: &values.phoneNumbers, counting: &checked[0], &reader, key) {
                        reader, key throws(EventDecodingError) in
                        try decodeLabeled(&reader, key, empty: PhoneNumber(stringValue: "")) {
                            reader, key throws(EventDecodingError) in
                            PhoneNumber(stringValue: try reader.string(key))
                        }
                    }
                case .emailAddresses:
                    try appendLabeled(to: &values.emailAddresses, counting: &checked[1], &reader, key) {
                        reader, key throws(EventDecodingError) in
                        try decodeLabeled(&reader, key, empty: "", value: decodeStringValue)
                    }
                case .contactType: values.contactType = try reader.enumeration(key, as: ContactType.self)
                case .middleName: values.middleName = try reader.string(key)
                case .namePrefix: values.namePrefix = try reader.string(key)
                case .nameSuffix: values.nameSuffix = try reader.string(key)
                case .nickname: values.nickname = try reader.string(key)
                case .jobTitle: values.jobTitle = try reader.string(key)
                case .departmentName: values.departmentName = try reader.string(key)
                case .postalAddresses:
                    try appendLabeled(to: &values.postalAddresses, counting: &checked[2], &reader, key) {
                        reader, key throws(EventDecodingError) in
                        try decodeLabeled(&reader, key, empty: PostalAddress()) {
                            reader, key throws(EventDecodingError) in
                            var nested = try reader.nested(key)
                            return try decodePostalAddress(from: &nested)
                        }
                    }
                case .urlAddresses:
                    try appendLabeled(to: &values.urlAddresses, counting: &checked[3], &reader, key) {
                        reader, key throws(EventDecodingError) in
                        try decodeLabeled(&reader, key, empty: "", value: decodeStringValue)
                    }
                case .previousFamilyName: values.previousFamilyName = try reader.string(key)
                case .phoneticGivenName: values.phoneticGivenName = try reader.string(key)
                case .phoneticMiddleName: values.phoneticMiddleName = try reader.string(key)
                case .phoneticFamilyName: values.phoneticFamilyName = try reader.string(key)
                case .phoneticOrganizationName: values.phoneticOrganizationName = try reader.string(key)
                case .note: values.note = try reader.string(key)
                case .birthday:
                    var nested = try reader.nested(key)
                    values.birthday = try decodeDate(from: &nested)
                case .nonGregorianBirthday:
                    var nested = try reader.nested(key)
                    values.nonGregorianBirthday = try decodeDate(from: &nested)
                case .dates:
                    try appendLabeled(to: &values.dates, counting: &checked[4], &reader, key) {
                        reader, key throws(EventDecodingError) in
                        try decodeLabeled(&reader, key, empty: DateComponents()) {
                            reader, key throws(EventDecodingError) in
                            var nested = try reader.nested(key)
                            return try decodeDate(from: &nested)
                        }
                    }
                case .contactRelations:
                    try appendLabeled(to: &values.contactRelations, counting: &checked[5], &reader, key) {
                        reader, key throws(EventDecodingError) in
                        try decodeLabeled(&reader, key, empty: ContactRelation(name: "")) {
                            reader, key throws(EventDecodingError) in
                            ContactRelation(name: try reader.string(key))
                        }
                    }
                case .socialProfiles:
                    try appendLabeled(to: &values.socialProfiles, counting: &checked[6], &reader, key) {
                        reader, key throws(EventDecodingError) in
                        try decodeLabeled(&reader, key, empty: SocialProfile()) {
                            reader, key throws(EventDecodingError) in
                            var nested = try reader.nested(key)
                            return try decodeSocialProfile(from: &nested)
                        }
                    }
                case .instantMessageAddresses:
                    try appendLabeled(to: &values.instantMessageAddresses, counting: &checked[7], &reader, key) {
                        reader, key throws(EventDecodingError) in
                        try decodeLabeled(&reader, key, empty: InstantMessageAddress(username: "", service: "")) {
                            reader, key throws(EventDecodingError) in
                            var nested = try reader.nested(key)
                            return try decodeInstantMessageAddress(from: &nested)
                        }
                    }
                case .imageData:
                    values.imageData = try reader.withBytes(key) { Data(buffer: $0) }
                }
            } catch {
                throw error.within(pathComponent(field, in: values, checked: checked))
            }
            seenBits |= field.keyBits
        }
        // A value for a key outside the set would be silently dropped by whoever applies the
        // event, so it is refused. The image data belongs to any of the three image keys.
        var allowedBits = keyBits
        if keyBits & ContactKeySet.image.rawValue != 0 { allowedBits |= ContactKeySet.image.rawValue }
        let strayBits = seenBits & ~allowedBits
        if strayBits != 0 {
            let bitIndex = strayBits.trailingZeroBitCount
            let name = Field.allCases.first { $0.keyBits == 1 << UInt64(bitIndex) }.map { "\($0)" } ?? ""
            throw EventDecodingError(.valueOutsideKeySet, field: name, offset: messageStart)
        }
        return ContactKeySet(rawValue: keyBits)
    }

    /// Empties values that a Contact message was already decoded into when the same field comes
    /// again, so that the last of two wins, as for every other singular field (writers never
    /// repeat one); `decoded` records that one has been.
    @inline(__always)
    static func reset(_ values: inout ContactValues, _ decoded: inout Bool) {
        if decoded { values = ContactValues() }
        decoded = true
    }

    /// Appends the element of a repeated field that `read` reads; when the reads only check,
    /// reads it (checking it), keeps nothing and counts it in `checked` instead, so that
    /// checking a message allocates no array.
    @inline(__always)
    private static func appendLabeled<Value>(
        to array: inout [LabeledValue<Value>], counting checked: inout Int, _ reader: inout PayloadReader,
        _ key: WireKey,
        _ read: (inout PayloadReader, WireKey) throws(EventDecodingError) -> LabeledValue<Value>
    ) throws(EventDecodingError) {
        if reader.checksOnly {
            _ = try read(&reader, key)
            checked += 1
        } else {
            reserve(&array, reader, key)
            array.append(try read(&reader, key))
        }
    }

    /// Makes room for every element of a repeated field when its first one is read.
    @inline(__always)
    private static func reserve<Element>(_ array: inout [Element], _ reader: PayloadReader, _ key: WireKey) {
        if array.isEmpty { array.reserveCapacity(reader.runLength(startingAt: key)) }
    }

    /// The name an error shows for a field, with the index of the element of a repeated field
    /// that was being read: the elements kept in `values`, or those only checked.
    private static func pathComponent(
        _ field: EventSchema.ContactField, in values: ContactValues, checked: InlineArray<8, Int>
    ) -> String {
        let count: Int? =
            switch field {
            case .phoneNumbers: values.phoneNumbers.count + checked[0]
            case .emailAddresses: values.emailAddresses.count + checked[1]
            case .postalAddresses: values.postalAddresses.count + checked[2]
            case .urlAddresses: values.urlAddresses.count + checked[3]
            case .dates: values.dates.count + checked[4]
            case .contactRelations: values.contactRelations.count + checked[5]
            case .socialProfiles: values.socialProfiles.count + checked[6]
            case .instantMessageAddresses: values.instantMessageAddresses.count + checked[7]
            default: nil
            }
        return count.map { "\(field)[\($0)]" } ?? "\(field)"
    }
}

extension EventSchema.ContactField {
    /// The ``ContactKeySet`` bit of the key this field holds a value of; none for the key set.
    var keyBits: UInt64 {
        let key: ContactKey? =
            switch self {
            case .keys: nil
            case .givenName: .givenName
            case .familyName: .familyName
            case .organizationName: .organizationName
            case .phoneNumbers: .phoneNumbers
            case .emailAddresses: .emailAddresses
            case .contactType: .contactType
            case .middleName: .middleName
            case .namePrefix: .namePrefix
            case .nameSuffix: .nameSuffix
            case .nickname: .nickname
            case .jobTitle: .jobTitle
            case .departmentName: .departmentName
            case .postalAddresses: .postalAddresses
            case .urlAddresses: .urlAddresses
            case .previousFamilyName: .previousFamilyName
            case .phoneticGivenName: .phoneticGivenName
            case .phoneticMiddleName: .phoneticMiddleName
            case .phoneticFamilyName: .phoneticFamilyName
            case .phoneticOrganizationName: .phoneticOrganizationName
            case .note: .note
            case .birthday: .birthday
            case .nonGregorianBirthday: .nonGregorianBirthday
            case .dates: .dates
            case .contactRelations: .contactRelations
            case .socialProfiles: .socialProfiles
            case .instantMessageAddresses: .instantMessageAddresses
            case .imageData: .imageData
            }
        return key.map { 1 << UInt64($0.bitIndex) } ?? 0
    }
}
