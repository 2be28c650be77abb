import ContactsModel
import Foundation
import LedgerStorage

/// The name index: folded name words to the slots of the contacts that have them, and the
/// words in byte order, so that the words starting with a query word form one range.
///
/// - Words get dense ids from a ``ByteStringTable``; each id has a sorted slot set.
/// - Byte order is kept in three runs: ``sortedWords`` (large), ``recentWords`` (small,
///   merged into the large run when it outgrows a thirty-second of it) and
///   ``unsortedWords`` (new since the last ``prepareForQueries()``). An insert appends to
///   the last, so replaying a million contacts never moves the large run; a query binary
///   searches the first two and scans the third, so it is correct before preparation and
///   logarithmic after it.
/// - Query words of one or two bytes ("j", "jo") would gather thousands of words, so the
///   index also keeps, for every one- and two-byte word start, the sorted set of contacts
///   with a word that starts so; such a query is a copy of one set.
///
/// ## Several query words
///
/// A query of two words ("jo mül") intersected the slots of one word's matches (thousands)
/// with those of the other's (thousands to tens of thousands) to find about a hundred, in time
/// proportional to the smaller set. So every slot has a 32-bit signature of its words' starts
/// (``startSignatures``): per word, two bits chosen by a hash of its first two bytes and two by
/// a hash of its first three. A query word of two or more bytes asks for the same bits, and a
/// contact lacking one cannot match it. The rarest query word's slots are read once, each
/// tested against the other words' bits, and only those that pass (the answer and a few false
/// positives) are checked exactly against the other words' sets, as before.
///
/// Looking up a signature per slot would cost a cache miss per slot, scattered over four bytes
/// a contact; so words with ``signedListSlotsMin`` slots or more also keep their slots with
/// each slot's signature beside it (``signedLists``), read in order. Signatures may only have
/// too many bits, never too few: an insert adds bits, an update sets them from the new words
/// (and rewrites them in the signed lists of the words kept), a removal clears them. At a
/// million contacts this costs about 30 bytes a contact (4 for the signature, 8 per name
/// word's signed entry) and, per insert, a hash and a sorted append per word.
struct NameIndex: Sendable {
    private var words = ByteStringTable()
    private var wordSlots = SlotPostings()
    /// Word starts (see ``prefixCode(of:length:)``) made of ASCII to their id plus one in
    /// ``prefixSlots``, zero for none: one byte `b` at `b`, two at `128 + 128 * b0 + b1`. A
    /// table rather than a dictionary because every insert looks several up; empty until the
    /// first insert.
    private var asciiPrefixIDs: [UInt32] = []
    /// Two-byte word starts that are one non-ASCII character, to their id in ``prefixSlots``.
    private var otherPrefixIDs: [UInt32: UInt32] = [:]
    private var prefixSlots = SlotPostings()
    private var sortedWords: [UInt32] = []
    private var recentWords: [UInt32] = []
    private var unsortedWords: [UInt32] = []
    /// Words whose slot set is empty; the table is compacted when they dominate.
    private var deadWords = 0
    /// Per slot, the signature of its words' starts (see ``signature(of:)``), zero for a slot
    /// without words. It is as long as one past the largest slot ever indexed, which is also
    /// the size of a bitmap over all slots.
    private var startSignatures: [UInt32] = []

    /// One past the largest slot ever indexed.
    private var slotBound: Int { startSignatures.count }
    /// A word gets a signed list when it reaches this many slots, and loses it below half.
    static let signedListSlotsMin = 64
    /// The words with many slots, by id, to their slots with each slot's signature beside it.
    /// A query reads these in order rather than looking up thousands of scattered signatures,
    /// which costs a cache miss each.
    private var signedLists: [UInt32: SignedSlotList] = [:]

    /// Whether some words are not yet in byte order, so that queries scan them.
    var needsPreparation: Bool { !unsortedWords.isEmpty }

    // MARK: Changes

    /// Indexes a contact's words into a slot that has none or has these same words (the
    /// signed lists of words indexed earlier are not revisited); repeated words are harmless.
    mutating func insert(_ slot: ContactSlot, words contactWords: FoldedWords) {
        guard !contactWords.isEmpty else { return }
        addSignature(Self.signature(of: contactWords), to: slot)
        for index in 0..<contactWords.count {
            contactWords.withWord(index) { word in
                addWord(word, slot: slot)
                // A second word with the same start ("john", "johnson") finds the slot at the
                // end of the start's set and returns at once.
                for length in 1...2 {
                    if let code = Self.prefixCode(of: word, length: length) {
                        prefixSlots.insert(slot, into: prefixIDCreating(code))
                    }
                }
            }
        }
    }

