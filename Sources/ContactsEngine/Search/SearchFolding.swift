import ContactsModel
import Foundation
import LedgerStorage

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

    /// ``contains(_:)``, for asking it of many words: a comparison with each word for a few
    /// words, a set of them for many, so that asking it of every word of another contact costs
    /// their number rather than the product of the two.
    func membership() -> (ArraySlice<UInt8>) -> Bool {
        guard count > Self.wordsScannedMax else { return { self.contains($0) } }
        let set = Set((0..<count).map { word($0) })
        return { set.contains($0) }
    }

    /// The most words that are compared one by one rather than put in a set.
    static let wordsScannedMax = 16

    /// Appends a word.
    mutating func append<Bytes: Sequence<UInt8>>(_ word: Bytes) {
        bytes.append(contentsOf: word)
        finishWord(startingAt: ends.last ?? 0)
    }

    /// Removes every word, keeping the storage for the next use.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Drops repeated words, keeping the first of each: by comparing with the words kept for a
    /// few words (a typed query), through a set of them for many, so that a query of thousands
    /// of words costs their number rather than its square.
    mutating func removeDuplicates() {
        guard count > 1 else { return }
        var kept = FoldedWords()
        kept.bytes.reserveCapacity(bytes.count)
        if count <= Self.wordsScannedMax {
            for index in 0..<count where !kept.contains(word(index)) {
                kept.append(word(index))
            }
        } else {
            var seen = Set<ArraySlice<UInt8>>(minimumCapacity: count)
            for index in 0..<count where seen.insert(word(index)).inserted {
                kept.append(word(index))
            }
        }
        self = kept
    }

    /// Appends the words of ASCII text, lowercased, and returns true; returns false, having
    /// appended nothing, when the text is not all ASCII.
    fileprivate mutating func appendASCIIWords(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = bytes.count
        bytes.append(contentsOf: utf8)
        var written = start
        var isASCII = true
        bytes.withUnsafeMutableBufferPointer { buffer in
            var wordStart = start
            for read in start..<buffer.count {
                let byte = buffer[read]
                if byte >= 0x80 {
                    isASCII = false
                    return
                }
                let lowered = SearchFolding.lowercasedASCII(byte)
                if lowered &- 0x61 < 26 || lowered &- 0x30 < 10 {
                    buffer[written] = lowered
                    written += 1
                } else if written > wordStart {
                    ends.append(written)
                    wordStart = written
                }
            }
            if written > wordStart { ends.append(written) }
        }
        if !isASCII {
            while let last = ends.last, last > start { ends.removeLast() }
            written = start
        }
        bytes.removeSubrange(written...)
        return isASCII
    }

    /// Appends the words of a text whose characters are all ASCII, in `folds`, or common
    /// Han, Kana and Hangul (which folding leaves alone), and returns true; returns false,
    /// having appended nothing, when one is not.
    fileprivate mutating func appendTableFoldedWords(
        _ scalars: String.UnicodeScalarView, folds: (UInt32) -> ScalarFolds.Entry?
    ) -> Bool {
        let byteCount = bytes.count
        let wordCount = ends.count
        var wordStart = bytes.count
        // Where each character of the current run of CJK characters starts in `bytes`.
        var cjkStarts: [Int] = []
        for scalar in scalars {
            let value = scalar.value
            if ScalarFolds.isUnfoldedCJK(value) {
                if cjkStarts.isEmpty { finishWord(startingAt: wordStart) }
                cjkStarts.append(bytes.count)
                bytes.append(contentsOf: String(scalar).utf8)
                continue
            }
            var entry: ScalarFolds.Entry?
            if value >= 0x80 {
                entry = folds(value)
                guard let entry else {
                    truncate(bytes: byteCount, words: wordCount)
                    return false
                }
                // A diacritic folds into nothing, and its neighbours join as if it were not
                // there, CJK or not.
                if entry.bytes.isEmpty && !entry.separates { continue }
            }
            if !cjkStarts.isEmpty {
                endCJKRun(startingAt: cjkStarts)
                cjkStarts.removeAll()
                wordStart = bytes.count
            }
            if let entry {
                if !entry.separates {
                    bytes.append(contentsOf: entry.bytes)
                    continue
                }
            } else {
                let byte = UInt8(value)
                let lowered = SearchFolding.lowercasedASCII(byte)
                if lowered &- 0x61 < 26 || lowered &- 0x30 < 10 {
                    bytes.append(lowered)
                    continue
                }
            }
            finishWord(startingAt: wordStart)
            wordStart = bytes.count
        }
        if cjkStarts.isEmpty {
            finishWord(startingAt: wordStart)
        } else {
            endCJKRun(startingAt: cjkStarts)
        }
        return true
    }

    /// Turns a run of CJK characters just appended (starting at the given offsets) into one
    /// word per character: the run from that character on.
    fileprivate mutating func endCJKRun(startingAt starts: [Int]) {
        let run = Array(bytes[starts[0]...])
        bytes.removeSubrange(starts[0]...)
        for start in starts {
            append(run[(start - starts[0])...])
        }
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

    /// Appends bytes to the word being built.
    fileprivate mutating func appendBytes<Bytes: Sequence<UInt8>>(_ more: Bytes) {
        bytes.append(contentsOf: more)
    }
}

