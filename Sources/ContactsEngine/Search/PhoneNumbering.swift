import ContactsModel
import LedgerStorage

/// The dialling conventions of a region, as far as matching a national number with its
/// international form needs them.
///
/// Keying a number reads the same conventions as plain values, ``dialing``.
final class PhoneRegion: Sendable, Hashable {
    /// The ITU country calling code, such as 44.
    let callingCode: UInt16
    /// The national (trunk) prefix dialled before a national number, such as "0"; empty
    /// where numbers are dialled the same way at home and from abroad.
    let trunkPrefix: String
    /// The prefixes dialled before an international number, longest first.
    let internationalPrefixes: [String]
    /// The conventions as plain values, for keying numbers (``PhoneDialing``).
    let dialing: PhoneDialing

    /// Creates a region's conventions.
    init(callingCode: UInt16, trunkPrefix: String, internationalPrefixes: [String]) {
        self.callingCode = callingCode
        self.trunkPrefix = trunkPrefix
        self.internationalPrefixes = internationalPrefixes
        dialing = PhoneDialing(
            callingCode: callingCode, trunkPrefix: Array(trunkPrefix.utf8),
            internationalPrefixes: internationalPrefixes.map { Array($0.utf8) })
    }

    static func == (left: PhoneRegion, right: PhoneRegion) -> Bool {
        left.callingCode == right.callingCode && left.trunkPrefix == right.trunkPrefix
            && left.internationalPrefixes == right.internationalPrefixes
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(callingCode)
        hasher.combine(trunkPrefix)
        hasher.combine(internationalPrefixes)
    }
}

/// A region's dialling conventions as plain values, which keying a number reads: no arrays and
/// no class, so that the indexes' inserts, a million of them in a bulk build, count no
/// references (passing a ``PhoneRegion`` and reading its arrays had cost the build's address
/// thread about a sixth of its time in retains and releases). ``unknown`` stands for no region.
struct PhoneDialing: Sendable {
    /// A prefix of at most four ASCII digits, the first in the lowest byte.
    struct Prefix: Sendable {
        private var packed: UInt32 = 0
        /// The prefix's digits.
        private(set) var count = 0

        /// The prefix of `bytes`, at most four.
        init(_ bytes: [UInt8]) {
            precondition(bytes.count <= 4, "a dialling prefix of more than four digits")
            for (offset, byte) in bytes.enumerated() { packed |= UInt32(byte) << (8 * offset) }
            count = bytes.count
        }

        /// The first digit (0 for an empty prefix).
        var firstDigit: UInt8 { UInt8(truncatingIfNeeded: packed) }

        /// Whether `digits` hold this prefix from `start` on.
        func isPrefix(of digits: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
            guard digits.count - start >= count else { return false }
            for offset in 0..<count where digits[start + offset] != UInt8(truncatingIfNeeded: packed >> (8 * offset)) {
                return false
            }
            return true
        }
    }

    /// The most international prefixes a region has (South Korea's six).
    static let internationalPrefixesMax = 6

    /// Whether a region is known; ``unknown`` is not.
    let isKnown: Bool
    /// The region's calling code (0 for ``unknown``).
    let callingCode: UInt16
    /// The trunk prefix (none for ``unknown``).
    let trunkPrefix: Prefix
    /// The international prefixes, longest first: the first `internationalPrefixCount` (the
    /// array's size is ``internationalPrefixesMax``).
    private let internationalPrefixes: InlineArray<6, Prefix>
    private let internationalPrefixCount: Int

    /// A known region's conventions.
    init(callingCode: UInt16, trunkPrefix: [UInt8], internationalPrefixes: [[UInt8]]) {
        self.init(
            isKnown: true, callingCode: callingCode, trunkPrefix: trunkPrefix,
            internationalPrefixes: internationalPrefixes)
    }

    private init(isKnown: Bool, callingCode: UInt16, trunkPrefix: [UInt8], internationalPrefixes: [[UInt8]]) {
        precondition(internationalPrefixes.count <= Self.internationalPrefixesMax, "too many international prefixes")
        self.isKnown = isKnown
        self.callingCode = callingCode
        self.trunkPrefix = Prefix(trunkPrefix)
        var prefixes = InlineArray<6, Prefix>(repeating: Prefix([]))
        for (index, prefix) in internationalPrefixes.enumerated() { prefixes[index] = Prefix(prefix) }
        self.internationalPrefixes = prefixes
        internationalPrefixCount = internationalPrefixes.count
    }

