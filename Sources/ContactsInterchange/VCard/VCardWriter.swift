import ContactsModel
import Foundation

/// Writes contacts as vCard 3.0 (Apple's shape) or 4.0 (RFC 6350), as the table in
/// `Documentation/VCard.md` describes.
///
/// Every property is read only when its key is available, so a partial contact writes what it
/// has and nothing traps. Lines end in CR LF and are folded at 75 octets, never inside a UTF-8
/// character; a continuation line starts with one space.
struct VCardWriter {
    /// The product identifier this package writes.
    static let productIdentifier = "-//ContactsLedger//ContactsLedger//EN"

    /// The longest physical line, in octets, without its line end (RFC 6350 §3.2).
    static let lineBytesMax = 75

    let version: VCardVersion
    private var output: [UInt8] = []
    private var groupCounter = 0

    init(version: VCardVersion) {
        self.version = version
    }

    private var isV4: Bool { version == .v4_0 }

    /// The bytes written so far.
    var bytes: [UInt8] { output }

    // MARK: Lines

    /// A parameter: a name and its values, written `NAME=v1,v2`.
    private typealias Parameter = (name: String, values: [String])

    private mutating func nextGroup() -> String {
        groupCounter += 1
        return "item\(groupCounter)"
    }

    /// Writes one content line; the value must already be escaped.
    private mutating func line(
        _ name: String, _ value: String, group: String? = nil, parameters: [Parameter] = []
    ) {
        var text = ""
        if let group {
            text += group + "."
        }
        text += name
        for parameter in parameters {
            text += ";" + parameter.name + "=" + parameter.values.map(Self.parameterValue).joined(separator: ",")
        }
        text += ":" + value
        Self.fold(text, into: &output)
    }

