import ContactsModel

/// Byte helpers shared by the reader.
enum VCardBytes {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let colon = UInt8(ascii: ":")
    static let semicolon = UInt8(ascii: ";")
    static let comma = UInt8(ascii: ",")
    static let equals = UInt8(ascii: "=")
    static let backslash = UInt8(ascii: "\\")
    static let quote = UInt8(ascii: "\"")

    /// The bytes a text value escapes: `\\`, `,`, `;`, CR and LF, as a mask of the ASCII range.
    static let valueSpecials = mask("\\,;\r\n")
    /// The bytes a parameter value caret-escapes or quotes: `^`, `"`, CR, LF, `;`, `:` and `,`.
    static let parameterSpecials = mask("^\"\r\n;:,")

    /// A mask with bit `b` set for each ASCII byte `b` of `bytes`.
    private static func mask(_ bytes: String) -> (low: UInt64, high: UInt64) {
        bytes.utf8.reduce((low: 0, high: 0)) { mask, byte in
            byte < 64 ? (mask.low | 1 << byte, mask.high) : (mask.low, mask.high | 1 << (byte - 64))
        }
    }

    /// Whether `text` holds any byte of an ASCII mask: one pass over contiguous bytes, since most
    /// values hold none and are written as they are.
    static func containsAny(of mask: (low: UInt64, high: UInt64), in text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { containsAny(of: mask, in: $0) }
            ?? containsAny(of: mask, in: Array(text.utf8))
    }

    /// Whether `bytes` hold any byte of an ASCII mask; the writer asks this once of a value's
    /// bytes before it copies them whole or escapes them.
    static func containsAny(of mask: (low: UInt64, high: UInt64), in bytes: some Collection<UInt8>) -> Bool {
        for byte in bytes {
            let bit = UInt64(1) &<< UInt64(byte & 63)
            if (byte < 64 ? mask.low : byte < 128 ? mask.high : 0) & bit != 0 { return true }
        }
        return false
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// The bytes without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isWhitespace(bytes[start]) {
            start += 1
        }
        while end > start, isWhitespace(bytes[end - 1]) {
            end -= 1
        }
        return bytes[start..<end]
    }

    /// Whether the bytes spell the ASCII text, ignoring ASCII case.
    static func equalsIgnoringASCIICase(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard bytes.count == expected.count else { return false }
        for (byte, wanted) in zip(bytes, expected) where lowercased(byte) != lowercased(wanted) {
            return false
        }
        return true
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Text for names and parameters: UTF-8 when valid, else Windows-1252.
    package static func string(_ bytes: ArraySlice<UInt8>) -> String {
        VCardCharset.utf8(bytes) ?? VCardCharset.windows1252(bytes)
    }

    /// Whether a byte may appear in a property or group name as this reader accepts it:
    /// letters, digits, `-`, `_` and `/` (KDE writes `X-messaging/xmpp-All`).
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "/"):
            true
        default: false
        }
    }

    /// Whether the bytes are a property name, with an optional group (`item1.X-ABLabel`).
    static func isBareName(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, isNameByte(first), let last = bytes.last, isNameByte(last) else {
            return false
        }
        var previousWasDot = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if previousWasDot { return false }
                previousWasDot = true
            } else if isNameByte(byte) {
                previousWasDot = false
            } else {
                return false
            }
        }
        return true
    }
}

/// Splits a vCard file into logical lines: the first stage of reading.
///
/// It works on bytes, before any text is decoded, so that a fold or a quoted-printable soft
/// line break that splits a multi-byte character is joined before the character is decoded.
/// The rules, in the order they are tried for each physical line that follows a line:
///
/// 1. Line ends are CR LF, LF, CR CR LF (iOS 6) or a lone CR.
/// 2. A value with quoted-printable encoding that ends in `=` continues on the next line,
///    whatever that line starts with (2.1 writers do not indent). Blank lines after the `=`
///    are skipped when the line after them does not look like a property. A `BEGIN:VCARD` or
///    `END:VCARD` line is never taken as a continuation.
/// 3. A line that starts with a space or a tab continues the previous line, less that one
///    character (RFC 6350 folding; a second space is data).
/// 4. After a base64 value (`ENCODING=b`, `BASE64`), lines made only of base64 characters
///    continue it even without indentation (2.1 writers do this; a blank line ends them).
/// 5. In a 2.1 card, a value that ends in a backslash continues, after a line break, on the
///    next line when that line does not look like a property (an Android 2.1 quirk).
///
/// Blank lines and lines that start with `#` between properties are skipped.
struct VCardLineReader {
    private let bytes: [UInt8]
    private var lines: [Range<Int>] = []
    /// The line number (from 1) of each of `lines`.
    private var lineNumbers: [Int] = []