/// ``ScalarFolds``' entries worked out one character at a time, as texts need them, rather than
/// for every character of its blocks at once: a search that scans the contacts (decision 0037)
/// meets a few dozen such characters, and working out the whole table costs more than the scan.
struct LazyScalarFolds: Sendable {
    private var known: [UInt32: ScalarFolds.Entry?] = [:]

    /// An empty cache.
    init() {}

    /// What ``ScalarFolds/entry(for:)`` gives for a character.
    mutating func entry(for value: UInt32) -> ScalarFolds.Entry? {
        if let entry = known[value] { return entry }
        let entry = ScalarFolds.covers(value) ? Unicode.Scalar(value).flatMap(SearchFolding.tableEntry(for:)) : nil
        known.updateValue(entry, forKey: value)
        return entry
    }
}

/// Name folding one character at a time for the blocks that European names use (Latin-1,
/// Latin Extended A and B, combining diacritics, Greek, Cyrillic, Latin Extended Additional,
/// general punctuation, full-width forms), computed once from Foundation's own folding of
/// each character.
///
/// Foundation's folding costs a few microseconds a call on Linux, which is most of the cost
/// of indexing a contact named "Adrián Dvořák". Folding has no context in these blocks (each
/// character folds the same wherever it stands, and diacritics simply go), so folding
/// character by character gives what folding the whole text gives; the tests check it.
struct ScalarFolds: Sendable {
    /// How one character folds: its letters' bytes, or nothing; or it separates words.
    struct Entry: Sendable {
        var bytes: [UInt8]
        var separates: Bool
    }

    /// The table, built on first use (a few milliseconds).
    static let shared = ScalarFolds()

    /// The blocks covered, as half-open ranges of scalar values, and where each starts in
    /// ``entries``.
    private static let ranges: [Range<UInt32>] = [0x80..<0x530, 0x1E00..<0x2070, 0xFF00..<0xFFF0]
    private let starts: [Int]
    private let entries: [Entry?]

    private init() {
        var starts: [Int] = []
        var entries: [Entry?] = []
        for range in Self.ranges {
            starts.append(entries.count)
            for value in range {
                entries.append(Unicode.Scalar(value).flatMap(SearchFolding.tableEntry(for:)))
            }
        }
        self.starts = starts
        self.entries = entries
    }

    /// Whether a character is in the CJK Unified Ideographs (and Extension A), Hiragana,
    /// Katakana or Hangul Syllables blocks, which folding leaves as they are (no case, no
    /// diacritics, full width already); the tests check every one.
    static func isUnfoldedCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: true
        default: false
        }
    }

    /// Whether a character is in one of the blocks the table covers.
    static func covers(_ value: UInt32) -> Bool {
        ranges.contains { $0.contains(value) }
    }

    /// How a character folds, or nil when it is outside the table or folds in a way the
    /// table does not capture.
    func entry(for value: UInt32) -> Entry? {
        for (index, range) in Self.ranges.enumerated() where range.contains(value) {
            return entries[starts[index] + Int(value - range.lowerBound)]
        }
        return nil
    }
}

/// How the search indexes fold and split text; see ``SearchIndexes`` for the rules as the
/// product documents them.
enum SearchFolding {
    /// The options of Foundation's folding that the name rules ask for.
    static let nameFoldingOptions: String.CompareOptions = [
        .caseInsensitive, .diacriticInsensitive, .widthInsensitive,
    ]

    /// The folded words of a contact's name fields, a word repeated when several fields have
    /// it (the index treats them as a set).
    static func nameWords(of values: ContactValues) -> FoldedWords {
        var words = FoldedWords()
        appendNameWords(of: values, to: &words)
        return words
    }