    /// Removes a contact's words, as they were indexed.
    mutating func remove(_ slot: ContactSlot, words contactWords: FoldedWords) {
        guard !contactWords.isEmpty else { return }
        // The words are all the slot has (the caller's contract), so no bit is still needed.
        if Int(slot) < startSignatures.count { startSignatures[Int(slot)] = 0 }
        for index in 0..<contactWords.count {
            contactWords.withWord(index) { word in
                removeWord(word, slot: slot)
                for length in 1...2 {
                    if let code = Self.prefixCode(of: word, length: length), let id = prefixID(code) {
                        prefixSlots.remove(slot, from: id)
                    }
                }
            }
        }
        if deadWords > max(4096, words.count / 2) { compact() }
    }

    /// Re-indexes a contact whose words changed, touching only the words that differ.
    mutating func update(_ slot: ContactSlot, from old: FoldedWords, to new: FoldedWords) {
        let isOld = old.membership()
        let isNew = new.membership()
        var removed = FoldedWords()
        for index in 0..<old.count where !isNew(old.word(index)) {
            removed.append(old.word(index))
        }
        var added = FoldedWords()
        for index in 0..<new.count where !isOld(new.word(index)) {
            added.append(new.word(index))
        }
        // Word starts are shared between words ("john", "johnny"), so they are diffed as
        // sets of their own rather than derived from the changed words.
        let oldCodes = Self.prefixCodes(of: old)
        let newCodes = Self.prefixCodes(of: new)
        remove(slot, words: removed, prefixCodes: Self.codes(oldCodes, notIn: newCodes))
        // The signature first, so that the added words' signed lists take the new one.
        let signature = Self.signature(of: new)
        if Int(slot) < startSignatures.count {
            startSignatures[Int(slot)] = signature
        } else if !new.isEmpty {
            addSignature(signature, to: slot)
        }
        insert(slot, words: added, prefixCodes: Self.codes(newCodes, notIn: oldCodes))
        // The words kept carry the slot's old signature in their signed lists.
        for index in 0..<new.count where isOld(new.word(index)) {
            new.withWord(index) { word in
                if let id = words.find(word), let index = signedLists.index(forKey: id) {
                    signedLists.values[index].upsert(slot, signature: signature)
                }
            }
        }
    }

    /// Adds bits to a slot's signature, growing the signatures to cover the slot.
    private mutating func addSignature(_ signature: UInt32, to slot: ContactSlot) {
        let index = Int(slot)
        if index >= startSignatures.count {
            startSignatures.append(contentsOf: repeatElement(0, count: index + 1 - startSignatures.count))
        }
        startSignatures[index] |= signature
    }

    private mutating func insert(_ slot: ContactSlot, words added: FoldedWords, prefixCodes: [UInt32]) {
        if added.isEmpty && prefixCodes.isEmpty { return }
        addSignature(0, to: slot)
        for index in 0..<added.count {
            added.withWord(index) { addWord($0, slot: slot) }
        }
        for code in prefixCodes {
            prefixSlots.insert(slot, into: prefixIDCreating(code))
        }
    }

    private mutating func remove(_ slot: ContactSlot, words removed: FoldedWords, prefixCodes: [UInt32]) {
        for index in 0..<removed.count {
            removed.withWord(index) { removeWord($0, slot: slot) }
        }
        for code in prefixCodes {
            if let id = prefixID(code) { prefixSlots.remove(slot, from: id) }
        }
        if deadWords > max(4096, words.count / 2) { compact() }
    }

    private mutating func addWord(_ word: UnsafeBufferPointer<UInt8>, slot: ContactSlot) {
        let (id, inserted) = words.findOrInsert(word)
        if inserted {
            wordSlots.appendKey()
            unsortedWords.append(id)
        } else if wordSlots.isEmpty(id) {
            deadWords -= 1
        }
        guard wordSlots.insert(slot, into: id) else { return }
        let count = wordSlots.count(of: id)
        if count >= Self.signedListSlotsMin / 2, let index = signedLists.index(forKey: id) {
            signedLists.values[index].upsert(slot, signature: startSignatures[Int(slot)])
        } else if count >= Self.signedListSlotsMin {
            signedLists[id] = SignedSlotList(slots: wordSlots.slots(of: id)) { startSignatures[Int($0)] }
        }
    }

    private mutating func removeWord(_ word: UnsafeBufferPointer<UInt8>, slot: ContactSlot) {
        guard let id = words.find(word), wordSlots.remove(slot, from: id) else { return }
        if wordSlots.isEmpty(id) { deadWords += 1 }
        guard let index = signedLists.index(forKey: id) else { return }
        if wordSlots.count(of: id) < Self.signedListSlotsMin / 2 {
            signedLists.remove(at: index)
        } else {
            signedLists.values[index].remove(slot)
        }
    }