    /// Splits the bytes into physical lines.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == VCardBytes.lf {
                appendLine(start..<index)
                index += 1
                start = index
            } else if byte == VCardBytes.cr {
                appendLine(start..<index)
                if index + 1 < count, bytes[index + 1] == VCardBytes.lf {
                    index += 2
                } else if index + 2 < count, bytes[index + 1] == VCardBytes.cr, bytes[index + 2] == VCardBytes.lf {
                    index += 3
                } else {
                    index += 1
                }
                start = index
            } else {
                index += 1
            }
        }
        if start < count {
            appendLine(start..<count)
        }
    }

    /// Adds the physical line in `range`, numbered as an editor numbers it. Files joined without
    /// a final line break glue one card's end to the next one's start (`END:VCARDBEGIN:VCARD`):
    /// such a line is taken as two, both with the line's number.
    private mutating func appendLine(_ range: Range<Int>) {
        let number = (lineNumbers.last ?? 0) + 1
        var rest = range
        let end = Array("END:VCARD".utf8)
        while let first = bytes[rest].firstIndex(where: { !VCardBytes.isWhitespace($0) }),
            first + end.count < rest.upperBound,
            VCardBytes.equalsIgnoringASCIICase(bytes[first..<first + end.count], "END:VCARD"),
            Self.startsWithBeginCard(bytes[(first + end.count)..<rest.upperBound])
        {
            lines.append(rest.lowerBound..<first + end.count)
            lineNumbers.append(number)
            rest = first + end.count..<rest.upperBound
        }
        lines.append(rest)
        lineNumbers.append(number)
    }

    private static func startsWithBeginCard(_ bytes: ArraySlice<UInt8>) -> Bool {
        let begin = "BEGIN:VCARD"
        return bytes.count >= begin.utf8.count
            && VCardBytes.equalsIgnoringASCIICase(bytes.prefix(begin.utf8.count), begin)
    }

    /// The number of physical lines.
    var physicalLineCount: Int { lines.count }

    private func line(_ index: Int) -> ArraySlice<UInt8> {
        bytes[lines[index]]
    }

    private func isBlank(_ index: Int) -> Bool {
        line(index).allSatisfy(VCardBytes.isWhitespace)
    }

    private func startsWithWhitespace(_ index: Int) -> Bool {
        line(index).first.map(VCardBytes.isWhitespace) ?? false
    }

    private func isBeginOrEnd(_ index: Int) -> Bool {
        let trimmed = VCardBytes.trimmed(line(index))
        return VCardBytes.equalsIgnoringASCIICase(trimmed, "BEGIN:VCARD")
            || VCardBytes.equalsIgnoringASCIICase(trimmed, "END:VCARD")
    }

    /// Whether the line starts like a content line: a name (with an optional group) and then
    /// `;` or `:`.
    private func looksLikeProperty(_ index: Int) -> Bool {
        let content = line(index)
        guard let end = content.firstIndex(where: { $0 == VCardBytes.colon || $0 == VCardBytes.semicolon }) else {
            return false
        }
        return VCardBytes.isBareName(content[content.startIndex..<end])
    }

    private func isBase64Text(_ index: Int) -> Bool {
        let trimmed = VCardBytes.trimmed(line(index))
        return !trimmed.isEmpty && trimmed.allSatisfy(VCardBase64.isAlphabetByte)
    }

    /// Joins the physical lines into logical lines.
    func logicalLines() -> [VCardRawLine] {
        var result: [VCardRawLine] = []
        var index = 0
        var isVersion21 = false
        while index < lines.count {
            let first = index
            index += 1
            let firstBytes = line(first)
            if firstBytes.allSatisfy(VCardBytes.isWhitespace) || firstBytes.first == UInt8(ascii: "#") {
                continue
            }
            var content = Array(firstBytes.drop(while: VCardBytes.isWhitespace))
            var scanner = VCardHeaderScanner()
            var header = scanner.scan(content)
            while index < lines.count {
                let encoding = header?.encoding
                if encoding == .quotedPrintable, let header, endsWithSoftBreak(content, valueStart: header.valueStart) {
                    removeSoftBreak(&content)
                    if isBeginOrEnd(index) {
                        break
                    }
                    if isBlank(index) {
                        var next = index
                        while next < lines.count, isBlank(next) {
                            next += 1
                        }
                        if next < lines.count, !looksLikeProperty(next), !isBeginOrEnd(next) {
                            content += line(next)
                            index = next + 1
                            continue
                        }
                        break
                    }
                    content += line(index)
                    index += 1
                    continue
                }
                if startsWithWhitespace(index) {
                    content += line(index).dropFirst()
                } else if encoding == .base64, isBase64Text(index) {
                    content += VCardBytes.trimmed(line(index))
                } else if isVersion21, encoding != .quotedPrintable, content.last == VCardBytes.backslash,
                    !isBlank(index), !looksLikeProperty(index), !isBeginOrEnd(index)
                {
                    content.removeLast()
                    content.append(VCardBytes.lf)
                    content += line(index)
                } else {
                    break
                }
                index += 1
                if header == nil {
                    header = scanner.scan(content)
                }
            }
            let rawLine = VCardRawLine(
                bytes: content, lineNumber: lineNumbers[first], header: header ?? scanner.fallbackHeader(of: content))
            if rawLine.isBeginCard {
                isVersion21 = false
            } else if let lineHeader = rawLine.header, lineHeader.name == "VERSION" {
                isVersion21 = VCardBytes.trimmed(rawLine.valueBytes).starts(with: Array("2.".utf8))
            }
            result.append(rawLine)
        }
        return result
    }

    /// Whether a quoted-printable value ends in a soft line break: `=` after its trailing
    /// white space is removed (RFC 2045 drops such white space).
    private func endsWithSoftBreak(_ content: [UInt8], valueStart: Int) -> Bool {
        var end = content.count
        while end > valueStart, VCardBytes.isWhitespace(content[end - 1]) {
            end -= 1
        }
        return end > valueStart && content[end - 1] == VCardBytes.equals
    }

    private func removeSoftBreak(_ content: inout [UInt8]) {
        while let last = content.last, VCardBytes.isWhitespace(last) {
            content.removeLast()
        }
        content.removeLast()
    }
}

