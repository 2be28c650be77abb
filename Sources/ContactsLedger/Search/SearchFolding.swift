import Foundation

/// Words of folded text, their UTF-8 bytes back to back, as the name index stores and
/// compares them.
struct FoldedWords: Sendable {
    /// The words' bytes, back to back.
    private(set) var bytes: [UInt8] = []
    /// `ends[i]` is where word `i` ends in ``bytes``; it starts where the previous ends.
    private(set) var ends: [Int] = []

    /// The number of words.
    var count: Int { ends.count }

    /// Whether there are no words.
    var isEmpty: Bool { ends.isEmpty }

    /// The byte range of word `index` in ``bytes``.
    func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The bytes of word `index`.
    func word(_ index: Int) -> ArraySlice<UInt8> {
        bytes[range(of: index)]
    }

    /// Calls `body` with the bytes of word `index`.
    func withWord<Result>(
        _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let range = self.range(of: index)
        return try bytes.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[range]))
        }
    }

    /// Whether some word has exactly these bytes.
    func contains(_ word: ArraySlice<UInt8>) -> Bool {
        (0..<count).contains { self.word($0) == word }
    }

    /// Appends a word.
    mutating func append<Bytes: Sequence<UInt8>>(_ word: Bytes) {
        bytes.append(contentsOf: word)
        finishWord(startingAt: ends.last ?? 0)
    }

    /// Drops repeated words, keeping the first of each.
    mutating func removeDuplicates() {
        guard count > 1 else { return }
        var kept = FoldedWords()
        kept.bytes.reserveCapacity(bytes.count)
        for index in 0..<count where !kept.contains(word(index)) {
            kept.append(word(index))
        }
        self = kept
    }

    /// Ends the word being appended, if any bytes were appended since `start`.
    fileprivate mutating func finishWord(startingAt start: Int) {
        if bytes.count > start { ends.append(bytes.count) }
    }

    /// Drops everything appended after the given counts.
    fileprivate mutating func truncate(bytes byteCount: Int, words wordCount: Int) {
        bytes.removeSubrange(byteCount...)
        ends.removeSubrange(wordCount...)
    }

    /// Appends a byte to the word being built.
    fileprivate mutating func appendByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes to the word being built.
    fileprivate mutating func appendBytes<Bytes: Sequence<UInt8>>(_ more: Bytes) {
        bytes.append(contentsOf: more)
    }
}

/// How the search indexes fold and split text; see ``SearchIndexes`` for the rules as the
/// product documents them.
enum SearchFolding {
    /// The options of Foundation's folding that the name rules ask for.
    static let nameFoldingOptions: String.CompareOptions = [
        .caseInsensitive, .diacriticInsensitive, .widthInsensitive,
    ]

    /// The folded, deduplicated words of a contact's name fields.
    static func nameWords(of values: ContactValues) -> FoldedWords {
        var words = FoldedWords()
        forEachNameField(of: values) { appendWords(of: $0, to: &words) }
        words.removeDuplicates()
        return words
    }

    /// The folded, deduplicated words of a name query.
    static func queryWords(_ query: String) -> FoldedWords {
        var words = FoldedWords()
        appendWords(of: query, to: &words)
        words.removeDuplicates()
        return words
    }

    /// Calls `body` with each name field that the name index reads.
    static func forEachNameField(of values: ContactValues, _ body: (String) -> Void) {
        body(values.namePrefix)
        body(values.givenName)
        body(values.middleName)
        body(values.familyName)
        body(values.previousFamilyName)
        body(values.nameSuffix)
        body(values.nickname)
        body(values.phoneticGivenName)
        body(values.phoneticMiddleName)
        body(values.phoneticFamilyName)
        body(values.organizationName)
        body(values.phoneticOrganizationName)
    }

    /// Whether two contacts' name fields are the same, so their name words are too.
    static func sameNameFields(_ first: ContactValues, _ second: ContactValues) -> Bool {
        first.givenName == second.givenName && first.familyName == second.familyName
            && first.middleName == second.middleName && first.namePrefix == second.namePrefix
            && first.nameSuffix == second.nameSuffix && first.nickname == second.nickname
            && first.previousFamilyName == second.previousFamilyName
            && first.phoneticGivenName == second.phoneticGivenName
            && first.phoneticMiddleName == second.phoneticMiddleName
            && first.phoneticFamilyName == second.phoneticFamilyName
            && first.organizationName == second.organizationName
            && first.phoneticOrganizationName == second.phoneticOrganizationName
    }

