import ContactsModel
import Foundation

/// Contacts as JSON objects, the form of `--json` output and of `add --from-json` input.
///
/// An object's keys are the framework's key names (``ContactKey`` raw values, the JSON keys of
/// ``ContactKeyTable``), in the order of ``ContactKey/allCases``, and only for the keys the contact has available
/// (``Contact/isKeyAvailable(_:)``): a partial contact gives a partial object and never traps.
/// An available key is always present, so the shape does not depend on the values:
///
/// - strings are strings, empty when absent; `contactType` is `"person"` or `"organization"`;
/// - `birthday`, `nonGregorianBirthday` and each value of `dates` are `{month, day, year}`,
///   `year` left out when unknown, with `calendar` (the `Calendar.Identifier` case name, as the
///   journal stores it: `"chinese"`, `"hebrew"`, `"islamicCivil"`, ...) when the date has a
///   non-Gregorian calendar and `isLeapMonth: true` when it is set; `null` when there is none;
/// - labeled values are `{identifier, label, value}`, `label` being the raw label string (the
///   ``Label`` constant, such as `"_$!<Mobile>!$_"`, or custom text) or `null`; phone numbers,
///   email and URL addresses have the text as value; postal addresses
///   `{street, subLocality, city, subAdministrativeArea, state, postalCode, country,
///   isoCountryCode}`; relations `{name}`; social profiles
///   `{urlString, username, userIdentifier, service}`; instant message addresses
///   `{username, service}`, every field present;
/// - `imageData` and `thumbnailImageData` are base64 (RFC 4648, with padding) or `null`;
///   `imageDataAvailable` is a Boolean;
/// - `vCardExtensions` (the content lines of a card's properties no other key holds) is left
///   out when it is empty, which it is for every contact not written by a vCard client, so
///   the JSON of such contacts is as it was before the key existed.
public enum ContactJSON {
    /// Whether a key is written for a contact: every available key, but the vCard extensions
    /// only when there are some.
    static func writes(_ key: ContactKey, of contact: Contact) -> Bool {
        // The extensions are read through their key: a member read of the values copies them all.
        // The key set is read in place, where a call for each key of each contact was not.
        contact.availableKeys.contains(key)
            && (key != .vCardExtensions || !contact.values[labeledStrings: .vCardExtensions].isEmpty)
    }

    /// A contact as a JSON object with every available key.
    public static func object(for contact: Contact) -> JSONObject {
        var object = JSONObject()
        for key in ContactKey.allCases where writes(key, of: contact) {
            object.appendNew(
                ContactKeyTable[key].jsonKey, value(of: key, in: contact.values, identifier: contact.identifier))
        }
        return object
    }

    /// A contact as a JSON value (an object); see ``object(for:)-(Contact)``.
    public static func value(for contact: Contact) -> JSONValue {
        .object(object(for: contact))
    }

    /// Appends the contact's object, exactly as ``value(for:)`` serializes compactly, to
    /// `output`, without building the value: for writing many contacts fast (`list --json`).
    public static func write(_ contact: Contact, to output: inout [UInt8]) {
        let values = contact.values
        var separator = UInt8(ascii: "{")
        for key in ContactKey.allCases where writes(key, of: contact) {
            output.append(separator)
            separator = UInt8(ascii: ",")
            writeName(of: key, to: &output)
            write(key, of: values, identifier: contact.identifier, to: &output)
        }
        if separator == UInt8(ascii: "{") { output.append(separator) }
        output.append(UInt8(ascii: "}"))
    }

    /// Appends ``value(of:in:)-(ContactKey,Contact)``'s compact form to `output` without building
    /// the value: for the old and new values of a log's property changes.
    package static func write(_ key: ContactKey, of contact: Contact, to output: inout [UInt8]) {
        guard contact.isKeyAvailable(key) else { return output.append(literal: "null") }
        write(key, of: contact.values, identifier: contact.identifier, to: &output)
    }

