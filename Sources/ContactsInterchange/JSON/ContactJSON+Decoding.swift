import ContactsModel
import Foundation

/// Why JSON could not be read as a contact, naming the key path of the problem.
public struct ContactJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: String, Sendable, Hashable {
        /// The text is not JSON at all; see ``ContactJSONError/parseError``.
        case malformedJSON
        /// An object has a key that is not one of the framework's names for that place.
        case unknownKey
        /// A value has the wrong JSON type.
        case wrongType
        /// A value has the right type but cannot be used (bad base64, an unknown calendar, ...).
        case invalidValue
        /// A required key is missing.
        case missingKey
    }

    /// The kind of problem.
    public var kind: Kind
    /// Where: `$` for the whole document, then keys and indexes, as in `$.phoneNumbers[1].value`.
    public var keyPath: String
    /// What was wrong, in words.
    public var message: String
    /// The parser's error, for ``Kind/malformedJSON``.
    public var parseError: JSONParseError?

    /// Creates an error.
    public init(_ kind: Kind, keyPath: String, _ message: String, parseError: JSONParseError? = nil) {
        self.kind = kind
        self.keyPath = keyPath
        self.message = message
        self.parseError = parseError
    }

    /// "keyPath: message", or the parser's description for malformed JSON.
    public var description: String {
        if let parseError { return parseError.description }
        return "\(keyPath): \(message)"
    }
}

extension ContactJSON {
    /// Reads a new contact from a JSON object in the form ``ContactJSON`` writes.
    ///
    /// Every key is optional, and every key the framework names is accepted; any other key is an
    /// error naming it. `identifier` (top level and in labeled values) keeps the given identifier
    /// when present, so that a contact printed by `show --json` can be added again as itself; a
    /// new one is made otherwise. `thumbnailImageData` and `imageDataAvailable` are derived from
    /// `imageData`, so they are checked for type and otherwise ignored. `null` stands for "none"
    /// where the framework has an optional (dates, image data, labels). Values are not validated
    /// here: the store does that when the contact is saved, with the framework's rules.
    public static func mutableContact(from value: JSONValue) throws(ContactJSONError) -> MutableContact {
        try ContactDecoder().contact(value, path: "$")
    }

    /// Reads one contact, or an array of contacts, from JSON text.
    public static func mutableContacts(
        parsing bytes: some Collection<UInt8>
    ) throws(ContactJSONError) -> [MutableContact] {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw ContactJSONError(.malformedJSON, keyPath: "$", error.description, parseError: error)
        }
        return try mutableContacts(from: value)
    }

    /// Reads one contact (an object) or several (an array of objects) from a JSON value.
    public static func mutableContacts(from value: JSONValue) throws(ContactJSONError) -> [MutableContact] {
        let decoder = ContactDecoder()
        if case .array(let elements) = value {
            var contacts: [MutableContact] = []
            for (index, element) in elements.enumerated() {
                contacts.append(try decoder.contact(element, path: "$[\(index)]"))
            }
            return contacts
        }
        return [try decoder.contact(value, path: "$")]
    }

    /// The contact type a name stands for (`"person"` or `"organization"`).
    public static func contactType(named name: String) -> ContactType? {
        ContactType.allCases.first { contactTypeName($0) == name }
    }
}

/// Reads contact JSON, tracking the key path for errors.
private struct ContactDecoder {
    typealias Failure = ContactJSONError

    func object(_ value: JSONValue, path: String, allowed: Set<String>) throws(Failure) -> JSONObject {
        guard case .object(let object) = value else {
            throw Failure(.wrongType, keyPath: path, "expected an object, found \(value.typeName)")
        }
        for key in object.keys where !allowed.contains(key) {
            throw Failure(.unknownKey, keyPath: path, "unknown key \"\(key)\"")
        }
        return object
    }

    package func string(_ value: JSONValue, path: String) throws(Failure) -> String {
        guard case .string(let text) = value else {
            throw Failure(.wrongType, keyPath: path, "expected a string, found \(value.typeName)")
        }
        // A store refuses NUL in every text it keeps; refused here, the key path is the JSON's.
        guard !ContactValues.holdsNUL(text) else {
            throw Failure(.invalidValue, keyPath: path, ContactValues.nulMessage)
        }
        return text
    }

