import ContactsModel
import Foundation

/// Reads the properties of one card into a contact: the third stage of reading.
///
/// The first two (``VCardLineReader`` and the grouping in ``VCardFileReader``) have joined the
/// lines and found the card's bounds; this one decodes each value (quoted-printable, character
/// set, escapes) and maps the properties to the model, as the table in `Documentation/VCard.md`
/// describes.
struct VCardCardReader {
    /// How a card's text is written, from its `VERSION`.
    enum Dialect {
        case v21
        case v30
        case v40
    }

    /// How undeclared text was encoded in the file as a whole.
    enum FileText {
        /// No byte order mark: each value is UTF-8 when valid, else the fallback encoding.
        case guessed
        /// A UTF-8 byte order mark: undeclared values are UTF-8.
        case utf8
        /// UTF-16, converted to UTF-8 before reading: raw values are UTF-8 whatever their
        /// `CHARSET` says (only quoted-printable bytes follow `CHARSET`).
        case transcodedUTF16
    }

    let cardIndex: Int
    /// The line of the card's `BEGIN:VCARD`.
    let beginLine: Int
    let lines: [VCardRawLine]
    let fileText: FileText
    let fallbackEncoding: VCardCharset.Encoding
    private(set) var warnings: [VCardWarning] = []
    /// The card's `UID`, as written (without a `urn:uuid:` scheme), once ``read()`` has run.
    private(set) var uid: String?
    private var dialect: Dialect = .v30
    /// Whether properties no key maps are kept as content lines (``ContactKey/vCardExtensions``).
    var keepsOtherProperties = false

    init(
        cardIndex: Int, beginLine: Int, lines: [VCardRawLine], fileText: FileText,
        fallbackEncoding: VCardCharset.Encoding
    ) {
        self.cardIndex = cardIndex
        self.beginLine = beginLine
        self.lines = lines
        self.fileText = fileText
        self.fallbackEncoding = fallbackEncoding
    }

    private mutating func warn(_ kind: VCardWarning.Kind, _ line: Int, _ message: String) {
        warnings.append(VCardWarning(cardIndex: cardIndex, line: line, kind: kind, message: message))
    }

    private func error(_ kind: VCardCardError.Kind, _ line: Int, _ message: String) -> VCardCardError {
        VCardCardError(cardIndex: cardIndex, line: line, kind: kind, message: message)
    }