    /// Writes a key's `"name":`. The name is the key's raw value, letters only, which needs no
    /// escapes; it is a literal, which no thread counts references to, where a shared table of
    /// the names' bytes would have every thread writing contacts at once count references to one
    /// object.
    static func writeName(of key: ContactKey, to output: inout [UInt8]) {
        output.append(literal: quotedName(of: key))
    }

    /// A key's name in quotes and its colon, as literal bytes.
    static func quotedName(of key: ContactKey) -> StaticString {
        switch key {
        case .identifier: "\"identifier\":"
        case .contactType: "\"contactType\":"
        case .namePrefix: "\"namePrefix\":"
        case .givenName: "\"givenName\":"
        case .middleName: "\"middleName\":"
        case .familyName: "\"familyName\":"
        case .previousFamilyName: "\"previousFamilyName\":"
        case .nameSuffix: "\"nameSuffix\":"
        case .nickname: "\"nickname\":"
        case .phoneticGivenName: "\"phoneticGivenName\":"
        case .phoneticMiddleName: "\"phoneticMiddleName\":"
        case .phoneticFamilyName: "\"phoneticFamilyName\":"
        case .organizationName: "\"organizationName\":"
        case .phoneticOrganizationName: "\"phoneticOrganizationName\":"
        case .departmentName: "\"departmentName\":"
        case .jobTitle: "\"jobTitle\":"
        case .note: "\"note\":"
        case .birthday: "\"birthday\":"
        case .nonGregorianBirthday: "\"nonGregorianBirthday\":"
        case .dates: "\"dates\":"
        case .phoneNumbers: "\"phoneNumbers\":"
        case .emailAddresses: "\"emailAddresses\":"
        case .postalAddresses: "\"postalAddresses\":"
        case .urlAddresses: "\"urlAddresses\":"
        case .contactRelations: "\"contactRelations\":"
        case .socialProfiles: "\"socialProfiles\":"
        case .instantMessageAddresses: "\"instantMessageAddresses\":"
        case .imageData: "\"imageData\":"
        case .thumbnailImageData: "\"thumbnailImageData\":"
        case .imageDataAvailable: "\"imageDataAvailable\":"
        case .vCardExtensions: "\"vCardExtensions\":"
        }
    }

