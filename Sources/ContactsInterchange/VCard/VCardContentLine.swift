import ContactsModel
import Foundation

/// One parameter of a content line: `TYPE=HOME,PREF`, `CHARSET=UTF-8`, or a bare 2.1 `CELL`.
struct VCardParameter: Sendable, Hashable {
    /// The upper-cased name, or nil for a bare 2.1 parameter (`TEL;CELL;PREF:`).
    var name: String?
    /// The values, split at commas outside quotes, unquoted and RFC 6868 caret-decoded.
    var values: [String]
}

/// The part of a content line before its colon: group, name and parameters, and where the
/// value starts.
struct VCardHeader: Sendable {
    /// How a value is transfer-encoded.
    enum Encoding: Sendable, Hashable {
        case quotedPrintable
        case base64
    }

    /// The group (`item1` in `item1.TEL`), as written, or nil.
    var group: String?
    /// The upper-cased property name.
    var name: String
    /// The parameters, in order.
    var parameters: [VCardParameter]
    /// The index in the line's bytes of the first byte of the value (just after the colon).
    var valueStart: Int

    /// The values of every parameter with this (upper-case) name, in order.
    func values(of parameterName: String) -> [String] {
        parameters.filter { $0.name == parameterName }.flatMap(\.values)
    }

    /// The transfer encoding, from `ENCODING=` or a bare `QUOTED-PRINTABLE`, `BASE64` or `B`.
    var encoding: Encoding? {
        for parameter in parameters where parameter.name == "ENCODING" || parameter.name == nil {
            for value in parameter.values {
                switch value.lowercased() {
                case "quoted-printable": return .quotedPrintable
                case "b", "base64": return .base64
                default: continue
                }
            }
        }
        return nil
    }

    /// The character set named by `CHARSET=`, or by a bare 2.1 parameter that is a known
    /// character set name (`TEL;utf-8;QUOTED-PRINTABLE:`).
    var charset: String? {
        if let named = values(of: "CHARSET").first {
            return named
        }
        for parameter in parameters where parameter.name == nil {
            if let value = parameter.values.first(where: { VCardCharset.encoding(named: $0) != nil }) {
                return value
            }
        }
        return nil
    }

    /// The lower-cased `VALUE=` parameter (or a bare `URL`, `URI` or `INLINE`), if any.
    var valueType: String? {
        if let named = values(of: "VALUE").first {
            return named.lowercased()
        }
        for parameter in parameters where parameter.name == nil {
            for value in parameter.values {
                let lowered = value.lowercased()
                if ["url", "uri", "inline", "content-id", "cid"].contains(lowered) {
                    return lowered
                }
            }
        }
        return nil
    }

    /// The type tokens: the values of `TYPE=` parameters, split at every comma (RFC 6350 writes
    /// lists in quotes: `TYPE="work,voice"`), and the bare 2.1 parameters that are not an
    /// encoding, a character set or a value type; empty tokens are dropped, case is kept.
    var typeTokens: [String] {
        var tokens: [String] = []
        for parameter in parameters {
            if parameter.name == "TYPE" {
                for value in parameter.values {
                    tokens += value.split(separator: ",").map {
                        $0.vcardTrimmed()
                    }
                }
            } else if parameter.name == nil {
                for value in parameter.values {
                    let lowered = value.lowercased()
                    let isEncoding = ["quoted-printable", "base64", "b", "8bit", "7bit"].contains(lowered)
                    let isValueType = ["url", "uri", "inline", "content-id", "cid"].contains(lowered)
                    if !isEncoding, !isValueType, VCardCharset.encoding(named: value) == nil {
                        tokens.append(value.vcardTrimmed())
                    }
                }
            }
        }
        return tokens.filter { !$0.isEmpty }
    }

    /// The type tokens, lower-cased.
    var lowercasedTypeTokens: Set<String> {
        Set(typeTokens.map { $0.lowercased() })
    }
}

/// One logical line of a vCard file: its physical lines joined (folds, quoted-printable soft
/// line breaks and 2.1 continuations undone), with the number of its first physical line.
struct VCardRawLine: Sendable {
    /// The bytes of the line, without line ends.
    var bytes: [UInt8]
    /// The number of the first physical line, from 1.
    var lineNumber: Int
    /// The parsed header, or nil when the line has no colon.
    var header: VCardHeader?

