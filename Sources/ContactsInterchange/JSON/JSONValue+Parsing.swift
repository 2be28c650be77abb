import ContactsModel
import Foundation

/// Why JSON text could not be read, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: String, Sendable, Hashable {
        /// The text ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here.
        case unexpectedByte
        /// Text after the complete value.
        case trailingContent
        /// A number that does not follow JSON's grammar, or is too large for a double.
        case invalidNumber
        /// A string with a raw control character, a bad escape, or a lone surrogate.
        case invalidString
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// An object with the same key twice.
        case duplicateKey
        /// Arrays and objects nested deeper than the limit.
        case tooDeep
        /// More bytes than the limit.
        case tooLarge
    }

    /// The kind of problem.
    public var kind: Kind
    /// The offset of the offending byte from the start of the text (0-based).
    public var offset: Int
    /// What was wrong, in words.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    /// "at byte N: message".
    public var description: String { "malformed JSON at byte \(offset): \(message)" }
}

extension JSONValue {
    /// Limits on what the parser accepts, so hostile input cannot exhaust the stack or memory.
    public struct ParseLimits: Sendable, Hashable {
        /// The deepest nesting of arrays and objects.
        public var depthMax: Int
        /// The most bytes of input.
        public var bytesMax: Int

        /// Creates limits.
        public init(depthMax: Int = 256, bytesMax: Int = 64 * 1024 * 1024) {
            self.depthMax = depthMax
            self.bytesMax = bytesMax
        }

        /// 256 levels and 64 MiB.
        public static let standard = ParseLimits()
    }

    /// Parses JSON text (RFC 8259, strictly): one value with optional white space around it.
    ///
    /// Refused, each with the byte offset of the problem: comments, trailing commas, single
    /// quotes, leading zeros, `+`, `.5`, `1.`, `NaN` and `Infinity`, numbers too large for a
    /// double, raw control characters in strings, unknown escapes, lone surrogates, bytes that
    /// are not UTF-8 (and a byte-order mark), duplicate keys in an object, nesting deeper than
    /// the limit, and anything after the value. It never traps, whatever the input.
    public init(parsing bytes: some Collection<UInt8>, limits: ParseLimits = .standard) throws(JSONParseError) {
        let array = Array(bytes)
        guard array.count <= limits.bytesMax else {
            throw JSONParseError(
                .tooLarge, offset: limits.bytesMax,
                "the text is \(array.count) bytes, over the limit of \(limits.bytesMax)")
        }
        var parser = JSONParser(bytes: array, depthMax: limits.depthMax)
        self = try parser.parseDocument()
    }

    /// Parses JSON text from a string; see ``init(parsing:limits:)-(Collection<UInt8>,_)``.
    public init(parsing text: String, limits: ParseLimits = .standard) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), limits: limits)
    }
}

/// A recursive-descent parser over UTF-8 bytes.
private struct JSONParser {
    let bytes: [UInt8]
    let depthMax: Int
    var index = 0
    var depth = 0

