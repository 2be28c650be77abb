import ContactsModel
import LedgerStorage

/// The search indexes a contact store keeps as projections, answering the framework's name,
/// email and phone predicates without scanning the contacts.
///
/// The store gives every contact a dense slot and calls ``insert(_:values:)``,
/// ``update(_:from:to:)`` and ``remove(_:values:)`` as it applies events (live commits and
/// replay alike), then ``prepareForQueries()`` after a replay and after each commit. Queries
/// answer sorted slots without duplicates. The indexes are a value: a copy taken for readers
/// is immutable and can be queried from any number of threads, and nothing is cached behind
/// the value's back.
///
/// ## Name matching (`predicateForContacts(matchingName:)`)
///
/// The query is split into words, and a contact matches when **every** query word is a
/// prefix of **some** word of its name fields; the words may come in any order and two query
/// words may match the same name word ("jo john" finds John Smith). An approximation of
/// Apple's undocumented behaviour.
///
/// - Name fields (the keys ``ContactKeyTable`` marks as searched): name prefix, given, middle,
///   family and previous family name, name suffix, nickname, the phonetic given, middle, family
///   and organization names, and the organization name. The organization counts for every contact, not only for
///   organization contacts as on Apple's platforms, so "appl" finds the people of Apple Inc.
/// - Folding: case, diacritics and width are ignored, as Foundation's
///   `folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive])` does
///   ("José" = "jose", "Ångström" = "angstrom", "ß" = "ss", "ＪＯＨＮ" = "john"), and the
///   letters that have no decomposition but are commonly typed without their stroke fold
///   too: ø → o, ł → l, đ and ð → d, ħ → h, ı → i, ŧ → t, æ → ae, œ → oe, þ → th.
/// - Words: maximal runs of letters, digits and combining marks; whitespace, punctuation
///   (hyphen, apostrophe, period, comma, ...) and symbols separate words, so "Jean-Luc"
///   is "jean" and "luc", and "O'Brien" is "o" and "brien".
/// - Han, Kana and Hangul are written without spaces, so in a run of them every character
///   starts a word of its own: "田中太郎" is found by "田中", "太郎" and "郎".
/// - A query with no words (empty, or only separators) matches nothing.
///
/// ## Email matching (`predicateForContacts(matchingEmailAddress:)`)
///
/// The whole address is compared, without surrounding whitespace, ignoring case (Unicode case
/// folding) and up to canonical equivalence; there is no prefix or domain matching and no
/// "mailto:" stripping. Diacritics count. An empty query matches nothing.
///
/// ## Phone matching (`predicateForContacts(matching: PhoneNumber)`)
///
/// Only digits are compared (of any script: "٤١٥" is 415), after reducing each number to a
/// country calling code and a national significant number:
///
/// 1. A number is international when it starts with "+", or with an international prefix of
///    the default region ("00"; "011" in NANP; "010" in Japan; "0011" in Australia; "810" in
///    Russia; an unknown region takes "00"). Its calling code is read from the ITU table (1
///    and 7 are one digit, 44 codes are two digits, the rest three); a trunk "0" written after
///    the code of a country that dials one ("+44 (0)20 ...") is dropped.
/// 2. Otherwise it is national, in the default region: its trunk prefix is dropped ("0" in
///    most of Europe and Asia; "1" before ten digits in NANP; "8" before ten digits in Russia
///    and Kazakhstan; "06" in Hungary; none in Italy, Spain, Scandinavia, ...) and the region's
///    calling code is assumed. The default region is the store's
///    ``ContactsUserDefaults/countryCode``; for a region without data (see
///    ``PhoneNumbering/regions``) a leading "0" is dropped and the calling code is unknown.
/// 3. Two numbers match when their national significant numbers are equal and their calling
///    codes are equal or one is unknown. So with "gb" as default, "+44 20 7946 0958",
///    "0044 20 7946 0958" and "020 7946 0958" match each other; with "us",
///    "+1 (415) 555-0100", "1-415-555-0100" and "415-555-0100" do.
/// 4. A number whose national significant number has fewer than three digits matches nothing.
/// 5. A partial number, written without "+", an international prefix or a trunk prefix and of
///    at least seven digits, also matches every number whose national significant number ends
///    with it, whatever its calling code (``slots(endingWithPhoneNumber:numbersOf:)``): with
///    "us", "555-0100" finds "+1 415 555 0100" and "79460958" finds "+44 20 7946 0958";
///    "55-0100", of six digits, finds neither. No index is kept for it: such a query scans the
///    phone index's keys (a few milliseconds a million numbers), so that replay, open and memory
///    pay nothing for a query most address books never see.
///
/// ## Costs
///
/// - A change costs a hash lookup per name word, address and number, and an insertion into
///   each word's sorted slot set; sets of more than 4,096 slots are kept in blocks, so an
///   insertion or removal in the middle moves one block. Slots handed out in increasing
///   order, as during a replay, append.
/// - A name query finds each query word's range of words by binary search; query words of
///   one or two characters ("j", "jo") have their matching contacts precomputed, and cost a
///   copy of the answer. Several query words start from the one matching fewest contacts,
///   keep those of its contacts whose signature of word starts has the other words' bits
///   (read in order beside the slots, for words with many contacts), and check what is left
///   exactly against the others (by galloping, merging or a bitmap, whichever is cheaper).
///   Producing a large answer costs time in proportion to its size.
/// - An email or phone query is one hash lookup.
/// - Memory, at a million contacts with three name words, one and a half addresses and one
///   and a half numbers each: about 180 bytes a contact (70 for names, of which 30 are the
///   signatures, 80 for addresses of about 30 characters, 25 for numbers).
package struct SearchIndexes: Sendable {
    /// Slots must be below this; the top half of the range is the indexes' bookkeeping.
    package static let slotLimit: ContactSlot = 1 << 31

    /// The region national phone numbers are taken to be in (lowercase ISO 3166-1 alpha-2).
    package let defaultCountryCode: String
    /// The dialling conventions of ``defaultCountryCode``'s region, or of an unknown one.
    private let phoneDialing: PhoneDialing
    private var names = NameIndex()
    private var emails = ExactKeyIndex()
    /// Phone numbers by ``PhoneKey/integerKey``.
    private var phones = IntegerKeyIndex()
    /// The rare phone numbers too long for an integer key, by ``PhoneKey/packed``.
    private var longPhones = ExactKeyIndex()
    /// How many phone keys use each calling code, kept only when the region is unknown:
    /// a national query then matches every calling code.
    private var phoneCallingCodes: [UInt16: Int] = [:]
    /// Buffers the changes reuse, so that indexing a contact allocates nothing once they grew.
    private var scratchWords = FoldedWords()
    private var scratchKey: [UInt8] = []

    /// Creates empty indexes whose phone matching assumes the given default country.
    package init(defaultCountryCode: String = ContactsUserDefaults.shared.countryCode) {
        self.defaultCountryCode = defaultCountryCode.lowercased()
        phoneDialing = PhoneNumbering.dialing(for: defaultCountryCode)
    }

    // MARK: Changes

    /// Indexes a contact's name words, email addresses and phone numbers under its slot.
    ///
    /// Indexing is a set operation: inserting what is already indexed changes nothing.
    package mutating func insert(_ slot: ContactSlot, values: ContactValues) {
        precondition(slot < Self.slotLimit, "slot \(slot) is beyond the search index's limit")
        scratchWords.removeAll()
        SearchFolding.appendNameWords(of: values, to: &scratchWords)
        names.insert(slot, words: scratchWords)
        for address in values[labeledStrings: .emailAddresses]
        where SearchFolding.foldEmail(address.value, into: &scratchKey) {
            emails.insert(slot, key: scratchKey)
        }
        for number in values[phoneNumbers: .phoneNumbers] {
            let text = number.value.stringValue
            if let (key, code) = PhoneNumbering.storedKey(for: text, dialing: phoneDialing, packed: &scratchKey) {
                insertPhone(slot, key: key, callingCode: code)
            }
        }
    }

    /// Removes a contact; `values` must be what was indexed for the slot.
    package mutating func remove(_ slot: ContactSlot, values: ContactValues) {
        scratchWords.removeAll()
        SearchFolding.appendNameWords(of: values, to: &scratchWords)
        names.remove(slot, words: scratchWords)
        for address in values[labeledStrings: .emailAddresses]
        where SearchFolding.foldEmail(address.value, into: &scratchKey) {
            emails.remove(slot, key: scratchKey)
        }
        for number in values[phoneNumbers: .phoneNumbers] {
            let text = number.value.stringValue
            if let (key, code) = PhoneNumbering.storedKey(for: text, dialing: phoneDialing, packed: &scratchKey) {
                removePhone(slot, key: key, callingCode: code)
            }
        }
    }

    /// One change to the indexes, recorded while a projection's contacts change and applied
    /// afterwards with ``apply(_:)`` (a store's finish, decision 0014).
    package enum Change: Sendable {
        /// ``insert(_:values:)``.
        case insert(ContactSlot, ContactValues)
        /// ``update(_:from:to:)``.
        case update(ContactSlot, old: ContactValues, new: ContactValues)
        /// ``remove(_:values:)``.
        case remove(ContactSlot, ContactValues)
    }

    /// Applies one change.
    package mutating func apply(_ change: Change) {
        switch change {
        case .insert(let slot, let values): insert(slot, values: values)
        case .update(let slot, let old, let new): update(slot, from: old, to: new)
        case .remove(let slot, let values): remove(slot, values: values)
        }
    }

    /// Applies recorded changes in their order (a slot freed by one may be reused by a later one).
    package mutating func apply(_ changes: [Change]) {
        for change in changes { apply(change) }
    }

    /// Re-indexes a changed contact; fields that did not change cost a comparison, and of
    /// those that did, only the words, addresses and numbers that differ are touched.
    package mutating func update(_ slot: ContactSlot, from old: ContactValues, to new: ContactValues) {
        precondition(slot < Self.slotLimit, "slot \(slot) is beyond the search index's limit")
        if !SearchFolding.sameNameFields(old, new) {
            names.update(slot, from: SearchFolding.nameWords(of: old), to: SearchFolding.nameWords(of: new))
        }
        if !old.emailAddresses.elementsEqual(new.emailAddresses, by: { $0.value == $1.value }) {
            let before = emailKeys(of: old)
            let after = emailKeys(of: new)
            for key in before where !after.contains(key) { emails.remove(slot, key: key) }
            for key in after where !before.contains(key) { emails.insert(slot, key: key) }
        }
        if !old.phoneNumbers.elementsEqual(new.phoneNumbers, by: { $0.value == $1.value }) {
            let before = phoneKeys(of: old)
            let after = phoneKeys(of: new)
            for key in before where !after.contains(key) { removePhone(slot, key) }
            for key in after where !before.contains(key) { insertPhone(slot, key) }
        }
    }

    /// The name part of the bulk build (decision 0009): the name index of contacts given field
    /// by field, as ``ContactCodec/forEachIndexedField(in:_:)`` reads them from their encoded
    /// Contact messages, in ascending slot order; made on a thread of its own and taken by
    /// ``adoptNames(_:)``.
    struct NameBuild {
        private var builder: NameIndex.Builder
        private var memo: NameFieldMemo<NameIndex.Builder.WordEntry>
        private var fieldWords = FoldedWords()
        /// The words of the contact being added, and the union of their start signatures.
        private var entries: [NameIndex.Builder.WordEntry] = []
        private var signature: UInt32 = 0

        /// A build with no contacts yet, of contacts in slots below `slotBound` (0 if not known;
        /// see ``NameIndex/Builder/init(slotBound:)``), remembering name fields in `memo`.
        init(slotBound: Int = 0, memo: NameFieldMemo<NameIndex.Builder.WordEntry> = NameFieldMemo()) {
            builder = NameIndex.Builder(slotBound: slotBound)
            self.memo = memo
        }

        /// Adds the words of a name field (its UTF-8 bytes) of the contact being added. A field
        /// met lately is not folded again (``NameFieldMemo``): words are folded field by field,
        /// so a contact's words are its fields' words one after another either way.
        mutating func addNameField(_ utf8: UnsafeBufferPointer<UInt8>) {
            let hash = ByteStringTable.hash(utf8)
            if let known = memo.lookUp(utf8, hash: hash, appendingTo: &entries) {
                signature |= known
                return
            }
            fieldWords.removeAll()
            SearchFolding.appendWords(ofUTF8: utf8, to: &fieldWords)
            let start = entries.count
            for position in 0..<fieldWords.count {
                entries.append(fieldWords.withWord(position) { builder.entry(for: $0) })
            }
            let fieldSignature = NameIndex.signature(of: fieldWords)
            memo.remember(utf8, hash: hash, entries: entries[start...], signature: fieldSignature)
            signature |= fieldSignature
        }

        /// Ends the contact whose name fields were added, under a slot above every slot ended
        /// before.
        mutating func endContact(_ slot: ContactSlot) {
            precondition(slot < SearchIndexes.slotLimit, "slot \(slot) is beyond the search index's limit")
            builder.add(slot, entries: entries, signature: signature)
            entries.removeAll(keepingCapacity: true)
            signature = 0
        }

        /// Takes the word starts' pairs out of the build (``NameIndex/Builder/takeStartPairs()``).
        mutating func takeStartPairs() -> NameIndex.Builder.StartPairs { builder.takeStartPairs() }

        /// The name index of the contacts added (without the postings of its word starts if
        /// ``takeStartPairs()`` took their pairs).
        package consuming func finish() -> NameIndex { builder.finish() }
    }

    /// Where email addresses and phone numbers lie in the contact arena, as contacts' encoded
    /// messages hold them (UTF-8, not yet folded or keyed), with their slots, in the order read:
    /// what the bulk build's name thread, which walks the contacts, hands in batches to the
    /// thread that folds, keys and inserts them (``AddressBuild/add(_:arena:)``), so that the
    /// contacts are walked once and the fields' bytes are not copied on the way.
    struct FieldQueue {
        fileprivate struct Field {
            package var slot: ContactSlot
            var isEmail: Bool
            /// Where the field's bytes lie in the contact arena.
            var bytes: Range<Int>
        }

        fileprivate var fields: [Field] = []
        /// The contacts whose fields were read.
        private(set) var contacts = 0

        /// The fewest contacts a queue must hold to serve as a sample for
        /// ``AddressBuild/reserve(forContacts:like:)``.
        static let sampleContactsMin = 1024

        /// An empty queue.
        init() {}

        /// Keeps where an email address or phone number (its UTF-8 bytes) of the contact in
        /// `slot`, which is being read, lies in the contact arena: the fields are read from there
        /// rather than copied, the arena being left unchanged while the indexes are built; a name
        /// field is ignored.
        package mutating func read(_ slot: ContactSlot, field: ContactCodec.IndexedField, arenaBytes: Range<Int>) {
            if field == .name { return }
            fields.append(Field(slot: slot, isEmail: field == .email, bytes: arenaBytes))
        }

        /// Ends the contact whose fields were read; contacts end in ascending slot order.
        mutating func endContact() { contacts += 1 }

        /// Empties the queue, keeping its storage when no copy shares it.
        mutating func removeAll() {
            fields.removeAll(keepingCapacity: true)
            contacts = 0
        }
    }

    /// Email addresses and phone numbers read from contacts, folded and keyed, with their slots,
    /// in the order read: what an ``AddressBuild`` inserts.
    struct KeyQueue {
        fileprivate struct Key {
            enum Kind { case email, integerPhone, packedPhone }
            package var slot: ContactSlot
            var kind: Kind
            /// The integer key of an integer phone key, else the bytes' ``ByteStringTable/hash(_:)``.
            var key: UInt64
            var callingCode: UInt16
            /// Where the bytes of an email address or packed phone key lie in `bytes`.
            var bytes: Range<Int>
        }

        fileprivate var keys: [Key] = []
        /// The bytes of the email addresses and packed phone keys, back to back.
        fileprivate var bytes: [UInt8] = []
        private var scratch: [UInt8] = []
        private let phoneDialing: PhoneDialing
        /// The contacts whose fields were read.
        private(set) var contacts = 0

        /// An empty queue, keying phone numbers under `dialing`, as the indexes it fills do.
        init(dialing: PhoneDialing) { phoneDialing = dialing }

        /// Reads an email address or phone number (its UTF-8 bytes) of the contact in `slot`,
        /// which is being read; a name field is ignored.
        package mutating func read(
            _ slot: ContactSlot, field: ContactCodec.IndexedField, utf8: UnsafeBufferPointer<UInt8>
        ) {
            precondition(slot < SearchIndexes.slotLimit, "slot \(slot) is beyond the search index's limit")
            switch field {
            case .name: break
            case .email:
                if SearchFolding.foldEmail(utf8: utf8, into: &scratch) { appendScratch(slot, .email, callingCode: 0) }
            case .phone:
                switch PhoneNumbering.storedKey(forUTF8: utf8, dialing: phoneDialing, packed: &scratch) {
                case (.integer(let key), let code)?:
                    keys.append(Key(slot: slot, kind: .integerPhone, key: key, callingCode: code, bytes: 0..<0))
                case (.packed, let code)?: appendScratch(slot, .packedPhone, callingCode: code)
                case nil: break
                }
            }
        }

        /// Ends the contact whose fields were read; contacts end in ascending slot order.
        mutating func endContact() { contacts += 1 }

        /// Empties the queue, keeping its storage when no copy shares it.
        mutating func removeAll() {
            keys.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            contacts = 0
        }

        private mutating func appendScratch(_ slot: ContactSlot, _ kind: Key.Kind, callingCode: UInt16) {
            let start = bytes.count
            // Through a buffer pointer: appending the array itself retained and released it.
            let hash = scratch.withUnsafeBufferPointer { scratch in
                bytes.append(contentsOf: scratch)
                return ByteStringTable.hash(scratch)
            }
            keys.append(Key(slot: slot, kind: kind, key: hash, callingCode: callingCode, bytes: start..<bytes.count))
        }
    }

    /// The email and phone part of the bulk build: the address and number indexes of contacts
    /// given a queue of fields at a time (``FieldQueue``), as the name thread read them with
    /// ``ContactCodec/forEachIndexedField(in:_:)``, in ascending slot order, into indexes that
    /// hold none.
    ///
    /// At a million contacts the tables' buckets are far bigger than the caches, so each key's
    /// insertion waited for memory. The build reads and folds the keys of a few dozen contacts
    /// first, then inserts them in the same order, asking the processor for the bucket of the key
    /// a few keys on before each (a prefetch): the result is the one inserting contact by
    /// contact gives.
    struct AddressBuild {
        private var indexes: SearchIndexes
        /// Keys read and not yet inserted.
        private var queue: KeyQueue
        /// The contacts whose keys are read before the first of them is inserted.
        private static let contactsAhead = 32
        /// How many keys ahead of the one it inserts ``insert(_:)`` asks for a bucket.
        private static let keysAhead = 12

        /// A build into `indexes`, which must hold no addresses or numbers.
        init(into indexes: consuming SearchIndexes) {
            queue = KeyQueue(dialing: indexes.phoneDialing)
            self.indexes = indexes
        }

        /// Reads an email address or phone number (its UTF-8 bytes) of the contact in `slot`,
        /// which is being added; a name field is ignored.
        private mutating func add(
            _ slot: ContactSlot, field: ContactCodec.IndexedField, utf8: UnsafeBufferPointer<UInt8>
        ) {
            queue.read(slot, field: field, utf8: utf8)
        }

        /// Ends the contact whose fields were read; contacts end in ascending slot order.
        private mutating func endContact() {
            queue.endContact()
            if queue.contacts >= Self.contactsAhead {
                insert(queue)
                queue.removeAll()
            }
        }

        /// Makes room in the email and phone indexes for the keys of `contacts` contacts like
        /// those of `sample` (a queue of at least ``FieldQueue/sampleContactsMin`` contacts;
        /// a smaller one is not taken as a sample), so that they do not copy and rehash their
        /// tables at every doubling. The estimate has a sixteenth added, half the room
        /// ``SearchIndexes/prepareForQueries()`` leaves for growth: one off by up to a sixteenth
        /// either way neither grows the tables nor leaves room for that to copy away. It is
        /// bounded as the contact arena's reservation is (``ContactTable/arenaReservationMax``),
        /// so that a sample unlike the rest cannot ask for more than that.
        mutating func reserve(forContacts contacts: Int, like sample: FieldQueue) {
            guard sample.contacts >= FieldQueue.sampleContactsMin, contacts > sample.contacts else { return }
            var emails = 0
            var emailBytes = 0
            var phones = 0
            for field in sample.fields {
                if field.isEmail {
                    emails += 1
                    emailBytes += field.bytes.count
                } else {
                    phones += 1
                }
            }
            // Bytes, and keys at the sixteen bytes or so each costs in its table.
            func scaled(_ value: Int, bound: Int) -> Int {
                let estimate = Double(value) * Double(contacts) / Double(sample.contacts) * 1.0625
                return Int(min(estimate, Double(bound)))
            }
            let bound = ContactTable.arenaReservationMax
            indexes.emails.reserveCapacity(
                keys: scaled(emails, bound: bound / 16), bytes: scaled(emailBytes, bound: bound))
            indexes.phones.reserveCapacity(keys: scaled(phones, bound: bound / 16))
        }

        /// Adds the email addresses and phone numbers of a queue of contacts above every contact
        /// added before, as ``add(_:field:utf8:)`` and ``endContact()`` would one by one; the
        /// fields' bytes lie in `arena`, the contact arena they were read from.
        package mutating func add(_ fields: FieldQueue, arena bytes: UnsafeBufferPointer<UInt8>) {
            var index = 0
            while index < fields.fields.count {
                let slot = fields.fields[index].slot
                repeat {
                    let field = fields.fields[index]
                    add(
                        slot, field: field.isEmail ? .email : .phone,
                        utf8: UnsafeBufferPointer(rebasing: bytes[field.bytes]))
                    index += 1
                } while index < fields.fields.count && fields.fields[index].slot == slot
                endContact()
            }
        }

        /// The indexes, with every contact added.
        package consuming func finish() -> SearchIndexes {
            insert(queue)
            return indexes
        }

        /// Inserts keys read from contacts above every contact inserted before, in order, into
        /// indexes that do not hold them yet.
        private mutating func insert(_ queue: KeyQueue) {
            let keys = queue.keys
            queue.bytes.withUnsafeBufferPointer { bytes in
                for index in keys.indices {
                    if index + Self.keysAhead < keys.count { prefetchBucket(of: keys[index + Self.keysAhead]) }
                    let key = keys[index]
                    switch key.kind {
                    case .email:
                        indexes.emails.insert(
                            key.slot, key: UnsafeBufferPointer(rebasing: bytes[key.bytes]), hash: key.key)
                    case .integerPhone:
                        indexes.insertPhone(key.slot, key: .integer(key.key), callingCode: key.callingCode)
                    case .packedPhone:
                        indexes.scratchKey.removeAll(keepingCapacity: true)
                        indexes.scratchKey.append(contentsOf: bytes[key.bytes])
                        indexes.insertPhone(key.slot, key: .packed, callingCode: key.callingCode)
                    }
                }
            }
        }

        private func prefetchBucket(of key: KeyQueue.Key) {
            switch key.kind {
            case .email: indexes.emails.prefetch(hash: key.key)
            case .integerPhone: indexes.phones.prefetch(key: key.key)
            case .packedPhone: indexes.longPhones.prefetch(hash: key.key)
            }
        }
    }

    /// Takes a name index built for the same slots by a ``NameBuild`` in place of this one's.
    mutating func adoptNames(_ built: consuming NameIndex) {
        names = built
    }

    /// Puts the words added since the last call in order, so that name queries binary search
    /// them instead of scanning, and gives back memory that growth left unused; the store
    /// calls it after a replay and after each commit. Queries are correct without it, only
    /// slower. Usually quick; after a large growth it copies the grown arrays once.
    package mutating func prepareForQueries() {
        names.prepareForQueries()
        prepareAddressesForQueries()
    }

    /// The part of ``prepareForQueries()`` that is not the name index's: gives back memory that
    /// growth left unused in the email and phone indexes. A bulk build calls it while its name
    /// thread prepares the name index (``NameIndex/prepareForQueries()``).
    mutating func prepareAddressesForQueries() {
        emails.trimExcessCapacity()
        phones.trimExcessCapacity()
    }

    /// Whether changes since the last ``prepareForQueries()`` left work for it.
    package var needsPreparation: Bool { names.needsPreparation }

    // MARK: Queries

    /// The slots of the contacts whose name matches the query (see the type's documentation),
    /// sorted ascending, without duplicates.
    package func slots(matchingName query: String) -> [ContactSlot] {
        names.slots(matching: SearchFolding.queryWords(query))
    }

    /// The slots of the contacts with the email address (see the type's documentation),
    /// sorted ascending, without duplicates; `candidate` is given the slot of the one contact
    /// of an address the index is about to confirm (``ExactKeyIndex/slots(of:candidate:)``).
    package func slots(
        matchingEmailAddress query: String, candidate: (ContactSlot) -> Void = { _ in }
    ) -> [ContactSlot] {
        guard let key = SearchFolding.foldedEmail(query) else { return [] }
        return emails.slots(of: key, candidate: candidate)
    }

    /// The slots of the contacts with a phone number matching the query (see the type's
    /// documentation), sorted ascending, without duplicates.
    package func slots(matchingPhoneNumber query: String) -> [ContactSlot] {
        guard let key = PhoneNumbering.key(for: query, dialing: phoneDialing) else { return [] }
        if phoneDialing.isKnown {
            // Every number has a calling code: the key is looked up as it is.
            return phoneSlots(of: key)
        }
        let codes = key.callingCode == 0 ? Array(phoneCallingCodes.keys) : [key.callingCode, 0]
        var found: [ContactSlot] = []
        for code in codes {
            let variant = PhoneKey(callingCode: code, nationalNumber: key.nationalNumber)
            found.append(contentsOf: phoneSlots(of: variant))
        }
        found.sort()
        SlotSetAlgebra.removeDuplicates(fromSorted: &found)
        return found
    }

    /// The slots of the contacts with a phone number matching the query, whole
    /// (``slots(matchingPhoneNumber:)``) or, for a partial number, by its end
    /// (``slots(endingWithPhoneNumber:numbersOf:)``), sorted ascending, without duplicates.
    package func slots(matchingPhoneNumber query: String, numbersOf: (ContactSlot) -> [String]) -> [ContactSlot] {
        let whole = slots(matchingPhoneNumber: query)
        let ending = slots(endingWithPhoneNumber: query, numbersOf: numbersOf)
        guard !ending.isEmpty else { return whole }
        var found = whole + ending
        found.sort()
        SlotSetAlgebra.removeDuplicates(fromSorted: &found)
        return found
    }

    /// The slots of the contacts with a phone number whose national significant number ends
    /// with a partial number (rule 5 of the type's documentation), sorted ascending, without
    /// duplicates; empty for a query that is not a partial number. A scan of the phone keys
    /// narrows the contacts to those with a number of the same last seven digits; `numbersOf`
    /// gives a slot's numbers, to check the rest of a longer query.
    package func slots(
        endingWithPhoneNumber query: String, numbersOf: (ContactSlot) -> [String]
    ) -> [ContactSlot] {
        guard let digits = PhoneNumbering.partialDigits(of: query, dialing: phoneDialing) else { return [] }
        let ending = PhoneNumbering.endingKey(ofDigits: digits)
        var candidates =
            phones.slots(ofKeysWhere: { PhoneNumbering.endingKey(ofIntegerKey: $0) == ending })
            + longPhones.slots(ofKeysWhere: { PhoneNumbering.endingKey(ofPacked: $0) == ending })
        candidates.sort()
        SlotSetAlgebra.removeDuplicates(fromSorted: &candidates)
        guard digits.count > PhoneNumbering.partialDigitsMin else { return candidates }
        return candidates.filter { slot in
            numbersOf(slot).contains { number in
                PhoneNumbering.key(for: number, dialing: phoneDialing)?.nationalNumber.reversed().starts(
                    with: digits.reversed()) == true
            }
        }
    }

    /// Roughly the bytes the indexes hold, for the benchmark's memory report.
    package var estimatedBytes: Int {
        let parts = estimatedBytesByIndex
        return parts.names + parts.emails + parts.phones
    }

    /// ``estimatedBytes`` by index.
    package var estimatedBytesByIndex: (names: Int, emails: Int, phones: Int) {
        (
            names.estimatedBytes, emails.estimatedBytes,
            phones.estimatedBytes + longPhones.estimatedBytes + phoneCallingCodes.capacity * 16
        )
    }

    /// Checks the indexes' internal consistency; for tests, and slow.
    func checkInvariants() {
        names.checkInvariants()
        emails.checkInvariants()
        phones.checkInvariants()
        longPhones.checkInvariants()
    }

    // MARK: Keys

    private func emailKeys(of values: ContactValues) -> [[UInt8]] {
        values[labeledStrings: .emailAddresses].compactMap { SearchFolding.foldedEmail($0.value) }
    }

    private func phoneKeys(of values: ContactValues) -> [PhoneKey] {
        values[phoneNumbers: .phoneNumbers].compactMap {
            PhoneNumbering.key(for: $0.value.stringValue, dialing: phoneDialing)
        }
    }

    private func phoneSlots(of key: PhoneKey) -> [ContactSlot] {
        if let integer = key.integerKey { return phones.slots(of: integer) }
        return longPhones.slots(of: key.packed)
    }

    private mutating func insertPhone(_ slot: ContactSlot, _ key: PhoneKey) {
        if let integer = key.integerKey {
            insertPhone(slot, key: .integer(integer), callingCode: key.callingCode)
        } else {
            scratchKey = key.packed
            insertPhone(slot, key: .packed, callingCode: key.callingCode)
        }
    }

    private mutating func removePhone(_ slot: ContactSlot, _ key: PhoneKey) {
        if let integer = key.integerKey {
            removePhone(slot, key: .integer(integer), callingCode: key.callingCode)
        } else {
            scratchKey = key.packed
            removePhone(slot, key: .packed, callingCode: key.callingCode)
        }
    }

    /// Adds a phone key; a `.packed` key is in ``scratchKey``.
    private mutating func insertPhone(_ slot: ContactSlot, key: PhoneNumbering.StoredPhoneKey, callingCode: UInt16) {
        if !phoneDialing.isKnown, !hasPhone(slot, key: key) {
            phoneCallingCodes[callingCode, default: 0] += 1
        }
        switch key {
        case .integer(let integer): phones.insert(slot, key: integer)
        case .packed: longPhones.insert(slot, key: scratchKey)
        }
    }

    /// Removes a phone key; a `.packed` key is in ``scratchKey``.
    private mutating func removePhone(_ slot: ContactSlot, key: PhoneNumbering.StoredPhoneKey, callingCode: UInt16) {
        if !phoneDialing.isKnown, hasPhone(slot, key: key) {
            phoneCallingCodes[callingCode, default: 0] -= 1
            if phoneCallingCodes[callingCode] == 0 { phoneCallingCodes[callingCode] = nil }
        }
        switch key {
        case .integer(let integer): phones.remove(slot, key: integer)
        case .packed: longPhones.remove(slot, key: scratchKey)
        }
    }

    private func hasPhone(_ slot: ContactSlot, key: PhoneNumbering.StoredPhoneKey) -> Bool {
        switch key {
        case .integer(let integer): phones.contains(slot, key: integer)
        case .packed: longPhones.contains(slot, key: scratchKey)
        }
    }
}

