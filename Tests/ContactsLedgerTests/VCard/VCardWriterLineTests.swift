import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The writer's lines as it writes them into the output: values escaped as they are appended,
/// lines folded where they stand, type parameters appended as they are found, and the formatted
/// name made from the values; each checked byte for byte in both versions.
@Suite("VCard writer lines")
struct VCardWriterLineTests {
    /// The card of one contact, as lines without their CR LF.
    static func lines(_ contact: Contact, _ version: VCardVersion) throws -> [String] {
        let text = String(decoding: try VCardSerialization.data(with: [contact], version: version), as: UTF8.self)
        #expect(text.hasSuffix("\r\n"))
        return Array(text.components(separatedBy: "\r\n").dropLast())
    }

    static func contact(_ identifier: String = "c", _ fill: (inout ContactValues) -> Void) -> Contact {
        var values = ContactValues()
        fill(&values)
        return Contact(identifier: identifier, values: values, availableKeys: .all)
    }

    /// The lines between the header and `UID`.
    static func body(_ lines: [String]) -> [String] {
        Array(lines.dropFirst(3).prefix { !$0.hasPrefix("UID") })
    }

    @Test("every place a value is written escapes it: names, FN, ORG, labels, addresses, UID")
    func escapingEverywhere() throws {
        let special = #"a\b,c;d"# + "\ne\r\nf\rg:h^\"i"
        let escaped = #"a\\b\,c\;d\ne\nf\ng:h^"i"#
        let contact = Self.contact("x;y,z") { values in
            values.givenName = "G" + special
            values.familyName = "F,"
            values.organizationName = "O;"
            values.emailAddresses = [LabeledValue(label: "L" + special, value: "m" + special)]
            values.postalAddresses = [
                LabeledValue(
                    label: Label.home,
                    value: PostalAddress(street: "s" + special, city: "c;", postalCode: "1,2", isoCountryCode: "d;e"))
            ]
        }
        let v3 = Self.body(try Self.lines(contact, .v3_0))
        #expect(
            v3 == [
                #"N:F\,;G"# + escaped + ";;;", #"FN:G"# + escaped + #" F\,"#, #"ORG:O\;;"#,
                "item1.EMAIL;type=INTERNET;type=pref:m" + escaped, "item1.X-ABLabel:L" + escaped,
                #"item2.ADR;type=HOME;type=pref:;;s"# + escaped + #";c\;;;1\,2;"#, #"item2.X-ABADR:d\;e"#,
            ])
        let v4 = try Self.lines(contact, .v4_0)
        #expect(Self.body(v4)[3] == "item1.EMAIL;PREF=1:m" + escaped)
        #expect(v4.contains(#"UID;VALUE=text:x\;y\,z"#))
        #expect(try Self.lines(contact, .v3_0).contains(#"UID:x\;y\,z"#))
    }

    /// Folds a line as RFC 6350 §3.2 says, for comparison: at most 75 octets a line, never
    /// inside a UTF-8 character, every continuation line after CR LF and a space.
    static func referenceFold(_ line: String) -> [String] {
        var pieces: [String] = []
        var current: [UInt8] = []
        for character in line.unicodeScalars {
            let bytes = Array(String(character).utf8)
            let limit = pieces.isEmpty ? 75 : 74
            if current.count + bytes.count > limit {
                pieces.append((pieces.isEmpty ? "" : " ") + String(decoding: current, as: UTF8.self))
                current = []
            }
            current += bytes
        }
        pieces.append((pieces.isEmpty ? "" : " ") + String(decoding: current, as: UTF8.self))
        return pieces
    }

    static let foldCases: [String] = [
        String(repeating: "a", count: 69), String(repeating: "a", count: 70), String(repeating: "a", count: 71),
        String(repeating: "a", count: 68) + "é" + String(repeating: "b", count: 100),
        String(repeating: "a", count: 69) + "é" + String(repeating: "b", count: 100),
        String(repeating: "a", count: 68) + "漢" + String(repeating: "b", count: 100),
        String(repeating: "a", count: 67) + "𝄞" + String(repeating: "c", count: 73) + "𝄞" + "d",
        String(repeating: "é", count: 100), String(repeating: "漢字", count: 60), String(repeating: "🙂", count: 70),
        String(repeating: "a,", count: 50),
    ]

    @Test("a long value is folded at 75 octets where the line stands, never inside a character", arguments: foldCases)
    func folding(_ value: String) throws {
        let contact = Self.contact { $0.jobTitle = value }
        let escaped = VCardEscaping.escape(value)
        for version in VCardVersion.allCases {
            let lines = try Self.lines(contact, version)
            let start = try #require(lines.firstIndex { $0.hasPrefix("TITLE:") })
            let expected = Self.referenceFold("TITLE:" + escaped)
            #expect(Array(lines[start..<(start + expected.count)]) == expected)
            #expect(lines[start + expected.count].hasPrefix("UID"))
            #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        }
    }

    @Test("a line of exactly 75 octets stays whole; one of 76 is folded")
    func foldingBoundary() throws {
        for (count, folded) in [(69, false), (70, true)] {
            let contact = Self.contact { $0.jobTitle = String(repeating: "t", count: count) }
            let lines = try Self.lines(contact, .v3_0)
            #expect(lines.contains { $0.hasPrefix(" ") } == folded, "TITLE of \(count)")
        }
    }

    struct LabelCase: Sendable, CustomTestStringConvertible {
        let label: String?
        let v3: [String]
        let v4: [String]
        var testDescription: String { label ?? "nil" }
    }

    static let labelCases: [LabelCase] = [
        LabelCase(
            label: Label.home, v3: ["EMAIL;type=INTERNET;type=HOME;type=pref:m"], v4: ["EMAIL;TYPE=home;PREF=1:m"]),
        LabelCase(
            label: Label.work, v3: ["EMAIL;type=INTERNET;type=WORK;type=pref:m"], v4: ["EMAIL;TYPE=work;PREF=1:m"]),
        LabelCase(
            label: Label.other, v3: ["EMAIL;type=INTERNET;type=OTHER;type=pref:m"], v4: ["EMAIL;TYPE=other;PREF=1:m"]),
        LabelCase(label: nil, v3: ["EMAIL;type=INTERNET;type=pref:m"], v4: ["EMAIL;PREF=1:m"]),
        LabelCase(
            label: Label.school, v3: ["item1.EMAIL;type=INTERNET;type=pref:m", "item1.X-ABLabel:_$!<School>!$_"],
            v4: ["item1.EMAIL;PREF=1:m", "item1.X-ABLabel:_$!<School>!$_"]),
        LabelCase(
            label: "_$!<Anniversary>!$_",
            v3: ["item1.EMAIL;type=INTERNET;type=pref:m", "item1.X-ABLabel:_$!<Anniversary>!$_"],
            v4: ["item1.EMAIL;PREF=1:m", "item1.X-ABLabel:_$!<Anniversary>!$_"]),
        LabelCase(
            label: "Ferienhaus, Süd",
            v3: ["item1.EMAIL;type=INTERNET;type=pref:m", #"item1.X-ABLabel:Ferienhaus\, Süd"#],
            v4: ["item1.EMAIL;PREF=1:m", #"item1.X-ABLabel:Ferienhaus\, Süd"#]),
    ]

    @Test("labels: standard ones as type tokens, custom and Apple's own forms as X-ABLabel", arguments: labelCases)
    func labels(_ testCase: LabelCase) throws {
        let contact = Self.contact { values in
            values.emailAddresses = [LabeledValue(label: testCase.label, value: "m")]
            values.phoneNumbers = [
                LabeledValue(label: testCase.label, value: PhoneNumber(stringValue: "1")),
                LabeledValue(label: Label.phoneNumberiPhone, value: PhoneNumber(stringValue: "2")),
            ]
        }
        let v3 = Self.body(try Self.lines(contact, .v3_0))
        let v4 = Self.body(try Self.lines(contact, .v4_0))
        #expect(Array(v3.dropFirst(2).prefix(testCase.v3.count)) == testCase.v3)
        #expect(Array(v4.dropFirst(2).prefix(testCase.v4.count)) == testCase.v4)
        #expect(v3.last == "TEL;type=IPHONE;type=CELL;type=VOICE:2")
        #expect(v4.last == "TEL;TYPE=iphone,cell,voice:2")
    }

    @Test("an empty name writes an empty N and FN; a prefix alone is no name; an organization's name stands in")
    func emptyNames() throws {
        for version in VCardVersion.allCases {
            let empty = Self.body(try Self.lines(Self.contact { _ in }, version))
            #expect(empty == ["N:;;;;", "FN:"])
            let prefixOnly = Self.body(try Self.lines(Self.contact { $0.namePrefix = "Dr." }, version))
            #expect(prefixOnly == ["N:;;;Dr.;", "FN:"])
            let company = Self.body(try Self.lines(Self.contact { $0.organizationName = " Acme " }, version))
            #expect(company == ["N:;;;;", "FN:Acme", "ORG: Acme ;"])
        }
    }

    struct ScriptCase: Sendable, CustomTestStringConvertible {
        let given: String
        let family: String
        let formatted: String
        var testDescription: String { formatted }
    }

    static let scriptCases: [ScriptCase] = [
        ScriptCase(given: "小明", family: "王", formatted: "王小明"),
        ScriptCase(given: "太郎", family: "山田", formatted: "山田太郎"),
        ScriptCase(given: "민준", family: "김", formatted: "김 민준"),
        ScriptCase(given: "Минь", family: "金", formatted: "金Минь"),
        ScriptCase(given: "Владимир", family: "Петров", formatted: "Владимир Петров"),
        ScriptCase(given: "Δημήτρης", family: "Παπαδόπουλος", formatted: "Δημήτρης Παπαδόπουλος"),
        ScriptCase(given: "محمد", family: "علي", formatted: "محمد علي"),
        ScriptCase(given: "ཀ", family: "ཁ", formatted: "ཀ ཁ"),
        ScriptCase(given: "\u{1100}", family: "Kim", formatted: "Kim \u{1100}"),
    ]

    @Test("a name in a non-Latin script is formatted as the formatter formats it", arguments: scriptCases)
    func scripts(_ testCase: ScriptCase) throws {
        let contact = Self.contact { values in
            values.givenName = testCase.given
            values.familyName = testCase.family
        }
        #expect(ContactFormatter.string(from: contact, style: .fullName) == testCase.formatted)
        for version in VCardVersion.allCases {
            let body = Self.body(try Self.lines(contact, version))
            #expect(body == ["N:\(testCase.family);\(testCase.given);;;", "FN:\(testCase.formatted)"])
        }
    }

    /// The lines of vCard bytes with their folds undone, as bytes: a fold may fall before a
    /// combining mark, which as characters joins the space that starts the continuation line.
    static func unfoldedLines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var line: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                if index + 2 < bytes.count, bytes[index + 2] == 0x20 {
                    index += 3
                    continue
                }
                lines.append(String(decoding: line, as: UTF8.self))
                line = []
                index += 2
                continue
            }
            line.append(bytes[index])
            index += 1
        }
        return lines
    }

    @Test("FN is the formatter's name of every generated contact, in both versions")
    func formattedNamesAgree() throws {
        var random = VCardTestRandom(seed: 7)
        for index in 0..<300 {
            let contact = VCardContactGenerator.random(using: &random).copy()
            let expected = "FN:" + VCardEscaping.escape(ContactFormatter.string(from: contact, style: .fullName) ?? "")
            for version in VCardVersion.allCases {
                let lines = Self.unfoldedLines([UInt8](try VCardSerialization.data(with: [contact], version: version)))
                #expect(lines.first { $0.hasPrefix("FN:") } == expected, "contact \(index)")
            }
        }
    }
}
