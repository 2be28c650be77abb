import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// The byte-level update merge and index-field reader a replay uses (decision 0009), against
/// decoding, copying and encoding.
@Suite("Encoded contact merge and index fields")
struct ContactMergeTests {
    /// What applying an update does with values: decode both, copy `keys`, encode every key.
    private func mergedByValues(_ current: ContactValues, _ update: ContactValues, _ keys: ContactKeySet) -> [UInt8] {
        var values = current
        for key in keys.keys { values.copyValue(for: key, from: update) }
        return ContactCodec.encode(values, keys: .all)
    }

    private func randomKeys(using generator: inout EventFixtures.SeededGenerator) -> ContactKeySet {
        var keys = ContactKeySet()
        for key in ContactKey.allCases where Int.random(in: 0..<4, using: &generator) == 0 { keys.insert(key) }
        return keys
    }

    @Test("Merging encoded messages gives the bytes that decoding, copying and encoding give")
    func mergeMatchesValues() throws {
        let seed = EventFixtures.seed("mergeMatchesValues")
        var generator = EventFixtures.SeededGenerator(seed: seed)
        var merged: [UInt8] = []
        for _ in 0..<400 {
            let current = EventFixtures.randomValues(using: &generator)
            let update = EventFixtures.randomValues(using: &generator)
            let keys = randomKeys(using: &generator)
            let currentBytes = ContactCodec.encode(current, keys: .all)
            let updateBytes = ContactCodec.encode(update, keys: keys)
            let done = currentBytes.withUnsafeBufferPointer { current in
                updateBytes.withUnsafeBufferPointer { update in
                    ContactCodec.mergeUpdate(current: current, update: update, keys: keys, into: &merged)
                }
            }
            #expect(done, "seed \(seed)")
            let expected = mergedByValues(current, update, keys)
            #expect(merged == expected, "seed \(seed), keys \(keys.rawValue)")
            #expect(try ContactCodec.decode(merged).values == ContactCodec.decode(expected).values)
        }
    }

    @Test("A message whose fields are out of order or unknown is left to the decoder")
    func unusualMessagesRefused() {
        var merged: [UInt8] = []
        let update = ContactCodec.encode(ContactValues(), keys: [.givenName])
        // Family name (field 3) before given name (field 2), then a field this schema lacks (99).
        let outOfOrder: [UInt8] = [0x1A, 0x01, 0x42, 0x12, 0x01, 0x41]
        let unknown: [UInt8] = [0x12, 0x01, 0x41, 0x9A, 0x06, 0x01, 0x43]
        for current in [outOfOrder, unknown] {
            let done = current.withUnsafeBufferPointer { current in
                update.withUnsafeBufferPointer { update in
                    ContactCodec.mergeUpdate(current: current, update: update, keys: [.givenName], into: &merged)
                }
            }
            #expect(!done)
        }
    }

    @Test("The index fields read from bytes are the name fields, addresses and numbers decoding gives")
    func indexedFieldsMatchDecoding() throws {
        let seed = EventFixtures.seed("indexedFieldsMatchDecoding")
        var generator = EventFixtures.SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let values = EventFixtures.randomValues(using: &generator)
            var names: [String] = []
            var emails: [String] = []
            var phones: [String] = []
            try ContactCodec.encode(values, keys: .all).withUnsafeBufferPointer { bytes in
                try ContactCodec.forEachIndexedField(in: bytes) { field, utf8 in
                    let text = String(decoding: utf8, as: UTF8.self)
                    switch field {
                    case .name: names.append(text)
                    case .email: emails.append(text)
                    case .phone: phones.append(text)
                    }
                }
            }
            var expectedNames: [String] = []
            SearchFolding.forEachNameField(of: values) { if !$0.isEmpty { expectedNames.append($0) } }
            #expect(names.sorted() == expectedNames.sorted(), "seed \(seed)")
            #expect(emails == values.emailAddresses.map(\.value).filter { !$0.isEmpty }, "seed \(seed)")
            #expect(phones == values.phoneNumbers.map(\.value.stringValue).filter { !$0.isEmpty }, "seed \(seed)")
        }
    }

    @Test("A name field written twice is read once, with its last value, as decoding reads it")
    func repeatedFieldReadOnce() throws {
        // The key set, then given name "A", given name "B" and family name "C".
        let bytes =
            ContactCodec.encode(ContactValues(), keys: .all) + [0x12, 0x01, 0x41, 0x12, 0x01, 0x42, 0x1A, 0x01, 0x43]
        var names: [String] = []
        try bytes.withUnsafeBufferPointer { buffer in
            try ContactCodec.forEachIndexedField(in: buffer) { _, utf8 in
                names.append(String(decoding: utf8, as: UTF8.self))
            }
        }
        let decoded = try ContactCodec.decode(bytes).values
        #expect(decoded.givenName == "B")
        #expect(names.sorted() == ["B", "C"])
    }
}
