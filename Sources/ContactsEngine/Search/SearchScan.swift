import ContactsModel
import Foundation
import LedgerStorage

/// A name, email or phone query answered by reading each contact's searched fields from its
/// encoded bytes (``ContactCodec/forEachIndexedField(in:_:)``), with the rules the search
/// indexes apply (``SearchIndexes`` documents them): the first search of a store whose indexes
/// are still deferred, which costs a walk of the contacts rather than a build of every index
/// (decision 0037).
///
/// A scan is a value that any number of threads may share; each thread matches contacts with a
/// ``Matcher`` of its own, which keeps the buffers the folding reuses.
package struct SearchScan: Sendable {
    fileprivate enum Query: Sendable {
        /// The folded, deduplicated words of a name query, and the folding table's entries
        /// worked out for its characters.
        case name(FoldedWords, LazyScalarFolds)
        /// The folded address (``SearchFolding/foldedEmail(_:)``).
        case email([UInt8])
        /// The whole number's key, and the digits of a partial number.
        case phone(whole: PhoneKey?, partial: [UInt8]?, dialing: PhoneDialing)
        /// A query that matches no contact (no words, no address, too few digits).
        case nothing
    }

    fileprivate let query: Query

    /// Contacts whose names match every word of `query` (``SearchIndexes/slots(matchingName:)``).
    /// The query is folded as ``SearchFolding/queryWords(_:)`` folds it, with the folding
    /// table's entries worked out for its characters only (``LazyScalarFolds``).
    package init(name query: String) {
        var folds = LazyScalarFolds()
        let words = SearchFolding.queryWords(query, folds: &folds)
        self.query = words.isEmpty ? .nothing : .name(words, folds)
    }

    /// The folded words of a name query, as the scan compares them with a contact's; nil for
    /// any other query, or one with no words.
    var nameWords: FoldedWords? {
        if case .name(let words, _) = query { return words }
        return nil
    }

    /// Contacts with the email address (``SearchIndexes/slots(matchingEmailAddress:)``).
    package init(emailAddress query: String) {
        self.query = SearchFolding.foldedEmail(query).map { .email($0) } ?? .nothing
    }

    /// Contacts with a number matching the query, whole or, for a partial number, by its end
    /// (``SearchIndexes/slots(matchingPhoneNumber:numbersOf:)``), national numbers taken to be
    /// in the region `defaultCountryCode`, as the indexes of the same region take them.
    package init(phoneNumber query: String, defaultCountryCode: String) {
        let dialing = PhoneNumbering.dialing(for: defaultCountryCode.lowercased())
        let whole = PhoneNumbering.key(for: query, dialing: dialing)
        let partial = PhoneNumbering.partialDigits(of: query, dialing: dialing)
        self.query =
            whole == nil && partial == nil ? .nothing : .phone(whole: whole, partial: partial, dialing: dialing)
    }

    /// Whether the query matches no contact whatever the contacts are, so that no walk is needed.
    package var matchesNothing: Bool {
        if case .nothing = query { return true }
        return false
    }

    /// Which of a contact's searched fields the query reads.
    fileprivate var field: ContactCodec.IndexedField? {
        switch query {
        case .name: .name
        case .email: .email
        case .phone: .phone
        case .nothing: nil
        }
    }

    /// Matches contacts against a scan, one contact at a time, on one thread.
    package struct Matcher {
        private let scan: SearchScan
        private var names: NameMatcher?
        private var folded: [UInt8] = []
        private var matched = false

        /// A matcher of `scan`'s query.
        package init(_ scan: SearchScan) {
            self.scan = scan
            if case .name(let words, let folds) = scan.query { names = NameMatcher(words, folds: folds) }
        }

        /// Whether the contact whose encoded values are `encoded` matches; throws when they
        /// cannot be read where the searched fields lie.
        package mutating func matches(_ encoded: UnsafeBufferPointer<UInt8>) throws(EventDecodingError) -> Bool {
            guard let wanted = scan.field else { return false }
            matched = false
            names?.startContact()
            try ContactCodec.forEachIndexedField(in: encoded) { field, utf8 in
                if field == wanted, !matched { read(utf8) }
            }
            return matched
        }

        /// Reads one field of the kind the query reads.
        private mutating func read(_ utf8: UnsafeBufferPointer<UInt8>) {
            switch scan.query {
            case .name:
                names!.addField(utf8)
                matched = names!.isComplete
            case .email(let key):
                matched = SearchFolding.foldEmail(utf8: utf8, into: &folded) && folded == key
            case .phone(let whole, let partial, let dialing):
                matched = Self.phoneMatches(utf8, whole: whole, partial: partial, dialing: dialing)
            case .nothing:
                break
            }
        }

        /// Whether a stored number matches a phone query: its key is the whole query's under the
        /// rules of ``SearchIndexes/slots(matchingPhoneNumber:)`` (the same key in a known region;
        /// in an unknown one, the same national number with the same calling code, or either
        /// unknown), or its national number ends with a partial query's digits.
        private static func phoneMatches(
            _ utf8: UnsafeBufferPointer<UInt8>, whole: PhoneKey?, partial: [UInt8]?, dialing: PhoneDialing
        ) -> Bool {
            PhoneNumbering.withKey(forUTF8: utf8, dialing: dialing) { callingCode, national in
                if let whole, national.elementsEqual(whole.nationalNumber) {
                    if dialing.isKnown ? callingCode == whole.callingCode : whole.matches(callingCode: callingCode) {
                        return true
                    }
                }
                guard let partial, national.count >= partial.count else { return false }
                return national.suffix(partial.count).elementsEqual(partial)
            } ?? false
        }
    }
}