    func optionalString(_ value: JSONValue, path: String) throws(Failure) -> String? {
        value == .null ? nil : try string(value, path: path)
    }

    package func integer(_ value: JSONValue, path: String) throws(Failure) -> Int {
        guard case .int(let number) = value else {
            throw Failure(.wrongType, keyPath: path, "expected an integer, found \(value.typeName)")
        }
        guard let exact = Int(exactly: number) else {
            throw Failure(.invalidValue, keyPath: path, "\(number) is out of range")
        }
        return exact
    }

    func array(_ value: JSONValue, path: String) throws(Failure) -> [JSONValue] {
        guard case .array(let elements) = value else {
            throw Failure(.wrongType, keyPath: path, "expected an array, found \(value.typeName)")
        }
        return elements
    }

    func data(_ value: JSONValue, path: String) throws(Failure) -> Data? {
        guard let text = try optionalString(value, path: path) else { return nil }
        guard let data = Data(base64Encoded: text) else {
            throw Failure(.invalidValue, keyPath: path, "not valid base64")
        }
        return data
    }

    func contact(_ value: JSONValue, path: String) throws(Failure) -> MutableContact {
        let object = try object(value, path: path, allowed: ContactKeyTable.jsonKeys)
        var values = ContactValues()
        var identifier: String?
        for member in object {
            // Every allowed key is a row's JSON key, so this lookup always succeeds.
            guard let row = ContactKeyTable.rowsByJSONKey[member.key] else { continue }
            let at = "\(path).\(member.key)"
            if row.kind == .identifier {
                let text = try string(member.value, path: at)
                guard !text.isEmpty else {
                    throw Failure(.invalidValue, keyPath: at, "an identifier must not be empty")
                }
                guard UUID(uuidString: text) != nil else {
                    throw Failure(
                        .invalidValue, keyPath: at, "an identifier must be a UUID, got \(text.debugDescription)")
                }
                identifier = text
            } else {
                try read(member.value, path: at, of: row, into: &values)
            }
        }
        return MutableContact(
            identifier: identifier ?? NewIdentifier.make(), values: values, availableKeys: .all, base: nil)
    }

    /// Reads the value of one key, by its kind.
    func read(
        _ value: JSONValue, path at: String, of row: ContactKeyDescriptor, into values: inout ContactValues
    ) throws(Failure) {
        let key = row.key
        switch row.kind {
        case .identifier: break
        case .contactType:
            let name = try string(value, path: at)
            guard let type = ContactJSON.contactType(named: name) else {
                throw Failure(.invalidValue, keyPath: at, "expected \"person\" or \"organization\", found \"\(name)\"")
            }
            values[contactType: key] = type
        case .string: values[string: key] = try string(value, path: at)
        case .date, .nonGregorianDate: values[date: key] = value == .null ? nil : try date(value, path: at)
        case .labeledDates: values[labeledDates: key] = try labeled(value, path: at, date)
        case .labeledPhoneNumbers:
            values[phoneNumbers: key] = try labeled(value, path: at) { (value, path) throws(Failure) in
                PhoneNumber(stringValue: try string(value, path: path))
            }
        case .labeledStrings: values[labeledStrings: key] = try labeled(value, path: at, string)
        case .labeledPostalAddresses: values[postalAddresses: key] = try labeled(value, path: at, postalAddress)
        case .labeledRelations:
            values[contactRelations: key] = try labeled(value, path: at) { (value, path) throws(Failure) in
                let fields = try strings(value, path: path, keys: ["name"])
                return ContactRelation(name: fields["name"] ?? "")
            }
        case .labeledSocialProfiles: values[socialProfiles: key] = try labeled(value, path: at, socialProfile)
        case .labeledInstantMessageAddresses:
            values[instantMessageAddresses: key] = try labeled(value, path: at) { (value, path) throws(Failure) in
                let fields = try strings(value, path: path, keys: InstantMessageAddress.Key.allCases.map(\.rawValue))
                return InstantMessageAddress(username: fields["username"] ?? "", service: fields["service"] ?? "")
            }
        case .imageData: values[data: key] = try data(value, path: at)
        case .thumbnailImageData: _ = try data(value, path: at)
        case .imageDataAvailable:
            guard case .bool = value else {
                throw Failure(.wrongType, keyPath: at, "expected a Boolean, found \(value.typeName)")
            }
        }
    }

