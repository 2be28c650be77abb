/// The dialling conventions of a region, as far as matching a national number with its
/// international form needs them.
struct PhoneRegion: Sendable, Hashable {
    /// The ITU country calling code, such as 44.
    var callingCode: UInt16
    /// The national (trunk) prefix dialled before a national number, such as "0"; empty
    /// where numbers are dialled the same way at home and from abroad.
    var trunkPrefix: String
    /// The prefixes dialled before an international number, longest first.
    var internationalPrefixes: [String]
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
        var bytes: [UInt8] = [UInt8(callingCode >> 8), UInt8(callingCode & 0xFF)]
        bytes.reserveCapacity(2 + (nationalNumber.count + 1) / 2)
        var index = 0
        while index < nationalNumber.count {
            let high = nationalNumber[index] &- 0x30
            let low = index + 1 < nationalNumber.count ? nationalNumber[index + 1] &- 0x30 : 0xF
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
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

    /// The key of a phone number's text in a region (nil for unknown), or nil when it has too
    /// few digits to be matched.
    static func key(for text: String, region: PhoneRegion?) -> PhoneKey? {
        var international = false
        var digits: [UInt8] = []
        let ascii = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            digits.reserveCapacity(utf8.count)
            for byte in utf8 {
                if byte >= 0x80 { return false }
                if byte &- 0x30 < 10 {
                    digits.append(byte)
                } else if byte == 0x2B, digits.isEmpty {
                    // "+" before the first digit, as PhoneNumber.digits keeps it.
                    international = true
                }
            }
            return true
        }
        if ascii != true {
            // Digits of other scripts: PhoneNumber.digits knows them.
            let converted = PhoneNumber(stringValue: text).digits
            international = converted.hasPrefix("+")
            digits = Array(converted.utf8.drop { $0 == 0x2B })
        }
        return key(digits: digits, international: international, region: region)
    }

    /// The key of a number's ASCII digits, with whether a "+" came before them.
    static func key(digits: [UInt8], international: Bool, region: PhoneRegion?) -> PhoneKey? {
        var digits = digits[...]
        var isInternational = international
        if !isInternational {
            for prefix in region?.internationalPrefixes ?? ["00"] where digits.starts(with: prefix.utf8) {
                digits = digits.dropFirst(prefix.utf8.count)
                isInternational = true
                break
            }
        }
        let key: PhoneKey
        if isInternational {
            let codeLength = callingCodeLength(of: digits)
            guard digits.count > codeLength else { return nil }
            let code = digits.prefix(codeLength).reduce(UInt16(0)) { $0 * 10 + UInt16($1 - 0x30) }
            var national = digits.dropFirst(codeLength)
            // "+44 (0)20 ...": the trunk prefix written inside an international number.
            if trunkZeroCallingCodes.contains(code), national.first == 0x30 {
                national = national.dropFirst()
            }
            key = PhoneKey(callingCode: code, nationalNumber: Array(national))
        } else if let region {
            var national = digits
            let trunk = region.trunkPrefix.utf8
            switch region.trunkPrefix {
            case "1", "8":
                // NANP's 1 and Russia's 8 come before a full ten-digit number.
                if national.count == 11, national.starts(with: trunk) { national = national.dropFirst() }
            default:
                if !trunk.isEmpty, national.starts(with: trunk) { national = national.dropFirst(trunk.count) }
            }
            key = PhoneKey(callingCode: region.callingCode, nationalNumber: Array(national))
        } else {
            // Unknown region: take a leading 0 as the trunk prefix most of the world uses.
            let national = digits.first == 0x30 ? digits.dropFirst() : digits
            key = PhoneKey(callingCode: 0, nationalNumber: Array(national))
        }
        return key.nationalNumber.count >= nationalNumberDigitsMin ? key : nil
    }

    /// How many leading digits of an international number are its country calling code.
    ///
    /// ITU calling codes are a prefix code: 1 (NANP) and 7 are whole zones, 44 different
    /// two-digit codes exist (``twoDigitCallingCodes``), and every other start is a
    /// three-digit code (assigned or not, the same digits split the same way on both sides).
    static func callingCodeLength(of digits: ArraySlice<UInt8>) -> Int {
        guard let first = digits.first else { return 0 }
        if first == 0x31 || first == 0x37 { return 1 }
        guard digits.count >= 2 else { return 1 }
        let pair = Int(first - 0x30) * 10 + Int(digits[digits.startIndex + 1] - 0x30)
        return twoDigitCallingCodes.contains(pair) ? 2 : 3
    }

    /// The two-digit country calling codes of ITU-T E.164 (as libphonenumber's
    /// CountryCodeToRegionCodeMap lists them).
    static let twoDigitCallingCodes: Set<Int> = [
        20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55,
        56, 57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
    ]

    /// The region for a lowercase ISO 3166-1 alpha-2 code, or nil when we have no data for it.
    static func region(for isoCode: String) -> PhoneRegion? {
        regions[isoCode.lowercased()]
    }

    /// The calling codes of regions whose trunk prefix is "0".
    static let trunkZeroCallingCodes: Set<UInt16> = Set(
        regions.values.filter { $0.trunkPrefix == "0" }.map(\.callingCode))

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
