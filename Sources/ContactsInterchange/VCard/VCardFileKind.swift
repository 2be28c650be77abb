/// Tells a file that holds no vCard from one that does, so that an import names what it was
/// given ("not a vCard file: it starts with PNG image data") instead of rejecting every line of
/// it as text outside any card.
enum VCardFileKind {
    /// The formats people most often pick by mistake, by their leading bytes.
    private static let signatures: [(bytes: [UInt8], name: String)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG image data"),
        ([0xFF, 0xD8, 0xFF], "JPEG image data"),
        (Array("GIF8".utf8), "GIF image data"),
        (Array("%PDF".utf8), "a PDF document"),
        ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
        ([0x50, 0x4B, 0x05, 0x06], "a ZIP archive"),
        ([0x1F, 0x8B], "gzip-compressed data"),
    ]

    /// Why `bytes` (the file as UTF-8, after its encoding was read) hold no vCard, or nil when
    /// they hold a `BEGIN:VCARD` and should be read.
    static func problem(ofFile original: some Collection<UInt8>, text bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return "empty file: it holds no vCard"
        }
        for signature in signatures where original.starts(with: signature.bytes) {
            return "not a vCard file: it starts with \(signature.name)"
        }
        if containsBeginCard(bytes) { return nil }
        let isText = !bytes.contains(0) && String(validating: bytes, as: UTF8.self) != nil
        return "not a vCard file: it starts with \(isText ? "plain text" : "binary data") and holds no BEGIN:VCARD"
    }

    /// Whether `BEGIN:VCARD` appears anywhere, in any letter case.
    private static func containsBeginCard(_ bytes: [UInt8]) -> Bool {
        let pattern = Array("begin:vcard".utf8)
        guard bytes.count >= pattern.count else { return false }
        var start = 0
        while start <= bytes.count - pattern.count {
            guard let found = bytes[start...].firstIndex(where: { $0 | 0x20 == 0x62 }) else { return false }
            guard found <= bytes.count - pattern.count else { return false }
            if VCardBytes.equalsIgnoringASCIICase(bytes[found..<found + pattern.count], "BEGIN:VCARD") { return true }
            start = found + 1
        }
        return false
    }
}
