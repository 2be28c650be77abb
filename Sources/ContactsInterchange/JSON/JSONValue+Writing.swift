import ContactsModel

extension JSONValue {
    /// How ``JSONValue/serialized(_:)`` lays out its text.
    public struct Style: Sendable, Hashable {
        /// Whether to break lines and indent by two spaces, with `": "` after keys.
        public var pretty: Bool
        /// Whether to write every character outside ASCII as a `\u` escape (a surrogate pair
        /// beyond the Basic Multilingual Plane), for readers that cannot take UTF-8.
        public var asciiOnly: Bool

        /// Creates a style.
        public init(pretty: Bool = false, asciiOnly: Bool = false) {
            self.pretty = pretty
            self.asciiOnly = asciiOnly
        }

        /// One line, no spaces: the form of one event per line.
        public static let compact = Style()
        /// Indented, one member or element per line.
        public static let pretty = Style(pretty: true)
    }

    /// The value as JSON text (RFC 8259), in UTF-8.
    ///
    /// Object keys come out in the object's order. Strings escape `"`, `\` and every control
    /// character (U+0000 to U+001F, as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`); other
    /// characters are written as they are unless the style asks for ASCII only. A double that is
    /// NaN or infinite, which JSON cannot express, is written as `null`; a double with an
    /// integral value keeps a `.0` so that it reads back as a double.
    public func serialized(_ style: Style = .compact) -> String {
        var output = ""
        write(to: &output, style: style, indent: 0)
        return output
    }

    private func write(to output: inout String, style: Style, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += Self.text(of: value)
        case .string(let value): Self.writeString(value, to: &output, asciiOnly: style.asciiOnly)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                if style.pretty { Self.newline(&output, indent: indent + 1) }
                element.write(to: &output, style: style, indent: indent + 1)
            }
            if style.pretty { Self.newline(&output, indent: indent) }
            output += "]"
        case .object(let object):
            guard !object.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, member) in object.enumerated() {
                if index > 0 { output += "," }
                if style.pretty { Self.newline(&output, indent: indent + 1) }
                Self.writeString(member.key, to: &output, asciiOnly: style.asciiOnly)
                output += style.pretty ? ": " : ":"
                member.value.write(to: &output, style: style, indent: indent + 1)
            }
            if style.pretty { Self.newline(&output, indent: indent) }
            output += "}"
        }
    }

    private static func newline(_ output: inout String, indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    /// The JSON text of a double: the shortest form that reads back as the same value.
    static func text(of value: Double) -> String {
        guard value.isFinite else { return "null" }
        // Swift's description is the shortest round-tripping form ("0.1", "1e-07", "1.0",
        // "5e+20"), and every such form is also a valid JSON number.
        return value.description
    }

    private static let hexDigits = Array("0123456789abcdef")

    /// Writes a string literal with the escapes JSON requires.
    static func writeString(_ string: String, to output: inout String, asciiOnly: Bool) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 || (asciiOnly && scalar.value > 0x7E) {
                    if scalar.value > 0xFFFF {
                        // Beyond the Basic Multilingual Plane: a UTF-16 surrogate pair.
                        let offset = scalar.value - 0x10000
                        writeEscape(0xD800 + (offset >> 10), to: &output)
                        writeEscape(0xDC00 + (offset & 0x3FF), to: &output)
                    } else {
                        writeEscape(scalar.value, to: &output)
                    }
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    private static func writeEscape(_ unit: UInt32, to output: inout String) {
        output += "\\u"
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(hexDigits[Int((unit >> UInt32(shift)) & 0xF)])
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serialized() }
}
