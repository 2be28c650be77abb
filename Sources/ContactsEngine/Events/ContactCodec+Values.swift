import ContactsModel
import Foundation
import LedgerMigrations
import LedgerStorage

/// The messages inside a Contact message: labeled values, dates, postal addresses, social
/// profiles and instant message addresses.
extension ContactCodec {
    typealias LabeledField = EventSchema.LabeledValueField

    // MARK: Labeled values

    /// Appends a LabeledValue message; `value` writes the value field, or nothing for a default.
    static func encodeLabeled<Value>(
        _ labeled: LabeledValue<Value>, field: UInt32, into encoder: inout WireEncoder,
        value encodeValue: (Value, inout WireEncoder) -> Void
    ) {
        encoder.appendMessage(field: field) { encoder in
            let uuid = CompactFields.uuidBytes(labeled.identifier)
            encoder.appendIdentifierText(labeled.identifier, uuid, LabeledField.identifier)
            // An empty label is written, so that it reads back as "" and not as nil.
            let standardLabel = labeled.label.flatMap { CompactFields.standardLabelNumbers[$0] }
            if let label = labeled.label, standardLabel == nil {
                encoder.appendString(field: LabeledField.label.rawValue, label)
            }
            encodeValue(labeled.value, &encoder)
            encoder.appendIdentifierUUID(uuid, LabeledField.identifierUUID)
            if let standardLabel {
                encoder.appendVarint(field: LabeledField.standardLabel.rawValue, value: standardLabel)
            }
        }
    }

    /// Appends a LabeledValue message whose value is a message that `value` writes, left out
    /// when empty.
    @inline(__always)
    static func encodeLabeledMessage<Value>(
        _ labeled: LabeledValue<Value>, field: UInt32, into encoder: inout WireEncoder,
        value encodeValue: (Value, inout WireEncoder) -> Void
    ) {
        encodeLabeled(labeled, field: field, into: &encoder) { value, encoder in
            encoder.appendMessage(field: LabeledField.value.rawValue, omitIfEmpty: true) { encodeValue(value, &$0) }
        }
    }

    /// Writes a string value of a labeled value.
    static func encodeStringValue(_ value: String, into encoder: inout WireEncoder) {
        encoder.appendNonEmpty(LabeledField.value, value)
    }

    /// Reads a LabeledValue message; `value` reads the value field, and `empty` stands for an
    /// absent one.
    @inline(__always)
    static func decodeLabeled<Value>(
        _ reader: inout PayloadReader, _ key: WireKey, empty: Value,
        value decodeValue: (inout PayloadReader, WireKey) throws(EventDecodingError) -> Value
    ) throws(EventDecodingError) -> LabeledValue<Value> {
        var nested = try reader.nested(key)
        var identifier = ""
        var label: String?
        var value = empty
        while !nested.isAtEnd {
            let key = try nested.nextKey()
            guard let field = LabeledField(rawValue: key.field) else {
                try nested.skip(key)
                continue
            }
            do throws(EventDecodingError) {
                switch field {
                case .identifier: identifier = try nested.string(key)
                case .identifierUUID: identifier = try nested.uuidIdentifier(key)
                case .label: label = try nested.string(key)
                case .standardLabel: label = try nested.standardLabel(key)
                case .value: value = try decodeValue(&nested, key)
                }
            } catch {
                throw error.within("\(field)")
            }
        }
        return LabeledValue(identifier: identifier, label: label, value: value)
    }

    /// Reads a LabeledValue message whose value is a message that `value` reads.
    @inline(__always)
    static func decodeLabeledMessage<Value>(
        _ reader: inout PayloadReader, _ key: WireKey, empty: Value,
        value decodeValue: (inout PayloadReader) throws(EventDecodingError) -> Value
    ) throws(EventDecodingError) -> LabeledValue<Value> {
        try decodeLabeled(&reader, key, empty: empty) { reader, key throws(EventDecodingError) in
            var nested = try reader.nested(key)
            return try decodeValue(&nested)
        }
    }

    /// Reads a string value of a labeled value.
    static func decodeStringValue(_ reader: inout PayloadReader, _ key: WireKey) throws(EventDecodingError) -> String {
        try reader.string(key)
    }

    // MARK: Postal addresses, social profiles, instant message addresses