    /// The id in ``prefixSlots`` of a word start, if it has one.
    private func prefixID(_ code: UInt32) -> UInt32? {
        if let index = Self.asciiPrefixIndex(code) {
            guard index < asciiPrefixIDs.count, asciiPrefixIDs[index] != 0 else { return nil }
            return asciiPrefixIDs[index] - 1
        }
        return otherPrefixIDs[code]
    }

    /// The id in ``prefixSlots`` of a word start, given one if it has none.
    private mutating func prefixIDCreating(_ code: UInt32) -> UInt32 {
        if let id = prefixID(code) { return id }
        let id = UInt32(prefixSlots.keyCount)
        prefixSlots.appendKey()
        if let index = Self.asciiPrefixIndex(code) {
            if asciiPrefixIDs.isEmpty { asciiPrefixIDs = [UInt32](repeating: 0, count: 128 + 128 * 128) }
            asciiPrefixIDs[index] = id + 1
        } else {
            otherPrefixIDs[code] = id
        }
        return id
    }

    /// Where a word start of ASCII characters sits in ``asciiPrefixIDs``.
    private static func asciiPrefixIndex(_ code: UInt32) -> Int? {
        if code & 0x1_0000 != 0 { return Int(code & 0x7F) }
        let first = code >> 8
        let second = code & 0xFF
        return first < 0x80 && second < 0x80 ? 128 + Int(first) * 128 + Int(second) : nil
    }

    /// Takes the word-start postings that a bulk build left out (``Builder/takeStartPairs()``).
    mutating func adoptStartPostings(_ postings: SlotPostings) {
        precondition(postings.keyCount == prefixSlots.keyCount, "word-start postings of another build")
        prefixSlots = postings
    }

    /// Puts new words in byte order, and gives back capacity that growth left unused. Queries
    /// are correct without it, but scan the new words.
    mutating func prepareForQueries() {
        words.trimExcessCapacity()
        wordSlots.trimExcessCapacity()
        prefixSlots.trimExcessCapacity()
        startSignatures.trimExcessCapacity()
        for index in signedLists.indices { signedLists.values[index].trimExcessCapacity() }
        guard !unsortedWords.isEmpty else { return }
        var fresh = unsortedWords
        unsortedWords = []
        words.withStorage { slice in
            fresh.sort { Self.compare(slice($0), slice($1)) < 0 }
            if sortedWords.isEmpty || fresh.count > sortedWords.count / 8 {
                let merged = Self.merge(recentWords, fresh, slice)
                sortedWords = Self.merge(sortedWords, merged, slice)
                recentWords = []
            } else {
                recentWords = Self.merge(recentWords, fresh, slice)
                if recentWords.count > max(1024, sortedWords.count / 32) {
                    sortedWords = Self.merge(sortedWords, recentWords, slice)
                    recentWords = []
                }
            }
        }
    }

    /// Drops the words no contact has any more and renumbers the rest, keeping their order.
    private mutating func compact() {
        var newID = [UInt32?](repeating: nil, count: words.count)
        var next: UInt32 = 0
        for id in 0..<words.count where !wordSlots.isEmpty(UInt32(id)) {
            newID[id] = next
            next += 1
        }
        words = words.compacted(keeping: newID)
        wordSlots = wordSlots.compacted(keeping: newID)
        var renumbered: [UInt32: SignedSlotList] = [:]
        for (id, list) in signedLists {
            if let kept = newID[Int(id)] { renumbered[kept] = list }
        }
        signedLists = renumbered
        sortedWords = sortedWords.compactMap { newID[Int($0)] }
        recentWords = recentWords.compactMap { newID[Int($0)] }
        unsortedWords = unsortedWords.compactMap { newID[Int($0)] }
        deadWords = 0
    }

    // MARK: Queries

    /// What one query word matches: either one prefix set, or the sets of the words it starts.
    private struct Term {
        var prefixID: UInt32?
        var wordIDs: [UInt32] = []
        /// The sum of the sets' sizes: an upper bound of the term's matches.
        var estimatedCount = 0
        /// The signature bits every contact with a word that the query word starts has.
        var signature: UInt32 = 0
    }

