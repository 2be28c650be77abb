import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("JSON: writing")
struct JSONWritingTests {
    @Test("Compact output keeps the object's key order and has no spaces")
    func compactOrder() {
        let value: JSONValue = ["zeta": 1, "alpha": [true, false, nil], "mid": ["b": "x", "a": 2.5]]
        #expect(value.serialized() == #"{"zeta":1,"alpha":[true,false,null],"mid":{"b":"x","a":2.5}}"#)
    }

    @Test("Pretty output indents by two spaces and writes empty containers on one line")
    func pretty() {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
        #expect(
            value.serialized(.pretty) == """
                {
                  "a": [
                    1,
                    2
                  ],
                  "b": {},
                  "c": []
                }
                """)
    }

    @Test(
        "Strings escape quotes, backslashes and every control character",
        arguments: [
            ("\"", #""\"""#), ("\\", #""\\""#), ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#),
            ("\u{08}", #""\b""#), ("\u{0C}", #""\f""#), ("\u{00}", #""\u0000""#), ("\u{1F}", #""\u001f""#),
            ("\u{7F}", "\"\u{7F}\""), ("/", #""/""#), ("é", "\"é\""), ("😀", "\"😀\""),
        ])
    func escaping(input: String, expected: String) throws {
        let text = JSONValue.string(input).serialized()
        #expect(text == expected)
        #expect(try JSONValue(parsing: text) == .string(input))
    }

    @Test("ASCII-only output writes non-BMP characters as surrogate pairs")
    func asciiOnly() throws {
        let value = JSONValue.string("é😀\u{2028}")
        let text = value.serialized(JSONValue.Style(asciiOnly: true))
        #expect(text == #""\u00e9\ud83d\ude00\u2028""#)
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test(
        "Numbers keep integers exact and doubles round-trip",
        arguments: [
            JSONValue.int(0), .int(-1), .int(Int64.max), .int(Int64.min), .double(0.1), .double(-0.0),
            .double(1.0), .double(1e-7), .double(5e20), .double(123_456_789.125),
            .double(Double.greatestFiniteMagnitude),
        ])
    func numbers(value: JSONValue) throws {
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }

    @Test("NaN and infinity, which JSON cannot express, are written as null")
    func nonFinite() {
        #expect(JSONValue.double(.nan).serialized() == "null")
        #expect(JSONValue.array([.double(.infinity), .double(-.infinity)]).serialized() == "[null,null]")
    }

    @Test("Objects replace a value in place and remove a key set to nil")
    func objectEditing() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = "two"
        object["a"] = nil
        object["d"] = 4
        #expect(object.keys == ["b", "c", "d"])
        #expect(object["b"] == "two")
        #expect(JSONValue.object(object)["d"]?.intValue == 4)
    }
}

@Suite("JSON: parsing")
struct JSONParsingTests {
    @Test("A document with every kind of value parses to what it says")
    func everyKind() throws {
        let text =
            #" { "n": null, "t": true, "f": false, "i": -42, "d": 3.5e2, "s": "a\u00e9\ud83d\ude00\/", "a": [ ], "o": {} } "#
        let value = try JSONValue(parsing: text)
        #expect(
            value == ["n": nil, "t": true, "f": false, "i": -42, "d": 350.0, "s": "aé😀/", "a": [], "o": [:]])
    }

    @Test("Integers beyond 64 bits become doubles; 1.0 stays a double")
    func integerRange() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .int(Int64.max))
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9.223372036854775808e18))
        #expect(try JSONValue(parsing: "1.0") == .double(1))
        #expect(try JSONValue(parsing: "-0") == .int(0))
    }

    @Test(
        "Malformed text is refused with the byte offset of the problem",
        arguments: [
            ("", JSONParseError.Kind.unexpectedEnd, 0),
            ("   ", .unexpectedEnd, 3),
            ("[1,]", .unexpectedByte, 3),
            ("{\"a\":1,}", .unexpectedByte, 7),
            ("{'a':1}", .unexpectedByte, 1),
            ("[1 2]", .unexpectedByte, 3),
            ("01", .invalidNumber, 0),
            ("+1", .unexpectedByte, 0),
            (".5", .unexpectedByte, 0),
            ("1.", .invalidNumber, 2),
            ("1e", .invalidNumber, 2),
            ("-", .invalidNumber, 1),
            ("NaN", .unexpectedByte, 0),
            ("Infinity", .unexpectedByte, 0),
            ("1e400", .invalidNumber, 0),
            ("tru", .unexpectedEnd, 3),
            ("nul!", .unexpectedByte, 3),
            ("\"abc", .unexpectedEnd, 4),
            ("\"a\nb\"", .invalidString, 2),
            ("\"\\x\"", .invalidString, 1),
            ("\"\\u12G4\"", .invalidString, 5),
            ("\"\\ud800\"", .invalidString, 1),
            ("\"\\udc00\"", .invalidString, 1),
            ("\"\\ud800\\u0041\"", .invalidString, 1),
            ("{\"a\":1,\"a\":2}", .duplicateKey, 7),
            ("{\"a\" 1}", .unexpectedByte, 5),
            ("{1:2}", .unexpectedByte, 1),
            ("[1] x", .trailingContent, 4),
            ("// c\n1", .unexpectedByte, 0),
            ("[1,2", .unexpectedEnd, 4),
        ])
    func malformed(text: String, kind: JSONParseError.Kind, offset: Int) {
        #expect {
            try JSONValue(parsing: text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.kind == kind && error.offset == offset && error.description.contains("at byte \(offset)")
        }
    }

    @Test(
        "Bytes that are not UTF-8 are refused with their offset",
        arguments: [
            ([0x22, 0xFF, 0x22], 1), ([0x22, 0xC0, 0x80, 0x22], 1), ([0x22, 0xE0, 0x80, 0x80, 0x22], 2),
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 2), ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2), ([0x22, 0xE2, 0x82], 3),
            ([0xEF, 0xBB, 0xBF, 0x31], 0),
        ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        #expect {
            try JSONValue(parsing: bytes)
        } throws: { error in
            (error as? JSONParseError)?.offset == offset
        }
    }

    @Test("Nesting deeper than the limit is refused, not a stack overflow")
    func depthLimit() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        let limits = JSONValue.ParseLimits(depthMax: 3)
        #expect(try JSONValue(parsing: "[[[1]]]", limits: limits) == [[[1]]])
        #expect {
            try JSONValue(parsing: "[[[[1]]]]", limits: limits)
        } throws: { error in
            (error as? JSONParseError)?.kind == .tooDeep && (error as? JSONParseError)?.offset == 3
        }
    }

    @Test("Text over the size limit is refused")
    func sizeLimit() {
        #expect {
            try JSONValue(parsing: "[1,2,3]", limits: JSONValue.ParseLimits(bytesMax: 4))
        } throws: { error in
            (error as? JSONParseError)?.kind == .tooLarge
        }
    }

    @Test("Random bytes and mutated documents never trap, and what parses writes back the same")
    func fuzz() throws {
        let seed =
            ProcessInfo.processInfo.environment["LEDGER_TEST_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 1...UInt64.max)
        print("JSON fuzz seed \(seed) (set LEDGER_TEST_SEED to repeat)")
        var random = SeededRandom(seed: seed)
        let sample = Array(
            #"{"a":[1,-2.5e3,"x\u00e9\n",true,null,{"b":{}}],"c":"😀","d":[[],[0]]}"#.utf8)
        let alphabet =
            Array(#"{}[],:"\/bfnrtu0123456789-+.eE aé"#.utf8) + [0x00, 0x1F, 0x80, 0xBF, 0xC3, 0xED, 0xF0, 0xFF]
        for round in 0..<3000 {
            var bytes = sample
            if round % 3 == 0 {
                bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)!
                }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let position = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[position] = alphabet.randomElement(using: &random)!
                    case 1: bytes.remove(at: position)
                    default: bytes.insert(alphabet.randomElement(using: &random)!, at: position)
                    }
                    if bytes.isEmpty { break }
                }
            }
            if let value = try? JSONValue(parsing: bytes) {
                #expect(try JSONValue(parsing: value.serialized()) == value, "seed \(seed) round \(round)")
                #expect(try JSONValue(parsing: value.serialized(.pretty)) == value, "seed \(seed) round \(round)")
            }
        }
    }
}