    /// A parameter value: RFC 6868 caret escapes for `^`, `"` and line breaks, and double
    /// quotes around a value with `;`, `:` or `,`.
    static func parameterValue(_ value: String) -> String {
        var encoded = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in value.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "^": encoded.append(contentsOf: "^^".unicodeScalars)
            case "\"": encoded.append(contentsOf: "^'".unicodeScalars)
            case "\r": encoded.append(contentsOf: "^n".unicodeScalars)
            case "\n":
                if !previousWasCR {
                    encoded.append(contentsOf: "^n".unicodeScalars)
                }
            default: encoded.append(scalar)
            }
        }
        let text = String(encoded)
        if text.unicodeScalars.contains(where: { $0 == ";" || $0 == ":" || $0 == "," }) {
            return "\"" + text + "\""
        }
        return text
    }

    /// Appends a line folded at 75 octets, never inside a UTF-8 character, ending in CR LF.
    static func fold(_ line: String, into output: inout [UInt8]) {
        let bytes = Array(line.utf8)
        var start = 0
        var limit = lineBytesMax
        while bytes.count - start > limit {
            var cut = start + limit
            while cut > start, bytes[cut] & 0xC0 == 0x80 {
                cut -= 1
            }
            output += bytes[start..<cut]
            output += [VCardBytes.cr, VCardBytes.lf, VCardBytes.space]
            start = cut
            limit = lineBytesMax - 1
        }
        output += bytes[start...]
        output += [VCardBytes.cr, VCardBytes.lf]
    }

    /// The type parameters: in 3.0 one `type=` per token, as Apple writes them, with `pref`
    /// last; in 4.0 one `TYPE=` list in lower case, and `PREF=1` for the preferred value.
    private func typeParameters(_ tokens: [String], preferred: Bool) -> [Parameter] {
        if isV4 {
            var parameters: [Parameter] = []
            if !tokens.isEmpty {
                parameters.append(("TYPE", tokens.map { $0.lowercased() }))
            }
            if preferred {
                parameters.append(("PREF", ["1"]))
            }
            return parameters
        }
        return (tokens + (preferred ? ["pref"] : [])).map { ("type", [$0]) }
    }

    /// Writes a labeled value: its label as `TYPE` parameters when the label has a `TYPE` form
    /// for this kind of property, else as an `X-ABLabel` in the same `itemN.` group.
    private mutating func labeled(
        _ name: String, value: String, label: String?, kind: VCardLabels.Kind?, leadingTypes: [String] = [],
        preferred: Bool = false, leadingParameters: [Parameter] = [], parameters: [Parameter] = [],
        alwaysGrouped: Bool = false,
        companions: [(name: String, value: String)] = []
    ) {
        var tokens = leadingTypes
        var abLabel: String?
        if let kind, let mapped = VCardLabels.typeTokens(for: label, kind: kind) {
            tokens += mapped
        } else {
            abLabel = label
        }
        let group = alwaysGrouped || abLabel != nil || !companions.isEmpty ? nextGroup() : nil
        line(
            name, value, group: group,
            parameters: leadingParameters + typeParameters(tokens, preferred: preferred) + parameters)
        for companion in companions {
            line(companion.name, VCardEscaping.escape(companion.value), group: group)
        }
        if let abLabel {
            line("X-ABLabel", VCardEscaping.escape(abLabel), group: group)
        }
    }

    // MARK: Contacts

    /// Writes one contact as one card.
    package mutating func write(_ contact: Contact) {
        groupCounter = 0
        let escape = VCardEscaping.escape
        func has(_ key: ContactKey) -> Bool { contact.isKeyAvailable(key) }
        func string(_ key: ContactKey, _ read: (Contact) -> String) -> String {
            has(key) ? read(contact) : ""
        }

        line("BEGIN", "VCARD")
        line("VERSION", version.rawValue)
        line("PRODID", escape(Self.productIdentifier))
        let isOrganization = has(.contactType) && contact.contactType == .organization
        if isV4, isOrganization {
            line("KIND", "org")
        }
        let nameParts = [
            string(.familyName, \.familyName), string(.givenName, \.givenName), string(.middleName, \.middleName),
            string(.namePrefix, \.namePrefix), string(.nameSuffix, \.nameSuffix),
        ]
        line("N", nameParts.map(escape).joined(separator: ";"))
        line("FN", escape(Self.formattedName(of: contact)))
        for (key, name) in [
            (ContactKey.nickname, "NICKNAME"), (.previousFamilyName, "X-MAIDENNAME"),
            (.phoneticGivenName, "X-PHONETIC-FIRST-NAME"), (.phoneticMiddleName, "X-PHONETIC-MIDDLE-NAME"),
            (.phoneticFamilyName, "X-PHONETIC-LAST-NAME"),
        ] {
            let value = string(key) { $0.values.string(for: key) }
            if !value.isEmpty {
                line(name, escape(value))
            }
        }
        let organization = string(.organizationName, \.organizationName)
        let department = string(.departmentName, \.departmentName)
        if !organization.isEmpty || !department.isEmpty {
            line("ORG", escape(organization) + ";" + escape(department))
        }
        let phoneticOrganization = string(.phoneticOrganizationName, \.phoneticOrganizationName)
        if !phoneticOrganization.isEmpty {
            line("X-PHONETIC-ORG", escape(phoneticOrganization))
        }
        let jobTitle = string(.jobTitle, \.jobTitle)
        if !jobTitle.isEmpty {
            line("TITLE", escape(jobTitle))
        }
        writeLabeledValues(of: contact)
        if has(.note), !contact.note.isEmpty {
            line("NOTE", escape(contact.note))
        }
        if has(.urlAddresses) {
            for (index, url) in contact.urlAddresses.enumerated() {
                labeled("URL", value: escape(url.value), label: url.label, kind: .url, preferred: index == 0)
            }
        }
        writeDates(of: contact)
        if has(.contactRelations) {
            for (index, relation) in contact.contactRelations.enumerated() {
                labeled(
                    "X-ABRELATEDNAMES", value: escape(relation.value.name), label: relation.label, kind: nil,
                    preferred: index == 0)
            }
        }
        if has(.instantMessageAddresses) {
            for (index, address) in contact.instantMessageAddresses.enumerated() {
                let service = address.value.service
                let scheme = VCardServices.scheme(forInstantMessageService: service)
                labeled(
                    "IMPP", value: escape(scheme + ":" + address.value.username), label: address.label,
                    kind: .instantMessage, preferred: index == 0,
                    leadingParameters: service.isEmpty ? [] : [("X-SERVICE-TYPE", [service])])
            }
        }
        if has(.imageData), let image = contact.imageData, !image.isEmpty {
            writePhoto([UInt8](image))
        }
        if !isV4, isOrganization {
            line("X-ABShowAs", "COMPANY")
        }
        if isV4 {
            if UUID(uuidString: contact.identifier) != nil {
                line("UID", "urn:uuid:" + contact.identifier.lowercased())
            } else {
                line("UID", escape(contact.identifier), parameters: [("VALUE", ["text"])])
            }
        } else {
            line("UID", escape(contact.identifier))
        }
        line("END", "VCARD")
    }

    /// The full name, as ``ContactFormatter`` makes it; for a partial contact, the keys it
    /// lacks count as empty.
    static func formattedName(of contact: Contact) -> String {
        let required = ContactFormatter.descriptorForRequiredKeys(for: .fullName)
        let complete =
            contact.availableKeys.isSuperset(of: required)
            ? contact : Contact(identifier: contact.identifier, values: contact.values, availableKeys: .all)
        return ContactFormatter(style: .fullName, userDefaults: .shared).string(from: complete) ?? ""
    }

    private mutating func writeLabeledValues(of contact: Contact) {
        let escape = VCardEscaping.escape
        if contact.isKeyAvailable(.emailAddresses) {
            for (index, email) in contact.emailAddresses.enumerated() {
                labeled(
                    "EMAIL", value: escape(email.value), label: email.label, kind: .email,
                    leadingTypes: isV4 ? [] : ["INTERNET"], preferred: index == 0)
            }
        }
        if contact.isKeyAvailable(.phoneNumbers) {
            for (index, phone) in contact.phoneNumbers.enumerated() {
                labeled(
                    "TEL", value: escape(phone.value.stringValue), label: phone.label, kind: .phone,
                    preferred: index == 0)
            }
        }
        if contact.isKeyAvailable(.postalAddresses) {
            for (index, address) in contact.postalAddresses.enumerated() {
                let value = address.value
                let components = ["", "", value.street, value.city, value.state, value.postalCode, value.country]
                var companions: [(name: String, value: String)] = []
                if !value.isoCountryCode.isEmpty {
                    companions.append(("X-ABADR", value.isoCountryCode))
                }
                if !value.subLocality.isEmpty {
                    companions.append(("X-APPLE-SUBLOCALITY", value.subLocality))
                }
                if !value.subAdministrativeArea.isEmpty {
                    companions.append(("X-APPLE-SUBADMINISTRATIVEAREA", value.subAdministrativeArea))
                }
                labeled(
                    "ADR", value: components.map(escape).joined(separator: ";"), label: address.label, kind: .address,
                    preferred: index == 0, alwaysGrouped: true, companions: companions)
            }
        }
        if contact.isKeyAvailable(.socialProfiles) {
            for profile in contact.socialProfiles {
                writeSocialProfile(profile)
            }
        }
    }

    private mutating func writeSocialProfile(_ profile: LabeledValue<SocialProfile>) {
        let value = profile.value
        var parameters: [Parameter] = []
        if !value.service.isEmpty {
            parameters.append((isV4 ? "TYPE" : "type", [VCardServices.socialType(forService: value.service)]))
        }
        if !value.username.isEmpty {
            parameters.append(("x-user", [value.username]))
        }
        if !value.userIdentifier.isEmpty {
            parameters.append(("x-userid", [value.userIdentifier]))
        }
        var text = value.urlString
        if text.isEmpty {
            text = "x-apple:" + (value.username.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
        }
        labeled(
            "X-SOCIALPROFILE", value: VCardEscaping.escape(text), label: profile.label, kind: nil,
            parameters: parameters)
    }

    private mutating func writeDates(of contact: Contact) {
        if contact.isKeyAvailable(.birthday), let birthday = contact.birthday {
            if isV4 {
                line("BDAY", VCardDates.format40(birthday))
            } else {
                let (value, omitsYear) = VCardDates.format30(birthday)
                line("BDAY", value, parameters: omitsYear ? [("X-APPLE-OMIT-YEAR", ["1604"])] : [])
            }
        }
        if contact.isKeyAvailable(.nonGregorianBirthday), let birthday = contact.nonGregorianBirthday,
            let calendar = birthday.calendar, let calendarName = VCardDates.calendarName(of: calendar.identifier)
        {
            var parameters: [Parameter] = [("CALSCALE", [calendarName])]
            if birthday.isLeapMonth == true {
                parameters.append(("X-LEAP-MONTH", ["TRUE"]))
            }
            line("X-ALTBDAY", VCardDates.formatAlternate(birthday), parameters: parameters)
        }
        if contact.isKeyAvailable(.dates) {
            for date in contact.dates {
                if isV4 {
                    labeled("X-ABDATE", value: VCardDates.format40(date.value), label: date.label, kind: nil)
                } else {
                    let (value, omitsYear) = VCardDates.format30(date.value)
                    labeled(
                        "X-ABDATE", value: value, label: date.label, kind: nil,
                        parameters: omitsYear ? [("X-APPLE-OMIT-YEAR", ["1604"])] : [])
                }
            }
        }
    }

    private mutating func writePhoto(_ image: [UInt8]) {
        let type = VCardImageType(of: image)
        let base64 = VCardBase64.encode(image)
        if isV4 {
            line("PHOTO", "data:" + (type?.mediaType ?? "application/octet-stream") + ";base64," + base64)
        } else {
            var parameters: [Parameter] = [("ENCODING", ["b"])]
            if let type {
                parameters.append(("TYPE", [type.rawValue]))
            }
            line("PHOTO", base64, parameters: parameters)
        }
    }
}