    /// Up to 40 characters of a value for a message, quoted, with line breaks and other
    /// control characters shown as escapes so that a message stays on one line.
    static func preview(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(40) {
            if scalar == "\n" {
                result += "\\n"
            } else if scalar.properties.generalCategory == .control {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return "\"" + result + (text.unicodeScalars.count > 40 ? "…" : "") + "\""
    }

    // MARK: Decoding values

    /// The value's text before unescaping: quoted-printable decoded, then decoded by its
    /// character set.
    private mutating func rawText(_ line: VCardRawLine, _ header: VCardHeader) -> String {
        let isQuotedPrintable = header.encoding == .quotedPrintable
        let bytes: ArraySlice<UInt8> =
            isQuotedPrintable ? VCardQuotedPrintable.decode(line.valueBytes)[...] : line.valueBytes
        if fileText == .transcodedUTF16, !isQuotedPrintable {
            return String(decoding: bytes, as: UTF8.self)
        }
        if let charsetName = header.charset {
            if let encoding = VCardCharset.encoding(named: charsetName) {
                if let text = VCardCharset.decode(bytes, as: encoding) {
                    return text
                }
                if encoding == .utf8 {
                    warn(
                        .charsetMismatch, line.lineNumber,
                        "\(header.name) is not valid \(Self.preview(charsetName)); invalid bytes were replaced with U+FFFD"
                    )
                    return String(decoding: bytes, as: UTF8.self)
                }
                warn(
                    .charsetMismatch, line.lineNumber,
                    "\(header.name) is not valid \(Self.preview(charsetName)); it was read by the guess instead")
            } else {
                warn(
                    .unknownCharset, line.lineNumber,
                    "\(header.name) names the unknown character set \(Self.preview(charsetName)); it was read by the guess"
                )
            }
        }
        if fileText == .utf8 {
            return String(decoding: bytes, as: UTF8.self)
        }
        return VCardCharset.utf8(bytes) ?? VCardCharset.decode(bytes, as: fallbackEncoding)
            ?? VCardCharset.windows1252(bytes)
    }

    /// An unstructured text value: decoded and unescaped (2.1 values are taken as written),
    /// with line breaks as line feeds.
    private mutating func text(_ line: VCardRawLine, _ header: VCardHeader) -> String {
        let raw = rawText(line, header)
        let unescaped = dialect == .v21 ? raw : VCardEscaping.unescape(raw)
        return VCardEscaping.normalizingLineBreaks(unescaped)
    }

    /// A structured value (`N`, `ADR`, `ORG`): decoded, split at unescaped semicolons,
    /// each component unescaped, with line breaks as line feeds.
    private mutating func components(_ line: VCardRawLine, _ header: VCardHeader) -> [String] {
        VCardEscaping.components(rawText(line, header), version21: dialect == .v21).map(
            VCardEscaping.normalizingLineBreaks)
    }

    private mutating func trimmedText(_ line: VCardRawLine, _ header: VCardHeader) -> String {
        text(line, header).vcardTrimmed(newlines: true)
    }

    // MARK: Reading

    /// Reads the card, or returns why it cannot be read.
    package mutating func read() -> Result<MutableContact, VCardCardError> {
        let content: [(line: VCardRawLine, header: VCardHeader)]
        switch headers() {
        case .success(let headers): content = headers
        case .failure(let failure): return .failure(failure)
        }
        readVersion(content)
        var groups = GroupInfo()
        collectGroups(content, into: &groups)
        var state = State()
        for (line, header) in content {
            if let failure = apply(line, header, groups: &groups, state: &state) {
                return .failure(failure)
            }
        }
        finish(&state, groups: groups)
        return .success(
            MutableContact(
                identifier: NewIdentifier.make(), values: state.values, availableKeys: .all, base: nil))
    }

    /// The header of every line; a line without a colon is a property without a value when it
    /// is a bare name (`FN`), and makes the card malformed otherwise.
    private mutating func headers() -> Result<[(line: VCardRawLine, header: VCardHeader)], VCardCardError> {
        var result: [(line: VCardRawLine, header: VCardHeader)] = []
        for line in lines {
            if let header = line.header {
                result.append((line, header))
                continue
            }
            let trimmed = VCardBytes.trimmed(line.bytes[...])
            guard VCardBytes.isBareName(trimmed) else {
                return .failure(
                    error(
                        .lineWithoutColon, line.lineNumber,
                        "line has no colon: \(Self.preview(VCardBytes.string(line.bytes.prefix(160)[...])))"))
            }
            let name = VCardBytes.string(trimmed)
            warn(.propertyWithoutValue, line.lineNumber, "\(name) has no colon; read as an empty \(name)")
            let header = VCardHeaderParser.header(of: line.bytes, nameEnd: trimmed.endIndex, colon: line.bytes.count)
            var emptyLine = line
            emptyLine.bytes += [VCardBytes.colon]
            var fixed = header
            fixed.valueStart = emptyLine.bytes.count
            emptyLine.header = fixed
            result.append((emptyLine, fixed))
        }
        return .success(result)
    }

    /// A `UID` value without its `urn:uuid:` scheme (as this package's writer and Apple's write
    /// a UUID), or nil when it is empty.
    static func uidText(_ value: String) -> String? {
        var text = Substring(value)
        if text.lowercased().hasPrefix("urn:uuid:") { text = text.dropFirst(9) }
        return text.isEmpty ? nil : String(text)
    }

    private mutating func readVersion(_ content: [(line: VCardRawLine, header: VCardHeader)]) {
        guard let line = content.first(where: { $0.header.name == "VERSION" })?.line else {
            dialect = .v30
            warn(.missingVersion, beginLine, "the card has no VERSION; read as vCard 3.0")
            return
        }
        let version = VCardBytes.string(VCardBytes.trimmed(line.valueBytes))
        switch version {
        case "2.1", "2.0", "1.0": dialect = .v21
        case "3.0", "3": dialect = .v30
        case "4.0", "4": dialect = .v40
        default:
            dialect = .v30
            warn(.unknownVersion, line.lineNumber, "VERSION \(Self.preview(version)) is unknown; read as vCard 3.0")
        }
    }

    // MARK: Groups

    /// What the `itemN.` groups of a card say: labels and the address companions.
    struct GroupInfo {
        var labels: [String: (text: String, line: Int)] = [:]
        var countryCodes: [String: String] = [:]
        var subLocalities: [String: String] = [:]
        var subAdministrativeAreas: [String: String] = [:]
        var used: Set<String> = []
    }

    private static func groupKey(_ header: VCardHeader) -> String? {
        header.group?.lowercased()
    }

    private mutating func collectGroups(
        _ content: [(line: VCardRawLine, header: VCardHeader)], into groups: inout GroupInfo
    ) {
        for (line, header) in content {
            let key = Self.groupKey(header)
            switch header.name {
            case "X-ABLABEL":
                guard let key else {
                    warn(.orphanLabel, line.lineNumber, "X-ABLabel has no group; it was left out")
                    continue
                }
                if groups.labels[key] == nil {
                    groups.labels[key] = (text(line, header), line.lineNumber)
                }
            case "X-ABADR":
                guard let key else { continue }
                let code = trimmedText(line, header)
                if code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) {
                    groups.countryCodes[key] = code
                } else if !code.isEmpty {
                    warn(
                        .invalidCountryCode, line.lineNumber,
                        "X-ABADR \(Self.preview(code)) is not a two-letter country code; it was left out")
                }
            case "X-APPLE-SUBLOCALITY":
                if let key { groups.subLocalities[key] = text(line, header) }
            case "X-APPLE-SUBADMINISTRATIVEAREA":
                if let key { groups.subAdministrativeAreas[key] = text(line, header) }
            default:
                continue
            }
        }
    }

    /// The label of a labeled property: its group's `X-ABLabel` when that is not empty, else
    /// what its type tokens say.
    private func label(_ header: VCardHeader, kind: VCardLabels.Kind?, groups: inout GroupInfo) -> String? {
        if let key = Self.groupKey(header) {
            groups.used.insert(key)
            if let label = groups.labels[key], let mapped = VCardLabels.label(fromABLabel: label.text) {
                return mapped
            }
        }
        guard let kind else { return nil }
        return VCardLabels.label(forTypes: header, kind: kind)
    }

    // MARK: Mapping

    /// What has been read so far.
    struct State {
        var values = ContactValues()
        var seen: Set<String> = []
        var formattedName = ""
        var nameFound = false
        var isOrganization = false
        var instantMessageKeys: Set<[String]> = []
        var irmcPhonetic: [String]?
        /// Group bookkeeping lines (`X-ABLabel`, `X-ABADR`, ...) kept when no mapped property
        /// uses their group, decided once every line has been read.
        var groupedOthers: [(group: String?, text: String)] = []
    }

    /// The properties a card always carries or that are written from other keys, never kept
    /// as content lines of their own.
    static let neverKept: Set<String> = ["BEGIN", "END", "VERSION", "PRODID", "REV", "FN"]
    /// The lines that belong to another property's group, kept only when no mapped property
    /// uses that group.
    static let groupBookkeeping: Set<String> = [
        "X-ABLABEL", "X-ABADR", "X-APPLE-SUBLOCALITY", "X-APPLE-SUBADMINISTRATIVEAREA",
    ]

    /// Keeps a property no key maps as its content line, when the reader keeps them.
    private func keepOther(_ line: VCardRawLine, _ header: VCardHeader, state: inout State) {
        // A line named like the package's own bookkeeping is a client's forgery (of another
        // card's name, say), never kept.
        guard keepsOtherProperties, !Self.neverKept.contains(header.name),
            !header.name.hasPrefix(VCardWriter.bookkeepingPrefix)
        else { return }
        let text = VCardBytes.string(line.bytes[...])
        if Self.groupBookkeeping.contains(header.name) {
            state.groupedOthers.append((Self.groupKey(header), text))
        } else {
            state.values.vCardExtensions.append(LabeledValue(label: nil, value: text))
        }
    }

    /// How ``ContactKeyTable`` maps a property that a card holds.
    enum MappedProperty {
        /// The whole text of a string key.
        case text(ContactKey)
        /// Text of a string key of which every one counts.
        case repeatedText(ContactKey)
        /// The components of a structured property, each a string key, in component order.
        case structured([(key: ContactKey, index: Int, takesRest: Bool)])
        /// A property that the code of the key's kind reads.
        case byKind(ContactKeyDescriptor)
    }

    /// The properties the table maps, by upper-case name.
    private static let mappedProperties: [String: MappedProperty] = {
        var mapped: [String: MappedProperty] = [:]
        for row in ContactKeyTable.rows {
            switch row.vCard {
            case .none: break
            case .text(let name): mapped[name.uppercased()] = .text(row.key)
            case .repeatedText(let name): mapped[name.uppercased()] = .repeatedText(row.key)
            case .component(let name, let index, let takesRest):
                var components: [(key: ContactKey, index: Int, takesRest: Bool)] = []
                if case .structured(let earlier) = mapped[name.uppercased()] { components = earlier }
                components.append((row.key, index, takesRest))
                mapped[name.uppercased()] = .structured(components.sorted { $0.index < $1.index })
            case .byKind(let names):
                for name in names { mapped[name.uppercased()] = .byKind(row) }
            }
        }
        return mapped
    }()

    /// The single-valued properties, of which the first one counts: those holding a string key
    /// whole or in part, a single date and the contact type, and the formatted name.
    private static let singleProperties: Set<String> = Set(
        mappedProperties.compactMap { name, mapped in
            switch mapped {
            case .text, .structured: name
            case .repeatedText: nil
            case .byKind(let row): [.contactType, .date, .nonGregorianDate].contains(row.kind) ? name : nil
            }
        } + ["FN"])

    /// Anniversary properties of other exporters, read as dates labeled anniversary.
    private static let anniversaryProperties: Set<String> = [
        "ANNIVERSARY", "X-ANNIVERSARY", "X-MS-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY",
        "X-WAB-WEDDING_ANNIVERSARY", "X-KADDRESSBOOK-X-ANNIVERSARY",
    ]

    /// Related-person properties of other exporters, read as relations with a fixed label.
    private static let relationProperties: [String: String] = [
        "X-SPOUSE": Label.contactRelationSpouse, "X-MS-SPOUSE": Label.contactRelationSpouse,
        "X-EVOLUTION-SPOUSE": Label.contactRelationSpouse, "X-WAB-SPOUSE_NAME": Label.contactRelationSpouse,
        "X-KADDRESSBOOK-X-SPOUSESNAME": Label.contactRelationSpouse,
        "X-MANAGER": Label.contactRelationManager, "X-MS-MANAGER": Label.contactRelationManager,
        "X-EVOLUTION-MANAGER": Label.contactRelationManager,
        "X-KADDRESSBOOK-X-MANAGERSNAME": Label.contactRelationManager,
        "X-ASSISTANT": Label.contactRelationAssistant, "X-MS-ASSISTANT": Label.contactRelationAssistant,
        "X-EVOLUTION-ASSISTANT": Label.contactRelationAssistant,
        "X-KADDRESSBOOK-X-ASSISTANTSNAME": Label.contactRelationAssistant,
    ]

    /// Maps one property; returns an error when the card cannot be read.
    private mutating func apply(
        _ line: VCardRawLine, _ header: VCardHeader, groups: inout GroupInfo, state: inout State
    ) -> VCardCardError? {
        let name = header.name
        if Self.singleProperties.contains(name) {
            if state.seen.contains(name) {
                warn(.duplicateProperty, line.lineNumber, "a second \(name) was left out; the first one counts")
                return nil
            }
            state.seen.insert(name)
        }
        if let mapped = Self.mappedProperties[name] {
            return apply(mapped, line, header, groups: &groups, state: &state)
        }
        switch name {
        case "FN":
            state.formattedName = trimmedText(line, header)
        case "SOUND" where header.lowercasedTypeTokens.contains("x-irmc-n"):
            if state.irmcPhonetic == nil {
                state.irmcPhonetic = components(line, header)
            }
        case _ where Self.anniversaryProperties.contains(name):
            if let key = Self.groupKey(header) { groups.used.insert(key) }
            switch date(line, header, what: name) {
            case .failure(let failure): return failure
            case .success(let date):
                if let date {
                    state.values.dates.append(LabeledValue(label: Label.dateAnniversary, value: date))
                }
            }
        case "RELATED":
            readRelated(line, header, groups: &groups, state: &state)
        case _ where Self.relationProperties[name] != nil:
            let relation = trimmedText(line, header)
            if !relation.isEmpty {
                state.values.contactRelations.append(
                    LabeledValue(label: Self.relationProperties[name], value: ContactRelation(name: relation)))
            }
        case _ where VCardServices.instantMessageProperties[name] != nil:
            readInstantMessage(
                line, header, into: .instantMessageAddresses, service: VCardServices.instantMessageProperties[name],
                groups: &groups, state: &state)
        default:
            keepOther(line, header, state: &state)
        }
        return nil
    }

    /// Maps a property that ``ContactKeyTable`` maps.
    private mutating func apply(
        _ mapped: MappedProperty, _ line: VCardRawLine, _ header: VCardHeader, groups: inout GroupInfo,
        state: inout State
    ) -> VCardCardError? {
        switch mapped {
        case .text(let key):
            state.values[string: key] = text(line, header)
        case .repeatedText(let key):
            let text = text(line, header)
            if !text.isEmpty {
                let earlier = state.values[string: key]
                state.values[string: key] = earlier.isEmpty ? text : earlier + "\n" + text
            }
        case .structured(let keys):
            let parts = components(line, header)
            for (key, index, takesRest) in keys {
                state.values[string: key] =
                    takesRest
                    ? parts.dropFirst(index).filter { !$0.isEmpty }.joined(separator: ", ")
                    : index < parts.count ? parts[index] : ""
            }
            if header.name == "N" {
                state.nameFound = parts.prefix(keys.count).contains { !$0.isEmpty }
            }
        case .byKind(let row):
            return apply(row, line, header, groups: &groups, state: &state)
        }
        return nil
    }

    /// Maps a property that the code of its key's value kind reads.
    private mutating func apply(
        _ row: ContactKeyDescriptor, _ line: VCardRawLine, _ header: VCardHeader, groups: inout GroupInfo,
        state: inout State
    ) -> VCardCardError? {
        let key = row.key
        let name = header.name
        switch row.kind {
        case .identifier:
            // The first UID counts; the contact still gets a new identifier, and an import
            // matches the UID against the store (``VCardImport/uids``).
            if uid == nil {
                uid = Self.uidText(trimmedText(line, header))
                // Kept as written, so that the card is served with its client's UID.
                keepOther(line, header, state: &state)
            }
        case .string, .thumbnailImageData, .imageDataAvailable:
            break
        case .contactType:
            let text = trimmedText(line, header)
            state.isOrganization =
                name == "KIND" ? ["org", "organization"].contains(text.lowercased()) : text.uppercased() == "COMPANY"
        case .date:
            switch date(line, header, what: name) {
            case .failure(let failure): return failure
            case .success(let date): state.values[date: key] = date
            }
        case .nonGregorianDate:
            return alternateBirthday(line, header, into: key, state: &state)
        case .labeledDates:
            let label = label(header, kind: VCardLabels.Kind(property: name), groups: &groups)
            switch date(line, header, what: name) {
            case .failure(let failure): return failure
            case .success(let date):
                if let date { state.values[labeledDates: key].append(LabeledValue(label: label, value: date)) }
            }
        case .labeledPhoneNumbers:
            readPhone(line, header, into: key, groups: &groups, state: &state)
        case .labeledStrings:
            readLabeledString(line, header, into: key, groups: &groups, state: &state)
        case .labeledPostalAddresses:
            readAddress(line, header, into: key, groups: &groups, state: &state)
        case .labeledRelations:
            let relation = trimmedText(line, header)
            let label = label(header, kind: VCardLabels.Kind(property: name), groups: &groups)
            if !relation.isEmpty {
                state.values[contactRelations: key].append(
                    LabeledValue(label: label, value: ContactRelation(name: relation)))
            }
        case .labeledSocialProfiles:
            readSocialProfile(line, header, into: key, groups: &groups, state: &state)
        case .labeledInstantMessageAddresses:
            readInstantMessage(line, header, into: key, service: nil, groups: &groups, state: &state)
        case .imageData:
            return readPhoto(line, header, into: key, state: &state)
        }
        return nil
    }

    /// Reads labeled text (`EMAIL`, `URL`); an email address's `mailto:` is dropped.
    private mutating func readLabeledString(
        _ line: VCardRawLine, _ header: VCardHeader, into key: ContactKey, groups: inout GroupInfo,
        state: inout State
    ) {
        var text = trimmedText(line, header)
        if header.name == "EMAIL", text.lowercased().hasPrefix("mailto:") {
            text = String(text.dropFirst("mailto:".count))
        }
        let label = label(header, kind: VCardLabels.Kind(property: header.name), groups: &groups)
        if !text.isEmpty {
            state.values[labeledStrings: key].append(LabeledValue(label: label, value: text))
        }
    }

    private mutating func readPhone(
        _ line: VCardRawLine, _ header: VCardHeader, into key: ContactKey, groups: inout GroupInfo, state: inout State
    ) {
        var number = trimmedText(line, header)
        if number.lowercased().hasPrefix("tel:") {
            number = String(number.dropFirst("tel:".count))
            number = number.removingPercentEncoding ?? number
        }
        let label = label(header, kind: VCardLabels.Kind(property: header.name), groups: &groups)
        if !number.isEmpty {
            state.values[phoneNumbers: key].append(LabeledValue(label: label, value: PhoneNumber(stringValue: number)))
        }
    }

    private mutating func readAddress(
        _ line: VCardRawLine, _ header: VCardHeader, into contactKey: ContactKey, groups: inout GroupInfo,
        state: inout State
    ) {
        let parts = components(line, header) + Array(repeating: "", count: 7)
        let key = Self.groupKey(header)
        let address = PostalAddress(
            street: parts[0..<3].filter { !$0.isEmpty }.joined(separator: "\n"),
            subLocality: key.flatMap { groups.subLocalities[$0] } ?? "",
            city: parts[3],
            subAdministrativeArea: key.flatMap { groups.subAdministrativeAreas[$0] } ?? "",
            state: parts[4], postalCode: parts[5], country: parts[6],
            isoCountryCode: key.flatMap { groups.countryCodes[$0] } ?? "")
        let label = label(header, kind: VCardLabels.Kind(property: header.name), groups: &groups)
        if !address.isEmpty {
            state.values[postalAddresses: contactKey].append(LabeledValue(label: label, value: address))
        }
    }

    private mutating func readRelated(
        _ line: VCardRawLine, _ header: VCardHeader, groups: inout GroupInfo, state: inout State
    ) {
        let name = trimmedText(line, header)
        let label = label(header, kind: .relation, groups: &groups)
        guard !name.isEmpty else { return }
        if header.valueType != "text", Self.uriScheme(of: name) != nil {
            warn(.relatedURIIgnored, line.lineNumber, "RELATED names a URI, not a name; it was left out")
            return
        }
        state.values.contactRelations.append(LabeledValue(label: label, value: ContactRelation(name: name)))
    }

    /// The URI scheme the text starts with (`tel`, `x-apple`), or nil.
    static func uriScheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return String(scheme)
    }

