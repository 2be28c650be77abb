import Foundation

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Events and contacts for the codec tests: fixed ones for golden bytes, and generated ones,
/// from a seed, that cover every property, label kind, script and calendar.
enum EventFixtures {
    /// A seed for a randomized test, from LEDGER_TEST_SEED when set, printed so a failure reproduces.
    static func seed(_ name: String) -> UInt64 {
        let seed =
            ProcessInfo.processInfo.environment["LEDGER_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max)
        print("\(name): seed \(seed) (set LEDGER_TEST_SEED=\(seed) to reproduce)")
        return seed
    }

    /// A small, fast, reproducible generator (SplitMix64).
    struct SeededGenerator: RandomNumberGenerator {
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

    // MARK: Fixed values

    /// A typical add, as the benchmark measures it: given and family name, organization, two
    /// phones, two emails, UUID identifiers.
    static func typicalAdd(_ number: Int = 0) -> LedgerOperation {
        var values = ContactValues()
        values.givenName = "Ada"
        values.familyName = "Lovelace"
        values.organizationName = "Analytical Engines Ltd"
        values.phoneNumbers = [
            LabeledValue(
                identifier: uuid(number, 1), label: Label.phoneNumberMobile,
                value: PhoneNumber(stringValue: "+44 20 7946 0958")),
            LabeledValue(
                identifier: uuid(number, 2), label: Label.work, value: PhoneNumber(stringValue: "020 7946 0000")),
        ]
        values.emailAddresses = [
            LabeledValue(identifier: uuid(number, 3), label: Label.home, value: "ada@example.org"),
            LabeledValue(identifier: uuid(number, 4), label: Label.work, value: "a.lovelace@engines.example"),
        ]
        return .addContact(
            identifier: uuid(number, 0), containerIdentifier: "5F6A2F4E-3B1C-4D8E-9A7B-0C1D2E3F4A5B",
            createdBy: "com.example.importer", values: values)
    }

    /// A deterministic UUID string for test data.
    static func uuid(_ number: Int, _ part: Int) -> String {
        let bits = UInt64(truncatingIfNeeded: number &* 0x1_0000 &+ part)
        let hex = String(bits, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return "8C3E1A52-7D4B-4F0E-B6A9-" + padded.suffix(12)
    }

    /// Values with something in every key, with short strings so that golden bytes stay short.
    static func everyProperty() -> ContactValues {
        var values = ContactValues()
        values.contactType = .organization
        values.namePrefix = "Dr."
        values.givenName = "José"
        values.middleName = "Q"
        values.familyName = "Núñez"
        values.previousFamilyName = "Li"
        values.nameSuffix = "Jr."
        values.nickname = "Pepe"
        values.phoneticGivenName = "ho-SAY"
        values.phoneticMiddleName = "kyoo"
        values.phoneticFamilyName = "NOO-nyez"
        values.organizationName = "株式会社"
        values.phoneticOrganizationName = "kabushiki"
        values.departmentName = "R&D"
        values.jobTitle = "Chief 🦄"
        values.note = "line one\nline two"
        values.birthday = DateComponents(month: 2, day: 29)
        var nonGregorian = DateComponents(calendar: Calendar(identifier: .chinese), month: 6, day: 1)
        nonGregorian.isLeapMonth = true
        values.nonGregorianBirthday = nonGregorian
        values.dates = [
            LabeledValue(
                identifier: "D1", label: Label.dateAnniversary, value: DateComponents(year: 2001, month: 6, day: 9))
        ]
        values.phoneNumbers = [
            LabeledValue(
                identifier: "P1", label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+1 555 0100")),
            LabeledValue(identifier: "P2", label: nil, value: PhoneNumber(stringValue: "0100")),
        ]
        values.emailAddresses = [LabeledValue(identifier: "E1", label: "", value: "j@example.com")]
        values.postalAddresses = [
            LabeledValue(
                identifier: "A1", label: Label.home,
                value: PostalAddress(
                    street: "1 Main St\nApt 2", subLocality: "Old Town", city: "Springfield",
                    subAdministrativeArea: "Clark", state: "IL", postalCode: "62701", country: "USA",
                    isoCountryCode: "us"))
        ]
        values.urlAddresses = [LabeledValue(identifier: "U1", label: "blog", value: "https://example.com")]
        values.contactRelations = [
            LabeledValue(identifier: "R1", label: Label.contactRelationMother, value: ContactRelation(name: "Ana"))
        ]
        values.socialProfiles = [
            LabeledValue(
                identifier: "S1", label: nil,
                value: SocialProfile(
                    urlString: "https://x.example/j", username: "j", userIdentifier: "42",
                    service: SocialProfile.Service.twitter))
        ]
        values.instantMessageAddresses = [
            LabeledValue(
                identifier: "I1", label: Label.work,
                value: InstantMessageAddress(username: "jq", service: InstantMessageAddress.Service.skype))
        ]
        values.imageData = Data([0xFF, 0xD8, 0xFF, 0xE0])
        return values
    }

    /// One operation of every kind, with values in every field.
    static func everyOperation() -> [LedgerOperation] {
        var changed = everyProperty()
        changed.givenName = "Joe"
        changed.phoneNumbers = []
        changed.birthday = nil
        return [
            .addContainer(identifier: "K1", name: "Local", type: .local, isDefault: true),
            .addContact(identifier: "C1", containerIdentifier: "K1", createdBy: "app", values: everyProperty()),
            .updateContact(
                identifier: "C1", keys: [.givenName, .phoneNumbers, .birthday, .note], old: everyProperty(),
                new: changed),
            .addGroup(identifier: "G1", containerIdentifier: "K1", name: "Friends"),
            .updateGroup(identifier: "G1", oldName: "Friends", newName: "Family"),
            .addMember(contactIdentifier: "C1", groupIdentifier: "G1"),
            .removeMember(contactIdentifier: "C1", groupIdentifier: "G1"),
            .addGroup(identifier: "G2", containerIdentifier: "K1", name: ""),
            .addSubgroup(groupIdentifier: "G2", parentGroupIdentifier: "G1"),
            .removeSubgroup(groupIdentifier: "G2", parentGroupIdentifier: "G1"),
            .setAuthorization(clientIdentifier: "app", status: .limited, notesEntitlement: true),
            .grantAccess(clientIdentifier: "app", contactIdentifiers: ["C1", "", "C2"]),
            .revokeAccess(clientIdentifier: "app", contactIdentifiers: ["C1"]),
            .deleteGroup(
                identifier: "G1", containerIdentifier: "K1", name: "Family", memberIdentifiers: ["C1", "C2"],
                subgroupIdentifiers: ["G2"], parentGroupIdentifiers: []),
            .deleteContact(
                identifier: "C1", containerIdentifier: "K1", createdBy: "app", groupIdentifiers: ["G2"],
                last: changed),
        ]
    }

    /// The operations of kinds added after the golden event was fixed, one of each and each
    /// value of their enumerations: the golden bytes stay those of ``everyOperation()``.
    static let laterOperations: [LedgerOperation] = [
        .requestAccess(clientIdentifier: "app", notesEntitlement: true),
        .undo(kind: .undelete, sequence: 7), .undo(kind: .revert, sequence: 300), .undo(kind: .restore, sequence: 0),
        .linkContacts(contactIdentifiers: ["C1", "", "C2"]),
        .unlinkContact(contactIdentifier: "C1", linkedIdentifiers: ["C2", "C3"]),
        .redaction(
            RedactionNote(
                sequence: 4, contactIdentifier: "C1", reason: "erasure", erased: true, remainingDigest: SHA256.hash([1])
            )),
        .redaction(
            RedactionNote(sequence: 5, contactIdentifier: "", reason: "", erased: false, remainingDigest: .zero)),
        .redacted(
            RedactedOperation(kind: .addContact, contactIdentifier: "C1", containerIdentifier: "K1", createdBy: "app")),
        .redacted(RedactedOperation(kind: .updateContact, contactIdentifier: "C1")),
        .redacted(RedactedOperation(kind: .deleteContact, contactIdentifier: "C1")),
    ]

    /// Keeps the update's values to its keys, as a store records them.
    static func normalized(_ operation: LedgerOperation) -> LedgerOperation {
        guard case .updateContact(let identifier, let keys, let old, let new) = operation else { return operation }
        return .updateContact(identifier: identifier, keys: keys, old: old.keeping(keys), new: new.keeping(keys))
    }

    // MARK: Generated values

    /// Texts in many scripts, with emoji, combining marks, and the empty string.
    static let texts = [
        "", "Ada", "O'Brien-Smith", "José", "Zoë", "Ñandú", "Łukasz", "Ærøskøbing", "Straße", "Διονύσιος",
        "Владимир", "Շուշան", "עברית", "محمد", "हिन्दी", "বাংলা", "ไทย", "ქართული", "中文名字", "山田太郎",
        "やまだ", "김민준", "👩‍👩‍👧‍👦", "🦄✨", "e\u{301}", "tab\there", "new\nline", "\u{0}nul",
        String(repeating: "long ", count: 400), String(repeating: "界", count: 3000),
    ]

    /// Labels: every standard one, custom ones, the empty string and nil.
    static let labels: [String?] = Label.allLabels + ["custom", "Bürotelefon", "私用", "", nil]

    /// The calendars a non-Gregorian birthday may use, and every other Foundation knows.
    static let calendars: [Calendar.Identifier] = [
        .gregorian, .buddhist, .chinese, .coptic, .ethiopicAmeteMihret, .ethiopicAmeteAlem, .hebrew, .iso8601,
        .indian, .islamic, .islamicCivil, .japanese, .persian, .republicOfChina, .islamicTabular,
        .islamicUmmAlQura, .bangla, .gujarati, .kannada, .malayalam, .marathi, .odia, .tamil, .telugu, .vikram,
        .dangi, .vietnamese,
    ]

    /// Generated values: each property set or not at random, from every kind of text.
    static func randomValues(using generator: inout SeededGenerator) -> ContactValues {
        func text() -> String { texts.randomElement(using: &generator)! }
        func maybe() -> Bool { Bool.random(using: &generator) }
        func labeled<Value>(_ make: () -> Value) -> [LabeledValue<Value>] {
            (0..<Int.random(in: 0...3, using: &generator)).map { index in
                LabeledValue(
                    identifier: maybe() ? uuid(Int.random(in: 0...1_000_000, using: &generator), index) : "L\(index)",
                    label: labels.randomElement(using: &generator)!, value: make())
            }
        }
        var values = ContactValues()
        values.contactType = maybe() ? .person : .organization
        values.namePrefix = text()
        values.givenName = text()
        values.middleName = text()
        values.familyName = text()
        values.previousFamilyName = text()
        values.nameSuffix = text()
        values.nickname = text()
        values.phoneticGivenName = text()
        values.phoneticMiddleName = text()
        values.phoneticFamilyName = text()
        values.organizationName = text()
        values.phoneticOrganizationName = text()
        values.departmentName = text()
        values.jobTitle = text()
        values.note = text()
        values.birthday = maybe() ? randomDate(using: &generator, calendar: maybe() ? .gregorian : nil) : nil
        values.nonGregorianBirthday =
            maybe() ? randomDate(using: &generator, calendar: calendars.randomElement(using: &generator)!) : nil
        values.dates = labeled { randomDate(using: &generator, calendar: nil) }
        values.phoneNumbers = labeled { PhoneNumber(stringValue: text()) }
        values.emailAddresses = labeled(text)
        values.postalAddresses = labeled {
            PostalAddress(
                street: text(), subLocality: text(), city: text(), subAdministrativeArea: text(), state: text(),
                postalCode: text(), country: text(), isoCountryCode: text())
        }
        values.urlAddresses = labeled(text)
        values.contactRelations = labeled { ContactRelation(name: text()) }
        values.socialProfiles = labeled {
            SocialProfile(urlString: text(), username: text(), userIdentifier: text(), service: text())
        }
        values.instantMessageAddresses = labeled { InstantMessageAddress(username: text(), service: text()) }
        switch Int.random(in: 0...3, using: &generator) {
        case 0: values.imageData = nil
        case 1: values.imageData = Data()
        default:
            values.imageData = Data(
                (0..<Int.random(in: 1...5000, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                })
        }
        return values
    }

    /// A date with or without year, with a leap month sometimes, in a calendar or none.
    static func randomDate(using generator: inout SeededGenerator, calendar: Calendar.Identifier?) -> DateComponents {
        var date = DateComponents()
        date.calendar = calendar.map(Calendar.init(identifier:))
        if Bool.random(using: &generator) { date.year = Int.random(in: -3000...5800, using: &generator) }
        date.month = Int.random(in: 1...13, using: &generator)
        date.day = Int.random(in: 1...31, using: &generator)
        switch Int.random(in: 0...3, using: &generator) {
        case 0: date.isLeapMonth = true
        case 1: date.isLeapMonth = false
        default: break
        }
        if Int.random(in: 0...5, using: &generator) == 0 { date.era = Int.random(in: 0...300, using: &generator) }
        return date
    }

    /// A generated operation of any kind.
    static func randomOperation(using generator: inout SeededGenerator) -> LedgerOperation {
        func text() -> String { texts.randomElement(using: &generator)! }
        func list() -> [String] { (0..<Int.random(in: 0...4, using: &generator)).map { _ in text() } }
        switch Int.random(in: 0...16, using: &generator) {
        case 0:
            return .addContact(
                identifier: text(), containerIdentifier: text(), createdBy: text(),
                values: randomValues(using: &generator))
        case 1:
            let keys = ContactKeySet(rawValue: UInt64.random(in: 0...UInt64.max, using: &generator))
            return .updateContact(
                identifier: text(), keys: keys, old: randomValues(using: &generator).keeping(keys),
                new: randomValues(using: &generator).keeping(keys))
        case 2:
            return .deleteContact(
                identifier: text(), containerIdentifier: text(), createdBy: text(), groupIdentifiers: list(),
                last: randomValues(using: &generator))
        case 3: return .addGroup(identifier: text(), containerIdentifier: text(), name: text())
        case 4: return .updateGroup(identifier: text(), oldName: text(), newName: text())
        case 5:
            return .deleteGroup(
                identifier: text(), containerIdentifier: text(), name: text(), memberIdentifiers: list(),
                subgroupIdentifiers: list(), parentGroupIdentifiers: list())
        case 6: return .addMember(contactIdentifier: text(), groupIdentifier: text())
        case 7: return .removeMember(contactIdentifier: text(), groupIdentifier: text())
        case 8: return .addSubgroup(groupIdentifier: text(), parentGroupIdentifier: text())
        case 9: return .removeSubgroup(groupIdentifier: text(), parentGroupIdentifier: text())
        case 10:
            return .addContainer(
                identifier: text(), name: text(), type: ContainerType.allCases.randomElement(using: &generator)!,
                isDefault: Bool.random(using: &generator))
        case 11: return .grantAccess(clientIdentifier: text(), contactIdentifiers: list())
        case 12:
            return .setAuthorization(
                clientIdentifier: text(), status: AuthorizationStatus.allCases.randomElement(using: &generator)!,
                notesEntitlement: Bool.random(using: &generator))
        case 13: return .requestAccess(clientIdentifier: text(), notesEntitlement: Bool.random(using: &generator))
        case 14: return .linkContacts(contactIdentifiers: list())
        case 15: return .unlinkContact(contactIdentifier: text(), linkedIdentifiers: list())
        default: return .revokeAccess(clientIdentifier: text(), contactIdentifiers: list())
        }
    }

    // MARK: Hex

    /// Bytes as lowercase hex, for golden payloads.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The bytes a hex text spells, ignoring whitespace.
    static func bytes(hex text: String) -> [UInt8] {
        let digits = Array(text.filter(\.isHexDigit))
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }
}