    /// No region: "00" is taken as the international prefix, and a leading 0 as the trunk
    /// prefix most of the world uses (``PhoneNumbering/reduce(_:international:dialing:)``).
    static let unknown = PhoneDialing(
        isKnown: false, callingCode: 0, trunkPrefix: [], internationalPrefixes: [[0x30, 0x30]])

    /// The length of the first international prefix that `digits` start with, or nil.
    func internationalPrefixLength(of digits: UnsafeBufferPointer<UInt8>) -> Int? {
        for index in 0..<internationalPrefixCount where internationalPrefixes[index].isPrefix(of: digits, at: 0) {
            return internationalPrefixes[index].count
        }
        return nil
    }
}

/// A phone number reduced to what matching compares: the country calling code (0 when the
/// number is national and the index's region is unknown) and the national significant number.
struct PhoneKey: Sendable, Hashable, CustomStringConvertible {
    /// The country calling code, or 0 for unknown.
    var callingCode: UInt16
    /// The national significant number, as ASCII digits.
    var nationalNumber: [UInt8]

    /// Whether two keys denote the same number under the documented rule: the national
    /// significant numbers are equal and the calling codes are equal or one is unknown.
    func matches(_ other: PhoneKey) -> Bool {
        nationalNumber == other.nationalNumber
            && (callingCode == other.callingCode || callingCode == 0 || other.callingCode == 0)
    }

    /// The key as the phone index stores it: the calling code in two bytes, then the national
    /// number two digits to a byte, an odd last digit padded with 0xF.
    var packed: [UInt8] {
        var bytes: [UInt8] = []
        nationalNumber.withUnsafeBufferPointer {
            Self.pack(callingCode: callingCode, national: $0[...], into: &bytes)
        }
        return bytes
    }

    /// The key as a 64-bit integer, for the numbers that fit (a national number of at most
    /// ``integerKeyDigitsMax`` digits, which every valid E.164 number has): a 1 followed by
    /// the national number's digits, read as a decimal number, shifted up by ten bits, plus
    /// the calling code. Never zero.
    var integerKey: UInt64? {
        nationalNumber.withUnsafeBufferPointer { Self.integerKey(callingCode: callingCode, national: $0[...]) }
    }

    /// The longest national number ``integerKey`` holds: 10^15 with its leading 1 needs 51
    /// bits, and the calling code ten more.
    static let integerKeyDigitsMax = 15

    /// ``integerKey`` for a calling code and national number.
    static func integerKey(callingCode: UInt16, national: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        guard national.count <= integerKeyDigitsMax else { return nil }
        var value: UInt64 = 1
        for digit in national { value = value * 10 + UInt64(digit &- 0x30) }
        return value << 10 | UInt64(callingCode)
    }

    /// Replaces `bytes` with the packed form of a calling code and national number.
    static func pack(
        callingCode: UInt16, national: Slice<UnsafeBufferPointer<UInt8>>, into bytes: inout [UInt8]
    ) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(UInt8(callingCode >> 8))
        bytes.append(UInt8(callingCode & 0xFF))
        var index = national.startIndex
        while index < national.endIndex {
            let high = national[index] &- 0x30
            let low = index + 1 < national.endIndex ? national[index + 1] &- 0x30 : 0xF
            bytes.append(high << 4 | low)
            index += 2
        }
    }

    /// "+44 2079460958", or "? 2079460958" when the calling code is unknown.
    var description: String {
        (callingCode == 0 ? "?" : "+\(callingCode)") + " "
            + String(decoding: nationalNumber, as: UTF8.self)
    }
}

/// Reduces phone numbers to ``PhoneKey``s; see ``SearchIndexes`` for the documented rules.
enum PhoneNumbering {
    /// A query or a stored number whose national significant number is shorter than this
    /// matches nothing, so that "1" or "44" does not match half the address book.
    static let nationalNumberDigitsMin = 3

    /// The key of a phone number's text under a region's dialling conventions (``PhoneDialing/unknown``
    /// for none), or nil when it has too few digits to be matched.
    static func key(for text: String, dialing: PhoneDialing) -> PhoneKey? {
        withDigits(of: text) { digits, international in
            reduce(digits, international: international, dialing: dialing).map {
                PhoneKey(callingCode: $0.callingCode, nationalNumber: Array(digits[$0.national]))
            }
        }
    }