    /// Writes one property: the common kinds directly, the others through their value.
    private static func write(
        _ key: ContactKey, of values: ContactValues, identifier: String, to output: inout [UInt8]
    ) {
        switch ContactKeyTable.kind(of: key) {
        case .identifier: JSONValue.writeString(identifier, to: &output, asciiOnly: false)
        case .string: JSONValue.writeString(values[string: key], to: &output, asciiOnly: false)
        case .labeledPhoneNumbers:
            writeLabeled(values[phoneNumbers: key], to: &output) {
                JSONValue.writeString($0.stringValue, to: &$1, asciiOnly: false)
            }
        case .labeledStrings:
            writeLabeled(values[labeledStrings: key], to: &output) {
                JSONValue.writeString($0, to: &$1, asciiOnly: false)
            }
        case .imageDataAvailable:
            values.imageDataAvailable ? output.append(literal: "true") : output.append(literal: "false")
        case .contactType:
            values[contactType: key] == .organization
                ? output.append(literal: #""organization""#) : output.append(literal: #""person""#)
        case .labeledPostalAddresses: writeLabeled(values[postalAddresses: key], to: &output, writePostalAddress)
        case .labeledDates: writeLabeled(values[labeledDates: key], to: &output, writeDate)
        case .date, .nonGregorianDate:
            guard let date = values[date: key] else { return output.append(literal: "null") }
            writeDate(date, to: &output)
        default:
            if isAbsent(key, of: values) { return writeAbsent(key, to: &output) }
            value(of: key, in: values, identifier: identifier).write(to: &output)
        }
    }

    /// Whether a key of the kinds written through their value has none: no image, or an empty
    /// list, which most contacts have for most such keys.
    private static func isAbsent(_ key: ContactKey, of values: ContactValues) -> Bool {
        switch ContactKeyTable.kind(of: key) {
        case .labeledRelations: values[contactRelations: key].isEmpty
        case .labeledSocialProfiles: values[socialProfiles: key].isEmpty
        case .labeledInstantMessageAddresses: values[instantMessageAddresses: key].isEmpty
        case .imageData: values[data: key] == nil
        case .thumbnailImageData: values.thumbnailImageData == nil
        default: false
        }
    }

    /// Writes what ``value(of:in:identifier:)`` gives a key that ``isAbsent(_:of:)``: `[]` for a
    /// list, `null` for the others.
    private static func writeAbsent(_ key: ContactKey, to output: inout [UInt8]) {
        switch ContactKeyTable.kind(of: key) {
        case .labeledRelations, .labeledSocialProfiles, .labeledInstantMessageAddresses:
            output.append(literal: "[]")
        default: output.append(literal: "null")
        }
    }

    /// Writes labeled values as ``labeled(_:_:)`` makes them.
    private static func writeLabeled<Value>(
        _ values: [LabeledValue<Value>], to output: inout [UInt8], _ writeValue: (Value, inout [UInt8]) -> Void
    ) {
        output.append(UInt8(ascii: "["))
        // Each field is read where the array keeps it: taking each labeled value out first
        // retained and released every string it holds.
        for index in values.indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(literal: #"{"identifier":"#)
            JSONValue.writeString(values[index].identifier, to: &output, asciiOnly: false)
            output.append(literal: #","label":"#)
            if let label = values[index].label {
                JSONValue.writeString(label, to: &output, asciiOnly: false)
            } else {
                output.append(literal: "null")
            }
            output.append(literal: #","value":"#)
            writeValue(values[index].value, &output)
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Writes a postal address as ``postalAddress(_:)`` makes it: every field, in the keys' order.
    private static func writePostalAddress(_ address: PostalAddress, to output: inout [UInt8]) {
        var separator = UInt8(ascii: "{")
        for field in PostalAddress.Key.allCases {
            output.append(separator)
            separator = UInt8(ascii: ",")
            output.append(literal: quotedName(of: field))
            JSONValue.writeString(address[field], to: &output, asciiOnly: false)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// A postal address field's JSON name in quotes and its colon, as literal bytes: the names
    /// of ``postalAddress(_:)``, which are not all the keys' raw values (`isoCountryCode`).
    private static func quotedName(of field: PostalAddress.Key) -> StaticString {
        switch field {
        case .street: "\"street\":"
        case .subLocality: "\"subLocality\":"
        case .city: "\"city\":"
        case .subAdministrativeArea: "\"subAdministrativeArea\":"
        case .state: "\"state\":"
        case .postalCode: "\"postalCode\":"
        case .country: "\"country\":"
        case .isoCountryCode: "\"isoCountryCode\":"
        }
    }

    /// Writes a date as ``date(_:)`` makes it.
    private static func writeDate(_ components: DateComponents, to output: inout [UInt8]) {
        var separator = UInt8(ascii: "{")
        func writeName(_ quotedName: StaticString) {
            output.append(separator)
            separator = UInt8(ascii: ",")
            output.append(literal: quotedName)
        }
        if let month = components.month { writeName(#""month":"#); output += String(month).utf8 }
        if let day = components.day { writeName(#""day":"#); output += String(day).utf8 }
        if let year = components.year { writeName(#""year":"#); output += String(year).utf8 }
        if let calendar = components.calendar, calendar.identifier != .gregorian {
            writeName(#""calendar":"#)
            JSONValue.writeString(CalendarNames.storedName(of: calendar.identifier), to: &output, asciiOnly: false)
        }
        if components.isLeapMonth == true { writeName(#""isLeapMonth":true"#) }
        if separator == UInt8(ascii: "{") { output.append(separator) }
        output.append(UInt8(ascii: "}"))
    }

    /// A mutable contact as a JSON object, with the values it holds now.
    public static func object(for contact: MutableContact) -> JSONObject {
        object(for: contact.copy())
    }

    /// The JSON value of one property, as it appears in the contact's object: for per-property
    /// diffs and history. A key the contact does not have available gives `null`.
    public static func value(of key: ContactKey, in contact: Contact) -> JSONValue {
        guard contact.isKeyAvailable(key) else { return .null }
        return value(of: key, in: contact.values, identifier: contact.identifier)
    }

    /// The JSON value of one property of stored values (the identifier is passed separately,
    /// since values do not hold it): for the audit's old and new values.
    package static func value(of key: ContactKey, in values: ContactValues, identifier: String) -> JSONValue {
        switch ContactKeyTable.kind(of: key) {
        case .identifier: .string(identifier)
        case .contactType: .string(contactTypeName(values[contactType: key]))
        case .string: .string(values[string: key])
        case .date, .nonGregorianDate: values[date: key].map(date) ?? .null
        case .labeledDates: labeled(values[labeledDates: key], date)
        case .labeledPhoneNumbers: labeled(values[phoneNumbers: key]) { .string($0.stringValue) }
        case .labeledStrings: labeled(values[labeledStrings: key]) { .string($0) }
        case .labeledPostalAddresses: labeled(values[postalAddresses: key], postalAddress)
        case .labeledRelations: labeled(values[contactRelations: key]) { ["name": .string($0.name)] }
        case .labeledSocialProfiles: labeled(values[socialProfiles: key], socialProfile)
        case .labeledInstantMessageAddresses: labeled(values[instantMessageAddresses: key], instantMessageAddress)
        case .imageData: values[data: key].map { .string($0.base64EncodedString()) } ?? .null
        case .thumbnailImageData: values.thumbnailImageData.map { .string($0.base64EncodedString()) } ?? .null
        case .imageDataAvailable: .bool(values.imageDataAvailable)
        }
    }

    /// `"person"` or `"organization"`.
    public static func contactTypeName(_ type: ContactType) -> String {
        switch type {
        case .person: "person"
        case .organization: "organization"
        }
    }

    /// A date as `{month, day, year}` (each only when set), with `calendar` for a non-Gregorian
    /// calendar and `isLeapMonth` when it is true.
    public static func date(_ components: DateComponents) -> JSONValue {
        var object = JSONObject()
        if let month = components.month { object.appendNew("month", .integer(month)) }
        if let day = components.day { object.appendNew("day", .integer(day)) }
        if let year = components.year { object.appendNew("year", .integer(year)) }
        if let calendar = components.calendar, calendar.identifier != .gregorian {
            object.appendNew("calendar", .string(CalendarNames.storedName(of: calendar.identifier)))
        }
        if components.isLeapMonth == true { object.appendNew("isLeapMonth", .bool(true)) }
        return .object(object)
    }

    /// A postal address with every field, by the framework's field names.
    public static func postalAddress(_ address: PostalAddress) -> JSONValue {
        [
            "street": .string(address.street), "subLocality": .string(address.subLocality),
            "city": .string(address.city), "subAdministrativeArea": .string(address.subAdministrativeArea),
            "state": .string(address.state), "postalCode": .string(address.postalCode),
            "country": .string(address.country), "isoCountryCode": .string(address.isoCountryCode),
        ]
    }

    /// A social profile with every field.
    public static func socialProfile(_ profile: SocialProfile) -> JSONValue {
        [
            "urlString": .string(profile.urlString), "username": .string(profile.username),
            "userIdentifier": .string(profile.userIdentifier), "service": .string(profile.service),
        ]
    }

    /// An instant message address with both fields.
    public static func instantMessageAddress(_ address: InstantMessageAddress) -> JSONValue {
        ["username": .string(address.username), "service": .string(address.service)]
    }

    /// Labeled values as `[{identifier, label, value}]`.
    public static func labeled<Value>(
        _ values: [LabeledValue<Value>], _ encode: (Value) -> JSONValue
    ) -> JSONValue {
        .array(
            values.map { labeled in
                [
                    "identifier": .string(labeled.identifier), "label": .string(orNull: labeled.label),
                    "value": encode(labeled.value),
                ]
            })
    }
}
