import Foundation
import LedgerMigrations
import LedgerStorage
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("The contact codec")
struct ContactCodecTests {
    /// Encodes and decodes values for a key set.
    static func roundTrip(
        _ values: ContactValues, keys: ContactKeySet = .all
    ) throws -> (values: ContactValues, keys: ContactKeySet) {
        try ContactCodec.decode(ContactCodec.encode(values, keys: keys))
    }

    @Test("Generated contacts with every property round-trip exactly")
    func generatedContacts() throws {
        var generator = EventFixtures.SeededGenerator(seed: EventFixtures.seed("Generated contacts round-trip"))
        for _ in 0..<300 {
            let values = EventFixtures.randomValues(using: &generator)
            let decoded = try Self.roundTrip(values)
            #expect(decoded.values == values)
            #expect(decoded.keys == .all)
        }
    }

    /// What checking (``ContactCodec/check(from:scratch:)``) or decoding (only checking) says of
    /// a standalone Contact message: its key set, or its error.
    static func verdict(of bytes: [UInt8], checking: Bool) -> String {
        WireReader.withReader(bytes) { (wire: inout WireReader) -> String in
            var reader = PayloadReader(wire: wire)
            reader.checksOnly = true
            var scratch = ContactValues()
            do throws(EventDecodingError) {
                let keys =
                    checking
                    ? try ContactCodec.check(from: &reader, scratch: &scratch)
                    : try ContactCodec.decode(from: &reader, into: &scratch)
                return "keys \(keys.rawValue)"
            } catch {
                return "refused: \(error)"
            }
        }
    }

    @Test(
        "Checking a contact refuses exactly what decoding refuses, with its error, for every change of one byte of a contact with every property"
    )
    func checkingMatchesDecodingByteByByte() {
        // Every property, with text identifiers and labels, and again with UUID identifiers and
        // standard labels (the compact fields).
        var compact = EventFixtures.everyProperty()
        compact.phoneNumbers = [LabeledValue(label: Label.home, value: PhoneNumber(stringValue: "+1 555 0100"))]
        compact.emailAddresses = [LabeledValue(label: Label.work, value: "j@example.com")]
        compact.postalAddresses = compact.postalAddresses.map { LabeledValue(label: Label.home, value: $0.value) }
        compact.socialProfiles = compact.socialProfiles.map { LabeledValue(label: Label.other, value: $0.value) }
        compact.instantMessageAddresses = compact.instantMessageAddresses.map {
            LabeledValue(label: Label.work, value: $0.value)
        }
        compact.dates = compact.dates.map { LabeledValue(label: Label.dateAnniversary, value: $0.value) }
        var accepted = 0
        var refused = 0
        for values in [EventFixtures.everyProperty(), compact] {
            let original = ContactCodec.encode(values, keys: .all)
            #expect(Self.verdict(of: original, checking: true) == "keys \(ContactKeySet.all.rawValue)")
            for position in original.indices {
                var changed: [[UInt8]] = ([0x01, 0x02, 0x04, 0x08, 0x80] as [UInt8]).map { bit in
                    var bytes = original
                    bytes[position] ^= bit
                    return bytes
                }
                changed += ([0x00, 0x7F, 0xFF] as [UInt8]).map { byte in
                    var bytes = original
                    bytes[position] = byte
                    return bytes
                }
                changed.append(Array(original[..<position]))
                var removed = original
                removed.remove(at: position)
                changed.append(removed)
                for bytes in changed {
                    let checked = Self.verdict(of: bytes, checking: true)
                    #expect(checked == Self.verdict(of: bytes, checking: false), "byte \(position) of \(bytes)")
                    if checked.hasPrefix("keys") { accepted += 1 } else { refused += 1 }
                }
            }
        }
        #expect(accepted > 0 && refused > 0)
    }

    @Test("A contact with a value in every property round-trips exactly")
    func everyProperty() throws {
        let values = EventFixtures.everyProperty()
        #expect(try Self.roundTrip(values).values == values)
        #expect(try Self.roundTrip(ModelFixtures.fullValues()).values == ModelFixtures.fullValues())
    }