/// An image format, recognized by the first bytes of the image.
enum VCardImageType: String, Sendable {
    case jpeg = "JPEG"
    case png = "PNG"
    case gif = "GIF"

    /// The format of the image, or nil when its first bytes are not those of JPEG, PNG or GIF.
    init?(of bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else {
            return nil
        }
    }

    /// The media type, as a 4.0 data URI names it.
    var mediaType: String {
        "image/" + rawValue.lowercased()
    }
}

extension ContactValues {
    /// The value of a string key, or "" for a key that is not a string.
    fileprivate func string(for key: ContactKey) -> String {
        switch key {
        case .namePrefix: self.namePrefix
        case .givenName: self.givenName
        case .middleName: self.middleName
        case .familyName: self.familyName
        case .previousFamilyName: self.previousFamilyName
        case .nameSuffix: self.nameSuffix
        case .nickname: self.nickname
        case .phoneticGivenName: self.phoneticGivenName
        case .phoneticMiddleName: self.phoneticMiddleName
        case .phoneticFamilyName: self.phoneticFamilyName
        case .organizationName: self.organizationName
        case .phoneticOrganizationName: self.phoneticOrganizationName
        case .departmentName: self.departmentName
        case .jobTitle: self.jobTitle
        case .note: self.note
        default: ""
        }
    }
}