    /// The slots of the contacts that have, for every query word, a word starting with it.
    func slots(matching query: FoldedWords) -> [ContactSlot] {
        guard !query.isEmpty else { return [] }
        var terms: [Term] = []
        let essential = Self.essentialWords(of: query)
        terms.reserveCapacity(essential.count)
        for index in essential {
            let term = query.withWord(index) { self.term(for: $0) }
            if term.estimatedCount == 0 { return [] }
            terms.append(term)
        }
        // The rarest word first: every later word can only shrink the candidates, and a
        // small candidate set gallops through a large one.
        terms.sort { $0.estimatedCount < $1.estimatedCount }
        let required = terms.dropFirst().reduce(0) { $0 | $1.signature }
        var candidates = required == 0 ? materialize(terms[0]) : materialize(terms[0], passing: required)
        for term in terms.dropFirst() {
            if candidates.isEmpty { break }
            candidates = filter(candidates, by: term)
        }
        return candidates
    }

    /// The positions of the query words that neither start another query word nor repeat a
    /// later one: a contact with a word starting with "john" has one starting with "jo", so
    /// "jo john" asks what "john" asks, and a word repeated ("界界界", in which every Han
    /// character is a word) asks what it asks once. In byte order the words starting with a
    /// word come right after it, so one sort finds them.
    static func essentialWords(of query: FoldedWords) -> [Int] {
        if query.count == 1 { return [0] }
        return query.bytes.withUnsafeBufferPointer { bytes in
            func word(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: bytes[query.range(of: index)])
            }
            if query.count == 2 {
                // The common query of two words, without a sort.
                if comparePrefix(word(1), word(0)) == 0 { return [1] }
                if comparePrefix(word(0), word(1)) == 0 { return [0] }
                return [0, 1]
            }
            let order = (0..<query.count).sorted { compare(word($0), word($1)) < 0 }
            var kept: [Int] = []
            for (position, index) in order.enumerated() {
                // The next word in byte order starts with this one, or is it again.
                if position + 1 < order.count, comparePrefix(word(order[position + 1]), word(index)) == 0 { continue }
                kept.append(index)
            }
            return kept
        }
    }

    private func term(for word: UnsafeBufferPointer<UInt8>) -> Term {
        var term = Term()
        term.signature = Self.signature(ofStart: word)
        if let code = Self.prefixCode(of: word, length: word.count) {
            if let id = prefixID(code) {
                term.prefixID = id
                term.estimatedCount = prefixSlots.count(of: id)
            }
            return term
        }
        words.withStorage { slice in
            func consider(_ id: UInt32) {
                let count = wordSlots.count(of: id)
                if count > 0 {
                    term.wordIDs.append(id)
                    term.estimatedCount += count
                }
            }
            func considerRange(of run: UnsafeBufferPointer<UInt32>) {
                let start = Self.partition(run) { Self.comparePrefix(slice($0), word) < 0 }
                let end = Self.partition(run) { Self.comparePrefix(slice($0), word) <= 0 }
                for position in start..<end { consider(run[position]) }
            }
            sortedWords.withUnsafeBufferPointer(considerRange)
            recentWords.withUnsafeBufferPointer(considerRange)
            for id in unsortedWords where Self.comparePrefix(slice(id), word) == 0 {
                consider(id)
            }
        }
        return term
    }

    private func materialize(_ term: Term) -> [ContactSlot] {
        if let id = term.prefixID { return prefixSlots.slots(of: id) }
        if term.wordIDs.count == 1 { return wordSlots.slots(of: term.wordIDs[0]) }
        return SlotSetAlgebra.union(totalCount: term.estimatedCount, slotBound: slotBound) { body in
            for id in term.wordIDs { wordSlots.forEachBlock(of: id, body) }
        }
    }

    /// The slots of a term whose signature has every bit of `required`, sorted: a superset
    /// of the term's slots that can match the other query words, read in one pass over the
    /// term's sets without the union that ``materialize(_:)`` builds.
    private func materialize(_ term: Term, passing required: UInt32) -> [ContactSlot] {
        startSignatures.withUnsafeBufferPointer { signatures in
            var passed: [ContactSlot] = []
            // About one in eight passes for a query word of two bytes, fewer for longer ones.
            passed.reserveCapacity(min(term.estimatedCount, 64 + term.estimatedCount / 8))
            func keep(_ set: UnsafeBufferPointer<ContactSlot>) {
                for slot in set {
                    // A slot beyond the signatures (only in a malformed snapshot) is kept, to
                    // be judged exactly by the other words' sets.
                    let signature = Int(slot) < signatures.count ? signatures[Int(slot)] : .max
                    if signature & required == required { passed.append(slot) }
                }
            }
            if let id = term.prefixID {
                prefixSlots.forEachBlock(of: id, keep)
            } else {
                for id in term.wordIDs {
                    if let list = signedLists[id] {
                        list.appendSlots(passing: required, to: &passed)
                    } else {
                        wordSlots.forEachBlock(of: id, keep)
                    }
                }
                if term.wordIDs.count > 1 {
                    // A contact with two of the words ("john", "johnny") is in two sets.
                    passed.sort()
                    SlotSetAlgebra.removeDuplicates(fromSorted: &passed)
                }
            }
            return passed
        }
    }

    private func filter(_ candidates: [ContactSlot], by term: Term) -> [ContactSlot] {
        SlotSetAlgebra.candidates(candidates, inAnyOf: term.estimatedCount) { body in
            if let id = term.prefixID {
                prefixSlots.forEachBlock(of: id, body)
            } else {
                for id in term.wordIDs { wordSlots.forEachBlock(of: id, body) }
            }
        }
    }

    // MARK: Word starts

    /// The code of a word's first one or two bytes (`length`), or nil when those bytes are not
    /// whole characters: only an ASCII byte, or two ASCII bytes, or one two-byte character.
    static func prefixCode(of word: UnsafeBufferPointer<UInt8>, length: Int) -> UInt32? {
        guard word.count >= length else { return nil }
        switch length {
        case 1:
            return word[0] < 0x80 ? 0x1_0000 | UInt32(word[0]) : nil
        case 2:
            let first = word[0]
            let second = word[1]
            let whole = (first < 0x80 && second < 0x80) || ((0xC2...0xDF).contains(first) && second >= 0x80)
            return whole ? UInt32(first) << 8 | UInt32(second) : nil
        default:
            return nil
        }
    }

    // MARK: Signatures

    /// The signature bits of a word's start: two bits for its first two bytes and two for its
    /// first three, each pair chosen by a multiplicative hash of those bytes and their count;
    /// none for a word of one byte. Changing this changes what the stored signatures mean, so it
    /// needs a new index form in the snapshot (see `Projection+Snapshot.swift`). A word that starts with a query word of two or more bytes has
    /// every bit of the query word's signature, since they share those bytes.
    static func signature(ofStart word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard word.count >= 2 else { return 0 }
        let two = UInt32(word[0]) | UInt32(word[1]) << 8
        var bits = twoBits((two | 2 << 24) &* 0x9E37_79B1)
        if word.count >= 3 {
            bits |= twoBits((two | UInt32(word[2]) << 16 | 3 << 24) &* 0x9E37_79B1)
        }
        return bits
    }

    /// Two bits of a signature, chosen by two five-bit fields of a hash: two bits per start
    /// halve the false positives of a query word of two bytes (one start) at 32 bits.
    private static func twoBits(_ hash: UInt32) -> UInt32 {
        1 << (hash >> 27) | 1 << (hash >> 22 & 31)
    }

    /// The union of the words' start signatures.
    static func signature(of words: FoldedWords) -> UInt32 {
        var bits: UInt32 = 0
        for index in 0..<words.count {
            bits |= words.withWord(index) { signature(ofStart: $0) }
        }
        return bits
    }

    /// The distinct one- and two-byte word starts of some words.
    static func prefixCodes(of words: FoldedWords) -> [UInt32] {
        var codes: [UInt32] = []
        // For many words the codes seen are also kept in a set, so that finding them costs
        // their number rather than its square; for a few, the list is searched.
        let many = words.count > FoldedWords.wordsScannedMax
        var seen = Set<UInt32>()
        for index in 0..<words.count {
            words.withWord(index) { word in
                for length in 1...2 {
                    guard let code = prefixCode(of: word, length: length) else { continue }
                    if many ? seen.insert(code).inserted : !codes.contains(code) { codes.append(code) }
                }
            }
        }
        return codes
    }

    /// The codes of `codes` that are not in `other`, in order: `other` searched when it is short,
    /// put in a set when it is long.
    private static func codes(_ codes: [UInt32], notIn other: [UInt32]) -> [UInt32] {
        guard other.count > 2 * FoldedWords.wordsScannedMax else { return codes.filter { !other.contains($0) } }
        let set = Set(other)
        return codes.filter { !set.contains($0) }
    }

    // MARK: Byte order

    /// Compares bytes lexicographically (memcmp, then length).
    static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        if common > 0 {
            let order = memcmp(left.baseAddress!, right.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }

    /// Compares a word with a query word for prefix search: 0 when the query starts the word,
    /// otherwise the order of the word relative to all words the query starts.
    static func comparePrefix(_ word: UnsafeBufferPointer<UInt8>, _ query: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(word.count, query.count)
        if common > 0 {
            let order = memcmp(word.baseAddress!, query.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return word.count < query.count ? -1 : 0
    }

    /// The first position of `run` where `isBefore` is false; `isBefore` must be true for a
    /// prefix of the run and false for the rest.
    private static func partition(
        _ run: UnsafeBufferPointer<UInt32>, _ isBefore: (UInt32) -> Bool
    ) -> Int {
        var low = 0
        var high = run.count
        while low < high {
            let middle = (low + high) >> 1
            if isBefore(run[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Merges two runs of ids sorted by their words.
    private static func merge(
        _ left: [UInt32], _ right: [UInt32], _ slice: (UInt32) -> UnsafeBufferPointer<UInt8>
    ) -> [UInt32] {
        if left.isEmpty { return right }
        if right.isEmpty { return left }
        var merged: [UInt32] = []
        merged.reserveCapacity(left.count + right.count)
        var leftIndex = 0
        var rightIndex = 0
        while leftIndex < left.count, rightIndex < right.count {
            if compare(slice(right[rightIndex]), slice(left[leftIndex])) < 0 {
                merged.append(right[rightIndex])
                rightIndex += 1
            } else {
                merged.append(left[leftIndex])
                leftIndex += 1
            }
        }
        merged.append(contentsOf: left[leftIndex...])
        merged.append(contentsOf: right[rightIndex...])
        return merged
    }

    // MARK: Accounting

    /// Roughly the bytes held, for the benchmark's memory report.
    var estimatedBytes: Int {
        words.estimatedBytes + wordSlots.estimatedBytes + prefixSlots.estimatedBytes
            + asciiPrefixIDs.capacity * 4 + otherPrefixIDs.capacity * 12
            + (sortedWords.capacity + recentWords.capacity + unsortedWords.capacity) * 4
            + startSignatures.capacity * 4
            + signedLists.values.reduce(signedLists.capacity * 16) { $0 + $1.estimatedBytes }
    }

    /// Checks the representation: every word in exactly one run, runs in byte order,
    /// prefix sets equal to the union of their words' sets.
    func checkInvariants() {
        words.checkInvariants()
        wordSlots.checkInvariants()
        prefixSlots.checkInvariants()
        let runs = sortedWords + recentWords + unsortedWords
        precondition(runs.count == words.count && Set(runs).count == words.count, "a word is lost")
        words.withStorage { slice in
            for run in [sortedWords, recentWords] {
                for (first, second) in zip(run, run.dropFirst()) {
                    precondition(Self.compare(slice(first), slice(second)) < 0, "a run is out of order")
                }
            }
        }
        var dead = 0
        var expected: [UInt32: Set<ContactSlot>] = [:]
        for id in 0..<UInt32(words.count) {
            let slots = wordSlots.slots(of: id)
            if slots.isEmpty { dead += 1 }
            words.withBytes(of: id) { word in
                let signature = Self.signature(ofStart: word)
                for slot in slots {
                    precondition(
                        Int(slot) < startSignatures.count && startSignatures[Int(slot)] & signature == signature,
                        "the signature of slot \(slot) lacks bits of a word it has")
                }
                for length in 1...2 {
                    if let code = Self.prefixCode(of: word, length: length) {
                        expected[code, default: []].formUnion(slots)
                    }
                }
            }
        }
        precondition(dead == deadWords, "dead words are miscounted")
        for id in 0..<UInt32(words.count) {
            let count = wordSlots.count(of: id)
            if let list = signedLists[id] {
                precondition(count >= Self.signedListSlotsMin / 2, "a word with few slots keeps a signed list")
                list.checkInvariants()
                precondition(list.slots == wordSlots.slots(of: id), "a signed list is wrong")
                for entry in list.entries {
                    precondition(
                        UInt32(truncatingIfNeeded: entry) == startSignatures[Int(entry >> 32)],
                        "a signed list holds a stale signature")
                }
            } else {
                precondition(count < Self.signedListSlotsMin, "a word with many slots has no signed list")
            }
        }
        precondition(signedLists.keys.allSatisfy { Int($0) < words.count }, "a signed list names no word")
        var codes = Array(otherPrefixIDs.keys)
        for (index, id) in asciiPrefixIDs.enumerated() where id != 0 {
            codes.append(
                index < 128 ? 0x1_0000 | UInt32(index) : UInt32((index - 128) / 128) << 8 | UInt32((index - 128) % 128))
        }
        precondition(codes.count == prefixSlots.keyCount, "a word start is lost")
        for code in codes {
            let actual = prefixID(code).map { prefixSlots.slots(of: $0) } ?? []
            precondition(Set(actual) == expected[code] ?? [], "the word start \(code) has the wrong slots")
        }
        for (code, slots) in expected where !slots.isEmpty {
            precondition(prefixID(code) != nil, "the word start \(code) is lost")
        }
    }
}

// MARK: Bulk build

extension NameIndex {
    /// Makes a name index from contacts given one by one in ascending slot order (the bulk
    /// index build of a replay, decision 0009). Each word and word start costs a pair appended
    /// to a list; the slot sets are made at the end by a counting sort of the pairs, and the
    /// signed lists from the final signatures, instead of an insert into a growing set, and an
    /// upsert into a signed list, per word. The index is the one that ``insert(_:words:)`` of
    /// the same contacts, in the same order, makes.
    struct Builder {
        private var index = NameIndex()
        /// Word id and slot, `id << 32 | slot`, in the order the contacts came.
        private var wordPairs: [UInt64] = []
        /// Word-start id and slot, likewise.
        private var prefixPairs: [UInt64] = []
        /// The slot added last, -1 before the first.
        private var lastSlot = -1
        /// One past the largest slot the build will be given, if known.
        private let slotBound: Int
        /// Whether the pair arrays have been sized for the whole build.
        private var reserved = false
        /// The entries of the contact being added by ``add(_:words:)``.
        private var entries: [WordEntry] = []
        /// Whether ``takeStartPairs()`` took the word starts' pairs out of the build.
        private var startsTaken = false

        /// A build of contacts in slots below `slotBound` (0 if not known). Once a sixty-fourth
        /// of them is added, the pair arrays are sized for all of them from what those needed,
        /// instead of doubling a dozen times: each doubling would copy the pairs into memory never
        /// touched before, which costs a page fault a page, and room not used in the end costs
        /// address space only.
        init(slotBound: Int = 0) { self.slotBound = slotBound }

        /// What a word adds for each contact that has it: its id, and the ids of its one- and
        /// two-byte starts (``Builder/noStart`` for a start it has none of, see
        /// ``NameIndex/prefixCode(of:length:)``).
        struct WordEntry {
            var word: UInt32
            var starts: (UInt32, UInt32)
        }

        /// The start id of a ``WordEntry`` without that start.
        static let noStart = UInt32.max

        /// The entry of a word, giving the word and its starts ids when they have none yet.
        mutating func entry(for word: UnsafeBufferPointer<UInt8>) -> WordEntry {
            let (id, inserted) = index.words.findOrInsert(word)
            if inserted { index.unsortedWords.append(id) }
            var starts = (Self.noStart, Self.noStart)
            if let code = NameIndex.prefixCode(of: word, length: 1) { starts.0 = index.prefixIDCreating(code) }
            if let code = NameIndex.prefixCode(of: word, length: 2) { starts.1 = index.prefixIDCreating(code) }
            return WordEntry(word: id, starts: starts)
        }

        /// Adds a contact's words under a slot above every slot added before.
        package mutating func add(_ slot: ContactSlot, words contactWords: FoldedWords) {
            entries.removeAll(keepingCapacity: true)
            for position in 0..<contactWords.count {
                entries.append(contactWords.withWord(position) { entry(for: $0) })
            }
            add(slot, entries: entries, signature: NameIndex.signature(of: contactWords))
        }

        /// Adds a contact's words, given as their ``entry(for:)``s and the union of their
        /// ``NameIndex/signature(ofStart:)``s, under a slot above every slot added before; a
        /// contact without words adds nothing.
        package mutating func add(_ slot: ContactSlot, entries contactEntries: [WordEntry], signature: UInt32) {
            guard !contactEntries.isEmpty else { return }
            precondition(Int(slot) > lastSlot, "a bulk build takes slots in ascending order")
            precondition(!startsTaken, "a contact added after the word starts' pairs were taken")
            lastSlot = Int(slot)
            if !reserved && slotBound > 0 && Int(slot) >= slotBound / 64 {
                reserved = true
                let scale = Double(slotBound) / Double(slot + 1) * 1.125
                wordPairs.reserveCapacity(Int(Double(wordPairs.count) * scale))
                prefixPairs.reserveCapacity(Int(Double(prefixPairs.count) * scale))
            }
            index.addSignature(signature, to: slot)
            for entry in contactEntries {
                wordPairs.append(UInt64(entry.word) << 32 | UInt64(slot))
                if entry.starts.0 != Self.noStart { prefixPairs.append(UInt64(entry.starts.0) << 32 | UInt64(slot)) }
                if entry.starts.1 != Self.noStart { prefixPairs.append(UInt64(entry.starts.1) << 32 | UInt64(slot)) }
            }
        }

        /// The word starts' (id, slot) pairs of a build, taken out of it so that another thread
        /// can make them into the index's word-start postings (``postings()``) while
        /// ``Builder/finish()`` makes the rest: otherwise the build's last part would run on its
        /// name thread alone while the other thread waited.
        struct StartPairs: Sendable {
            /// The number of word starts.
            let keyCount: Int
            /// `id << 32 | slot`, in the order the contacts came.
            let pairs: [UInt64]

            /// The word-start postings, prepared for queries, for ``NameIndex/adoptStartPostings(_:)``.
            func postings() -> SlotPostings {
                var postings = SlotPostings(keyCount: keyCount, pairs: pairs)
                postings.trimExcessCapacity()
                return postings
            }
        }

        /// Takes the word starts' pairs out of the build, once every contact is added: the index
        /// ``finish()`` then gives finds no contact by a word start until it adopts their
        /// postings (``NameIndex/adoptStartPostings(_:)``).
        mutating func takeStartPairs() -> StartPairs {
            precondition(!startsTaken, "the word starts' pairs were taken already")
            startsTaken = true
            defer { prefixPairs = [] }
            return StartPairs(keyCount: index.prefixSlots.keyCount, pairs: prefixPairs)
        }

        /// The index of the contacts added (without the postings of its word starts if
        /// ``takeStartPairs()`` took their pairs).
        package consuming func finish() -> NameIndex {
            var built = index
            built.wordSlots = SlotPostings(keyCount: built.words.count, pairs: wordPairs)
            wordPairs = []
            if !startsTaken {
                built.prefixSlots = SlotPostings(keyCount: built.prefixSlots.keyCount, pairs: prefixPairs)
                prefixPairs = []
            }
            for id in 0..<UInt32(built.words.count)
            where built.wordSlots.count(of: id) >= NameIndex.signedListSlotsMin {
                built.signedLists[id] = SignedSlotList(slots: built.wordSlots.slots(of: id)) {
                    built.startSignatures[Int($0)]
                }
            }
            return built
        }
    }
}

// MARK: Snapshots

extension NameIndex {
    /// Writes the index as it is.
    func encode(into writer: inout SnapshotWriter) {
        words.encode(into: &writer)
        wordSlots.encode(into: &writer)
        writer.array(asciiPrefixIDs)
        writer.varint(otherPrefixIDs.count)
        for (code, id) in otherPrefixIDs.sorted(by: { $0.key < $1.key }) {
            writer.varint(UInt64(code))
            writer.varint(UInt64(id))
        }
        prefixSlots.encode(into: &writer)
        writer.array(sortedWords)
        writer.array(recentWords)
        writer.array(unsortedWords)
        writer.varint(deadWords)
        writer.array(startSignatures)
        writer.varint(signedLists.count)
        for (id, list) in signedLists.sorted(by: { $0.key < $1.key }) {
            writer.varint(UInt64(id))
            list.encode(into: &writer)
        }
    }

    /// Restores an index written by ``encode(into:)``.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        words = try ByteStringTable(from: &reader)
        wordSlots = try SlotPostings(from: &reader)
        asciiPrefixIDs = try reader.array()
        let otherCount = try reader.count()
        for _ in 0..<otherCount {
            let code = try reader.varint()
            let id = try reader.varint()
            try reader.check(code <= UInt32.max && id <= UInt32.max, "a word start is out of range")
            otherPrefixIDs[UInt32(code)] = UInt32(id)
        }
        prefixSlots = try SlotPostings(from: &reader)
        sortedWords = try reader.array()
        recentWords = try reader.array()
        unsortedWords = try reader.array()
        deadWords = try reader.count(atMost: words.count)
        startSignatures = try reader.growableArray()
        try reader.check(startSignatures.count <= Int(SearchIndexes.slotLimit), "too many slot signatures")
        let listCount = try reader.count(atMost: words.count)
        for _ in 0..<listCount {
            let id = try reader.varint()
            try reader.check(id < words.count && signedLists[UInt32(id)] == nil, "a signed list names no word")
            let list = try SignedSlotList(from: &reader)
            try reader.check(list.count == wordSlots.count(of: UInt32(id)), "a signed list disagrees with its word")
            signedLists[UInt32(id)] = list
        }
        try reader.check(wordSlots.keyCount == words.count, "the name index's words and slot sets disagree")
        try reader.check(
            asciiPrefixIDs.isEmpty || asciiPrefixIDs.count == 128 + 128 * 128, "the word-start table has the wrong size"
        )
        for id in asciiPrefixIDs {
            try reader.check(Int(id) <= prefixSlots.keyCount, "a word start names no slot set")
        }
        for id in otherPrefixIDs.values {
            try reader.check(Int(id) < prefixSlots.keyCount, "a word start names no slot set")
        }
        let runs = sortedWords.count + recentWords.count + unsortedWords.count
        try reader.check(runs == words.count, "the name index's word runs do not hold every word")
        for run in [sortedWords, recentWords, unsortedWords] {
            for id in run { try reader.check(Int(id) < words.count, "a word run names no word") }
        }
    }
}
