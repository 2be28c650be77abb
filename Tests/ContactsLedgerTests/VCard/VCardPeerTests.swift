import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// An independent reader checks our output: Python's vobject (Debian's python3-vobject, run
/// with Debian's /usr/bin/python3) parses our 3.0 and 4.0 exports, and every field it reports
/// must equal the contact's.
///
/// vobject implements vCard 3.0 only; it reads a 4.0 card with its 3.0 rules, which split a
/// 4.0 `PHOTO:data:` URI at its comma, so for 4.0 photos the script takes the raw value from
/// vobject's own line parser (`getLogicalLines` and `parseLine`) instead.
@Suite("VCard peer (Python vobject)")
struct VCardPeerTests {
    static let python = "/usr/bin/python3"

    /// Reads the vCard file named by its argument with vobject and prints one JSON object per
    /// card: N components, FN, ORG components, TEL/EMAIL/ADR with their lower-cased types
    /// (`PREF=1` reported as the type `pref`), BDAY with its parameters, NOTE, and the photo's
    /// size and SHA-256.
    static let script = #"""
        import base64, hashlib, io, json, sys
        import vobject
        from vobject.base import getLogicalLines, parseLine

        text = open(sys.argv[1], encoding="utf-8", newline="").read()

        def joined(value):
            return ",".join(value) if isinstance(value, list) else value

        def types(line):
            found = set()
            for name, values in line.params.items():
                if name.upper() == "TYPE":
                    for value in values:
                        found.update(part.lower() for part in value.split(",") if part)
                elif name.upper() == "PREF":
                    found.add("pref")
            return sorted(found)

        def raw_photos(block):
            photos = []
            for line, number in getLogicalLines(io.StringIO(block)):
                name, params, value, group = parseLine(line)
                if name.upper() == "PHOTO":
                    photos.append(value)
            return photos