    private mutating func readInstantMessage(
        _ line: VCardRawLine, _ header: VCardHeader, into contactKey: ContactKey, service fixedService: String?,
        groups: inout GroupInfo, state: inout State
    ) {
        var username = trimmedText(line, header)
        var service = fixedService
        if fixedService == nil {
            var schemeService = ""
            if let scheme = Self.uriScheme(of: username) {
                username = String(username.dropFirst(scheme.count + 1))
                schemeService = VCardServices.instantMessageService(forScheme: scheme)
            }
            if let named = header.values(of: "X-SERVICE-TYPE").first, !named.isEmpty {
                service = VCardServices.canonicalInstantMessageService(named)
            } else {
                service = schemeService
            }
        }
        let label = label(header, kind: .instantMessage, groups: &groups)
        guard !username.isEmpty, let service else { return }
        let key = [service, username]
        guard !state.instantMessageKeys.contains(key) else { return }
        state.instantMessageKeys.insert(key)
        state.values[instantMessageAddresses: contactKey].append(
            LabeledValue(label: label, value: InstantMessageAddress(username: username, service: service)))
    }

    private mutating func readSocialProfile(
        _ line: VCardRawLine, _ header: VCardHeader, into key: ContactKey, groups: inout GroupInfo, state: inout State
    ) {
        let value = trimmedText(line, header)
        var urlString = value
        var username = header.values(of: "X-USER").first ?? ""
        if value.lowercased().hasPrefix("x-apple:") {
            urlString = ""
            if username.isEmpty {
                let encoded = String(value.dropFirst("x-apple:".count))
                username = encoded.removingPercentEncoding ?? encoded
            }
        }
        // Apple writes the service as the TYPE; a quoted service name may hold commas.
        let typeValues = header.values(of: "TYPE") + header.parameters.filter { $0.name == nil }.flatMap(\.values)
        let service = typeValues.first { $0.lowercased() != "pref" && !$0.isEmpty }.map(
            VCardServices.canonicalSocialService)
        let profile = SocialProfile(
            urlString: urlString, username: username, userIdentifier: header.values(of: "X-USERID").first,
            service: service)
        let label = label(header, kind: nil, groups: &groups)
        if !(profile.urlString.isEmpty && profile.username.isEmpty && profile.userIdentifier.isEmpty) {
            state.values[socialProfiles: key].append(LabeledValue(label: label, value: profile))
        }
    }