    /// Appends the folded words of a contact's name fields.
    static func appendNameWords(of values: ContactValues, to words: inout FoldedWords) {
        forEachNameField(of: values) { appendWords(of: $0, to: &words) }
    }

    /// The folded, deduplicated words of a name query.
    static func queryWords(_ query: String) -> FoldedWords {
        var words = FoldedWords()
        appendWords(of: query, to: &words)
        words.removeDuplicates()
        return words
    }

    /// ``queryWords(_:)`` with the table's entries from `folds`, which works out only those of
    /// the characters the query has: the same words, for a search that scans the contacts
    /// (decision 0037) and would otherwise pay for the whole table (``ScalarFolds/shared``).
    static func queryWords(_ query: String, folds: inout LazyScalarFolds) -> FoldedWords {
        var words = FoldedWords()
        var query = query
        query.withUTF8 { appendWords(ofUTF8: $0, to: &words, folds: &folds) }
        words.removeDuplicates()
        return words
    }

    /// Calls `body` with each name field that the name index reads
    /// (``ContactKeyTable/searchedNameKeys``), in key order.
    static func forEachNameField(of values: ContactValues, _ body: (String) -> Void) {
        for key in ContactKeyTable.searchedNameKeys {
            body(values[string: key])
        }
    }

    /// Whether two contacts' name fields are the same, so their name words are too.
    static func sameNameFields(_ first: ContactValues, _ second: ContactValues) -> Bool {
        ContactKeyTable.searchedNameKeys.allSatisfy { first[string: $0] == second[string: $0] }
    }

    /// Appends the folded words of a text: ASCII text is copied in bulk, then lowercased and
    /// split in place in one pass; text in the Latin, Greek and Cyrillic blocks is folded one
    /// character at a time from a table (``ScalarFolds``); anything else goes through
    /// Foundation's folding, which costs a few microseconds a call.
    static func appendWords(of text: String, to words: inout FoldedWords) {
        if text.isEmpty { return }
        let wasASCII = text.utf8.withContiguousStorageIfAvailable { utf8 in
            words.appendASCIIWords(utf8)
        }
        if wasASCII == true { return }
        if words.appendTableFoldedWords(text.unicodeScalars, folds: ScalarFolds.shared.entry(for:)) { return }
        appendUnicodeWords(of: text, to: &words)
    }

    /// ``appendWords(of:to:)`` of text given as UTF-8 bytes (ill-formed sequences read as
    /// U+FFFD, as the event decoder reads them): ASCII is split in place, anything else goes
    /// through a string.
    static func appendWords(ofUTF8 utf8: UnsafeBufferPointer<UInt8>, to words: inout FoldedWords) {
        if utf8.isEmpty || words.appendASCIIWords(utf8) { return }
        appendWords(of: String(decoding: utf8, as: UTF8.self), to: &words)
    }

    /// ``appendWords(ofUTF8:to:)`` with the table's entries from `folds`, which works out only
    /// those of the characters it meets.
    static func appendWords(
        ofUTF8 utf8: UnsafeBufferPointer<UInt8>, to words: inout FoldedWords, folds: inout LazyScalarFolds
    ) {
        if utf8.isEmpty || words.appendASCIIWords(utf8) { return }
        let text = String(decoding: utf8, as: UTF8.self)
        if words.appendTableFoldedWords(text.unicodeScalars, folds: { folds.entry(for: $0) }) { return }
        appendUnicodeWords(of: text, to: &words)
    }