/// Finds the colon that ends a header, scanning bytes as they are appended so that a long
/// folded line is scanned once.
///
/// The name ends at the first `;` or `:`; after a `;`, colons inside double quotes belong to
/// parameter values (`TYPE="a:b"`). If the quotes never close, the first colon after the
/// parameters starts the value.
struct VCardHeaderScanner {
    private var position = 0
    private var inParameters = false
    private var inQuotes = false
    private var nameEnd: Int?
    private var colon: Int?
    private var firstColonInQuotes: Int?

    /// Scans the bytes not scanned yet, and returns the header once its colon is found.
    mutating func scan(_ bytes: [UInt8]) -> VCardHeader? {
        guard colon == nil else { return nil }
        while position < bytes.count {
            let byte = bytes[position]
            if !inParameters {
                if byte == VCardBytes.semicolon {
                    inParameters = true
                    nameEnd = position
                } else if byte == VCardBytes.colon {
                    nameEnd = position
                    colon = position
                    return VCardHeaderParser.header(of: bytes, nameEnd: position, colon: position)
                }
            } else if byte == VCardBytes.quote {
                inQuotes.toggle()
            } else if byte == VCardBytes.colon {
                if !inQuotes {
                    colon = position
                    return VCardHeaderParser.header(of: bytes, nameEnd: nameEnd ?? position, colon: position)
                }
                if firstColonInQuotes == nil {
                    firstColonInQuotes = position
                }
            }
            position += 1
        }
        return nil
    }

    /// The header of a line whose quotes never closed: the value starts at the first colon
    /// after the parameters began; nil when there is no colon at all.
    func fallbackHeader(of bytes: [UInt8]) -> VCardHeader? {
        guard colon == nil, let nameEnd, let firstColonInQuotes else { return nil }
        return VCardHeaderParser.header(of: bytes, nameEnd: nameEnd, colon: firstColonInQuotes)
    }
}