    static func encodePostalAddress(_ address: PostalAddress, into encoder: inout WireEncoder) {
        typealias Field = EventSchema.PostalAddressField
        encoder.appendNonEmpty(Field.street, address.street)
        encoder.appendNonEmpty(Field.subLocality, address.subLocality)
        encoder.appendNonEmpty(Field.city, address.city)
        encoder.appendNonEmpty(Field.subAdministrativeArea, address.subAdministrativeArea)
        encoder.appendNonEmpty(Field.state, address.state)
        encoder.appendNonEmpty(Field.postalCode, address.postalCode)
        encoder.appendNonEmpty(Field.country, address.country)
        encoder.appendNonEmpty(Field.isoCountryCode, address.isoCountryCode)
    }

    static func decodePostalAddress(from reader: inout PayloadReader) throws(EventDecodingError) -> PostalAddress {
        var street = "", subLocality = "", city = "", subAdministrativeArea = ""
        var state = "", postalCode = "", country = "", isoCountryCode = ""
        try decodeFields(from: &reader, as: EventSchema.PostalAddressField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .street: street = try reader.string(key)
            case .subLocality: subLocality = try reader.string(key)
            case .city: city = try reader.string(key)
            case .subAdministrativeArea: subAdministrativeArea = try reader.string(key)
            case .state: state = try reader.string(key)
            case .postalCode: postalCode = try reader.string(key)
            case .country: country = try reader.string(key)
            case .isoCountryCode: isoCountryCode = try reader.string(key)
            }
        }
        return PostalAddress(
            street: street, subLocality: subLocality, city: city, subAdministrativeArea: subAdministrativeArea,
            state: state, postalCode: postalCode, country: country, isoCountryCode: isoCountryCode)
    }

    static func encodeSocialProfile(_ profile: SocialProfile, into encoder: inout WireEncoder) {
        typealias Field = EventSchema.SocialProfileField
        encoder.appendNonEmpty(Field.urlString, profile.urlString)
        encoder.appendNonEmpty(Field.username, profile.username)
        encoder.appendNonEmpty(Field.userIdentifier, profile.userIdentifier)
        encoder.appendNonEmpty(Field.service, profile.service)
    }

    static func decodeSocialProfile(from reader: inout PayloadReader) throws(EventDecodingError) -> SocialProfile {
        var urlString = "", username = "", userIdentifier = "", service = ""
        try decodeFields(from: &reader, as: EventSchema.SocialProfileField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .urlString: urlString = try reader.string(key)
            case .username: username = try reader.string(key)
            case .userIdentifier: userIdentifier = try reader.string(key)
            case .service: service = try reader.string(key)
            }
        }
        return SocialProfile(urlString: urlString, username: username, userIdentifier: userIdentifier, service: service)
    }

    static func encodeInstantMessageAddress(_ address: InstantMessageAddress, into encoder: inout WireEncoder) {
        typealias Field = EventSchema.InstantMessageAddressField
        encoder.appendNonEmpty(Field.username, address.username)
        encoder.appendNonEmpty(Field.service, address.service)
    }

    static func decodeInstantMessageAddress(
        from reader: inout PayloadReader
    ) throws(EventDecodingError) -> InstantMessageAddress {
        var username = "", service = ""
        try decodeFields(from: &reader, as: EventSchema.InstantMessageAddressField.self) {
            field, reader, key throws(EventDecodingError) in
            switch field {
            case .username: username = try reader.string(key)
            case .service: service = try reader.string(key)
            }
        }
        return InstantMessageAddress(username: username, service: service)
    }

    /// Reads every field of a message: known ones through `body`, which names the field in any
    /// error it throws, and unknown ones skipped.
    @inline(__always)
    static func decodeFields<Field: RawRepresentable<UInt32>>(
        from reader: inout PayloadReader, as: Field.Type,
        _ body: (Field, inout PayloadReader, WireKey) throws(EventDecodingError) -> Void
    ) throws(EventDecodingError) {
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            guard let field = Field(rawValue: key.field) else {
                try reader.skip(key)
                continue
            }
            do throws(EventDecodingError) {
                try body(field, &reader, key)
            } catch {
                throw error.within("\(field)")
            }
        }
    }

    // MARK: Dates

    /// Appends the fields of a DateComponents message: every component that is set.
    static func encodeDate(_ date: DateComponents, into encoder: inout WireEncoder) {
        typealias Field = EventSchema.DateComponentsField
        func integer(_ field: Field, _ value: Int?) {
            if let value { encoder.appendSignedVarint(field: field.rawValue, value: Int64(value)) }
        }
        if let calendar = date.calendar {
            encoder.appendString(field: Field.calendar.rawValue, CalendarNames.storedName(of: calendar.identifier))
        }
        integer(.era, date.era)
        integer(.year, date.year)
        integer(.month, date.month)
        integer(.day, date.day)
        if let isLeapMonth = date.isLeapMonth {
            encoder.appendBool(field: Field.isLeapMonth.rawValue, value: isLeapMonth)
        }
        integer(.hour, date.hour)
        integer(.minute, date.minute)
        integer(.second, date.second)
        integer(.nanosecond, date.nanosecond)
        integer(.weekday, date.weekday)
        integer(.weekdayOrdinal, date.weekdayOrdinal)
        integer(.quarter, date.quarter)
        integer(.weekOfMonth, date.weekOfMonth)
        integer(.weekOfYear, date.weekOfYear)
        integer(.yearForWeekOfYear, date.yearForWeekOfYear)
        integer(.dayOfYear, date.dayOfYear)
        if let isRepeatedDay = date.isRepeatedDay {
            encoder.appendBool(field: Field.isRepeatedDay.rawValue, value: isRepeatedDay)
        }
        if let timeZone = date.timeZone { encoder.appendString(field: Field.timeZone.rawValue, timeZone.identifier) }
    }

    /// Reads a DateComponents message; components that are absent stay nil.
    static func decodeDate(from reader: inout PayloadReader) throws(EventDecodingError) -> DateComponents {
        typealias Field = EventSchema.DateComponentsField
        var date = DateComponents()
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            guard let field = Field(rawValue: key.field) else {
                try reader.skip(key)
                continue
            }
            do throws(EventDecodingError) {
                switch field {
                case .calendar:
                    let start = reader.offset
                    let name = try reader.checkedName(key)
                    guard let identifier = CalendarNames.identifier(named: name) else {
                        throw EventDecodingError(.unknownCalendar(name), offset: start)
                    }
                    date.calendar = Calendar(identifier: identifier)
                case .era: date.era = try reader.int(key)
                case .year: date.year = try reader.int(key)
                case .month: date.month = try reader.int(key)
                case .day: date.day = try reader.int(key)
                case .isLeapMonth: date.isLeapMonth = try reader.bool(key)
                case .hour: date.hour = try reader.int(key)
                case .minute: date.minute = try reader.int(key)
                case .second: date.second = try reader.int(key)
                case .nanosecond: date.nanosecond = try reader.int(key)
                case .weekday: date.weekday = try reader.int(key)
                case .weekdayOrdinal: date.weekdayOrdinal = try reader.int(key)
                case .quarter: date.quarter = try reader.int(key)
                case .weekOfMonth: date.weekOfMonth = try reader.int(key)
                case .weekOfYear: date.weekOfYear = try reader.int(key)
                case .yearForWeekOfYear: date.yearForWeekOfYear = try reader.int(key)
                case .dayOfYear: date.dayOfYear = try reader.int(key)
                case .isRepeatedDay: date.isRepeatedDay = try reader.bool(key)
                case .timeZone:
                    let start = reader.offset
                    let name = try reader.checkedName(key)
                    guard let timeZone = TimeZone(identifier: name) else {
                        throw EventDecodingError(.unknownTimeZone(name), offset: start)
                    }
                    date.timeZone = timeZone
                }
            } catch {
                throw error.within("\(field)")
            }
        }
        return date
    }
}

extension WireEncoder {
    /// Appends a string field unless the string is empty, its default.
    @inline(__always)
    mutating func appendNonEmpty<Field: RawRepresentable<UInt32>>(_ field: Field, _ string: String) {
        appendNonEmpty(field: field.rawValue, string)
    }

    /// Appends a string field by number unless the string is empty, its default.
    @inline(__always)
    mutating func appendNonEmpty(field: UInt32, _ string: String) {
        if !string.isEmpty { appendString(field: field, string) }
    }

    /// Appends one string field per element, empty ones included, so the count survives.
    @inline(__always)
    mutating func appendEach<Field: RawRepresentable<UInt32>>(_ field: Field, _ strings: [String]) {
        for string in strings { appendString(field: field.rawValue, string) }
    }
}
