import ContactsModel
import Foundation

/// Character sets: names to encodings, and the decoders that never fail.
enum VCardCharset {
    /// A character set the reader can decode.
    enum Encoding: Sendable, Hashable {
        case utf8
        case latin1
        case windows1252
        /// Any other encoding Foundation decodes on this platform (Shift_JIS, Windows-1251, ...).
        case foundation(String.Encoding)
    }

    /// The encoding for a `CHARSET` name (IANA names and common aliases, any case), or nil.
    static func encoding(named name: String) -> Encoding? {
        switch name.vcardTrimmed().lowercased() {
        case "utf-8", "utf8": .utf8
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1": .latin1
        case "windows-1252", "cp1252", "x-cp1252", "ansi": .windows1252
        case "us-ascii", "ascii": .utf8
        case "windows-1250", "cp1250": .foundation(.windowsCP1250)
        case "windows-1251", "cp1251": .foundation(.windowsCP1251)
        case "windows-1253", "cp1253": .foundation(.windowsCP1253)
        case "windows-1254", "cp1254": .foundation(.windowsCP1254)
        case "iso-8859-2", "iso8859-2", "latin2": .foundation(.isoLatin2)
        case "shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "cp932", "windows-31j": .foundation(.shiftJIS)
        case "euc-jp": .foundation(.japaneseEUC)
        case "iso-2022-jp": .foundation(.iso2022JP)
        case "utf-16": .foundation(.utf16)
        case "utf-16le": .foundation(.utf16LittleEndian)
        case "utf-16be": .foundation(.utf16BigEndian)
        default: nil
        }
    }

    /// Decodes bytes, or returns nil when they are not valid in the encoding.
    static func decode(_ bytes: ArraySlice<UInt8>, as encoding: Encoding) -> String? {
        switch encoding {
        case .utf8: utf8(bytes)
        case .latin1: latin1(bytes)
        case .windows1252: windows1252(bytes)
        case .foundation(let foundationEncoding):
            bytes.allSatisfy({ $0 < 0x80 }) && foundationEncoding != .utf16
                && foundationEncoding != .utf16LittleEndian && foundationEncoding != .utf16BigEndian
                ? utf8(bytes) : String(data: Data(bytes), encoding: foundationEncoding)
        }
    }

    /// The bytes as UTF-8, or nil when they are not valid UTF-8.
    static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The bytes as ISO-8859-1: every byte is the scalar of the same number.
    static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// The bytes as Windows-1252, with the five bytes it leaves undefined read as in
    /// ISO-8859-1 (as the WHATWG Encoding Standard does), so decoding never fails.
    static func windows1252(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            if (0x80...0x9F).contains(byte), let scalar = Unicode.Scalar(windows1252High[Int(byte) - 0x80]) {
                scalars.append(scalar)
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return String(scalars)
    }

    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

/// Quoted-printable decoding (RFC 2045), as vCard 2.1 uses it.
enum VCardQuotedPrintable {
    /// Decodes `=XX` escapes; soft line breaks were already joined by the line reader. An `=`
    /// that is not followed by two hex digits is kept as written, and trailing white space of
    /// the value is dropped (RFC 2045 calls it transport padding).
    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var end = bytes.endIndex
        while end > bytes.startIndex, VCardBytes.isWhitespace(bytes[end - 1]) {
            end -= 1
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < end {
            let byte = bytes[index]
            if byte == VCardBytes.equals, index + 2 < end, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
                continue
            }
            result.append(byte)
            index += 1
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Base64 decoding and encoding, by hand so that it behaves the same on every platform.
enum VCardBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// Whether the byte is a base64 letter or padding.
    static func isAlphabetByte(_ byte: UInt8) -> Bool {
        byte == VCardBytes.equals || values[Int(byte)] != 0xFF
    }

    /// Decodes base64, ignoring white space and line ends; missing padding is accepted.
    /// Returns nil for any other character, for `=` before the end, and for a length that
    /// leaves one stray character.
    static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var pending = 0
        var padding = 0
        for byte in text {
            if byte == VCardBytes.space || byte == VCardBytes.tab || byte == VCardBytes.cr || byte == VCardBytes.lf {
                continue
            }
            if byte == VCardBytes.equals {
                padding += 1
                continue
            }
            let value = values[Int(byte)]
            guard value != 0xFF, padding == 0 else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            pending += 1
            if pending == 4 {
                result.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                result.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                result.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                pending = 0
            }
        }
        switch pending {
        case 0: break
        case 2:
            result.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            result.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            result.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default:
            return nil
        }
        guard padding <= 2 else { return nil }
        return result
    }

    /// Encodes bytes as base64 with padding and no line breaks.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining == 1 {
            let chunk = UInt32(bytes[index]) << 16
            output += [
                alphabet[Int(chunk >> 18 & 63)], alphabet[Int(chunk >> 12 & 63)], VCardBytes.equals, VCardBytes.equals,
            ]
        } else if remaining == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output += [
                alphabet[Int(chunk >> 18 & 63)], alphabet[Int(chunk >> 12 & 63)], alphabet[Int(chunk >> 6 & 63)],
                VCardBytes.equals,
            ]
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Backslash escapes of vCard text, and the splitting of structured values.
///
/// These work on Unicode scalars, not characters, so that a combining mark after a comma or
/// a semicolon cannot hide the separator.
enum VCardEscaping {
    /// Undoes the escapes of a 3.0 or 4.0 text value: `\\`, `\n` and `\N` (a line feed), `\,`,
    /// `\;` and, leniently, a backslash before any other ASCII punctuation (`\:` in Google's and
    /// old Apple's URLs, `\"` in Gmail's notes). A backslash before anything else (a letter, a
    /// digit, a space) is kept as written.
    static func unescape(_ text: String) -> String {
        guard text.utf8.contains(VCardBytes.backslash) else { return text }
        var result = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard let next = iterator.next() else {
                result.append("\\")
                break
            }
            appendEscaped(next, to: &result)
        }
        return String(result)
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to result: inout String.UnicodeScalarView) {
        switch scalar {
        case "n", "N": result.append("\n")
        case _ where scalar.isASCII && scalar.properties.isPatternSyntax:
            // `\\`, `\,`, `\;`, and leniently any other escaped ASCII punctuation (`\:`, `\"`),
            // which Google and old Apple exports write.
            result.append(scalar)
        default:
            result.append("\\")
            result.append(scalar)
        }
    }

    /// Splits a structured value (`N`, `ADR`, `ORG`) at semicolons that are not escaped, and
    /// unescapes each component: by the 3.0 rules, or for 2.1 only `\;`, `\\` and `\:`
    /// (2.1 knows no other escapes, so `\n` stays as written).
    static func components(_ text: String, version21: Bool) -> [String] {
        var components: [String] = []
        var current = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if scalar == ";" {
                components.append(String(current))
                current = String.UnicodeScalarView()
            } else if scalar == "\\" {
                guard let next = iterator.next() else {
                    current.append("\\")
                    break
                }
                if !version21 {
                    appendEscaped(next, to: &current)
                } else if next == ";" || next == "\\" || next == ":" {
                    current.append(next)
                } else {
                    current.append("\\")
                    current.append(next)
                }
            } else {
                current.append(scalar)
            }
        }
        components.append(String(current))
        return components
    }