    // MARK: Dates

    /// Reads a date property: nil (with a warning) for free text that is not a date, an error
    /// for any other value that is not a valid date.
    private mutating func date(
        _ line: VCardRawLine, _ header: VCardHeader, what: String
    ) -> Result<DateComponents?, VCardCardError> {
        let value = trimmedText(line, header)
        if value.isEmpty {
            return .success(nil)
        }
        let omitYear = header.values(of: "X-APPLE-OMIT-YEAR").first.flatMap { Int($0) }
        guard let date = VCardDates.parse(value, omitYear: omitYear) else {
            if header.valueType == "text" {
                warn(.textDateIgnored, line.lineNumber, "\(what) \(Self.preview(value)) is not a date; it was left out")
                return .success(nil)
            }
            return .failure(error(.invalidDate, line.lineNumber, "\(what) \(Self.preview(value)) is not a date"))
        }
        let problems = ContactValues.gregorianDateProblems(date)
        guard problems.isEmpty else {
            return .failure(
                error(
                    .invalidDate, line.lineNumber,
                    "\(what) \(Self.preview(value)) is not a valid date: " + problems.joined(separator: "; ")))
        }
        return .success(date)
    }

    private mutating func alternateBirthday(
        _ line: VCardRawLine, _ header: VCardHeader, into key: ContactKey, state: inout State
    ) -> VCardCardError? {
        let value = trimmedText(line, header)
        guard !value.isEmpty else { return nil }
        let calendarName = header.values(of: "CALSCALE").first ?? ""
        guard let calendar = VCardDates.calendarIdentifier(named: calendarName) else {
            warn(
                .textDateIgnored, line.lineNumber,
                "X-ALTBDAY uses the calendar \(Self.preview(calendarName)), which a non-Gregorian birthday cannot; it was left out"
            )
            return nil
        }
        let isLeapMonth = header.values(of: "X-LEAP-MONTH").first.map { $0.lowercased() == "true" } ?? false
        guard let date = VCardDates.parseAlternate(value, calendar: calendar, isLeapMonth: isLeapMonth) else {
            return error(.invalidDate, line.lineNumber, "X-ALTBDAY \(Self.preview(value)) is not a date")
        }
        let problems = ContactValues.nonGregorianDateProblems(date)
        guard problems.isEmpty else {
            return error(
                .invalidDate, line.lineNumber,
                "X-ALTBDAY \(Self.preview(value)) is not a valid date: " + problems.joined(separator: "; "))
        }
        state.values[date: key] = date
        return nil
    }