    /// Appends the folded words of a text by Foundation's folding alone, the reference that
    /// the faster paths of ``appendWords(of:to:)`` must agree with.
    static func appendWordsByFoundation(of text: String, to words: inout FoldedWords) {
        if !text.isEmpty { appendUnicodeWords(of: text, to: &words) }
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

    /// How one character folds, for ``ScalarFolds``: into letters (or digits) that continue
    /// a word, into nothing (a diacritic), or into a separator; nil when it is none of these
    /// (a CJK character, something that folds into a mix) or when it folds differently next
    /// to other letters than alone (a few marks and joiners), so that the table never
    /// disagrees with folding the whole text.
    static func tableEntry(for scalar: Unicode.Scalar) -> ScalarFolds.Entry? {
        let folded = String(scalar).folding(options: nameFoldingOptions, locale: nil)
            .precomposedStringWithCanonicalMapping
        let kinds = folded.unicodeScalars.map(kind(of:))
        let entry: ScalarFolds.Entry
        if kinds.isEmpty {
            entry = ScalarFolds.Entry(bytes: [], separates: false)
        } else if kinds.allSatisfy({ $0 == .separator }) {
            entry = ScalarFolds.Entry(bytes: [], separates: true)
        } else if kinds.allSatisfy({ $0 == .letter }) {
            var words = FoldedWords()
            appendUnicodeWords(of: folded, to: &words)
            guard words.count == 1 else { return nil }
            entry = ScalarFolds.Entry(bytes: Array(words.word(0)), separates: false)
        } else {
            return nil
        }
        // Check the entry in the contexts a name gives it: between letters, after a space,
        // before one, doubled.
        for (before, after) in [("a", "b"), (" ", "b"), ("a", " "), (String(scalar), "")] {
            let context = before + String(scalar) + after
            var byFoundation = FoldedWords()
            appendUnicodeWords(of: context, to: &byFoundation)
            var byTable = FoldedWords()
            _ = byTable.appendTableFoldedWords(context.unicodeScalars) { $0 == scalar.value ? entry : nil }
            guard byTable.bytes == byFoundation.bytes, byTable.ends == byFoundation.ends else { return nil }
        }
        return entry
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
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .letter
            default: return .separator
            }
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
        var folded: [UInt8] = []
        return foldEmail(text, into: &folded) ? folded : nil
    }

    /// Replaces `folded` with the folded form of an email address (see ``foldedEmail(_:)``)
    /// and returns whether it is not empty; ASCII addresses are folded without allocating
    /// once `folded` has grown.
    static func foldEmail(_ text: String, into folded: inout [UInt8]) -> Bool {
        if text.utf8.withContiguousStorageIfAvailable({ foldASCIIEmail($0, into: &folded) }) == true {
            return true
        }
        return foldUnicodeEmail(text, into: &folded)
    }

    /// ``foldEmail(_:into:)`` of an address given as UTF-8 bytes (ill-formed sequences read as
    /// U+FFFD, as the event decoder reads them).
    static func foldEmail(utf8: UnsafeBufferPointer<UInt8>, into folded: inout [UInt8]) -> Bool {
        if foldASCIIEmail(utf8, into: &folded) { return true }
        return foldUnicodeEmail(String(decoding: utf8, as: UTF8.self), into: &folded)
    }

    /// Folds an all-ASCII address into `folded` and returns whether it was all ASCII and not
    /// empty; false, with `folded` to be ignored, otherwise.
    private static func foldASCIIEmail(_ utf8: UnsafeBufferPointer<UInt8>, into folded: inout [UInt8]) -> Bool {
        folded.removeAll(keepingCapacity: true)
        var start = 0
        var end = utf8.count
        while start < end, isASCIIWhitespace(utf8[start]) { start += 1 }
        while end > start, isASCIIWhitespace(utf8[end - 1]) { end -= 1 }
        folded.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<end]))
        let ascii = folded.withUnsafeMutableBytes { bytes in
            // Eight bytes at a time, then the rest one by one.
            var index = 0
            while index + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { return false }
                bytes.storeBytes(of: lowercasedASCII(word), toByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 { return false }
                bytes[index] = lowercasedASCII(byte)
                index += 1
            }
            return true
        }
        return ascii && !folded.isEmpty
    }

    /// An ASCII byte, lower case if it is `A` to `Z`.
    @inline(__always)
    static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Eight ASCII bytes with `A` to `Z` made lower case, all at once, as the one-byte form makes
    /// each: a byte's top bit is set by adding 0x3F when it is at least `A`, and by adding 0x25
    /// when it is above `Z` (no byte carries into the next, each being below 0x80), and 0x20 is
    /// added where the first is set and the second is not.
    @inline(__always)
    static func lowercasedASCII(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let atLeastA = word &+ ones &* (0x80 - 0x41)
        let aboveZ = word &+ ones &* (0x80 - 0x5B)
        let upper = atLeastA & ~aboveZ & (ones &* 0x80)
        return word | upper >> 2
    }

    /// Folds an address with Foundation (any text; the path for non-ASCII addresses).
    private static func foldUnicodeEmail(_ text: String, into folded: inout [UInt8]) -> Bool {
        folded.removeAll(keepingCapacity: true)
        folded.append(
            contentsOf: text.trimmingCharacters(in: .whitespacesAndNewlines)
                .folding(options: .caseInsensitive, locale: nil)
                .precomposedStringWithCanonicalMapping.utf8)
        return !folded.isEmpty
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
