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
        // A card that lost its BEGIN:VCARD is still a card to report, not another kind of file.
        if contains(bytes, "BEGIN:VCARD") || contains(bytes, "END:VCARD") { return nil }
        let isText = !bytes.contains(0) && String(validating: bytes, as: UTF8.self) != nil
        return "not a vCard file: it starts with \(isText ? "plain text" : "binary data") and holds no BEGIN:VCARD"
    }

    /// Whether the ASCII `pattern` appears anywhere in `bytes`, in any letter case.
    private static func contains(_ bytes: [UInt8], _ pattern: String) -> Bool {
        let count = pattern.utf8.count
        let first = pattern.utf8.first.map { $0 | 0x20 } ?? 0
        guard bytes.count >= count else { return false }
        var start = 0
        while let found = bytes[start...].firstIndex(where: { $0 | 0x20 == first }), found <= bytes.count - count {
            if VCardBytes.equalsIgnoringASCIICase(bytes[found..<found + count], pattern) { return true }
            start = found + 1
        }
        return false
    }
}