    // MARK: Photos

    private mutating func readPhoto(
        _ line: VCardRawLine, _ header: VCardHeader, into key: ContactKey, state: inout State
    ) -> VCardCardError? {
        let raw = VCardBytes.trimmed(line.valueBytes)
        guard !raw.isEmpty else { return nil }
        if state.values[data: key] != nil {
            warn(.duplicateProperty, line.lineNumber, "a second PHOTO was left out; the first one counts")
            return nil
        }
        let prefix = VCardBytes.string(raw.prefix(16)).lowercased()
        var bytes: [UInt8]?
        if prefix.hasPrefix("data:") {
            bytes = Self.dataURIBytes(raw)
        } else if header.encoding == .base64 {
            bytes = VCardBase64.decode(raw)
        } else if header.valueType == "uri" || header.valueType == "url"
            || Self.uriScheme(of: VCardBytes.string(raw.prefix(64))) != nil
        {
            warn(.photoURLIgnored, line.lineNumber, "PHOTO refers to a URL, which is never fetched; it was left out")
            return nil
        } else {
            bytes = VCardBase64.decode(raw)
        }
        guard let bytes else {
            return error(.undecodablePhoto, line.lineNumber, "PHOTO data cannot be decoded as base64")
        }
        if !bytes.isEmpty {
            state.values[data: key] = Data(bytes)
        }
        return nil
    }