extension PhoneKey {
    /// Whether a stored number of this national number and `callingCode` denotes the same number
    /// (``matches(_:)``).
    fileprivate func matches(callingCode other: UInt16) -> Bool {
        callingCode == other || callingCode == 0 || other == 0
    }
}

/// The name part of a scan: whether every query word starts some word of a contact's name
/// fields, folded and split as the name index folds and splits them (``SearchFolding``), compared
/// byte for byte as the index compares a query word with its words (``NameIndex/comparePrefix(_:_:)``).
///
/// An ASCII field is lowercased and split in place, as ``FoldedWords`` splits it. Any other goes
/// through the index's folding, which costs far more, so the query words each such field starts
/// are remembered by its bytes (``NameFieldMemo``): people share names, and a field met again is
/// not folded again. The folding table's entries are worked out for the characters met
/// (``LazyScalarFolds``).
private struct NameMatcher {
    private let query: FoldedWords
    /// Per query word, as bits, whether a word of the contact starts with it.
    private var found: [UInt64]
    /// ``found`` once every query word is.
    private let all: [UInt64]
    private var fieldWords = FoldedWords()
    private var lowered: [UInt8] = []
    /// The query words each non-ASCII field met lately starts, as bits.
    private var memo = NameFieldMemo<UInt64>()
    private var memoBits: [UInt64] = []
    private var scalarFolds: LazyScalarFolds

    /// A matcher of the words of `query`, starting from the folding table's entries in `folds`.
    init(_ query: FoldedWords, folds: LazyScalarFolds) {
        self.query = query
        scalarFolds = folds
        let bitWords = (query.count + 63) / 64
        found = Array(repeating: 0, count: bitWords)
        all = (0..<bitWords).map { index in
            let bits = min(64, query.count - index * 64)
            return bits == 64 ? .max : (1 << bits) - 1
        }
    }

    /// Whether every query word has been found in the contact's fields read so far.
    var isComplete: Bool { found == all }

    /// Forgets the fields of the contact before.
    mutating func startContact() {
        for index in found.indices { found[index] = 0 }
    }

    /// Reads a name field's words.
    mutating func addField(_ utf8: UnsafeBufferPointer<UInt8>) {
        if !utf8.contains(where: { $0 >= 0x80 }) {
            Self.addASCIIField(utf8, query: query, lowered: &lowered, found: &found)
            return
        }
        let hash = ByteStringTable.hash(utf8)
        memoBits.removeAll(keepingCapacity: true)
        if memo.lookUp(utf8, hash: hash, appendingTo: &memoBits) == nil {
            // A miss appended nothing.
            memoBits.append(contentsOf: repeatElement(0, count: found.count))
            fieldWords.removeAll()
            SearchFolding.appendWords(ofUTF8: utf8, to: &fieldWords, folds: &scalarFolds)
            Self.mark(startedBy: fieldWords, query: query, in: &memoBits)
            memo.remember(utf8, hash: hash, entries: memoBits[...], signature: 0)
        }
        for index in found.indices { found[index] |= memoBits[index] }
    }

    /// Reads the words of an ASCII field: runs of letters and digits, lowercased (into `lowered`).
    private static func addASCIIField(
        _ utf8: UnsafeBufferPointer<UInt8>, query: FoldedWords, lowered: inout [UInt8], found: inout [UInt64]
    ) {
        lowered.removeAll(keepingCapacity: true)
        for byte in utf8 { lowered.append(SearchFolding.lowercasedASCII(byte)) }
        lowered.withUnsafeBufferPointer { lowered in
            var start = 0
            while start < lowered.count {
                guard isWordByte(lowered[start]) else {
                    start += 1
                    continue
                }
                var end = start + 1
                while end < lowered.count, isWordByte(lowered[end]) { end += 1 }
                mark(startedBy: UnsafeBufferPointer(rebasing: lowered[start..<end]), query: query, in: &found)
                start = end
            }
        }
    }

    /// Whether a lowercased ASCII byte belongs to a word: a letter or a digit.
    private static func isWordByte(_ lowered: UInt8) -> Bool {
        lowered &- 0x61 < 26 || lowered &- 0x30 < 10
    }

    /// Sets the bits of the query words that some of `words` start with.
    private static func mark(startedBy words: FoldedWords, query: FoldedWords, in bits: inout [UInt64]) {
        words.bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<words.count {
                mark(startedBy: UnsafeBufferPointer(rebasing: bytes[words.range(of: index)]), query: query, in: &bits)
            }
        }
    }

    /// Sets the bits of the query words that a folded word of the contact starts with.
    private static func mark(startedBy word: UnsafeBufferPointer<UInt8>, query: FoldedWords, in bits: inout [UInt64]) {
        query.bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<query.count where bits[index / 64] & 1 << (index % 64) == 0 {
                let range = query.range(of: index)
                if range.count <= word.count,
                    memcmp(word.baseAddress!, bytes.baseAddress! + range.lowerBound, range.count) == 0
                {
                    bits[index / 64] |= 1 << (index % 64)
                }
            }
        }
    }
}