        cards = []
        for part in text.split("BEGIN:VCARD")[1:]:
            block = "BEGIN:VCARD" + part
            card = vobject.readOne(block)
            contents = card.contents
            name = card.n.value
            entry = {
                "n": [joined(name.family), joined(name.given), joined(name.additional), joined(name.prefix), joined(name.suffix)],
                "fn": card.fn.value,
                "org": [joined(v) for v in card.org.value] if "org" in contents else None,
                "tel": [{"value": l.value, "types": types(l)} for l in contents.get("tel", [])],
                "email": [{"value": l.value, "types": types(l)} for l in contents.get("email", [])],
                "adr": [
                    {
                        "components": [joined(l.value.box), joined(l.value.extended), joined(l.value.street),
                                       joined(l.value.city), joined(l.value.region), joined(l.value.code),
                                       joined(l.value.country)],
                        "types": types(l),
                    }
                    for l in contents.get("adr", [])
                ],
                "bday": card.bday.value if "bday" in contents else None,
                "bdayParams": {k.upper(): v for k, v in card.bday.params.items()} if "bday" in contents else {},
                "note": card.note.value if "note" in contents else None,
                "photo": None,
            }
            if "photo" in contents:
                value = contents["photo"][0].value
                if not isinstance(value, bytes):
                    raw = raw_photos(block)[0]
                    value = base64.b64decode(raw.split(",", 1)[1] if raw.startswith("data:") else raw)
                entry["photo"] = {"bytes": len(value), "sha256": hashlib.sha256(value).hexdigest()}
            cards.append(entry)
        print(json.dumps(cards))
        """#

    struct Typed: Decodable, Equatable, CustomStringConvertible {
        let value: String
        let types: [String]
        var description: String { "\(value.debugDescription) \(types)" }
    }

    struct Address: Decodable, Equatable {
        let components: [String]
        let types: [String]
    }

    struct Photo: Decodable, Equatable {
        let bytes: Int
        let sha256: String
    }

    struct Card: Decodable, Equatable {
        let n: [String]
        let fn: String
        let org: [String]?
        let tel: [Typed]
        let email: [Typed]
        let adr: [Address]
        let bday: String?
        let bdayParams: [String: [String]]
        let note: String?
        let photo: Photo?
    }

    /// A contact and what vobject must report for it, in each version.
    struct Case: Sendable {
        let contact: Contact
        let expected: @Sendable (VCardVersion) -> Card
    }

    static func cases() -> [Case] {
        var person = MutableContact()
        person.namePrefix = "Dr."
        person.givenName = "José"
        person.middleName = "Ünal, \"Jo\""
        person.familyName = "Müller; Lüdenscheidt"
        person.nameSuffix = "Jr."
        person.organizationName = "Acme, Inc."
        person.departmentName = "R&D"
        person.phoneNumbers = [
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+1 408 555 0100")),
            LabeledValue(label: Label.home, value: PhoneNumber(stringValue: "+1 408 555 0101")),
            LabeledValue(label: Label.phoneNumberWorkFax, value: PhoneNumber(stringValue: "+1 408 555 0102")),
            LabeledValue(label: Label.phoneNumberiPhone, value: PhoneNumber(stringValue: "+1 408 555 0103")),
            LabeledValue(label: "Boat", value: PhoneNumber(stringValue: "+1 408 555 0104")),
            LabeledValue(label: nil, value: PhoneNumber(stringValue: "+1 408 555 0105")),
        ]
        person.emailAddresses = [
            LabeledValue(label: Label.work, value: "jose@example.com"),
            LabeledValue(label: Label.home, value: "jose@home.example"),
            LabeledValue(label: Label.emailiCloud, value: "jose@icloud.com"),
        ]
        person.postalAddresses = [
            LabeledValue(
                label: Label.home,
                value: PostalAddress(
                    street: "Hauptstraße 1\nHinterhaus", city: "Köln", state: "NRW", postalCode: "50667",
                    country: "Deutschland", isoCountryCode: "de"))
        ]
        person.birthday = DateComponents(year: 1980, month: 6, day: 22)
        person.note =
            "Line one\nLine two, with a comma; a semicolon \\ a backslash 🙂 " + VCardContactGenerator.longText(3)
        person.imageData = VCardContactGenerator.jpeg(size: 3000, seed: 7)
        let personNote = person.note
        let personPhoto = Photo(bytes: 3004, sha256: SHA256.hash([UInt8](person.imageData!)).hex)

        var organization = MutableContact()
        organization.contactType = .organization
        organization.organizationName = "Ωmega Corp"
        organization.phoneNumbers = [
            LabeledValue(label: Label.phoneNumberMain, value: PhoneNumber(stringValue: "+41 44 123 45 67"))
        ]
        organization.birthday = DateComponents(month: 2, day: 29)
        organization.note = "Founded on a leap day."
        organization.imageData = VCardContactGenerator.png(size: 500)
        let organizationPhoto = Photo(bytes: 508, sha256: SHA256.hash([UInt8](organization.imageData!)).hex)

        var partialValues = ContactValues()
        partialValues.givenName = "小明"
        partialValues.familyName = "王"
        partialValues.note = "not fetched, never written"
        partialValues.birthday = DateComponents(year: 2000, month: 1, day: 1)
        partialValues.phoneNumbers = [
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+86 10 1234 5678"))
        ]
        let partial = Contact(
            identifier: "partial-1", values: partialValues, availableKeys: [.givenName, .familyName, .phoneNumbers])

        return [
            Case(contact: person.copy()) { version in
                let v4 = version == .v4_0
                return Card(
                    n: ["Müller; Lüdenscheidt", "José", "Ünal, \"Jo\"", "Dr.", "Jr."],
                    fn: "Dr. José Ünal, \"Jo\" Müller; Lüdenscheidt Jr.", org: ["Acme, Inc.", "R&D"],
                    tel: [
                        Typed(value: "+1 408 555 0100", types: ["cell", "pref", "voice"]),
                        Typed(value: "+1 408 555 0101", types: ["home", "voice"]),
                        Typed(value: "+1 408 555 0102", types: ["fax", "work"]),
                        Typed(value: "+1 408 555 0103", types: ["cell", "iphone", "voice"]),
                        Typed(value: "+1 408 555 0104", types: []),
                        Typed(value: "+1 408 555 0105", types: []),
                    ],
                    email: [
                        Typed(value: "jose@example.com", types: v4 ? ["pref", "work"] : ["internet", "pref", "work"]),
                        Typed(value: "jose@home.example", types: v4 ? ["home"] : ["home", "internet"]),
                        Typed(value: "jose@icloud.com", types: v4 ? [] : ["internet"]),
                    ],
                    adr: [
                        Address(
                            components: ["", "", "Hauptstraße 1\nHinterhaus", "Köln", "NRW", "50667", "Deutschland"],
                            types: ["home", "pref"])
                    ],
                    bday: v4 ? "19800622" : "1980-06-22", bdayParams: [:], note: personNote, photo: personPhoto)
            },
            Case(contact: organization.copy()) { version in
                let v4 = version == .v4_0
                return Card(
                    // vobject drops the empty department of `ORG:Ωmega Corp;` (Apple's shape).
                    n: ["", "", "", "", ""], fn: "Ωmega Corp", org: ["Ωmega Corp"],
                    tel: [Typed(value: "+41 44 123 45 67", types: ["main", "pref"])], email: [], adr: [],
                    bday: v4 ? "--0229" : "1604-02-29", bdayParams: v4 ? [:] : ["X-APPLE-OMIT-YEAR": ["1604"]],
                    note: "Founded on a leap day.", photo: organizationPhoto)
            },
            Case(contact: partial) { _ in
                Card(
                    n: ["王", "小明", "", "", ""], fn: "王小明", org: nil,
                    tel: [Typed(value: "+86 10 1234 5678", types: ["cell", "pref", "voice"])], email: [], adr: [],
                    bday: nil, bdayParams: [:], note: nil, photo: nil)
            },
        ]
    }

    /// Runs a program and returns its exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: Data, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, outputData, String(decoding: errorData, as: UTF8.self))
    }

    @Test("vobject reads our export and reports every field as the contact has it", arguments: VCardVersion.allCases)
    func vobjectAgrees(version: VCardVersion) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.python),
            "\(Self.python) is missing: install Debian's python3 and python3-vobject (apt-get install -y python3-vobject)"
        )
        let check = try Self.run(["-c", "import vobject"])
        try #require(
            check.status == 0,
            "Python's vobject is not installed for \(Self.python): run `apt-get update && apt-get install -y python3-vobject` (\(check.error))"
        )
        let cases = Self.cases()
        let data = try VCardSerialization.data(with: cases.map(\.contact), version: version)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vcard-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.vcf")
        try data.write(to: file)

        let result = try Self.run(["-c", Self.script, file.path])
        try #require(result.status == 0, "vobject failed on our \(version.rawValue) export: \(result.error)")
        let cards = try JSONDecoder().decode([Card].self, from: result.output)
        try #require(cards.count == cases.count, "vobject found \(cards.count) cards")
        for (index, (card, testCase)) in zip(cards, cases).enumerated() {
            let expected = testCase.expected(version)
            let context = "\(version.rawValue) card \(index)"
            #expect(card.n == expected.n, "\(context) N")
            #expect(card.fn == expected.fn, "\(context) FN")
            #expect(card.org == expected.org, "\(context) ORG")
            #expect(card.tel == expected.tel, "\(context) TEL")
            #expect(card.email == expected.email, "\(context) EMAIL")
            #expect(card.adr == expected.adr, "\(context) ADR")
            #expect(card.bday == expected.bday, "\(context) BDAY")
            #expect(card.bdayParams == expected.bdayParams, "\(context) BDAY parameters")
            #expect(card.note == expected.note, "\(context) NOTE")
            #expect(card.photo == expected.photo, "\(context) PHOTO")
        }
    }
}