    @Test("Only the key set's values are written, and the set comes back")
    func keySubsets() throws {
        var generator = EventFixtures.SeededGenerator(seed: EventFixtures.seed("Key subsets round-trip"))
        for _ in 0..<300 {
            let values = EventFixtures.randomValues(using: &generator)
            let keys = ContactKeySet(rawValue: UInt64.random(in: 0...UInt64.max, using: &generator))
            let decoded = try Self.roundTrip(values, keys: keys)
            #expect(decoded.keys == keys)
            #expect(decoded.values == values.keeping(keys))
        }
    }

    @Test("Decoding only some keys gives those keys' values and leaves every other key at its default")
    func decodingSomeKeys() throws {
        var generator = EventFixtures.SeededGenerator(seed: EventFixtures.seed("Decoding some keys"))
        var subsets = ContactKey.allCases.map { ContactKeySet($0) } + [ContactKeySet(), .all]
        for _ in 0..<200 {
            subsets.append(ContactKeySet(rawValue: UInt64.random(in: 0...UInt64.max, using: &generator)))
        }
        let samples =
            [EventFixtures.everyProperty(), ModelFixtures.fullValues()]
            + (0..<20).map { _ in EventFixtures.randomValues(using: &generator) }
        for values in samples {
            let bytes = ContactCodec.encode(values, keys: .all)
            for keys in subsets {
                let decoded = try bytes.withUnsafeBufferPointer { try ContactCodec.decode($0, keeping: keys) }
                // What a contact fetched with these keys shows (the image keys derive from the data).
                #expect(decoded.keeping(keys) == values.keeping(keys), "keys \(keys.rawValue)")
                // Nothing else was decoded: only the image data comes with a derived image key.
                var carried = keys
                if !keys.isDisjoint(with: .image) { carried.insert(.imageData) }
                #expect(decoded == decoded.keeping(carried), "keys \(keys.rawValue)")
            }
        }
        // A value outside the message's key set is refused even when its key is not asked for.
        var stray = ContactCodec.encode(ContactValues(), keys: [.givenName])
        stray += ContactCodec.encode(ModelFixtures.fullValues(), keys: [.note]).dropFirst(
            1 + WireFormat.varintSize(ContactKeySet([.note]).rawValue))
        #expect(throws: EventDecodingError.self) {
            try stray.withUnsafeBufferPointer { try ContactCodec.decode($0, keeping: [.givenName]) }
        }
        #expect(throws: EventDecodingError.self) { try ContactCodec.decode(stray) }
    }

    @Test("A key whose value is the default is still in the decoded set")
    func defaultsPresent() throws {
        let keys: ContactKeySet = [.givenName, .birthday, .phoneNumbers, .imageData, .contactType]
        let bytes = ContactCodec.encode(ContactValues(), keys: keys)
        // Only the key set is written: field 1, varint.
        #expect(bytes.first == 0x08)
        #expect(bytes.count == 1 + WireFormat.varintSize(keys.rawValue))
        let decoded = try ContactCodec.decode(bytes)
        #expect(decoded.keys == keys)
        #expect(decoded.values == ContactValues())
        #expect(try ContactCodec.decode([]) == (ContactValues(), ContactKeySet()))
    }

    @Test("A missing label, an empty label, empty image data and no image data stay apart")
    func emptyVersusAbsent() throws {
        var values = ContactValues()
        values.emailAddresses = [
            LabeledValue(identifier: "a", label: nil, value: "x@example.com"),
            LabeledValue(identifier: "b", label: "", value: "y@example.com"),
            LabeledValue(identifier: "", label: "", value: ""),
        ]
        values.imageData = Data()
        values.birthday = DateComponents()
        let decoded = try Self.roundTrip(values).values
        #expect(decoded.emailAddresses.map(\.label) == [nil, "", ""])
        #expect(decoded.imageData == Data())
        #expect(decoded.birthday == DateComponents())
        #expect(decoded == values)
        values.imageData = nil
        values.birthday = nil
        #expect(try Self.roundTrip(values).values.imageData == nil)
        #expect(try Self.roundTrip(values).values.birthday == nil)
    }

    @Test(
        "Birthdays with and without a year round-trip",
        arguments: [
            DateComponents(month: 2, day: 29), DateComponents(year: 1815, month: 12, day: 10),
            DateComponents(calendar: Calendar(identifier: .gregorian), year: 1990, month: 1, day: 1),
            DateComponents(calendar: Calendar(identifier: .gregorian), month: 7, day: 4),
            DateComponents(era: 0, year: 44, month: 3, day: 15), DateComponents(year: -500),
        ])
    func birthdays(date: DateComponents) throws {
        var values = ContactValues()
        values.birthday = date
        let decoded = try Self.roundTrip(values).values
        #expect(decoded == values)
        #expect(decoded.birthday?.year == date.year)
        #expect(decoded.birthday?.calendar?.identifier == date.calendar?.identifier)
    }

    @Test(
        "Non-Gregorian birthdays round-trip in every calendar, leap months included", arguments: EventFixtures.calendars
    )
    func nonGregorian(calendar: Calendar.Identifier) throws {
        for isLeapMonth in [nil, false, true] as [Bool?] {
            var date = DateComponents(calendar: Calendar(identifier: calendar), year: 4721, month: 6, day: 2)
            date.isLeapMonth = isLeapMonth
            var values = ContactValues()
            values.nonGregorianBirthday = date
            let decoded = try #require(try Self.roundTrip(values).values.nonGregorianBirthday)
            #expect(decoded == date)
            // DateComponents' == treats a nil leap month as false; the codec keeps them apart.
            #expect(decoded.isLeapMonth == isLeapMonth)
            #expect(decoded.calendar?.identifier == calendar)
        }
    }

    @Test("Every date component and the time zone round-trip")
    func everyComponent() throws {
        var date = DateComponents()
        date.calendar = Calendar(identifier: .hebrew)
        date.timeZone = TimeZone(identifier: "Europe/Paris")
        date.era = 1
        date.year = 5784
        date.month = 13
        date.day = 30
        date.hour = 23
        date.minute = 59
        date.second = 58
        date.nanosecond = 999_999_999
        date.weekday = 7
        date.weekdayOrdinal = -1
        date.quarter = 4
        date.weekOfMonth = 5
        date.weekOfYear = 52
        date.yearForWeekOfYear = 5784
        date.dayOfYear = 385
        date.isLeapMonth = false
        date.isRepeatedDay = true
        var values = ContactValues()
        values.dates = [LabeledValue(identifier: "d", label: Label.dateAnniversary, value: date)]
        let decoded = try #require(try Self.roundTrip(values).values.dates.first?.value)
        #expect(decoded == date)
        #expect(decoded.timeZone?.identifier == "Europe/Paris")
        #expect(decoded.isRepeatedDay == true)
        #expect(decoded.dayOfYear == 385)
    }

    @Test("Every calendar's stored name maps back to it", arguments: EventFixtures.calendars)
    func calendarNames(calendar: Calendar.Identifier) {
        let name = CalendarNames.storedName(of: calendar)
        #expect(CalendarNames.identifier(named: name) == calendar)
    }

    @Test("Labels of every kind, texts of every script and long values round-trip")
    func labelsAndScripts() throws {
        var values = ContactValues()
        values.phoneNumbers = EventFixtures.labels.enumerated().map { index, label in
            LabeledValue(
                identifier: "P\(index)", label: label,
                value: PhoneNumber(stringValue: EventFixtures.texts[index % EventFixtures.texts.count]))
        }
        values.contactRelations = EventFixtures.texts.enumerated().map { index, text in
            LabeledValue(
                identifier: text, label: Label.contactRelationLabels[index % Label.contactRelationLabels.count],
                value: ContactRelation(name: text))
        }
        values.note = EventFixtures.texts.joined(separator: "|")
        values.imageData = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(try Self.roundTrip(values).values == values)
    }
}