    /// An object of string fields, each optional; returns the fields present.
    func strings(_ value: JSONValue, path: String, keys: [String]) throws(Failure) -> [String: String] {
        let object = try object(value, path: path, allowed: Set(keys))
        var fields: [String: String] = [:]
        for member in object {
            fields[member.key] = try string(member.value, path: "\(path).\(member.key)")
        }
        return fields
    }

    func postalAddress(_ value: JSONValue, path: String) throws(Failure) -> PostalAddress {
        let fields = try strings(
            value, path: path,
            keys: [
                "street", "subLocality", "city", "subAdministrativeArea", "state", "postalCode", "country",
                "isoCountryCode",
            ])
        return PostalAddress(
            street: fields["street"] ?? "", subLocality: fields["subLocality"] ?? "", city: fields["city"] ?? "",
            subAdministrativeArea: fields["subAdministrativeArea"] ?? "", state: fields["state"] ?? "",
            postalCode: fields["postalCode"] ?? "", country: fields["country"] ?? "",
            isoCountryCode: fields["isoCountryCode"] ?? "")
    }

    func socialProfile(_ value: JSONValue, path: String) throws(Failure) -> SocialProfile {
        let fields = try strings(value, path: path, keys: SocialProfile.Key.allCases.map(\.rawValue))
        return SocialProfile(
            urlString: fields["urlString"], username: fields["username"], userIdentifier: fields["userIdentifier"],
            service: fields["service"])
    }

    func date(_ value: JSONValue, path: String) throws(Failure) -> DateComponents {
        let object = try object(value, path: path, allowed: ["month", "day", "year", "calendar", "isLeapMonth"])
        var components = DateComponents()
        for member in object {
            let at = "\(path).\(member.key)"
            switch member.key {
            case "month": components.month = try integer(member.value, path: at)
            case "day": components.day = try integer(member.value, path: at)
            case "year": components.year = member.value == .null ? nil : try integer(member.value, path: at)
            case "calendar":
                let name = try string(member.value, path: at)
                guard let identifier = CalendarNames.identifier(named: name) else {
                    throw Failure(.invalidValue, keyPath: at, "unknown calendar \"\(name)\"")
                }
                components.calendar = Calendar(identifier: identifier)
            default:
                guard case .bool(let flag) = member.value else {
                    throw Failure(.wrongType, keyPath: at, "expected a Boolean, found \(member.value.typeName)")
                }
                components.isLeapMonth = flag
            }
        }
        guard components.month != nil else { throw Failure(.missingKey, keyPath: path, "a date needs \"month\"") }
        guard components.day != nil else { throw Failure(.missingKey, keyPath: path, "a date needs \"day\"") }
        return components
    }

    func labeled<Value>(
        _ value: JSONValue, path: String, _ decode: (JSONValue, String) throws(Failure) -> Value
    ) throws(Failure) -> [LabeledValue<Value>] {
        var result: [LabeledValue<Value>] = []
        for (index, element) in try array(value, path: path).enumerated() {
            let at = "\(path)[\(index)]"
            let object = try object(element, path: at, allowed: ["identifier", "label", "value"])
            guard let raw = object["value"] else { throw Failure(.missingKey, keyPath: at, "missing \"value\"") }
            let decoded = try decode(raw, "\(at).value")
            let label = try object["label"].map { (label) throws(Failure) in
                try optionalString(label, path: "\(at).label")
            }
            if let identifierValue = object["identifier"] {
                let identifier = try string(identifierValue, path: "\(at).identifier")
                guard !identifier.isEmpty else {
                    throw Failure(.invalidValue, keyPath: "\(at).identifier", "an identifier must not be empty")
                }
                result.append(LabeledValue(identifier: identifier, label: label ?? nil, value: decoded))
            } else {
                result.append(LabeledValue(label: label ?? nil, value: decoded))
            }
        }
        return result
    }
}
