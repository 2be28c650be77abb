import ContactsModel
import Foundation

/// Writes contacts as vCard 3.0 (Apple's shape) or 4.0 (RFC 6350), as the table in
/// `Documentation/VCard.md` describes.
///
/// Every property is read only when its key is available, so a partial contact writes what it
/// has and nothing traps. Lines end in CR LF and are folded at 75 octets, never inside a UTF-8
/// character; a continuation line starts with one space.
package struct VCardWriter {
    /// The product identifier this package writes.
    static let productIdentifier = "-//ContactsLedger//ContactsLedger//EN"

    /// The longest physical line, in octets, without its line end (RFC 6350 §3.2).
    static let lineBytesMax = 75

    package let version: VCardVersion
    /// Whether a card is written as its client gave it: the `UID` and `FN` a CardDAV client
    /// wrote, kept in the extensions, stand in for the identifier and the formatted name. Off
    /// for an export, whose `UID` is the identifier that an import finds the contact by.
    package var writesClientIdentity = false
    private var output: [UInt8] = []
    /// A long line's bytes while it is folded, kept so that its capacity serves every such line.
    private var lineBytes: [UInt8] = []
    private var groupCounter = 0

    package init(version: VCardVersion) {
        self.version = version
    }

    private var isV4: Bool { version == .v4_0 }

    /// The bytes written so far.
    package var bytes: [UInt8] { output }

    /// Appends one contact's card, as ``write(_:)`` writes it, to `output`: the card is written
    /// into `output` itself, without a buffer of its own to copy from.
    package static func append(_ contact: Contact, version: VCardVersion, to output: inout [UInt8]) {
        var writer = VCardWriter(version: version)
        swap(&writer.output, &output)
        writer.write(contact)
        swap(&writer.output, &output)
    }

    // MARK: Lines

    /// A content line's parameters as they are written, `;NAME=v1,v2` each in order: built as
    /// bytes, so that a line's parameters cost one buffer rather than an array of arrays.
    struct Parameters {
        private(set) var bytes: [UInt8] = []

        /// No parameters.
        init() {}

        /// A parameter with one value.
        init(_ name: String, _ value: String) {
            add(name, value)
        }

        /// Adds a parameter with one value.
        mutating func add(_ name: String, _ value: String) {
            add(name, values: CollectionOfOne(value))
        }

        /// Adds a parameter with its values, separated by commas.
        mutating func add(_ name: String, values: some Collection<String>) {
            add(name, tokens: values.lazy.map(VCardWriter.parameterValue))
        }

        /// Adds a parameter whose values are tokens that need neither escapes nor quotes (type
        /// tokens, the package's own names), written without looking for either.
        mutating func add(_ name: String, tokens: some Collection<String>) {
            bytes.append(UInt8(ascii: ";"))
            bytes.appendUTF8(name)
            bytes.append(UInt8(ascii: "="))
            for (index, token) in tokens.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.appendUTF8(token)
            }
        }
    }

    private mutating func nextGroup() -> String {
        groupCounter += 1
        return "item\(groupCounter)"
    }

    /// Starts a content line in the output with its group and name, and returns where it
    /// starts, for ``finishLine(from:parameters:writeValue:)``: a line is written where it
    /// stands, not copied there.
    private mutating func startLine(_ name: String, group: String? = nil) -> Int {
        let start = output.count
        if let group {
            output.appendUTF8(group)
            output.append(UInt8(ascii: "."))
        }
        output.appendUTF8(name)
        return start
    }

    /// Finishes the content line that starts at `start`: `parameters`, the colon, the value
    /// that `writeValue` appends (already escaped) and CR LF. The few lines longer than 75
    /// octets are taken out and folded back in; the others stay as they were written.
    private mutating func finishLine(
        from start: Int, parameters: Parameters, writeValue: (inout [UInt8]) -> Void
    ) {
        output += parameters.bytes
        output.append(VCardBytes.colon)
        writeValue(&output)
        guard output.count - start > Self.lineBytesMax else {
            output.append(VCardBytes.cr)
            output.append(VCardBytes.lf)
            return
        }
        lineBytes.removeAll(keepingCapacity: true)
        lineBytes += output[start...]
        output.removeSubrange(start...)
        Self.fold(lineBytes, into: &output)
    }

    /// Writes one content line whose value is written as it is: a token or a date, with no
    /// character that needs an escape.
    private mutating func line(
        _ name: String, _ value: String, group: String? = nil, parameters: Parameters = Parameters()
    ) {
        line(name, group: group, parameters: parameters) { $0.appendUTF8(value) }
    }

    /// Writes one content line whose value is text, escaped as it is written.
    private mutating func line(
        _ name: String, text: String, group: String? = nil, parameters: Parameters = Parameters()
    ) {
        line(name, group: group, parameters: parameters) { VCardEscaping.append(text, to: &$0) }
    }

    /// Writes one content line whose value `writeValue` appends, already escaped.
    private mutating func line(
        _ name: String, group: String? = nil, parameters: Parameters = Parameters(),
        writeValue: (inout [UInt8]) -> Void
    ) {
        finishLine(from: startLine(name, group: group), parameters: parameters, writeValue: writeValue)
    }

    /// A parameter value: RFC 6868 caret escapes for `^`, `"` and line breaks, and double
    /// quotes around a value with `;`, `:` or `,`.
    static func parameterValue(_ value: String) -> String {
        // Most values (type tokens, labels) have none of these characters and are kept whole.
        guard VCardBytes.containsAny(of: VCardBytes.parameterSpecials, in: value) else { return value }
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

    /// Appends a line's bytes folded at 75 octets, never inside a UTF-8 character, ending in CR LF.
    static func fold(_ bytes: [UInt8], into output: inout [UInt8]) {
        var start = 0
        var limit = lineBytesMax
        while bytes.count - start > limit {
            var cut = start + limit
            while cut > start, bytes[cut] & 0xC0 == 0x80 {
                cut -= 1
            }
            output += bytes[start..<cut]
            output.append(VCardBytes.cr)
            output.append(VCardBytes.lf)
            output.append(VCardBytes.space)
            start = cut
            limit = lineBytesMax - 1
        }
        output += bytes[start...]
        output.append(VCardBytes.cr)
        output.append(VCardBytes.lf)
    }

    /// Appends the type parameters: in 3.0 one `type=` per token, as Apple writes them, with
    /// `pref` last; in 4.0 one `TYPE=` list in lower case, and `PREF=1` for the preferred value.
    /// The tokens are the package's ASCII constants, written without looking for escapes.
    private mutating func appendTypeParameters(leading: String?, _ tokens: [String], preferred: Bool) {
        if isV4 {
            if leading != nil || !tokens.isEmpty { output.append(literal: ";TYPE=") }
            if let leading { appendLowercased(leading, comma: false) }
            for (index, token) in tokens.enumerated() {
                appendLowercased(token, comma: index > 0 || leading != nil)
            }
            if preferred { output.append(literal: ";PREF=1") }
            return
        }
        if let leading { appendTypeToken(leading) }
        for token in tokens { appendTypeToken(token) }
        if preferred { output.append(literal: ";type=pref") }
    }

    /// Appends one 3.0 `type=` parameter.
    private mutating func appendTypeToken(_ token: String) {
        output.append(literal: ";type=")
        output.appendUTF8(token)
    }

    /// Appends an ASCII token in lower case, after a comma when it is not the first of its list.
    private mutating func appendLowercased(_ token: String, comma: Bool) {
        if comma { output.append(UInt8(ascii: ",")) }
        for byte in token.utf8 {
            output.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte)
        }
    }

    /// Writes a labeled value, which `writeValue` appends escaped: its label as `TYPE`
    /// parameters when the label has a `TYPE` form for this kind of property, else as an
    /// `X-ABLabel` in the same `itemN.` group.
    private mutating func labeled(
        _ name: String, label: String?, kind: VCardLabels.Kind?, leadingType: String? = nil,
        preferred: Bool = false, leadingParameters: Parameters = Parameters(), parameters: Parameters = Parameters(),
        alwaysGrouped: Bool = false, companions: [(name: String, value: String)] = [],
        writeValue: (inout [UInt8]) -> Void
    ) {
        let tokens = kind.flatMap { VCardLabels.typeTokens(for: label, kind: $0) }
        let abLabel = tokens == nil ? label : nil
        let group = alwaysGrouped || abLabel != nil || !companions.isEmpty ? nextGroup() : nil
        let start = startLine(name, group: group)
        output += leadingParameters.bytes
        appendTypeParameters(leading: leadingType, tokens ?? [], preferred: preferred)
        finishLine(from: start, parameters: parameters, writeValue: writeValue)
        for companion in companions {
            line(companion.name, text: companion.value, group: group)
        }
        if let abLabel {
            line("X-ABLabel", text: abLabel, group: group)
        }
    }

    // MARK: Contacts

    /// The first lines of every card of a version, which no contact changes; the product
    /// identifier holds nothing to escape.
    private static func header(_ version: VCardVersion) -> [UInt8] {
        Array("BEGIN:VCARD\r\nVERSION:\(version.rawValue)\r\nPRODID:\(productIdentifier)\r\n".utf8)
    }

    private static let header30 = header(.v3_0)
    private static let header40 = header(.v4_0)

    /// Writes one contact as one card: the keys' properties in the order of
    /// ``ContactKeyTable/vCardOrder``, between the header and the identifier.
    package mutating func write(_ contact: Contact) {
        groupCounter = 0
        output += isV4 ? Self.header40 : Self.header30
        let isOrganization =
            contact.isKeyAvailable(.contactType) && contact.values[contactType: .contactType] == .organization
        if isV4, isOrganization {
            line("KIND", "org")
        }
        for step in Self.plan {
            write(step, of: contact)
        }
        if !isV4, isOrganization {
            line("X-ABShowAs", "COMPANY")
        }
        if !writeExtensions(of: contact) {
            writeUID(of: contact)
        }
        output.append(literal: "END:VCARD\r\n")
    }

    /// The identifier as the card's `UID`.
    private mutating func writeUID(of contact: Contact) {
        if isV4 {
            if UUID(uuidString: contact.identifier) != nil {
                line("UID", "urn:uuid:" + contact.identifier.lowercased())
            } else {
                line("UID", text: contact.identifier, parameters: Parameters("VALUE", "text"))
            }
        } else {
            line("UID", text: contact.identifier)
        }
    }

    /// The prefix of the extension lines that are the package's own bookkeeping (a CardDAV
    /// client's name for the card), which are never written into a card.
    package static let bookkeepingPrefix = "X-CONTACTS-LEDGER-"

    /// Writes the content lines of the vCard extensions as they were read; true when one of
    /// them is the card's own `UID` and the writer writes the client's identity, which then
    /// stands in for the identifier's. A line that could break the card (a line break, no
    /// colon, a card's frame) is left out. A kept line's group is renamed after the writer's
    /// own `itemN` groups, the same name for every line of one kept group, so that it never
    /// joins a group the writer made.
    private mutating func writeExtensions(of contact: Contact) -> Bool {
        guard contact.isKeyAvailable(.vCardExtensions) else { return false }
        var hasUID = false
        var groups: [String: String] = [:]
        for item in contact.values[labeledStrings: .vCardExtensions] {
            let text = item.value
            guard let colon = text.firstIndex(of: ":"),
                !text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" })
            else { continue }
            let (group, name) = Self.groupAndName(of: text[..<colon])
            if ["BEGIN", "END", "VERSION"].contains(name) || name.hasPrefix(Self.bookkeepingPrefix) { continue }
            if name == "UID" {
                guard writesClientIdentity, group == nil else { continue }
                hasUID = true
            }
            var line = Substring(text)
            if let group {
                let renamed = groups[group.uppercased()] ?? nextGroup()
                groups[group.uppercased()] = renamed
                line = Substring(renamed) + text.dropFirst(group.count)
            }
            Self.fold(Array(line.utf8), into: &output)
        }
        return hasUID
    }

    /// The group (`item2` of `item2.X-ABLabel;TYPE=x`) and the upper-cased name of a content
    /// line's head, the part before its value's colon.
    package static func groupAndName(of head: Substring) -> (group: Substring?, name: String) {
        let property = head.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? head
        guard let dot = property.firstIndex(of: ".") else { return (nil, property.uppercased()) }
        return (property[..<dot], property[property.index(after: dot)...].uppercased())
    }

    /// Whether an extension line is a card's identity rather than its content: its `UID`, or the
    /// package's bookkeeping (the kept `FN`, a CardDAV client's name for the card). A contact
    /// that merges another keeps only its own.
    package static func isIdentityLine(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let name = groupAndName(of: text[..<colon]).name
        return name == "UID" || name.hasPrefix(bookkeepingPrefix)
    }

    /// One key of ``ContactKeyTable/vCardOrder`` with what a card needs of its row, and the
    /// kind of label its property has: copying a whole row, or finding a property's kind of
    /// label by its name, for every key of every card costs more than writing most lines.
    private struct Step {
        let key: ContactKey
        let kind: ContactValueKind
        let mapping: ContactVCardMapping
        /// The property written for a key of a kind with vCard code of its own (`TEL`, `ADR`).
        let propertyName: String?
        let labelKind: VCardLabels.Kind?

        init(_ key: ContactKey) {
            self.key = key
            kind = ContactKeyTable[key].kind
            mapping = ContactKeyTable[key].vCard
            if case .byKind(let names) = mapping { propertyName = names.first } else { propertyName = nil }
            labelKind = propertyName.flatMap(VCardLabels.Kind.init(property:))
        }
    }

    /// The keys in ``ContactKeyTable/vCardOrder`` as the writer goes through them.
    private static let plan = ContactKeyTable.vCardOrder.map(Step.init)

    /// Writes the properties of one key, as its row maps it.
    private mutating func write(_ step: Step, of contact: Contact) {
        let key = step.key
        switch step.mapping {
        case .none, .byKind:
            if let name = step.propertyName, contact.isKeyAvailable(key) {
                write(step, as: name, of: contact)
            }
        case .text(let name), .repeatedText(let name):
            if contact.isKeyAvailable(key), case let text = contact.values[string: key], !text.isEmpty {
                line(name, text: text)
            }
        case .component(let name, _, _):
            writeStructured(name, of: contact)
        }
    }

    /// Writes a structured property (`N`, `ORG`) from the keys of its components, those not
    /// available counting as empty. `N` is written even when empty, since vCard 3.0 requires it,
    /// and the formatted name follows it; any other is written only when it has text.
    private mutating func writeStructured(_ name: String, of contact: Contact) {
        let parts = Self.components(of: name).lazy.map { key in
            contact.isKeyAvailable(key) ? contact.values[string: key] : ""
        }
        if name == "N" {
            line(name) { Self.appendComponents(parts, to: &$0) }
            writeFormattedName(of: contact)
        } else if parts.contains(where: { !$0.isEmpty }) {
            line(name) { Self.appendComponents(parts, to: &$0) }
        }
    }

    /// Writes the `FN` that follows `N`: the formatted name, or the card's own when the writer
    /// writes the client's identity and the card kept one.
    private mutating func writeFormattedName(of contact: Contact) {
        let formatted = Self.formattedName(of: contact)
        let kept = writesClientIdentity ? Self.keptFormattedName(of: contact, formatted: formatted) : nil
        line("FN", text: kept ?? formatted)
    }

    /// Appends a structured value: the parts escaped, separated by semicolons.
    private static func appendComponents(_ parts: some Sequence<String>, to bytes: inout [UInt8]) {
        for (index, part) in parts.enumerated() {
            if index > 0 { bytes.append(VCardBytes.semicolon) }
            VCardEscaping.append(part, to: &bytes)
        }
    }

    /// The keys of a structured property's components, in component order; the two a card
    /// always has are looked up without hashing their names.
    private static func components(of name: String) -> [ContactKey] {
        switch name {
        case "N": nameComponents
        case "ORG": organizationComponents
        default: components[name] ?? []
        }
    }

    private static let nameComponents = components["N"] ?? []
    private static let organizationComponents = components["ORG"] ?? []

    /// The keys of each structured property's components, in component order.
    private static let components: [String: [ContactKey]] = {
        var components: [String: [(index: Int, key: ContactKey)]] = [:]
        for row in ContactKeyTable.rows {
            if case .component(let name, let index, _) = row.vCard {
                components[name, default: []].append((index, row.key))
            }
        }
        return components.mapValues { $0.sorted { $0.index < $1.index }.map(\.key) }
    }()

    /// Writes the property of a key whose kind has vCard code of its own.
    private mutating func write(_ step: Step, as name: String, of contact: Contact) {
        let (key, values) = (step.key, contact.values)
        switch step.kind {
        case .identifier, .contactType, .string, .thumbnailImageData, .imageDataAvailable:
            break
        case .date:
            if let birthday = values[date: key] { writeDate(name, birthday) }
        case .nonGregorianDate:
            if let birthday = values[date: key] { writeNonGregorianDate(name, birthday) }
        case .labeledDates:
            for date in values[labeledDates: key] { writeLabeledDate(name, date) }
        case .labeledStrings:
            // 3.0 marks an email address as such, as Apple writes it.
            let leadingType = name == "EMAIL" && !isV4 ? "INTERNET" : nil
            for (index, item) in values[labeledStrings: key].enumerated() {
                labeled(
                    name, label: item.label, kind: step.labelKind, leadingType: leadingType, preferred: index == 0
                ) { VCardEscaping.append(item.value, to: &$0) }
            }
        case .labeledPhoneNumbers:
            for (index, phone) in values[phoneNumbers: key].enumerated() {
                labeled(name, label: phone.label, kind: step.labelKind, preferred: index == 0) {
                    VCardEscaping.append(phone.value.stringValue, to: &$0)
                }
            }
        case .labeledPostalAddresses:
            for (index, address) in values[postalAddresses: key].enumerated() {
                writePostalAddress(name, address, kind: step.labelKind, preferred: index == 0)
            }
        case .labeledRelations:
            for (index, relation) in values[contactRelations: key].enumerated() {
                labeled(name, label: relation.label, kind: nil, preferred: index == 0) {
                    VCardEscaping.append(relation.value.name, to: &$0)
                }
            }
        case .labeledSocialProfiles:
            for profile in values[socialProfiles: key] { writeSocialProfile(name, profile) }
        case .labeledInstantMessageAddresses:
            for (index, address) in values[instantMessageAddresses: key].enumerated() {
                writeInstantMessageAddress(name, address, kind: step.labelKind, preferred: index == 0)
            }
        case .imageData:
            if let image = values[data: key], !image.isEmpty { writePhoto(name, [UInt8](image)) }
        }
    }

    /// The extension that keeps a card's own `FN` when it differs from the name the formatter
    /// gives its names: `X-CONTACTS-LEDGER-FN;X-FOR=HEX:TEXT`, HEX the formatted name it was
    /// kept beside, as UTF-8 in hexadecimal.
    package static let keptNamePrefix = bookkeepingPrefix + "FN;X-FOR="

    /// The extension line that keeps `text` as the card's `FN` while the names format as `formatted`.
    package static func keptNameLine(_ text: String, formatted: String) -> String {
        keptNamePrefix + formatted.utf8.map { String(format: "%02x", $0) }.joined() + ":" + text
    }

    /// The card's own `FN`, while its names still format as they did when it was kept: a name
    /// changed since makes the formatted one count again.
    static func keptFormattedName(of contact: Contact, formatted: String) -> String? {
        guard contact.isKeyAvailable(.vCardExtensions) else { return nil }
        let expected = keptNameLine("", formatted: formatted)
        for item in contact.values[labeledStrings: .vCardExtensions] where item.value.hasPrefix(expected) {
            return String(item.value.dropFirst(expected.count))
        }
        return nil
    }

    /// The full name, as ``ContactFormatter`` makes it; for a partial contact, the keys it
    /// lacks count as empty, as their values are.
    static func formattedName(of contact: Contact) -> String {
        ContactFormatter(style: .fullName, userDefaults: .shared).fullName(of: contact.values) ?? ""
    }

    private mutating func writePostalAddress(
        _ name: String, _ address: LabeledValue<PostalAddress>, kind: VCardLabels.Kind?, preferred: Bool
    ) {
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
            name, label: address.label, kind: kind, preferred: preferred, alwaysGrouped: true, companions: companions
        ) { Self.appendComponents(components, to: &$0) }
    }

    private mutating func writeInstantMessageAddress(
        _ name: String, _ address: LabeledValue<InstantMessageAddress>, kind: VCardLabels.Kind?, preferred: Bool
    ) {
        let service = address.value.service
        let scheme = VCardServices.scheme(forInstantMessageService: service)
        labeled(
            name, label: address.label, kind: kind, preferred: preferred,
            leadingParameters: service.isEmpty ? Parameters() : Parameters("X-SERVICE-TYPE", service)
        ) { VCardEscaping.append(scheme + ":" + address.value.username, to: &$0) }
    }

    private mutating func writeSocialProfile(_ name: String, _ profile: LabeledValue<SocialProfile>) {
        let value = profile.value
        var parameters = Parameters()
        if !value.service.isEmpty {
            parameters.add(isV4 ? "TYPE" : "type", VCardServices.socialType(forService: value.service))
        }
        if !value.username.isEmpty {
            parameters.add("x-user", value.username)
        }
        if !value.userIdentifier.isEmpty {
            parameters.add("x-userid", value.userIdentifier)
        }
        var text = value.urlString
        if text.isEmpty {
            text = "x-apple:" + (value.username.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
        }
        labeled(name, label: profile.label, kind: nil, parameters: parameters) { VCardEscaping.append(text, to: &$0) }
    }

    private mutating func writeDate(_ name: String, _ date: DateComponents) {
        if isV4 {
            line(name, VCardDates.format40(date))
        } else {
            let (value, omitsYear) = VCardDates.format30(date)
            line(name, value, parameters: omitsYear ? Parameters("X-APPLE-OMIT-YEAR", "1604") : Parameters())
        }
    }

    private mutating func writeNonGregorianDate(_ name: String, _ date: DateComponents) {
        guard let calendar = date.calendar, let calendarName = VCardDates.calendarName(of: calendar.identifier) else {
            return
        }
        var parameters = Parameters("CALSCALE", calendarName)
        if date.isLeapMonth == true {
            parameters.add("X-LEAP-MONTH", "TRUE")
        }
        line(name, VCardDates.formatAlternate(date), parameters: parameters)
    }

    private mutating func writeLabeledDate(_ name: String, _ date: LabeledValue<DateComponents>) {
        if isV4 {
            labeled(name, label: date.label, kind: nil) { $0.appendUTF8(VCardDates.format40(date.value)) }
        } else {
            let (value, omitsYear) = VCardDates.format30(date.value)
            labeled(
                name, label: date.label, kind: nil,
                parameters: omitsYear ? Parameters("X-APPLE-OMIT-YEAR", "1604") : Parameters()
            ) { $0.appendUTF8(value) }
        }
    }

    private mutating func writePhoto(_ name: String, _ image: [UInt8]) {
        let type = VCardImageType(of: image)
        let base64 = VCardBase64.encode(image)
        if isV4 {
            line(name, "data:" + (type?.mediaType ?? "application/octet-stream") + ";base64," + base64)
        } else {
            var parameters = Parameters("ENCODING", "b")
            if let type {
                parameters.add("TYPE", type.rawValue)
            }
            line(name, base64, parameters: parameters)
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
