import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("The table of contact keys")
struct ContactKeyTableTests {
    /// The text of a file in `Documentation/`.
    static func documentation(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Documentation/\(name)"), encoding: .utf8)
    }

    /// The cells of the rows of the first table after a heading, header and rule left out.
    static func table(after heading: String, in text: String) throws -> [[String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == heading }, "no \(heading)")
        let rows = lines[start...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return rows.dropFirst(2).map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// Whether `text` holds `name` as a whole property name, not as part of a longer one.
    static func mentions(_ text: String, _ name: String) -> Bool {
        let nameCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-"))
        var rest = text[...]
        while let found = rest.range(of: name) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let isWhole = [before, after].allSatisfy { character in
                character.map { !$0.unicodeScalars.allSatisfy(nameCharacters.contains) } ?? true
            }
            if isWhole { return true }
            rest = text[found.upperBound...]
        }
        return false
    }

    @Test("There is one row per key, in key order, and a key finds its own row")
    func oneRowPerKey() {
        #expect(ContactKeyTable.rows.map(\.key) == ContactKey.allCases)
        for key in ContactKey.allCases {
            #expect(ContactKeyTable[key].key == key)
        }
    }

    @Test("Field numbers are unique and those of the Contact message in Documentation/EventSchema.md")
    func fieldNumbers() throws {
        let documented = try Self.table(after: "### Contact", in: Self.documentation("EventSchema.md"))
        let byNumber = Dictionary(
            uniqueKeysWithValues: documented.compactMap { cells in UInt32(cells[0]).map { ($0, cells[1]) } })
        #expect(byNumber[EventSchema.ContactField.keys.rawValue] == "keys")
        let numbered = ContactKeyTable.rows.compactMap { row in row.codecField.map { ($0, row.key.rawValue) } }
        #expect(Set(numbered.map(\.0)).count == numbered.count)
        #expect(Dictionary(uniqueKeysWithValues: numbered) == byNumber.filter { $0.key != 1 })
        // The keys without a field: the identifier, stored beside the values, and the derived image keys.
        #expect(
            ContactKeyTable.rows.filter { $0.codecField == nil }.map(\.key) == [
                .identifier, .thumbnailImageData, .imageDataAvailable,
            ])
    }

    @Test("JSON keys are unique, the framework's key names, and the members of a contact's object")
    func jsonKeys() {
        let keys = ContactKeyTable.rows.map(\.jsonKey)
        #expect(keys == ContactKey.allCases.map(\.rawValue))
        #expect(Set(keys).count == keys.count)
        let contact = ModelFixtures.fetched(.all)
        #expect(ContactJSON.object(for: contact).keys.map { $0 } == keys)
        // The writer's literal names, one per key, are the same keys.
        for key in ContactKey.allCases {
            let literal = ContactJSON.quotedName(of: key)
            let written = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
            #expect(written == "\"\(ContactKeyTable[key].jsonKey)\":")
        }
    }

    @Test("vCard properties are unique and those of the mapping in Documentation/VCard.md")
    func vCardNames() throws {
        let documented = try Self.table(after: "## The mapping", in: Self.documentation("VCard.md"))
        var owners: [String: ContactKey] = [:]
        var components: Set<String> = []
        for row in ContactKeyTable.rows {
            let line = try #require(
                documented.first { $0[0].contains("`\(row.key.rawValue)`") }, "VCard.md has no row for \(row.key)")
            for name in row.vCard.propertyNames {
                #expect(
                    Self.mentions(line[1], name) || Self.mentions(line[2], name),
                    "VCard.md does not map \(row.key) to \(name)")
            }
            switch row.vCard {
            case .none:
                #expect(line[1].contains("not written"), "VCard.md writes \(row.key)")
            case .component(let name, let index, _):
                #expect(components.insert("\(name);\(index)").inserted, "two keys are component \(index) of \(name)")
                #expect(owners[name] == nil, "\(name) is both structured and not")
            case .text, .repeatedText, .byKind:
                for name in row.vCard.propertyNames {
                    #expect(owners.updateValue(row.key, forKey: name.uppercased()) == nil, "two keys map to \(name)")
                    #expect(!components.contains { $0.hasPrefix(name + ";") }, "\(name) is both structured and not")
                }
            }
        }
    }

    @Test("The vCard order names each written property once, a structured one at its first component")
    func vCardOrder() {
        let order = ContactKeyTable.vCardOrder
        #expect(Set(order).count == order.count)
        let expected = ContactKeyTable.rows.filter { row in
            switch row.vCard {
            case .none: false
            case .component(_, let index, _): index == 0
            case .text, .repeatedText: true
            // The contact type and the identifier are written at a card's start and end.
            case .byKind: row.kind != .contactType && row.kind != .identifier
            }
        }
        #expect(Set(order) == Set(expected.map(\.key)))
    }

    @Test("The searched name fields are the name index's, and every name field a string")
    func searchedNames() {
        #expect(
            ContactKeyTable.searchedNameKeys == [
                .namePrefix, .givenName, .middleName, .familyName, .previousFamilyName, .nameSuffix, .nickname,
                .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName, .organizationName,
                .phoneticOrganizationName,
            ])
        #expect(ContactKeyTable.rows.filter { $0.search == .email }.map(\.key) == [.emailAddresses])
        #expect(ContactKeyTable.rows.filter { $0.search == .phone }.map(\.key) == [.phoneNumbers])
        for key in ContactKeyTable.searchedNameKeys {
            #expect(ContactKeyTable[key].kind == .string)
        }
    }

    @Test("The accessor of each key's kind reaches the key's own stored property", arguments: ContactKey.allCases)
    func accessors(key: ContactKey) throws {
        var full = ModelFixtures.fullValues()
        // Every key away from its default, the contact type included.
        full.contactType = .organization
        // The stored properties by name, as the values keep them.
        let box = try #require(Mirror(reflecting: full).children.first { $0.label == "box" }?.value)
        let stored = try #require(Mirror(reflecting: box).children.first { $0.label == "stored" }?.value)
        let children = Mirror(reflecting: stored).children
        var property = children.first { $0.label == key.rawValue }?.value
        // A date is kept behind a reference, under its key's name and "Box".
        if let date = children.first(where: { $0.label == key.rawValue + "Box" })?.value {
            property = (date as? ContactValues.DateBox)?.value
        }
        func same<Value: Equatable>(_ value: Value) -> Bool { (property as? Value) == value }
        let reached =
            switch ContactKeyTable[key].kind {
            case .identifier, .thumbnailImageData, .imageDataAvailable: property == nil
            case .contactType: same(full[contactType: key])
            case .string: same(full[string: key])
            case .date, .nonGregorianDate: same(full[date: key])
            case .labeledDates: same(full[labeledDates: key])
            case .labeledPhoneNumbers: same(full[phoneNumbers: key])
            case .labeledStrings: same(full[labeledStrings: key])
            case .labeledPostalAddresses: same(full[postalAddresses: key])
            case .labeledRelations: same(full[contactRelations: key])
            case .labeledSocialProfiles: same(full[socialProfiles: key])
            case .labeledInstantMessageAddresses: same(full[instantMessageAddresses: key])
            case .imageData: same(full[data: key])
            }
        #expect(reached)
        // Copying the key's value through its accessor changes that key, or the image keys, alone.
        var copy = ContactValues()
        copy.copyValue(for: key, from: full)
        let expected: ContactKeySet =
            switch key {
            case .identifier: []
            case .imageData, .thumbnailImageData, .imageDataAvailable: .image
            default: ContactKeySet(key)
            }
        #expect(copy.keys(differingFrom: ContactValues()) == expected)
    }

    @Test("Display names are the table's")
    func displayNames() {
        #expect(Contact.localizedString(forKey: .givenName) == "given name")
        #expect(Contact.localizedString(forKey: .organizationName) == "company")
        #expect(ContactKey.allCases.allSatisfy { !Contact.localizedString(forKey: $0).isEmpty })
    }
}
