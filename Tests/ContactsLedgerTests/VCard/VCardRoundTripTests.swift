import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A named contact for a parameterized test.
struct VCardContactCase: Sendable, CustomTestStringConvertible {
    let name: String
    let contact: MutableContact

    var testDescription: String { name }

    static let handMade: [VCardContactCase] = [
        VCardContactCase(name: "every property and every label", contact: VCardContactGenerator.everything()),
        VCardContactCase(name: "organization, birthday without a year", contact: VCardContactGenerator.organization()),
        VCardContactCase(name: "empty contact", contact: VCardContactGenerator.empty()),
        VCardContactCase(name: "long multi-byte values", contact: VCardContactGenerator.long()),
    ]
}

/// Export, then import: every property comes back, for 3.0 and for 4.0.
///
/// Not compared, because they do not round-trip by design: the contact's identifier and the
/// labeled values' identifiers (an import makes new ones, as the framework's does). The
/// thumbnail and the image flag are compared, but they follow from the image data.
@Suite("VCard round trip")
struct VCardRoundTripTests {
    /// Compares every key of two contacts, labeled values by label and value.
    static func expectSameProperties(
        _ actual: MutableContact, _ expected: MutableContact, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        func pairs<Value>(_ values: [LabeledValue<Value>]) -> [VCardLabeledPair<Value>] {
            values.map { VCardLabeledPair(label: $0.label, value: $0.value) }
        }
        for key in ContactKey.allCases {
            let same: Bool
            switch key {
            case .identifier:
                continue
            case .dates: same = pairs(actual.dates) == pairs(expected.dates)
            case .phoneNumbers: same = pairs(actual.phoneNumbers) == pairs(expected.phoneNumbers)
            case .emailAddresses: same = pairs(actual.emailAddresses) == pairs(expected.emailAddresses)
            case .postalAddresses: same = pairs(actual.postalAddresses) == pairs(expected.postalAddresses)
            case .urlAddresses: same = pairs(actual.urlAddresses) == pairs(expected.urlAddresses)
            case .contactRelations: same = pairs(actual.contactRelations) == pairs(expected.contactRelations)
            case .socialProfiles: same = pairs(actual.socialProfiles) == pairs(expected.socialProfiles)
            case .instantMessageAddresses:
                same = pairs(actual.instantMessageAddresses) == pairs(expected.instantMessageAddresses)
            default:
                same = actual.values.hasSameValue(as: expected.values, for: key)
            }
            #expect(same, "\(context): \(key.rawValue) differs", sourceLocation: sourceLocation)
            if !same {
                print(
                    "\(context): \(key.rawValue)\n  expected \(describe(expected, key))\n  actual   \(describe(actual, key))"
                )
            }
        }
    }

    private static func describe(_ contact: MutableContact, _ key: ContactKey) -> String {
        switch key {
        case .dates: "\(contact.dates.map { ($0.label, $0.value) })"
        case .phoneNumbers: "\(contact.phoneNumbers.map { ($0.label, $0.value) })"
        case .emailAddresses: "\(contact.emailAddresses.map { ($0.label, $0.value) })"
        case .postalAddresses: "\(contact.postalAddresses.map { ($0.label, $0.value) })"
        case .urlAddresses: "\(contact.urlAddresses.map { ($0.label, $0.value) })"
        case .contactRelations: "\(contact.contactRelations.map { ($0.label, $0.value) })"
        case .socialProfiles: "\(contact.socialProfiles.map { ($0.label, $0.value) })"
        case .instantMessageAddresses: "\(contact.instantMessageAddresses.map { ($0.label, $0.value) })"
        default:
            Mirror(reflecting: contact.values).children.first { $0.label == key.rawValue }.map {
                String(describing: $0.value)
            } ?? "(derived from imageData: \(contact.values.imageData?.count ?? -1) bytes)"
        }
    }

    /// Exports contacts and imports them again, expecting no rejected card and no warning.
    static func roundTrip(_ contacts: [MutableContact], _ version: VCardVersion) throws -> [MutableContact] {
        let data = try VCardSerialization.data(with: contacts, version: version)
        let result = try VCardSerialization.read(data, strict: true)
        #expect(result.warnings.isEmpty, "warnings: \(result.warnings)")
        #expect(result.contacts.map(\.index) == Array(contacts.indices))
        return result.contacts.map(\.contact)
    }

    @Test(
        "hand-made contacts come back property by property", arguments: VCardVersion.allCases, VCardContactCase.handMade
    )
    func handMadeContactsRoundTrip(version: VCardVersion, testCase: VCardContactCase) throws {
        let imported = try Self.roundTrip([testCase.contact], version)
        let contact = try #require(imported.first)
        Self.expectSameProperties(contact, testCase.contact, "\(version.rawValue) \(testCase.name)")
        #expect(contact.identifier != testCase.contact.identifier, "an import makes a new identifier")
    }

    @Test("random contacts come back property by property", arguments: VCardVersion.allCases)
    func randomContactsRoundTrip(version: VCardVersion) throws {
        let seed = VCardTestSupport.seed("VCard random round trip \(version.rawValue)")
        var random = VCardTestRandom(seed: seed)
        let contacts = (0..<150).map { _ in VCardContactGenerator.random(using: &random) }
        let imported = try Self.roundTrip(contacts, version)
        for (index, (actual, expected)) in zip(imported, contacts).enumerated() {
            Self.expectSameProperties(actual, expected, "seed \(seed), \(version.rawValue) contact \(index)")
        }
    }

    @Test("exporting an imported contact again gives the same bytes, but for the UID", arguments: VCardVersion.allCases)
    func exportIsStable(version: VCardVersion) throws {
        let contacts = VCardContactCase.handMade.map(\.contact)
        let first = try VCardSerialization.data(with: contacts, version: version)
        let imported = try VCardSerialization.contacts(with: first)
        let second = try VCardSerialization.data(with: imported, version: version)
        func withoutUIDs(_ data: Data) -> [Substring] {
            String(decoding: data, as: UTF8.self).split(separator: "\r\n").filter { !$0.hasPrefix("UID") }
        }
        #expect(withoutUIDs(first) == withoutUIDs(second))
    }

    @Test("a 3.0 export read as 4.0's neighbour: both versions import to the same contacts")
    func versionsAgree() throws {
        let contacts = VCardContactCase.handMade.map(\.contact)
        let from30 = try Self.roundTrip(contacts, .v3_0)
        let from40 = try Self.roundTrip(contacts, .v4_0)
        for (index, (a, b)) in zip(from30, from40).enumerated() {
            Self.expectSameProperties(a, b, "contact \(index), 3.0 against 4.0")
        }
    }
}

/// A labeled value without its identifier.
struct VCardLabeledPair<Value: Equatable>: Equatable {
    let label: String?
    let value: Value
}