    /// Calls `body` with the calling code (0 for unknown) and national significant number (ASCII
    /// digits) of a number's text given as UTF-8 bytes, as ``key(for:dialing:)`` reduces it,
    /// without allocating for ASCII text; nil, without calling it, when the number has too few
    /// digits to be matched.
    static func withKey<Result>(
        forUTF8 utf8: UnsafeBufferPointer<UInt8>, dialing: PhoneDialing,
        _ body: (UInt16, Slice<UnsafeBufferPointer<UInt8>>) -> Result
    ) -> Result? {
        withDigits(ofUTF8: utf8) { digits, international in
            reduce(digits, international: international, dialing: dialing).map {
                body($0.callingCode, digits[$0.national])
            }
        }
    }

    /// The fewest digits a partial number (the end of a number) has to be matched by.
    static let partialDigitsMin = 7

    /// The national significant number of a query that can be the end of a number: written
    /// without "+", an international prefix or a trunk prefix, with at least
    /// ``partialDigitsMin`` digits; nil for any other query.
    static func partialDigits(of text: String, dialing: PhoneDialing) -> [UInt8]? {
        withDigits(of: text) { digits, international in
            // A prefix moves the national number's start past the first digit.
            guard !international, digits.count >= partialDigitsMin,
                let reduced = reduce(digits, international: false, dialing: dialing), reduced.national.lowerBound == 0
            else { return nil }
            return Array(digits)
        }
    }

    /// The key of the phone-endings index for a national number's last ``partialDigitsMin``
    /// digits: nonzero, as the index's keys must be.
    static func endingKey(lastDigits value: UInt64) -> UInt64 { value | 1 << 32 }

    /// ``endingKey(lastDigits:)`` of the national number an integer phone key holds, or nil
    /// when it has fewer than ``partialDigitsMin`` digits.
    static func endingKey(ofIntegerKey key: UInt64) -> UInt64? {
        // The key holds a 1 and then the digits: at least seven digits make it 10^7 or more.
        let number = key >> 10
        guard number >= 10_000_000 else { return nil }
        return endingKey(lastDigits: number % 10_000_000)
    }

    /// ``endingKey(lastDigits:)`` of the national number a packed phone key holds (always
    /// longer than an integer key, so it has seven digits).
    static func endingKey(ofPacked packed: [UInt8]) -> UInt64 {
        var digits: [UInt8] = []
        for byte in packed.dropFirst(2) {
            digits.append(byte >> 4)
            if byte & 0xF != 0xF { digits.append(byte & 0xF) }
        }
        return endingKey(lastDigits: digits.suffix(partialDigitsMin).reduce(0) { $0 * 10 + UInt64($1) })
    }

    /// ``endingKey(lastDigits:)`` of a partial query's digits.
    static func endingKey(ofDigits digits: [UInt8]) -> UInt64 {
        endingKey(lastDigits: digits.suffix(partialDigitsMin).reduce(0) { $0 * 10 + UInt64($1 &- 0x30) })
    }

    /// The key of a phone number's text as the phone index stores it, and its calling code;
    /// nil when the number has too few digits. Numbers that fit take the allocation-free
    /// ``PhoneKey/integerKey``; longer ones are packed into `packed`.
    static func storedKey(
        for text: String, dialing: PhoneDialing, packed: inout [UInt8]
    ) -> (key: StoredPhoneKey, callingCode: UInt16)? {
        withDigits(of: text) { digits, international in
            storedKey(digits: digits, international: international, dialing: dialing, packed: &packed)
        }
    }

    /// ``storedKey(for:dialing:packed:)`` of a number's text given as UTF-8 bytes (ill-formed
    /// sequences read as U+FFFD, as the event decoder reads them).
    static func storedKey(
        forUTF8 utf8: UnsafeBufferPointer<UInt8>, dialing: PhoneDialing, packed: inout [UInt8]
    ) -> (key: StoredPhoneKey, callingCode: UInt16)? {
        withDigits(ofUTF8: utf8) { digits, international in
            storedKey(digits: digits, international: international, dialing: dialing, packed: &packed)
        }
    }

