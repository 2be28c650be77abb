import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The exporter: Apple's 3.0 shape, the 4.0 form, folding, escaping and partial contacts.
@Suite("VCard writer")
struct VCardWriterTests {
    static let identifier = "D69C71E5-4A6F-4B9B-97FC-4F9F5770C907"

    /// A contact like the ones in Apple's own exports, with a fixed identifier.
    static func appleseed() -> Contact {
        var values = ContactValues()
        values.givenName = "John"
        values.familyName = "Appleseed"
        values.organizationName = "Apple Inc."
        values.jobTitle = "Engineer"
        values.emailAddresses = [LabeledValue(label: Label.work, value: "John-Appleseed@mac.com")]
        values.phoneNumbers = [
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "888-555-5512")),
            LabeledValue(label: Label.home, value: PhoneNumber(stringValue: "888-555-1212")),
        ]
        values.postalAddresses = [
            LabeledValue(
                label: Label.work,
                value: PostalAddress(
                    street: "3494 Kuhl Avenue", city: "Atlanta", state: "GA", postalCode: "30303", country: "USA",
                    isoCountryCode: "us"))
        ]
        values.urlAddresses = [LabeledValue(label: Label.urlAddressHomePage, value: "www.icloud.com")]
        values.birthday = DateComponents(year: 1980, month: 6, day: 22)
        values.dates = [LabeledValue(label: Label.dateAnniversary, value: DateComponents(month: 5, day: 9))]
        values.note = "Met at WWDC, 2019; ask about \\ backslashes\nSecond line"
        return Contact(identifier: identifier, values: values, availableKeys: .all)
    }

    static func text(_ contacts: [Contact], _ version: VCardVersion = .v3_0) throws -> String {
        String(decoding: try VCardSerialization.data(with: contacts, version: version), as: UTF8.self)
    }

    @Test("vCard 3.0 in Apple's shape")
    func apple30() throws {
        let expected = [
            "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//ContactsLedger//ContactsLedger//EN", "N:Appleseed;John;;;",
            "FN:John Appleseed", "ORG:Apple Inc.;", "TITLE:Engineer",
            "EMAIL;type=INTERNET;type=WORK;type=pref:John-Appleseed@mac.com",
            "TEL;type=CELL;type=VOICE;type=pref:888-555-5512", "TEL;type=HOME;type=VOICE:888-555-1212",
            "item1.ADR;type=WORK;type=pref:;;3494 Kuhl Avenue;Atlanta;GA;30303;USA", "item1.X-ABADR:us",
            #"NOTE:Met at WWDC\, 2019\; ask about \\ backslashes\nSecond line"#, "item2.URL;type=pref:www.icloud.com",
            "item2.X-ABLabel:_$!<HomePage>!$_", "BDAY:1980-06-22", "item3.X-ABDATE;X-APPLE-OMIT-YEAR=1604:1604-05-09",
            "item3.X-ABLabel:_$!<Anniversary>!$_", "UID:\(Self.identifier)", "END:VCARD", "",
        ].joined(separator: "\r\n")
        #expect(try Self.text([Self.appleseed()]) == expected)
    }

    @Test("vCard 4.0 per RFC 6350")
    func rfc6350() throws {
        let expected = [
            "BEGIN:VCARD", "VERSION:4.0", "PRODID:-//ContactsLedger//ContactsLedger//EN", "N:Appleseed;John;;;",
            "FN:John Appleseed", "ORG:Apple Inc.;", "TITLE:Engineer", "EMAIL;TYPE=work;PREF=1:John-Appleseed@mac.com",
            "TEL;TYPE=cell,voice;PREF=1:888-555-5512", "TEL;TYPE=home,voice:888-555-1212",
            "item1.ADR;TYPE=work;PREF=1:;;3494 Kuhl Avenue;Atlanta;GA;30303;USA", "item1.X-ABADR:us",
            #"NOTE:Met at WWDC\, 2019\; ask about \\ backslashes\nSecond line"#, "item2.URL;PREF=1:www.icloud.com",
            "item2.X-ABLabel:_$!<HomePage>!$_", "BDAY:19800622", "item3.X-ABDATE:--0509",
            "item3.X-ABLabel:_$!<Anniversary>!$_", "UID:urn:uuid:\(Self.identifier.lowercased())", "END:VCARD", "",
        ].joined(separator: "\r\n")
        #expect(try Self.text([Self.appleseed()], .v4_0) == expected)
    }

    @Test("an organization: FN is the organization, N is empty, X-ABShowAs in 3.0 and KIND in 4.0")
    func organization() throws {
        var values = ContactValues()
        values.contactType = .organization
        values.organizationName = "Acme"
        values.departmentName = "Sales"
        let contact = Contact(identifier: "org-1", values: values, availableKeys: .all)
        let v3 = try Self.text([contact])
        #expect(v3.contains("\r\nN:;;;;\r\nFN:Acme\r\nORG:Acme;Sales\r\n"))
        #expect(v3.contains("\r\nX-ABShowAs:COMPANY\r\nUID:org-1\r\n"))
        let v4 = try Self.text([contact], .v4_0)
        #expect(v4.contains("\r\nKIND:org\r\nN:;;;;\r\nFN:Acme\r\n"))
        #expect(v4.contains("\r\nUID;VALUE=text:org-1\r\n"))
        #expect(!v4.contains("X-ABShowAs"))
    }

    struct PhoneLabelCase: Sendable, CustomTestStringConvertible {
        let label: String?
        let v3: String
        let v4: String
        var testDescription: String { label ?? "nil" }
    }

    static let phoneLabelCases: [PhoneLabelCase] = [
        PhoneLabelCase(label: Label.phoneNumberMobile, v3: "TEL;type=CELL;type=VOICE:", v4: "TEL;TYPE=cell,voice:"),
        PhoneLabelCase(
            label: Label.phoneNumberiPhone, v3: "TEL;type=IPHONE;type=CELL;type=VOICE:",
            v4: "TEL;TYPE=iphone,cell,voice:"),
        PhoneLabelCase(label: Label.home, v3: "TEL;type=HOME;type=VOICE:", v4: "TEL;TYPE=home,voice:"),
        PhoneLabelCase(label: Label.work, v3: "TEL;type=WORK;type=VOICE:", v4: "TEL;TYPE=work,voice:"),
        PhoneLabelCase(label: Label.phoneNumberMain, v3: "TEL;type=MAIN:", v4: "TEL;TYPE=main:"),
        PhoneLabelCase(label: Label.phoneNumberHomeFax, v3: "TEL;type=HOME;type=FAX:", v4: "TEL;TYPE=home,fax:"),
        PhoneLabelCase(label: Label.phoneNumberWorkFax, v3: "TEL;type=WORK;type=FAX:", v4: "TEL;TYPE=work,fax:"),
        PhoneLabelCase(label: Label.phoneNumberOtherFax, v3: "TEL;type=OTHER;type=FAX:", v4: "TEL;TYPE=other,fax:"),
        PhoneLabelCase(label: Label.phoneNumberPager, v3: "TEL;type=PAGER:", v4: "TEL;TYPE=pager:"),
        PhoneLabelCase(label: Label.other, v3: "TEL;type=OTHER;type=VOICE:", v4: "TEL;TYPE=other,voice:"),
        PhoneLabelCase(label: nil, v3: "TEL:", v4: "TEL:"),
        PhoneLabelCase(label: Label.school, v3: "item1.TEL:", v4: "item1.TEL:"),
        PhoneLabelCase(label: Label.phoneNumberAppleWatch, v3: "item1.TEL:", v4: "item1.TEL:"),
        PhoneLabelCase(label: "Boat; Dock", v3: "item1.TEL:", v4: "item1.TEL:"),
    ]

    @Test("every phone label: its TYPE parameters, or an itemN group with X-ABLabel", arguments: phoneLabelCases)
    func phoneLabels(_ testCase: PhoneLabelCase) throws {
        var values = ContactValues()
        values.phoneNumbers = [
            LabeledValue(label: nil, value: PhoneNumber(stringValue: "0")),
            LabeledValue(label: testCase.label, value: PhoneNumber(stringValue: "1")),
        ]
        let contact = Contact(identifier: "c", values: values, availableKeys: .all)
        for (version, prefix) in [(VCardVersion.v3_0, testCase.v3), (.v4_0, testCase.v4)] {
            let text = try Self.text([contact], version)
            #expect(text.contains("\r\n" + prefix + "1\r\n"), "\(version.rawValue): \(text)")
            if prefix.hasPrefix("item1.") {
                #expect(text.contains("\r\nitem1.X-ABLabel:" + VCardEscaping.escape(testCase.label ?? "") + "\r\n"))
            }
        }
    }

    static let foldingTexts: [String] = [
        String(repeating: "a", count: 300), String(repeating: "é", count: 200), String(repeating: "漢字", count: 120),
        String(repeating: "🙂👩‍👩‍👧‍👦", count: 40), "x" + String(repeating: "𝄞", count: 90),
        String(repeating: "a,b;c\\d\n", count: 40),
    ]

    @Test("lines are folded at 75 octets, never inside a UTF-8 character, and end in CR LF", arguments: foldingTexts)
    func folding(_ note: String) throws {
        var values = ContactValues()
        values.note = note
        values.givenName = note
        let contact = Contact(identifier: "fold", values: values, availableKeys: .all)
        for version in VCardVersion.allCases {
            let bytes = [UInt8](try VCardSerialization.data(with: [contact], version: version))
            #expect(bytes.suffix(2) == [0x0D, 0x0A])
            var lines: [ArraySlice<UInt8>] = []
            var start = 0
            for index in bytes.indices where bytes[index] == 0x0A {
                #expect(index > 0 && bytes[index - 1] == 0x0D, "a line feed without a carriage return")
                lines.append(bytes[start..<(index - 1)])
                start = index + 1
            }
            for (number, line) in lines.enumerated() {
                #expect(line.count <= 75, "line \(number + 1) has \(line.count) octets")
                #expect(String(validating: line, as: UTF8.self) != nil, "line \(number + 1) splits a character")
                #expect(!line.contains(0x0D), "a lone carriage return")
            }
            #expect(lines.contains { $0.first == 0x20 }, "long values are folded")
            let back = try VCardSerialization.contacts(with: Data(bytes))
            #expect(back.first?.note == note)
            #expect(back.first?.givenName == note)
        }
    }

    @Test("text is escaped: backslash, comma, semicolon and line breaks")
    func escaping() throws {
        var values = ContactValues()
        values.nickname = "a\\b,c;d\ne\r\nf\rg:h"
        values.organizationName = "x;y"
        values.departmentName = "z,w"
        let text = try Self.text([Contact(identifier: "e", values: values, availableKeys: .all)])
        #expect(text.contains(#"NICKNAME:a\\b\,c\;d\ne\nf\ng:h"#))
        #expect(text.contains(#"ORG:x\;y;z\,w"#))
    }

    struct PartialCase: Sendable, CustomTestStringConvertible {
        let keys: ContactKeySet
        var testDescription: String { keys.description }
    }

    static let partialCases: [PartialCase] =
        [PartialCase(keys: [])] + ContactKey.allCases.map { PartialCase(keys: ContactKeySet($0)) }
        + [PartialCase(keys: VCardSerialization.descriptorForRequiredKeys()), PartialCase(keys: [.givenName, .note])]

    @Test("a partial contact exports what it has and never traps", arguments: partialCases)
    func partialContacts(_ testCase: PartialCase) throws {
        let full = VCardContactGenerator.everything()
        let partial = Contact(identifier: full.identifier, values: full.values, availableKeys: testCase.keys)
        for version in VCardVersion.allCases {
            let data = try VCardSerialization.data(with: [partial], version: version)
            let back = try #require(try VCardSerialization.contacts(with: data).first)
            for key in ContactKey.allCases where key != .identifier {
                let available =
                    partial.availableKeys.contains(key)
                    || (key == .thumbnailImageData || key == .imageDataAvailable)
                        && partial.availableKeys.contains(.imageData)
                if !available && key != .givenName {
                    // Only FN can bring a value back for a key that was not fetched (the
                    // formatter's organization fallback aside, the given name).
                    let empty = ContactValues()
                    #expect(back.values.hasSameValue(as: empty, for: key), "\(key) was not fetched but came back")
                }
            }
            if testCase.keys.contains(.note) {
                #expect(back.note == full.note)
            }
        }
    }

    @Test("NOTE is written only when its key is available and the note is not empty")
    func noteRule() throws {
        var values = ContactValues()
        values.note = "secret"
        let withoutKey = Contact(identifier: "n", values: values, availableKeys: [.givenName])
        #expect(try !Self.text([withoutKey]).contains("NOTE"))
        let withKey = Contact(identifier: "n", values: values, availableKeys: [.note])
        #expect(try Self.text([withKey]).contains("\r\nNOTE:secret\r\n"))
        let empty = Contact(identifier: "n", values: ContactValues(), availableKeys: .all)
        #expect(try !Self.text([empty]).contains("NOTE"))
    }

    @Test("descriptorForRequiredKeys names every key the exporter reads, but the note and the derived image keys")
    func descriptor() {
        let keys = VCardSerialization.descriptorForRequiredKeys()
        #expect(keys == ContactKeySet.all.subtracting([.note, .thumbnailImageData, .imageDataAvailable]))
        #expect(keys.contains(.imageData))
        #expect(keys.contains(.identifier))
    }

    struct PhotoCase: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let v3: String
        let v4: String
        var testDescription: String { v3 }
    }

    static let photoCases: [PhotoCase] = [
        PhotoCase(
            bytes: [0xFF, 0xD8, 0xFF, 0xDB, 1, 2, 3], v3: "PHOTO;ENCODING=b;TYPE=JPEG:",
            v4: "PHOTO:data:image/jpeg;base64,"),
        PhotoCase(
            bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1], v3: "PHOTO;ENCODING=b;TYPE=PNG:",
            v4: "PHOTO:data:image/png;base64,"),
        PhotoCase(bytes: Array("GIF89a...".utf8), v3: "PHOTO;ENCODING=b;TYPE=GIF:", v4: "PHOTO:data:image/gif;base64,"),
        PhotoCase(bytes: [1, 2, 3, 4], v3: "PHOTO;ENCODING=b:", v4: "PHOTO:data:application/octet-stream;base64,"),
    ]

    @Test("the photo's TYPE comes from its first bytes", arguments: photoCases)
    func photoTypes(_ testCase: PhotoCase) throws {
        var values = ContactValues()
        values.imageData = Data(testCase.bytes)
        let contact = Contact(identifier: "p", values: values, availableKeys: .all)
        let base64 = VCardBase64.encode(testCase.bytes)
        #expect(try Self.text([contact]).contains("\r\n" + testCase.v3 + base64 + "\r\n"))
        #expect(try Self.text([contact], .v4_0).contains("\r\n" + testCase.v4 + base64 + "\r\n"))
        #expect(
            try VCardSerialization.contacts(with: VCardSerialization.data(with: [contact])).first?.imageData
                == values.imageData)
    }

    @Test("base64 matches Foundation's, both ways")
    func base64() {
        var random = VCardTestRandom(seed: 42)
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let ours = VCardBase64.encode(bytes)
            #expect(ours == Data(bytes).base64EncodedString())
            #expect(VCardBase64.decode(Array(ours.utf8)) == bytes)
        }
    }
}
