import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A vCard written inline, with a name for the test report.
struct VCardTextCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]

    init(_ name: String, _ text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }

    init(_ name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    var testDescription: String { name }
}

/// The reader's leniency rules, one at a time, on small inline cards.
@Suite("VCard reader")
struct VCardReaderTests {
    /// Reads text whose lines are joined with CR LF.
    static func read(_ lines: [String], strict: Bool = false) throws -> VCardImport {
        try VCardSerialization.read(Data(lines.joined(separator: "\r\n").utf8), strict: strict)
    }

    /// The only contact of a card made of the given lines between BEGIN and END.
    static func card(_ lines: [String], version: String = "3.0") throws -> MutableContact {
        let result = try read(["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD", ""])
        #expect(result.rejected.isEmpty, "\(result.rejected)")
        return try #require(result.contacts.first?.contact)
    }

    static func contact(_ bytes: [UInt8]) throws -> MutableContact {
        let result = try VCardSerialization.read(Data(bytes))
        #expect(result.rejected.isEmpty, "\(result.rejected)")
        return try #require(result.contacts.first?.contact)
    }

    // MARK: Lines and folds

    static let lineEndCases: [VCardTextCase] = [
        VCardTextCase("CR LF", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nEND:VCARD\r\n"),
        VCardTextCase("bare LF", "BEGIN:VCARD\nVERSION:3.0\nN:Doe;Jane;;;\nEND:VCARD\n"),
        VCardTextCase("CR CR LF (iOS 6)", "BEGIN:VCARD\r\r\nVERSION:3.0\r\r\nN:Doe;Jane;;;\r\r\nEND:VCARD\r\r\n"),
        VCardTextCase("bare CR", "BEGIN:VCARD\rVERSION:3.0\rN:Doe;Jane;;;\rEND:VCARD\r"),
        VCardTextCase("no final newline", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nEND:VCARD"),
        VCardTextCase("fold with a space", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Do\r\n e;Jane;;;\r\nEND:VCARD\r\n"),
        VCardTextCase("fold with a tab", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Do\r\n\te;Jane;;;\r\nEND:VCARD\r\n"),
        VCardTextCase("fold inside the name", "BEGIN:VCARD\r\nVERSION:3.0\r\nN\r\n :Doe;Jane;;;\r\nEND:VCARD\r\n"),
        VCardTextCase("lower case", "begin:vcard\nversion:3.0\nn:Doe;Jane;;;\nend:vcard\n"),
        VCardTextCase(
            "white space after BEGIN and END", "BEGIN:VCARD \r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nEND:VCARD  \r\n"),
        VCardTextCase(
            "blank lines and # comments between properties",
            "BEGIN:VCARD\n\n# comment\nVERSION:3.0\n\nN:Doe;Jane;;;\nEND:VCARD\n"),
    ]

    @Test("line ends, folds and case do not matter", arguments: lineEndCases)
    func lineEnds(_ testCase: VCardTextCase) throws {
        let contact = try Self.contact(testCase.bytes)
        #expect(contact.familyName == "Doe")
        #expect(contact.givenName == "Jane")
    }

    @Test("a fold that splits a UTF-8 character is joined before decoding")
    func foldInsideCharacter() throws {
        let name = Array("Ψυχή".utf8)
        // Split the second letter's two bytes across a fold.
        let bytes =
            Array("BEGIN:VCARD\r\nVERSION:3.0\r\nN:".utf8) + name[0..<3] + Array("\r\n ".utf8) + name[3...]
            + Array(";;;;\r\nEND:VCARD\r\n".utf8)
        #expect(try Self.contact(bytes).familyName == "Ψυχή")
    }

    @Test("only one white-space character of a continuation line is removed")
    func secondSpaceIsData() throws {
        let contact = try Self.card(["NOTE:one", "  two"])
        #expect(contact.note == "one two")
    }

    // MARK: Quoted-printable

    @Test("quoted-printable soft line breaks join unindented lines, even inside a UTF-8 character")
    func quotedPrintable() throws {
        let contact = try Self.card(
            [
                "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=", "Br=C3=", "=BCning;Michael;;;",
                "NOTE;ENCODING=QUOTED-PRINTABLE:caf=C3=A9 =", " au lait=0D=0Asecond line",
                "ORG;CHARSET=UTF-8;QUOTED-PRINTABLE:F=C3=BChrung;=", "Abteilung",
            ], version: "2.1")
        #expect(contact.familyName == "Brüning")
        #expect(contact.givenName == "Michael")
        #expect(contact.note == "café  au lait\nsecond line")
        #expect(contact.organizationName == "Führung")
        #expect(contact.departmentName == "Abteilung")
    }

    @Test("a soft line break never swallows END:VCARD, and blank lines after it end the value")
    func softBreakBeforeEnd() throws {
        let result = try Self.read([
            "BEGIN:VCARD", "VERSION:2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:abc=", "END:VCARD",
            "BEGIN:VCARD", "VERSION:2.1", "ORG;ENCODING=QUOTED-PRINTABLE:x=", "", "TITLE:Boss", "END:VCARD", "",
        ])
        #expect(result.rejected.isEmpty)
        #expect(result.contacts.map(\.contact.note) == ["abc", ""])
        #expect(result.contacts.last?.contact.organizationName == "x")
        #expect(result.contacts.last?.contact.jobTitle == "Boss")
    }

    // MARK: Character sets

    struct CharsetCase: Sendable, CustomTestStringConvertible {
        let charset: String
        let bytes: [UInt8]
        let expected: String
        var testDescription: String { charset }
    }

    static let charsetCases: [CharsetCase] = [
        CharsetCase(charset: "UTF-8", bytes: Array("Grüße 🙂".utf8), expected: "Grüße 🙂"),
        CharsetCase(charset: "ISO-8859-1", bytes: [0x47, 0x72, 0xFC, 0xDF, 0x65], expected: "Grüße"),
        CharsetCase(charset: "Windows-1252", bytes: [0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x96], expected: "€ “q” –"),
        CharsetCase(charset: "Shift_JIS", bytes: [0x88, 0xC9, 0x94, 0x5C], expected: "伊能"),
        CharsetCase(charset: "SHIFT_JIS", bytes: [0x83, 0x81, 0x83, 0x82], expected: "メモ"),
        CharsetCase(charset: "Windows-1251", bytes: [0xCA, 0xE8, 0xBF, 0xE2], expected: "Київ"),
        CharsetCase(charset: "us-ascii", bytes: Array("plain".utf8), expected: "plain"),
    ]

    @Test("CHARSET parameters decode on this platform", arguments: charsetCases)
    func charsets(_ testCase: CharsetCase) throws {
        for version in ["2.1", "3.0"] {
            let bytes =
                Array("BEGIN:VCARD\r\nVERSION:\(version)\r\nNOTE;CHARSET=\(testCase.charset):".utf8) + testCase.bytes
                + Array("\r\nEND:VCARD\r\n".utf8)
            let result = try VCardSerialization.read(Data(bytes))
            #expect(result.contacts.first?.contact.note == testCase.expected, "\(version)")
            #expect(result.warnings.isEmpty, "\(result.warnings)")
        }
    }

    @Test("without CHARSET, valid UTF-8 is UTF-8 and anything else the fallback encoding")
    func charsetGuess() throws {
        let latin =
            Array("BEGIN:VCARD\nVERSION:3.0\nN:".utf8) + [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72]
            + Array(";;;;\nFN:J\u{F6}rg\nNICKNAME:J\u{F6}rg\nEND:VCARD\n".utf8)
        let contact = try Self.contact(latin)
        #expect(contact.familyName == "Müller")
        #expect(contact.nickname == "Jörg", "a UTF-8 value in the same file stays UTF-8")
        let cyrillic =
            Array("BEGIN:VCARD\nVERSION:2.1\nN:".utf8) + [0xCA, 0xE8, 0xBF, 0xE2] + Array("\nEND:VCARD\n".utf8)
        let defaultResult = try VCardSerialization.read(Data(cyrillic))
        #expect(defaultResult.contacts.first?.contact.familyName == "Êè¿â")
        let told = try VCardSerialization.read(Data(cyrillic), fallbackEncoding: .windowsCP1251)
        #expect(told.contacts.first?.contact.familyName == "Київ")
    }

    @Test("an unknown CHARSET or bytes invalid in the named one are read by the guess, with a warning")
    func charsetWarnings() throws {
        let result = try Self.read([
            "BEGIN:VCARD", "VERSION:3.0", "N;CHARSET=Murks:Doe;Jane;;;", "NOTE;CHARSET=UTF-8:ok", "END:VCARD", "",
        ])
        #expect(result.contacts.first?.contact.familyName == "Doe")
        #expect(result.warnings.map(\.kind) == [.unknownCharset])
        let bytes = Array("BEGIN:VCARD\nVERSION:3.0\nNOTE;CHARSET=UTF-8:a".utf8) + [0xFF] + Array("b\nEND:VCARD\n".utf8)
        let invalid = try VCardSerialization.read(Data(bytes))
        #expect(invalid.contacts.first?.contact.note == "a\u{FFFD}b")
        #expect(invalid.warnings.map(\.kind) == [.charsetMismatch])
    }

    static let byteOrderCases: [VCardTextCase] = {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Zoë 🙂;;;\r\nEND:VCARD\r\n"
        let utf16 = Array(text.utf16)
        let little = utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return [
            VCardTextCase("UTF-8 with a byte order mark", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            VCardTextCase("UTF-16LE with a byte order mark", bytes: [0xFF, 0xFE] + little),
            VCardTextCase("UTF-16BE with a byte order mark", bytes: [0xFE, 0xFF] + big),
            VCardTextCase("UTF-16LE without a byte order mark", bytes: little),
        ]
    }()

    @Test("byte order marks and UTF-16", arguments: byteOrderCases)
    func byteOrderMarks(_ testCase: VCardTextCase) throws {
        let contact = try Self.contact(testCase.bytes)
        #expect(contact.familyName == "Doe")
        #expect(contact.givenName == "Zoë 🙂")
    }

    // MARK: Groups and labels

    struct LabelCase: Sendable, CustomTestStringConvertible {
        let written: String
        let expected: String?
        var testDescription: String { "\(written) → \(expected ?? "nil")" }
    }

    static let labelCases: [LabelCase] =
        Label.generalLabels.flatMap { label -> [LabelCase] in
            guard label.hasPrefix("_$!<") else { return [LabelCase(written: label, expected: label)] }
            let name = label.dropFirst(4).dropLast(4)
            return [
                LabelCase(written: label, expected: label), LabelCase(written: "$!<\(name)>!$", expected: label),
                LabelCase(written: "_$!<\(name.uppercased())>!$_", expected: label),
            ]
        } + [
            LabelCase(written: Label.contactRelationMother, expected: Label.contactRelationMother),
            LabelCase(written: "$!<GrandsonOrNephew>!$", expected: Label.contactRelationGrandsonOrNephew),
            LabelCase(written: "_$!<AssistantPhone>!$_", expected: "_$!<AssistantPhone>!$_"),
            LabelCase(written: "$!<Email>!$", expected: "_$!<Email>!$_"),
            LabelCase(written: "GRAND_CENTRAL", expected: "GRAND_CENTRAL"),
            LabelCase(written: "移动电话", expected: "移动电话"),
            LabelCase(written: "", expected: nil),
        ]

    @Test("X-ABLabel values map back to the standard labels; free text stays; empty means none", arguments: labelCases)
    func abLabels(_ testCase: LabelCase) throws {
        let contact = try Self.card([
            "ITEM7.TEL;type=CELL:1", "item7.x-ablabel:\(VCardEscaping.escape(testCase.written))",
        ])
        // An empty X-ABLabel leaves the TYPE's label.
        let expected = testCase.written.isEmpty ? Label.phoneNumberMobile : testCase.expected
        #expect(contact.phoneNumbers.map(\.label) == [expected])
    }

    @Test("group names are arbitrary and matched without regard to case")
    func groupNames() throws {
        let contact = try Self.card([
            "workEmail.EMAIL:a@example.com", "WORKEMAIL.X-ABLabel:Office", "Monkey.URL:https://example.com",
            "monkey.X-ABLABEL:_$!<HomePage>!$_", "X-ABLabel:orphan",
        ])
        #expect(contact.emailAddresses.map(\.label) == ["Office"])
        #expect(contact.urlAddresses.map(\.label) == [Label.urlAddressHomePage])
    }

    struct TypeCase: Sendable, CustomTestStringConvertible {
        let line: String
        let label: String?
        var testDescription: String { line }
    }

    static let phoneTypeCases: [TypeCase] = [
        TypeCase(line: "TEL;type=CELL;type=VOICE;type=pref:1", label: Label.phoneNumberMobile),
        TypeCase(line: "TEL;TYPE=cell,voice;PREF=1:1", label: Label.phoneNumberMobile),
        TypeCase(line: "TEL;CELL;PREF:1", label: Label.phoneNumberMobile),
        TypeCase(line: "TEL;type=IPHONE;type=CELL;type=VOICE:1", label: Label.phoneNumberiPhone),
        TypeCase(line: "TEL;type=HOME;type=VOICE:1", label: Label.home),
        TypeCase(line: "TEL;WORK:1", label: Label.work),
        TypeCase(line: "TEL;type=MAIN:1", label: Label.phoneNumberMain),
        TypeCase(line: "TEL;type=HOME;type=FAX:1", label: Label.phoneNumberHomeFax),
        TypeCase(line: "TEL;TYPE=\"work,fax\":1", label: Label.phoneNumberWorkFax),
        TypeCase(line: "TEL;type=OTHER;type=FAX:1", label: Label.phoneNumberOtherFax),
        TypeCase(line: "TEL;FAX:1", label: Label.phoneNumberOtherFax),
        TypeCase(line: "TEL;type=PAGER:1", label: Label.phoneNumberPager),
        TypeCase(line: "TEL;type=OTHER;type=VOICE:1", label: Label.other),
        TypeCase(line: "TEL;type=pref:1", label: nil),
        TypeCase(line: "TEL;VOICE:1", label: nil),
        TypeCase(line: "TEL:1", label: nil),
        TypeCase(line: "TEL;TYPE=WhatsApp:1", label: "WhatsApp"),
        TypeCase(line: "TEL;X-CUSTOM:1", label: nil),
    ]

    @Test("TEL types, TYPE=pref and PREF=1, and bare 2.1 parameters", arguments: phoneTypeCases)
    func phoneTypes(_ testCase: TypeCase) throws {
        let contact = try Self.card([testCase.line])
        #expect(contact.phoneNumbers.map(\.label) == [testCase.label])
        #expect(contact.phoneNumbers.map(\.value.stringValue) == ["1"])
    }

    // MARK: Escapes and parameters

    @Test("3.0 escapes: \\; \\, \\: \\\\ \\n \\N, and other escaped punctuation")
    func escapes30() throws {
        let contact = try Self.card([
            #"NOTE:a\;b\,c\:d\\e\nf\Ng\"h\qi"#, #"ADR:;;1 Main St\, Apt 2\;B;Town\nNorth;;;"#,
            #"URL:http\://x.example"#,
        ])
        #expect(contact.note == "a;b,c:d\\e\nf\ng\"h\\qi")
        #expect(contact.postalAddresses.first?.value.street == "1 Main St, Apt 2;B")
        #expect(contact.postalAddresses.first?.value.city == "Town\nNorth")
        #expect(contact.urlAddresses.first?.value == "http://x.example")
    }

    @Test("2.1 escapes only \\; (and \\\\ and \\: in structured values)")
    func escapes21() throws {
        let contact = try Self.card([#"N:Doe\;Smith;J\nane;;;"#, #"NOTE:a\nb\,c\;d"#, #"ORG:A\;B;C"#], version: "2.1")
        #expect(contact.familyName == "Doe;Smith")
        #expect(contact.givenName == #"J\nane"#)
        #expect(contact.note == #"a\nb\,c\;d"#)
        #expect(contact.organizationName == "A;B")
        #expect(contact.departmentName == "C")
    }

    @Test("quoted parameter values may hold colons, semicolons and commas; RFC 6868 carets are decoded")
    func parameterQuoting() throws {
        let contact = try Self.card(
            [
                #"ADR;LABEL="1 Main: St; Town, X";TYPE=home:;;1 Main St;Town;;;"#,
                #"IMPP;X-SERVICE-TYPE="My^'IM^' ^^ok":x-apple:me"#,
                #"X-SOCIALPROFILE;TYPE="Threads, by Meta";X-USER=line^none:https://t.example"#,
            ], version: "4.0")
        #expect(contact.postalAddresses.map(\.label) == [Label.home])
        #expect(contact.postalAddresses.first?.value.street == "1 Main St")
        #expect(
            contact.instantMessageAddresses.first?.value
                == InstantMessageAddress(username: "me", service: "My\"IM\" ^ok"))
        #expect(
            contact.socialProfiles.first?.value
                == SocialProfile(urlString: "https://t.example", username: "line\none", service: "Threads, by Meta"))
    }

    // MARK: Dates

    struct DateCase: Sendable, CustomTestStringConvertible {
        let line: String
        let expected: String
        var testDescription: String { line }
    }

    static let birthdayCases: [DateCase] = [
        DateCase(line: "BDAY:--0415", expected: "--04-15"),
        DateCase(line: "BDAY:--04-15", expected: "--04-15"),
        DateCase(line: "BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15", expected: "--04-15"),
        DateCase(line: "BDAY:1604-04-15", expected: "--04-15"),
        DateCase(line: "BDAY;X-APPLE-OMIT-YEAR=1604;VALUE=DATE:16040105", expected: "--01-05"),
        DateCase(line: "BDAY:16040101", expected: "--01-01"),
        DateCase(line: "BDAY;X-APPLE-OMIT-YEAR=1900:1900-02-29", expected: "--02-29"),
        DateCase(line: "BDAY:19800322", expected: "1980-03-22"),
        DateCase(line: "BDAY:1980-03-22", expected: "1980-03-22"),
        DateCase(line: "BDAY;value=date:2012-06-06", expected: "2012-06-06"),
        DateCase(line: "BDAY:1953-10-15T23:10:00Z", expected: "1953-10-15"),
        DateCase(line: "BDAY:19531015T231000Z", expected: "1953-10-15"),
        DateCase(line: "BDAY:1987-09-27T08:30:00-06:00", expected: "1987-09-27"),
        DateCase(line: "BDAY:2000-2-9", expected: "2000-02-09"),
    ]

    @Test("birthday forms", arguments: birthdayCases)
    func birthdays(_ testCase: DateCase) throws {
        let contact = try Self.card([testCase.line])
        #expect(contact.birthday.map(VCardTestSupport.dateString) == testCase.expected)
    }

    static let invalidBirthdayCases = [
        "BDAY:19723101", "BDAY:2001-02-29", "BDAY:1980-03", "BDAY:--13-01", "BDAY:yesterday",
    ]

    @Test("a birthday the model refuses rejects its card, not the cards around it", arguments: invalidBirthdayCases)
    func invalidBirthdays(_ line: String) throws {
        let result = try Self.read([
            "BEGIN:VCARD", "VERSION:3.0", "FN:Before", "END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "FN:Bad", line,
            "END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "FN:After", "END:VCARD", "",
        ])
        #expect(result.contacts.map(\.index) == [0, 2])
        #expect(result.contacts.map(\.contact.givenName) == ["Before", "After"])
        #expect(result.rejected.map(\.cardIndex) == [1])
        #expect(result.rejected.map(\.line) == [8])
        #expect(result.rejected.map(\.kind) == [.invalidDate])
    }

    @Test("a text birthday that is not a date is left out with a warning")
    func textBirthday() throws {
        let result = try Self.read(["BEGIN:VCARD", "VERSION:4.0", "BDAY;VALUE=text:circa 1800", "END:VCARD", ""])
        #expect(result.contacts.first?.contact.birthday == nil)
        #expect(result.warnings.map(\.kind) == [.textDateIgnored])
    }

    @Test("dates: X-ABDATE with its label, ANNIVERSARY and X-ANNIVERSARY as anniversaries")
    func dates() throws {
        let contact = try Self.card([
            "item1.X-ABDATE;X-APPLE-OMIT-YEAR=1604:1604-07-14", "item1.X-ABLabel:_$!<Anniversary>!$_",
            "X-ABDATE:2000-01-02", "ANNIVERSARY:19960415", "X-ANNIVERSARY:1990-04-30",
        ])
        #expect(
            contact.dates.map { VCardExpectedLabeled($0.label, VCardTestSupport.dateString($0.value)) } == [
                VCardExpectedLabeled(Label.dateAnniversary, "--07-14"), VCardExpectedLabeled(nil, "2000-01-02"),
                VCardExpectedLabeled(Label.dateAnniversary, "1996-04-15"),
                VCardExpectedLabeled(Label.dateAnniversary, "1990-04-30"),
            ])
    }

    @Test("X-ALTBDAY: this package's form and Apple's twelve-digit Chinese form")
    func alternateBirthdays() throws {
        let ours = try Self.card(["X-ALTBDAY;CALSCALE=hebrew:57840215"])
        #expect(
            ours.nonGregorianBirthday
                == DateComponents(calendar: Calendar(identifier: .hebrew), year: 5784, month: 2, day: 15))
        let apple = try Self.card(["X-ALTBDAY;CALSCALE=chinese:007800021101"])
        #expect(
            apple.nonGregorianBirthday
                == DateComponents(calendar: Calendar(identifier: .chinese), year: 2, month: 11, day: 1))
        let yearless = try Self.card(["X-ALTBDAY;CALSCALE=islamic-civil:--0910"])
        #expect(
            yearless.nonGregorianBirthday
                == DateComponents(calendar: Calendar(identifier: .islamicCivil), month: 9, day: 10))
    }

    // MARK: Photos

    static let photoBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(0..<200)

    static let photoCases: [VCardTextCase] = {
        let base64 = VCardBase64.encode(photoBytes)
        let folded = stride(from: 0, to: base64.count, by: 60).map {
            "  " + base64.dropFirst($0).prefix(60)
        }.joined(separator: "\r\n")
        return [
            VCardTextCase(
                "2.1 ENCODING=BASE64 and a blank line",
                "BEGIN:VCARD\r\nVERSION:2.1\r\nPHOTO;ENCODING=BASE64;TYPE=JPEG:\r\n\(folded)\r\n\r\nEND:VCARD\r\n"),
            VCardTextCase(
                "2.1 bare BASE64, unindented lines",
                "BEGIN:VCARD\r\nVERSION:2.1\r\nPHOTO;JPEG;BASE64:\r\n"
                    + folded.replacingOccurrences(of: "  ", with: "") + "\r\n\r\nEND:VCARD\r\n"),
            VCardTextCase(
                "3.0 ENCODING=b", "BEGIN:VCARD\r\nVERSION:3.0\r\nPHOTO;ENCODING=b;TYPE=JPEG:\(base64)\r\nEND:VCARD\r\n"),
            VCardTextCase(
                "4.0 data URI", "BEGIN:VCARD\r\nVERSION:4.0\r\nPHOTO:data:image/jpeg;base64,\(base64)\r\nEND:VCARD\r\n"),
            VCardTextCase(
                "data URI with an escaped comma and ENCODING=b",
                "BEGIN:VCARD\r\nVERSION:3.0\r\nPHOTO;ENCODING=b;VALUE=URI:data:image/jpeg;base64\\,\(base64)\r\nEND:VCARD\r\n"
            ),
            VCardTextCase(
                "unpadded base64",
                "BEGIN:VCARD\r\nVERSION:3.0\r\nPHOTO;ENCODING=b:\(base64.replacingOccurrences(of: "=", with: ""))\r\nEND:VCARD\r\n"
            ),
        ]
    }()

    @Test("photo forms", arguments: photoCases)
    func photos(_ testCase: VCardTextCase) throws {
        let contact = try Self.contact(testCase.bytes)
        #expect(contact.imageData == Data(Self.photoBytes))
    }

    @Test("a photo URL is not fetched: left out with a warning")
    func photoURL() throws {
        let result = try Self.read([
            "BEGIN:VCARD", "VERSION:3.0", "PHOTO;VALUE=URI:https://example.com/me.jpg", "END:VCARD", "",
        ])
        #expect(result.contacts.first?.contact.imageData == nil)
        #expect(result.warnings.map(\.kind) == [.photoURLIgnored])
        #expect(result.warnings.first?.line == 3)
    }

    // MARK: Structure

    @Test("structured N and ADR with missing components, ORG with department")
    func structuredValues() throws {
        let contact = try Self.card(["N:Doe", "ADR;TYPE=work:;;Main St", "ORG:Acme;Sales;EMEA"])
        #expect(contact.familyName == "Doe" && contact.givenName.isEmpty)
        #expect(contact.postalAddresses.first?.value == PostalAddress(street: "Main St"))
        #expect(contact.organizationName == "Acme")
        #expect(contact.departmentName == "Sales, EMEA")
    }

    @Test("a 2.1 AGENT card inside a card is skipped, as are unknown properties")
    func agentAndUnknownProperties() throws {
        let result = try Self.read([
            "BEGIN:VCARD", "VERSION:2.1", "N:Boss;The", "AGENT:", "BEGIN:VCARD", "VERSION:2.1", "N:Agent;The",
            "END:VCARD", "X-UNKNOWN;FOO=bar:baz", "X-messaging/xmpp-All:a@b", "TEL:1", "END:VCARD", "",
        ])
        #expect(result.contacts.count == 1)
        #expect(result.contacts.first?.contact.familyName == "Boss")
        #expect(result.contacts.first?.contact.phoneNumbers.count == 1)
    }

    @Test("instant messaging, social profile, relation and phonetic properties")
    func otherMappings() throws {
        let contact = try Self.card([
            "X-AIM;type=HOME:aim1", "X-JABBER:j@example.com", "X-SKYPE:sk", "X-QQ:12345", "X-ICQ:678",
            "X-MSN:m@example.com",
            "X-YAHOO:y", "X-GTALK:g@example.com", "IMPP;X-SERVICE-TYPE=Skype;type=WORK:skype:sk2",
            "IMPP:xmpp:x@example.com", "IMPP;X-SERVICE-TYPE=AIM:aim:aim1",
            "X-SOCIALPROFILE;type=twitter;x-user=jd:https://twitter.com/jd",
            "item1.X-SOCIALPROFILE;type=linkedin:x-apple:j%20d", "item1.X-ABLabel:_$!<Work>!$_",
            "item2.X-ABRELATEDNAMES;type=pref:Jenny", "item2.X-ABLabel:_$!<Spouse>!$_",
            "RELATED;TYPE=child;VALUE=text:Kid", "RELATED:urn:uuid:1234", "X-PHONETIC-FIRST-NAME:Jon",
            "X-PHONETIC-MIDDLE-NAME:Kyu", "X-PHONETIC-LAST-NAME:Dow", "X-PHONETIC-ORG:Ak-mee", "X-MAIDENNAME:Smith",
        ])
        #expect(
            contact.instantMessageAddresses.map {
                VCardExpectedLabeled($0.label, $0.value.service + ":" + $0.value.username)
            }
                == [
                    .init(Label.home, "AIM:aim1"), .init(nil, "Jabber:j@example.com"), .init(nil, "Skype:sk"),
                    .init(nil, "QQ:12345"), .init(nil, "ICQ:678"), .init(nil, "MSN:m@example.com"),
                    .init(nil, "Yahoo:y"),
                    .init(nil, "GoogleTalk:g@example.com"), .init(Label.work, "Skype:sk2"),
                    .init(nil, "Jabber:x@example.com"),
                ])
        #expect(
            contact.socialProfiles.map(\.value) == [
                SocialProfile(
                    urlString: "https://twitter.com/jd", username: "jd", service: SocialProfile.Service.twitter),
                SocialProfile(username: "j d", service: SocialProfile.Service.linkedIn),
            ])
        #expect(contact.socialProfiles.map(\.label) == [nil, Label.work])
        #expect(
            contact.contactRelations.map { VCardExpectedLabeled($0.label, $0.value.name) } == [
                .init(Label.contactRelationSpouse, "Jenny"), .init(Label.contactRelationChild, "Kid"),
            ])
        #expect(
            [contact.phoneticGivenName, contact.phoneticMiddleName, contact.phoneticFamilyName] == [
                "Jon", "Kyu", "Dow",
            ])
        #expect(contact.phoneticOrganizationName == "Ak-mee")
        #expect(contact.previousFamilyName == "Smith")
    }

    @Test("KIND:org and X-ABShowAs:COMPANY make an organization; FN names a card without N")
    func kindsAndFormattedName() throws {
        #expect(try Self.card(["KIND:org", "FN:Acme", "ORG:Acme"], version: "4.0").contactType == .organization)
        #expect(try Self.card(["X-ABShowAs:COMPANY", "FN:Acme", "ORG:Acme;"]).contactType == .organization)
        let person = try Self.card(["FN:Cher"])
        #expect(person.contactType == .person)
        #expect(person.givenName == "Cher")
        #expect(try Self.card(["FN:Acme", "ORG:Acme"]).givenName.isEmpty)
    }

    @Test("missing VERSION is read as 3.0, with a warning")
    func missingVersion() throws {
        let result = try Self.read(["BEGIN:VCARD", #"NOTE:a\,b"#, "END:VCARD", ""])
        #expect(result.contacts.first?.contact.note == "a,b")
        #expect(result.warnings.map(\.kind) == [.missingVersion])
    }

    // MARK: Errors

    struct MalformedCase: Sendable, CustomTestStringConvertible {
        let name: String
        let lines: [String]
        let rejected: [VCardExpectedRejection]
        let goodIndices: [Int]
        var testDescription: String { name }
    }

    static let malformedCases: [MalformedCase] = [
        MalformedCase(
            name: "missing END before the next card",
            lines: ["BEGIN:VCARD", "VERSION:3.0", "FN:A", "BEGIN:VCARD", "VERSION:3.0", "FN:B", "END:VCARD"],
            rejected: [.init(index: 0, line: 1, .missingEnd)], goodIndices: [1]),
        MalformedCase(
            name: "missing END at the end of the file",
            lines: ["BEGIN:VCARD", "VERSION:3.0", "FN:A", "END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "FN:B"],
            rejected: [.init(index: 1, line: 5, .missingEnd)], goodIndices: [0]),
        MalformedCase(
            name: "missing BEGIN",
            lines: ["VERSION:3.0", "FN:A", "END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "FN:B", "END:VCARD"],
            rejected: [.init(index: 0, line: 1, .missingBegin)], goodIndices: [1]),
        MalformedCase(
            name: "a lone END",
            lines: ["BEGIN:VCARD", "FN:A", "END:VCARD", "END:VCARD", "BEGIN:VCARD", "FN:B", "END:VCARD"],
            rejected: [.init(index: 1, line: 4, .missingBegin)], goodIndices: [0, 2]),
        MalformedCase(
            name: "text between cards",
            lines: ["BEGIN:VCARD", "FN:A", "END:VCARD", "garbage here", "BEGIN:VCARD", "FN:B", "END:VCARD"],
            rejected: [.init(index: 1, line: 4, .missingBegin)], goodIndices: [0, 2]),
        MalformedCase(
            name: "a line without a colon",
            lines: ["BEGIN:VCARD", "FN:A", "END:VCARD", "BEGIN:VCARD", "FN:B", "not a property", "END:VCARD"],
            rejected: [.init(index: 1, line: 6, .lineWithoutColon)], goodIndices: [0]),
        MalformedCase(
            name: "an undecodable photo",
            lines: [
                "BEGIN:VCARD", "FN:A", "PHOTO;ENCODING=b:abc*def", "END:VCARD", "BEGIN:VCARD", "FN:B", "END:VCARD",
            ],
            rejected: [.init(index: 0, line: 3, .undecodablePhoto)], goodIndices: [1]),
        MalformedCase(
            name: "base64 one character too long",
            lines: ["BEGIN:VCARD", "FN:A", "PHOTO;ENCODING=b:QUJD", "  R", "END:VCARD"],
            rejected: [.init(index: 0, line: 3, .undecodablePhoto)], goodIndices: []),
    ]

    @Test("malformed cards are reported with their index and line; the good ones import", arguments: malformedCases)
    func malformedCards(_ testCase: MalformedCase) throws {
        let result = try Self.read(testCase.lines + [""])
        #expect(result.contacts.map(\.index) == testCase.goodIndices)
        #expect(
            result.rejected.map { VCardExpectedRejection(index: $0.cardIndex, line: $0.line, $0.kind) }
                == testCase.rejected)
        let strict = try #require(throws: VCardCardError.self) { try Self.read(testCase.lines, strict: true) }
        #expect(strict.cardIndex == testCase.rejected.first?.index)
        #expect(strict.description.contains("line \(testCase.rejected.first?.line ?? 0)"))
        let storeError = try #require(throws: ContactStoreError.self) {
            try VCardSerialization.contacts(with: Data(testCase.lines.joined(separator: "\n").utf8))
        }
        #expect(storeError.code == .vCardMalformed)
        #expect(storeError.code.rawValue == 700)
    }

    @Test("a bare property name is an empty property, with a warning")
    func bareName() throws {
        let result = try Self.read(["BEGIN:VCARD", "VERSION:3.0", "FN", "N:Doe;;;;", "END:VCARD", ""])
        #expect(result.rejected.isEmpty)
        #expect(result.warnings.map(\.kind) == [.propertyWithoutValue])
        #expect(result.warnings.first?.line == 3)
    }

    static let junkCases: [VCardTextCase] = [
        VCardTextCase("empty", ""),
        VCardTextCase("white space", " \r\n\t\n\n"),
        VCardTextCase("binary", bytes: (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }),
        VCardTextCase("only BEGIN", "BEGIN:VCARD"),
        VCardTextCase("quote never closed", "BEGIN:VCARD\nTEL;TYPE=\"a:1\nEND:VCARD\n"),
        VCardTextCase("lone surrogate in UTF-16", "\u{FEFF}"),
    ]

    @Test("bad input never crashes or hangs", arguments: junkCases)
    func junk(_ testCase: VCardTextCase) throws {
        for data in [Data(testCase.bytes), Data([0xFF, 0xFE, 0x00, 0xD8, 0x41])] {
            do {
                let result = try VCardSerialization.read(data)
                #expect(result.contacts.isEmpty || testCase.bytes.count > 0)
                for error in result.rejected {
                    #expect(error.line >= 1)
                }
            } catch let error as ContactStoreError {
                // A file with no card in it is refused as a whole, naming what it holds.
                #expect(error.code == .vCardMalformed)
                #expect(error.message.hasPrefix("empty file") || error.message.hasPrefix("not a vCard file"))
            }
        }
    }

    @Test("data larger than the limit is refused before it is read")
    func sizeLimit() throws {
        let error = try #require(throws: ContactStoreError.self) {
            try VCardSerialization.read(Data(count: VCardSerialization.dataBytesMax + 1))
        }
        #expect(error.code == .vCardMalformed)
    }

    @Test("contacts(with:) returns the contacts of a valid file in order")
    func frameworkStyleRead() throws {
        let data = Data("BEGIN:VCARD\nVERSION:3.0\nFN:A\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:B\nEND:VCARD\n".utf8)
        #expect(try VCardSerialization.contacts(with: data).map(\.givenName) == ["A", "B"])
    }
}