    /// The raw bytes of the value (empty when there is no colon).
    var valueBytes: ArraySlice<UInt8> {
        guard let header else { return [] }
        return bytes[header.valueStart...]
    }

    /// Whether the line is `BEGIN:VCARD` (any case, surrounding white space ignored).
    var isBeginCard: Bool { isStructural("BEGIN") }

    /// Whether the line is `END:VCARD` (any case, surrounding white space ignored).
    var isEndCard: Bool { isStructural("END") }

    private func isStructural(_ name: String) -> Bool {
        guard let header, header.name == name, header.group == nil else { return false }
        let value = VCardBytes.trimmed(valueBytes)
        return VCardBytes.equalsIgnoringASCIICase(value, "VCARD")
    }
}

/// Parsing of the header of a content line.
enum VCardHeaderParser {
    /// Parses the header of a line whose colon is at `colon`; `nameEnd` is the index of the
    /// first `;` or of the colon.
    static func header(of bytes: [UInt8], nameEnd: Int, colon: Int) -> VCardHeader {
        let fullName = VCardBytes.string(bytes[0..<nameEnd]).vcardTrimmed()
        var group: String?
        var name = fullName
        if let dot = fullName.lastIndex(of: ".") {
            group = String(fullName[..<dot])
            name = String(fullName[fullName.index(after: dot)...])
        }
        let parameterBytes = nameEnd < colon ? bytes[(nameEnd + 1)..<colon] : []
        return VCardHeader(
            group: group.flatMap { $0.isEmpty ? nil : $0 }, name: name.uppercased(),
            parameters: parameters(parameterBytes), valueStart: colon + 1)
    }

    /// Splits the parameter text (between the first `;` and the colon) into parameters.
    ///
    /// Segments are split at semicolons outside double quotes; empty segments (`;;`, a
    /// trailing `;`) are dropped. A segment with `=` is named; one without is a bare 2.1
    /// parameter. Values are split at commas outside quotes, trimmed, unquoted and caret-decoded
    /// (RFC 6868: `^^`, `^'`, `^n`), in every version.
    static func parameters(_ bytes: ArraySlice<UInt8>) -> [VCardParameter] {
        var result: [VCardParameter] = []
        for segment in split(bytes, at: UInt8(ascii: ";")) {
            let trimmed = VCardBytes.trimmed(segment)
            if trimmed.isEmpty {
                continue
            }
            var name: String?
            var valueBytes = trimmed
            if let equals = firstIndexOutsideQuotes(trimmed, of: UInt8(ascii: "=")) {
                name = VCardBytes.string(trimmed[trimmed.startIndex..<equals])
                    .vcardTrimmed().uppercased()
                valueBytes = trimmed[(equals + 1)...]
            }
            let values = split(valueBytes, at: UInt8(ascii: ",")).map { raw -> String in
                var value = VCardBytes.trimmed(raw)
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                } else {
                    value = value.filter { $0 != UInt8(ascii: "\"") }[...]
                }
                return caretDecoded(VCardBytes.string(value))
            }
            result.append(VCardParameter(name: name, values: values))
        }
        return result
    }

    /// Splits at a separator byte outside double quotes.
    private static func split(_ bytes: ArraySlice<UInt8>, at separator: UInt8) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var inQuotes = false
        var start = bytes.startIndex
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == separator, !inQuotes {
                parts.append(bytes[start..<index])
                start = index + 1
            }
        }
        parts.append(bytes[start..<bytes.endIndex])
        return parts
    }

    private static func firstIndexOutsideQuotes(_ bytes: ArraySlice<UInt8>, of target: UInt8) -> Int? {
        var inQuotes = false
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == target, !inQuotes {
                return index
            }
        }
        return nil
    }

    /// Decodes RFC 6868 caret escapes: `^^` is `^`, `^'` is `"`, `^n` (or `^N`) a line feed;
    /// any other caret stays as written.
    static func caretDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "^")) else { return text }
        var result = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "^" else {
                result.append(scalar)
                continue
            }
            guard let next = iterator.next() else {
                result.append("^")
                break
            }
            switch next {
            case "^": result.append("^")
            case "'": result.append("\"")
            case "n", "N": result.append("\n")
            default:
                result.append("^")
                result.append(next)
            }
        }
        return String(result)
    }
}
