import LedgerStorage

/// The writing system of a name, as far as name order and delimiters are concerned.
///
/// Scripts are told apart by Unicode block, because the standard library does not expose
/// the Unicode script property.
enum NameScript: Sendable, Hashable {
    /// Any name with neither Hangul nor CJK characters: Latin, Cyrillic, Greek, Arabic, ...
    case other
    /// Han, Hiragana or Katakana characters: Chinese and Japanese names, written family name
    /// first with no delimiter.
    case chineseJapanese
    /// Hangul characters: Korean names, written family name first with a space.
    case korean

    /// The script of a name made of the given parts; Hangul wins over Han, because Korean
    /// names may mix Hangul with Hanja.
    init(of parts: [String]) {
        self = parts.reduce(.other) { $0.adding($1) }
    }

    /// The script of a name of three parts (given, middle and family), without an array of them.
    init(_ given: String, _ middle: String, _ family: String) {
        self = NameScript.other.adding(given).adding(middle).adding(family)
    }

    /// The script of a name of the parts so far and one more: Hangul wins over everything, and
    /// Han or kana over other scripts.
    private func adding(_ part: String) -> NameScript {
        // Every Hangul, Han, kana and Bopomofo scalar is U+1100 or above, whose UTF-8 starts
        // with a byte of 0xE1 or more: a part without one (Latin, Cyrillic, Greek, Arabic,
        // Hebrew) is checked as bytes, not decoded.
        guard self != .korean, part.utf8.contains(where: { $0 >= 0xE1 }) else { return self }
        var script = self
        for scalar in part.unicodeScalars {
            if Self.isHangul(scalar) { return .korean }
            if Self.isChineseJapanese(scalar) { script = .chineseJapanese }
        }
        return script
    }

    /// Whether names in this script are written family name first.
    var isFamilyNameFirst: Bool {
        self != .other
    }

    private static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF,  // Hangul Jamo
            0x3130...0x318F,  // Hangul Compatibility Jamo
            0xA960...0xA97F,  // Hangul Jamo Extended-A
            0xAC00...0xD7AF,  // Hangul Syllables
            0xD7B0...0xD7FF,  // Hangul Jamo Extended-B
            0xFFA0...0xFFDC:  // Halfwidth Hangul
            true
        default:
            false
        }
    }

    private static func isChineseJapanese(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E80...0x2FDF,  // CJK Radicals Supplement, Kangxi Radicals
            0x3005, 0x3007,  // Ideographic iteration mark, ideographic zero
            0x3021...0x3029, 0x3038...0x303B,  // Hangzhou numerals, more iteration marks
            0x3040...0x309F,  // Hiragana
            0x30A0...0x30FF,  // Katakana
            0x31F0...0x31FF,  // Katakana Phonetic Extensions
            0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
            0x4E00...0x9FFF,  // CJK Unified Ideographs
            0xF900...0xFAFF,  // CJK Compatibility Ideographs
            0xFF66...0xFF9F,  // Halfwidth Katakana
            0x1B000...0x1B16F,  // Kana Supplement, Kana Extended-A, Small Kana Extension
            0x20000...0x323AF:  // CJK Unified Ideographs Extensions B to H, compatibility
            true
        default:
            false
        }
    }
}