    /// Appends the folded words of a text: ASCII text is lowercased and split on anything but
    /// letters and digits in one pass; other text goes through Foundation's folding.
    static func appendWords(of text: String, to words: inout FoldedWords) {
        if text.isEmpty { return }
        let byteCount = words.bytes.count
        let wordCount = words.count
        let wasASCII = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            var start = words.bytes.count
            for byte in utf8 {
                if byte >= 0x80 { return false }
                let lowered = byte &- 0x41 < 26 ? byte | 0x20 : byte
                if lowered &- 0x61 < 26 || lowered &- 0x30 < 10 {
                    words.appendByte(lowered)
                } else {
                    words.finishWord(startingAt: start)
                    start = words.bytes.count
                }
            }
            words.finishWord(startingAt: start)
            return true
        }
        if wasASCII == true { return }
        words.truncate(bytes: byteCount, words: wordCount)
        appendUnicodeWords(of: text, to: &words)
    }

    /// What a scalar of folded text is to the word splitter.
    private enum ScalarKind {
        /// Ends the current word.
        case separator
        /// A letter or digit outside the CJK scripts.
        case letter
        /// A Han, Kana or Hangul character: each one starts a word of its own run.
        case cjk
        /// A combining mark: continues whatever word it follows.
        case mark
    }

    /// The general path: Foundation's folding, a few letters folding leaves alone, NFC, then
    /// splitting by Unicode properties.
    private static func appendUnicodeWords(of text: String, to words: inout FoldedWords) {
        let folded = text.folding(options: nameFoldingOptions, locale: nil)
            .precomposedStringWithCanonicalMapping
        var runKind = ScalarKind.separator
        var runStart = words.bytes.count
        // Byte offsets, relative to the run, where a CJK run's characters start.
        var cjkStarts: [Int] = []

        func endRun() {
            if runKind == .cjk {
                let run = Array(words.bytes[runStart...])
                words.truncate(bytes: runStart, words: words.count)
                for start in cjkStarts {
                    words.append(run[start...])
                }
                cjkStarts.removeAll(keepingCapacity: true)
            } else {
                words.finishWord(startingAt: runStart)
            }
            runKind = .separator
            runStart = words.bytes.count
        }

        for scalar in folded.unicodeScalars {
            var kind = kind(of: scalar)
            if kind == .mark {
                if runKind == .separator { kind = .letter } else { kind = runKind }
            } else if kind != runKind {
                endRun()
                runKind = kind
            }
            switch kind {
            case .separator:
                continue
            case .cjk:
                if self.kind(of: scalar) != .mark {
                    cjkStarts.append(words.bytes.count - runStart)
                }
                words.appendBytes(String(scalar).utf8)
            case .letter, .mark:
                if let replacement = extraFolds[scalar] {
                    words.appendBytes(replacement.utf8)
                } else {
                    words.appendBytes(String(scalar).utf8)
                }
            }
            if runKind == .separator { runKind = kind }
        }
        endRun()
    }

    /// Letters with no canonical decomposition, which diacritic folding therefore keeps,
    /// but which people type without the stroke: "Łukasz" as "Lukasz", "Ørsted" as "Orsted".
    /// Foundation already folds "ß" to "ss" under case folding; it is listed for safety.
    private static let extraFolds: [Unicode.Scalar: String] = [
        "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ŧ": "t",
        "æ": "ae", "œ": "oe", "þ": "th", "ß": "ss",
    ]

    private static func kind(of scalar: Unicode.Scalar) -> ScalarKind {
        if scalar.isASCII {
            let value = scalar.value
            return (0x61...0x7A).contains(value) || (0x30...0x39).contains(value)
                ? .letter : (0x41...0x5A).contains(value) ? .letter : .separator
        }
        if isCJK(scalar) { return .cjk }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return .mark
        default:
            break
        }
        if properties.isAlphabetic || properties.numericType != nil { return .letter }
        return .separator
    }

    /// Han, Kana and Hangul: scripts whose names are written without spaces between words,
    /// told apart by Unicode block (the standard library does not expose the Script property).
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF,  // Hangul Jamo
            0x2E80...0x2FDF,  // CJK Radicals Supplement, Kangxi Radicals
            0x3005, 0x3007,  // Ideographic iteration mark, ideographic zero
            0x3021...0x3029, 0x3038...0x303B,  // Hangzhou numerals, more iteration marks
            0x3040...0x309F,  // Hiragana
            0x30A0...0x30FF,  // Katakana
            0x3130...0x318F,  // Hangul Compatibility Jamo
            0x31F0...0x31FF,  // Katakana Phonetic Extensions
            0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
            0x4E00...0x9FFF,  // CJK Unified Ideographs
            0xA960...0xA97F,  // Hangul Jamo Extended-A
            0xAC00...0xD7AF,  // Hangul Syllables
            0xD7B0...0xD7FF,  // Hangul Jamo Extended-B
            0xF900...0xFAFF,  // CJK Compatibility Ideographs
            0xFF66...0xFF9F,  // Halfwidth Katakana
            0xFFA0...0xFFDC,  // Halfwidth Hangul
            0x1B000...0x1B16F,  // Kana Supplement, Kana Extended-A, Small Kana Extension
            0x20000...0x323AF:  // CJK Unified Ideographs Extensions B to H, compatibility
            true
        default:
            false
        }
    }

    // MARK: Email addresses

    /// An email address as the email index keys it: surrounding whitespace trimmed, case
    /// folded, in NFC; nil when nothing is left.
    static func foldedEmail(_ text: String) -> [UInt8]? {
        let ascii = text.utf8.withContiguousStorageIfAvailable { utf8 -> [UInt8]? in
            var start = 0
            var end = utf8.count
            while start < end, isASCIIWhitespace(utf8[start]) { start += 1 }
            while end > start, isASCIIWhitespace(utf8[end - 1]) { end -= 1 }
            var folded = [UInt8]()
            folded.reserveCapacity(end - start)
            for byte in utf8[start..<end] {
                if byte >= 0x80 { return nil }
                folded.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
            }
            return folded
        }
        if let ascii, let folded = ascii {
            return folded.isEmpty ? nil : folded
        }
        let folded = Array(
            text.trimmingCharacters(in: .whitespacesAndNewlines)
                .folding(options: .caseInsensitive, locale: nil)
                .precomposedStringWithCanonicalMapping.utf8)
        return folded.isEmpty ? nil : folded
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