    /// Escapes text for a 3.0 or 4.0 value: backslash, comma, semicolon, and line breaks
    /// (LF, CR LF and a lone CR) as `\n`.
    static func escape(_ text: String) -> String {
        // Most values hold nothing to escape: returned as they are, without a copy.
        guard VCardBytes.containsAny(of: VCardBytes.valueSpecials, in: text) else { return text }
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends text escaped as ``escape(_:)`` escapes it, straight into `bytes`, without a
    /// string in between: the text's bytes are looked through once, and text with nothing to
    /// escape (most values) is copied whole. Every byte escaped is ASCII, so escaping bytes
    /// escapes the characters.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            if VCardBytes.containsAny(of: VCardBytes.valueSpecials, in: utf8) {
                appendEscaping(utf8, to: &bytes)
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
    }

    private static func appendEscaping(_ utf8: some Collection<UInt8>, to bytes: inout [UInt8]) {
        var previousWasCR = false
        for byte in utf8 {
            defer { previousWasCR = byte == VCardBytes.cr }
            switch byte {
            case VCardBytes.backslash, VCardBytes.comma, VCardBytes.semicolon:
                bytes.append(VCardBytes.backslash)
                bytes.append(byte)
            case VCardBytes.cr:
                bytes.append(literal: "\\n")
            case VCardBytes.lf:
                if !previousWasCR { bytes.append(literal: "\\n") }
            default:
                bytes.append(byte)
            }
        }
    }

    /// Line breaks as line feeds: CR LF and a lone CR become LF.
    static func normalizingLineBreaks(_ text: String) -> String {
        guard text.utf8.contains(VCardBytes.cr) else { return text }
        var result = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                result.append("\n")
            } else if scalar != "\n" || !previousWasCR {
                result.append(scalar)
            }
            previousWasCR = scalar == "\r"
        }
        return String(result)
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space (Unicode's White_Space characters;
    /// line breaks only when asked), computed on scalars without Foundation's bridging, which
    /// is slow on Linux.
    func vcardTrimmed(newlines: Bool = false) -> String {
        func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.properties.isWhitespace else { return false }
            return newlines
                || !(scalar == "\n" || scalar == "\r" || ("\u{0B}"..."\u{0C}").contains(scalar)
                    || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}")
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmed($0) })!
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