// MARK: Snapshots

extension SearchIndexes {
    /// Writes the indexes as they are (decision 0006), so that restoring them copies arrays
    /// instead of folding and indexing every contact again.
    func encode(into writer: inout SnapshotWriter) {
        writer.string(defaultCountryCode)
        names.encode(into: &writer)
        emails.encode(into: &writer)
        phones.encode(into: &writer)
        longPhones.encode(into: &writer)
        writer.varint(phoneCallingCodes.count)
        for (code, count) in phoneCallingCodes.sorted(by: { $0.key < $1.key }) {
            writer.varint(UInt64(code))
            writer.varint(count)
        }
    }

    /// The default country code the indexes in `reader` were built for, without consuming anything.
    static func countryCode(in reader: borrowing SnapshotReader) throws(SnapshotDecodingError) -> String {
        var copy = reader.copy()
        return try copy.string()
    }

    /// Restores indexes written by ``encode(into:)``.
    init(from reader: inout SnapshotReader) throws(SnapshotDecodingError) {
        self.init(defaultCountryCode: try reader.string())
        names = try NameIndex(from: &reader)
        emails = try ExactKeyIndex(from: &reader)
        phones = try IntegerKeyIndex(from: &reader)
        longPhones = try ExactKeyIndex(from: &reader)
        let codes = try reader.count()
        for _ in 0..<codes {
            let code = try reader.varint()
            try reader.check(code <= UInt16.max, "a calling code is out of range")
            phoneCallingCodes[UInt16(code)] = try reader.count(atMost: Int.max)
        }
    }
}