    private static func storedKey(
        digits: UnsafeBufferPointer<UInt8>, international: Bool, dialing: PhoneDialing, packed: inout [UInt8]
    ) -> (key: StoredPhoneKey, callingCode: UInt16)? {
        guard let reduced = reduce(digits, international: international, dialing: dialing) else { return nil }
        let national = digits[reduced.national]
        if let integer = PhoneKey.integerKey(callingCode: reduced.callingCode, national: national) {
            return (.integer(integer), reduced.callingCode)
        }
        PhoneKey.pack(callingCode: reduced.callingCode, national: national, into: &packed)
        return (.packed, reduced.callingCode)
    }

    /// Where ``storedKey(for:dialing:packed:)`` put a key.
    enum StoredPhoneKey: Equatable {
        /// The key fits in an integer.
        case integer(UInt64)
        /// The key is too long and was packed into bytes.
        case packed
    }

    /// Calls `body` with a number's decimal digits as ASCII, and whether a "+" came before the
    /// first, as ``PhoneNumber/digits`` reads them; ASCII text is read without allocating.
    private static func withDigits<Result>(
        of text: String, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Result
    ) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable({ withDigits(ofUTF8: $0, body) }) {
            return result
        }
        var copy = text
        return copy.withUTF8 { withDigits(ofUTF8: $0, body) }
    }

    /// ``withDigits(of:_:)`` of text given as UTF-8 bytes.
    private static func withDigits<Result>(
        ofUTF8 utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Result
    ) -> Result {
        let ascii = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, utf8.count)) { buffer -> Result? in
            var count = 0
            var international = false
            for byte in utf8 {
                if byte >= 0x80 { return nil }
                if byte &- 0x30 < 10 {
                    buffer[count] = byte
                    count += 1
                } else if byte == 0x2B, count == 0 {
                    // "+" before the first digit, as PhoneNumber.digits keeps it.
                    international = true
                }
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]), international)
        }
        if let ascii { return ascii }
        // Digits of other scripts: PhoneNumber.digits knows them.
        let converted = PhoneNumber(stringValue: String(decoding: utf8, as: UTF8.self)).digits
        let digits = Array(converted.utf8.drop { $0 == 0x2B })
        return digits.withUnsafeBufferPointer { body($0, converted.hasPrefix("+")) }
    }

    /// The calling code (0 for unknown) and where the national significant number lies in a
    /// number's digits, or nil when it is too short to be matched.
    static func reduce(
        _ digits: UnsafeBufferPointer<UInt8>, international: Bool, dialing: PhoneDialing
    ) -> (callingCode: UInt16, national: Range<Int>)? {
        var start = 0
        var isInternational = international
        if !isInternational, let length = dialing.internationalPrefixLength(of: digits) {
            start = length
            isInternational = true
        }
        let callingCode: UInt16
        if isInternational {
            let codeLength = callingCodeLength(of: digits, from: start)
            guard digits.count - start > codeLength else { return nil }
            var code: UInt16 = 0
            for index in start..<start + codeLength { code = code * 10 + UInt16(digits[index] - 0x30) }
            callingCode = code
            start += codeLength
            // "+44 (0)20 ...": the trunk prefix written inside an international number.
            if start < digits.count, digits[start] == 0x30, trunkZeroCallingCodes[Int(code)] {
                start += 1
            }
        } else if dialing.isKnown {
            callingCode = dialing.callingCode
            let trunk = dialing.trunkPrefix
            if trunk.count == 1 && trunk.firstDigit != 0x30 {
                // NANP's 1 and Russia's 8 come before a full ten-digit number.
                if digits.count == 11, digits[0] == trunk.firstDigit { start = 1 }
            } else if trunk.count > 0, trunk.isPrefix(of: digits, at: 0) {
                start = trunk.count
            }
        } else {
            // Unknown region: take a leading 0 as the trunk prefix most of the world uses.
            callingCode = 0
            if digits.first == 0x30 { start = 1 }
        }
        guard digits.count - start >= nationalNumberDigitsMin else { return nil }
        return (callingCode, start..<digits.count)
    }

    /// How many leading digits of an international number are its country calling code.
    ///
    /// ITU calling codes are a prefix code: 1 (NANP) and 7 are whole zones, 44 different
    /// two-digit codes exist (``twoDigitCallingCodes``), and every other start is a
    /// three-digit code (assigned or not, the same digits split the same way on both sides).
    static func callingCodeLength(of digits: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < digits.count else { return 0 }
        let first = digits[start]
        if first == 0x31 || first == 0x37 { return 1 }
        guard digits.count - start >= 2 else { return 1 }
        let pair = Int(first - 0x30) * 10 + Int(digits[start + 1] - 0x30)
        return isTwoDigitCallingCode[pair] ? 2 : 3
    }

    /// The two-digit country calling codes of ITU-T E.164 (as libphonenumber's
    /// CountryCodeToRegionCodeMap lists them).
    static let twoDigitCallingCodes: [Int] = [
        20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55,
        56, 57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
    ]

    /// ``twoDigitCallingCodes`` as a table indexed by the two digits.
    private static let isTwoDigitCallingCode: [Bool] = (0..<100).map(twoDigitCallingCodes.contains)

    /// The region for a lowercase ISO 3166-1 alpha-2 code, or nil when we have no data for it.
    static func region(for isoCode: String) -> PhoneRegion? {
        regions[isoCode.lowercased()]
    }

    /// The dialling conventions numbers are keyed by under an ISO 3166-1 alpha-2 code:
    /// its region's, or ``PhoneDialing/unknown`` when we have no data for it.
    static func dialing(for isoCode: String) -> PhoneDialing {
        region(for: isoCode)?.dialing ?? .unknown
    }

    /// The calling codes of regions whose trunk prefix is "0", as a table indexed by code.
    static let trunkZeroCallingCodes: [Bool] = {
        var table = [Bool](repeating: false, count: 1000)
        for region in regions.values where region.trunkPrefix == "0" { table[Int(region.callingCode)] = true }
        return table
    }()

    /// The regions we support as defaults, from the numbering plans in libphonenumber's
    /// metadata: calling code, trunk prefix, international prefixes. A "00" that a region
    /// does not dial is still accepted where no national number can start with it (NANP,
    /// Russia and Kazakhstan), because people copy numbers from abroad as they got them.
    static let regions: [String: PhoneRegion] = {
        var table: [String: PhoneRegion] = [:]
        func add(_ codes: String, _ callingCode: UInt16, trunk: String, international: [String]) {
            for code in codes.split(separator: " ") {
                table[String(code)] = PhoneRegion(
                    callingCode: callingCode, trunkPrefix: trunk, internationalPrefixes: international)
            }
        }
        // North American Numbering Plan: trunk 1, international 011.
        add(
            "us ca ag ai as bb bm bs dm do gd gu jm kn ky lc mp ms pr sx tc tt vc vg vi", 1,
            trunk: "1", international: ["011", "00"])
        // Trunk prefix 0, international prefix 00.
        let trunkZero: [(String, UInt16)] = [
            ("gb gg im je", 44), ("de", 49), ("fr", 33), ("nl", 31), ("be", 32), ("ch", 41),
            ("at", 43), ("se", 46), ("fi", 358), ("ie", 353), ("tr", 90), ("ua", 380), ("ro", 40),
            ("bg", 359), ("hr", 385), ("si", 386), ("rs", 381), ("sk", 421), ("il", 972),
            ("eg", 20), ("za", 27), ("in", 91), ("pk", 92), ("cn", 86), ("nz", 64), ("my", 60),
            ("ph", 63), ("vn", 84), ("ae", 971), ("sa", 966),
        ]
        for (codes, callingCode) in trunkZero {
            add(codes, callingCode, trunk: "0", international: ["00"])
        }
        // Trunk prefix 0 with other international prefixes.
        add("jp", 81, trunk: "0", international: ["010"])
        add("au", 61, trunk: "0", international: ["0011"])
        add("kr", 82, trunk: "0", international: ["001", "002", "005", "006", "008", "009"])
        // No trunk prefix: a leading 0 is part of the number (Italy) or numbers never start
        // with one.
        let noTrunk: [(String, UInt16)] = [
            ("it", 39), ("es", 34), ("pt", 351), ("gr", 30), ("no", 47), ("dk", 45), ("pl", 48),
            ("cz", 420), ("lu", 352), ("is", 354), ("mt", 356), ("cy", 357), ("ee", 372),
            ("lv", 371), ("hk", 852),
        ]
        for (codes, callingCode) in noTrunk {
            add(codes, callingCode, trunk: "", international: ["00"])
        }
        // Trunk prefix 8, international prefix 810.
        add("ru kz", 7, trunk: "8", international: ["810", "00"])
        // Hungary dials 06 before a national number.
        add("hu", 36, trunk: "06", international: ["00"])
        return table
    }()
}