/// SplitMix64: a small seeded generator, so a failing run can be repeated from its seed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("JSON: RFC 3339 times")
struct RFC3339Tests {
    @Test("Times are written in UTC with microseconds")
    func writing() {
        #expect(RFC3339.string(microseconds: 0) == "1970-01-01T00:00:00.000000Z")
        #expect(RFC3339.string(microseconds: 1_714_555_800_123_456) == "2024-05-01T09:30:00.123456Z")
        #expect(RFC3339.string(microseconds: -1) == "1969-12-31T23:59:59.999999Z")
        #expect(RFC3339.string(microseconds: 951_782_400_000_000) == "2000-02-29T00:00:00.000000Z")
    }

    @Test(
        "Times with any fraction and offset read back",
        arguments: [
            ("2024-05-01T09:30:00Z", Int64(1_714_555_800_000_000)),
            ("2024-05-01T09:30:00.123456Z", 1_714_555_800_123_456),
            ("2024-05-01T09:30:00.1Z", 1_714_555_800_100_000),
            ("2024-05-01T09:30:00.1234567891Z", 1_714_555_800_123_456),
            ("2024-05-01t11:30:00+02:00", 1_714_555_800_000_000),
            ("2024-05-01T04:00:00-05:30", 1_714_555_800_000_000),
            ("1969-12-31T23:59:59.999999z", -1),
        ])
    func reading(text: String, micros: Int64) {
        #expect(RFC3339.microseconds(from: text) == micros)
    }

    @Test(
        "Text that is not an RFC 3339 time is refused",
        arguments: [
            "", "2024-05-01", "2024-05-01 09:30:00Z", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
            "2024-05-01T24:00:00Z", "2024-05-01T09:30:00", "2024-05-01T09:30:00.Z", "2024-05-01T09:30:00+0200",
            "2024-05-01T09:30:00Z ", "yesterday",
        ])
    func refused(text: String) {
        #expect(RFC3339.microseconds(from: text) == nil)
    }

    @Test("Round trip through Date")
    func roundTrip() throws {
        let text = "2031-11-05T23:01:02.500001Z"
        let date = try #require(RFC3339.date(from: text))
        #expect(RFC3339.string(from: date) == text)
    }
}