    init(bytes: [UInt8], depthMax: Int) {
        self.bytes = bytes
        self.depthMax = depthMax
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw JSONParseError(.unexpectedByte, offset: 0, "a byte-order mark is not allowed")
        }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw JSONParseError(
                .trailingContent, offset: index, "unexpected \(describe(bytes[index])) after the value")
        }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    func endError(_ expecting: String) -> JSONParseError {
        JSONParseError(.unexpectedEnd, offset: index, "the text ends where \(expecting) was expected")
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw endError("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw JSONParseError(.unexpectedByte, offset: index, "\(describe(bytes[index])) cannot start a value")
        }
    }

    mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        for expected in word.utf8 {
            guard index < bytes.count else { throw endError("'\(word)'") }
            guard bytes[index] == expected else {
                throw JSONParseError(
                    .unexpectedByte, offset: index, "\(describe(bytes[index])) in what should be '\(word)'")
            }
            index += 1
        }
        return value
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > depthMax {
            throw JSONParseError(
                .tooDeep, offset: index, "arrays and objects are nested deeper than \(depthMax) levels")
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw endError("',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw JSONParseError(
                    .unexpectedByte, offset: index, "expected ',' or ']', found \(describe(bytes[index]))")
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var object = JSONObject()
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw endError("a key") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw JSONParseError(
                    .unexpectedByte, offset: index, "expected a key in double quotes, found \(describe(bytes[index]))")
            }
            let keyOffset = index
            let key = try parseString()
            guard seen.insert(key).inserted else {
                throw JSONParseError(.duplicateKey, offset: keyOffset, "the key \"\(key)\" appears twice in one object")
            }
            skipWhitespace()
            guard index < bytes.count else { throw endError("':'") }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw JSONParseError(.unexpectedByte, offset: index, "expected ':', found \(describe(bytes[index]))")
            }
            index += 1
            skipWhitespace()
            object.appendNew(key, try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw endError("',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(object)
            default:
                throw JSONParseError(
                    .unexpectedByte, offset: index, "expected ',' or '}', found \(describe(bytes[index]))")
            }
        }
    }

    func isDigit(_ offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] >= UInt8(ascii: "0") && bytes[offset] <= UInt8(ascii: "9")
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else {
            throw JSONParseError(.invalidNumber, offset: index, "a digit must follow '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) {
                throw JSONParseError(.invalidNumber, offset: start, "a number must not have a leading zero")
            }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else {
                throw JSONParseError(.invalidNumber, offset: index, "a digit must follow the decimal point")
            }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard isDigit(index) else {
                throw JSONParseError(.invalidNumber, offset: index, "a digit must follow the exponent")
            }
            while isDigit(index) { index += 1 }
        }
        // The grammar above admits only ASCII, so this decoding is exact.
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(.invalidNumber, offset: start, "the number \(text) is too large")
        }
        return .double(value)
    }

    func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Reads the four hex digits of a `\u` escape at the current position.
    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw endError("a hex digit") }
            guard let digit = hexValue(bytes[index]) else {
                throw JSONParseError(.invalidString, offset: index, "\(describe(bytes[index])) is not a hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Reads a string literal, the current byte being its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let open = index
        index += 1
        var result = [UInt8]()
        while true {
            guard index < bytes.count else {
                throw JSONParseError(.unexpectedEnd, offset: index, "the string opened at byte \(open) is not closed")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let escape = index
                index += 1
                guard index < bytes.count else { throw endError("an escape") }
                let letter = bytes[index]
                index += 1
                switch letter {
                case UInt8(ascii: "\""): result.append(0x22)
                case UInt8(ascii: "\\"): result.append(0x5C)
                case UInt8(ascii: "/"): result.append(0x2F)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else {
                            throw JSONParseError(
                                .invalidString, offset: escape, "a high surrogate escape is not followed by a low one")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw JSONParseError(
                                .invalidString, offset: escape, "a high surrogate escape is not followed by a low one")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw JSONParseError(
                            .invalidString, offset: escape, "a low surrogate escape without a high one")
                    }
                    // Every value left is a valid scalar: surrogates were paired or refused above.
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw JSONParseError(.invalidString, offset: escape, "the escape is not a Unicode scalar")
                    }
                    result.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw JSONParseError(.invalidString, offset: escape, "unknown escape \\\(describe(letter))")
                }
            case 0x00..<0x20:
                throw JSONParseError(
                    .invalidString, offset: index, "a control character (\(describe(byte))) must be escaped in a string"
                )
            case 0x20..<0x80:
                result.append(byte)
                index += 1
            default:
                let length = try utf8SequenceLength(at: index)
                result.append(contentsOf: bytes[index..<index + length])
                index += length
            }
        }
    }

    /// Checks the multi-byte UTF-8 sequence at `offset` and returns its length: no overlong
    /// forms, no surrogates, nothing beyond U+10FFFF.
    func utf8SequenceLength(at offset: Int) throws(JSONParseError) -> Int {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default:
            throw JSONParseError(.invalidUTF8, offset: offset, "\(describe(lead)) cannot start a UTF-8 character")
        }
        for position in 1..<length {
            guard offset + position < bytes.count else {
                throw JSONParseError(.invalidUTF8, offset: offset + position, "the text ends inside a UTF-8 character")
            }
            let byte = bytes[offset + position]
            let range = position == 1 ? secondRange : 0x80...0xBF
            guard range.contains(byte) else {
                throw JSONParseError(
                    .invalidUTF8, offset: offset + position, "\(describe(byte)) is not valid in this UTF-8 character")
            }
        }
        return length
    }
}