    /// The bytes of a `data:` URI (`data:image/jpeg;base64,...`), or nil when it cannot be
    /// decoded. A backslash before the comma (sabre escapes it) is ignored.
    static func dataURIBytes(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        guard let comma = raw.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        var meta = raw[raw.startIndex..<comma]
        if meta.last == VCardBytes.backslash {
            meta = meta.dropLast()
        }
        let payload = raw[(comma + 1)...]
        if VCardBytes.string(meta).lowercased().hasSuffix(";base64") {
            return VCardBase64.decode(payload)
        }
        return String(decoding: payload, as: UTF8.self).removingPercentEncoding.map { Array($0.utf8) }
    }

    // MARK: Finishing

    private mutating func finish(_ state: inout State, groups: GroupInfo) {
        var values = state.values
        if state.isOrganization {
            values.contactType = .organization
        }
        if let phonetic = state.irmcPhonetic, values.phoneticFamilyName.isEmpty, values.phoneticGivenName.isEmpty {
            let parts = phonetic + ["", "", ""]
            values.phoneticFamilyName = parts[0]
            values.phoneticGivenName = parts[1]
            values.phoneticMiddleName = parts[2]
        }
        // A card without a structured name keeps its formatted name as the given name, unless
        // the formatted name is just the organization (which the formatter shows anyway).
        let organization = values.organizationName.vcardTrimmed(newlines: true)
        if !state.nameFound, !state.isOrganization, !state.formattedName.isEmpty,
            state.formattedName != organization
        {
            values.givenName = state.formattedName
        }
        let orphans = groups.labels.filter { !groups.used.contains($0.key) }.map(\.value.line).sorted()
        for line in orphans where !keepsOtherProperties {
            warn(.orphanLabel, line, "X-ABLabel belongs to no property of its group; it was left out")
        }
        for other in state.groupedOthers where other.group.map({ !groups.used.contains($0) }) ?? true {
            values.vCardExtensions.append(LabeledValue(label: nil, value: other.text))
        }
        if keepsOtherProperties, !state.formattedName.isEmpty {
            let formatted = VCardWriter.formattedName(
                of: Contact(identifier: "", values: values, availableKeys: .all))
            if formatted != state.formattedName {
                let line = VCardWriter.keptNameLine(state.formattedName, formatted: formatted)
                values.vCardExtensions.append(LabeledValue(label: nil, value: line))
            }
        }
        state.values = values
    }
}
