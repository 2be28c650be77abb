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
        String(decoding: serializedBytes(style), as: UTF8.self)
    }

    /// ``serialized(_:)`` as UTF-8 bytes, for a caller that writes them out: a large array of
    /// contacts is written without ever being one `String`.
    public func serializedBytes(_ style: Style = .compact) -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output, style: style, indent: 0)
        return output
    }

    /// Appends ``serialized(_:)``'s bytes to `output`.
    public func write(to output: inout [UInt8], style: Style = .compact) {
        write(to: &output, style: style, indent: 0)
    }

    private func write(to output: inout [UInt8], style: Style, indent: Int) {
        switch self {
        case .null: output.append(literal: "null")
        case .bool(let value): value ? output.append(literal: "true") : output.append(literal: "false")
        case .int(let value): output += String(value).utf8
        case .double(let value): output += Self.text(of: value).utf8
        case .string(let value): Self.writeString(value, to: &output, asciiOnly: style.asciiOnly)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(literal: "[]")
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if style.pretty { Self.newline(&output, indent: indent + 1) }
                element.write(to: &output, style: style, indent: indent + 1)
            }
            if style.pretty { Self.newline(&output, indent: indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                output.append(literal: "{}")
                return
            }
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if style.pretty { Self.newline(&output, indent: indent + 1) }
                Self.writeString(member.key, to: &output, asciiOnly: style.asciiOnly)
                style.pretty ? output.append(literal: ": ") : output.append(UInt8(ascii: ":"))
                member.value.write(to: &output, style: style, indent: indent + 1)
            }
            if style.pretty { Self.newline(&output, indent: indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], indent: Int) {
        output.append(UInt8(ascii: "\n"))
        output += repeatElement(UInt8(ascii: " "), count: 2 * indent)
    }

    /// The JSON text of a double: the shortest form that reads back as the same value.
    static func text(of value: Double) -> String {
        guard value.isFinite else { return "null" }
        // Swift's description is the shortest round-tripping form ("0.1", "1e-07", "1.0",
        // "5e+20"), and every such form is also a valid JSON number.
        return value.description
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes a string literal with the escapes JSON requires, copying the runs of bytes that
    /// need none as they are.
    package static func writeString(_ string: String, to output: inout [UInt8], asciiOnly: Bool) {
        guard !string.isEmpty else { return output.append(literal: "\"\"") }
        output.append(UInt8(ascii: "\""))
        if asciiOnly {
            for scalar in string.unicodeScalars { writeASCIIOnly(scalar, to: &output) }
        } else if string.utf8.withContiguousStorageIfAvailable({ writeUTF8($0, to: &output) }) == nil {
            // A string whose bytes are not stored contiguously (a bridged one): made contiguous
            // in a copy. Every other string is read where it is stored, without a copy.
            var string = string
            string.withUTF8 { writeUTF8($0, to: &output) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Writes UTF-8 text, escaping `"`, `\` and the control characters, and copying the runs
    /// between them whole.
    private static func writeUTF8(_ bytes: some RandomAccessCollection<UInt8>, to output: inout [UInt8]) {
        var runStart = bytes.startIndex
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output += bytes[runStart..<index]
            writeEscaped(byte, to: &output)
            runStart = bytes.index(after: index)
        }
        output += bytes[runStart...]
    }

    /// Writes one ASCII byte that JSON escapes.
    private static func writeEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output += "\\\"".utf8
        case UInt8(ascii: "\\"): output += "\\\\".utf8
        case 0x0A: output += "\\n".utf8
        case 0x0D: output += "\\r".utf8
        case 0x09: output += "\\t".utf8
        case 0x08: output += "\\b".utf8
        case 0x0C: output += "\\f".utf8
        default: writeEscape(UInt32(byte), to: &output)
        }
    }

    /// Writes a scalar for a reader that takes ASCII only.
    private static func writeASCIIOnly(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        if scalar.value < 0x20 || scalar == "\"" || scalar == "\\" {
            writeEscaped(UInt8(scalar.value), to: &output)
        } else if scalar.value > 0xFFFF {
            // Beyond the Basic Multilingual Plane: a UTF-16 surrogate pair.
            let offset = scalar.value - 0x10000
            writeEscape(0xD800 + (offset >> 10), to: &output)
            writeEscape(0xDC00 + (offset & 0x3FF), to: &output)
        } else if scalar.value > 0x7E {
            writeEscape(scalar.value, to: &output)
        } else {
            output.append(UInt8(scalar.value))
        }
    }

    private static func writeEscape(_ unit: UInt32, to output: inout [UInt8]) {
        output += "\\u".utf8
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(hexDigits[Int((unit >> UInt32(shift)) & 0xF)])
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serialized() }
}
