extension [UInt8] {
    /// Appends a literal's UTF-8 bytes in one copy: appending a string's `utf8` view goes
    /// through it a byte at a time.
    @inline(__always)
    mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes in one copy.
    @inline(__always)
    mutating func appendUTF8(_ string: String) {
        var string = string
        string.withUTF8 { append(contentsOf: $0) }
    }
}
