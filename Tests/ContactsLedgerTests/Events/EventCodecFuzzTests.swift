import Foundation
import LedgerMigrations
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("The event decoder under damaged input")
struct EventCodecFuzzTests {
    /// Passes events of version 0 through unchanged, so that damaged bytes take the slow path.
    struct PassThrough: Upcaster {
        let sourceVersion: UInt16 = 0
        func upcast(_ event: StoredEvent) throws(MigrationError) -> StoredEvent {
            StoredEvent(schemaVersion: 1, message: event.message)
        }
    }

    /// Valid payloads to damage: the golden event, a typical add, and generated events.
    static func corpus(using generator: inout EventFixtures.SeededGenerator) -> [[UInt8]] {
        var payloads = [
            EventCodec.encode(EventCodecTests.goldenEvent),
            EventCodec.encode(LedgerEvent(operations: [EventFixtures.typicalAdd()])),
        ]
        for _ in 0..<24 {
            let operations = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                EventFixtures.randomOperation(using: &generator)
            }
            let payload = EventCodec.encode(LedgerEvent(operations: operations))
            // Keep the damage where the structure is, not in a large image.
            if payload.count <= 4096 { payloads.append(payload) }
        }
        return payloads
    }

    /// Damages a payload in one to four ways.
    static func mutate(_ payload: [UInt8], using generator: inout EventFixtures.SeededGenerator) -> [UInt8] {
        var bytes = payload
        func position(inclusiveEnd: Bool = false) -> Int {
            Int.random(in: 0...max(0, bytes.count - (inclusiveEnd ? 0 : 1)), using: &generator)
        }
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            switch Int.random(in: 0...7, using: &generator) {
            case 0 where !bytes.isEmpty:  // flip a bit
                bytes[position()] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            case 1:  // truncate
                bytes.removeSubrange(position(inclusiveEnd: true)...)
            case 2:  // insert random bytes
                let inserted = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                bytes.insert(contentsOf: inserted, at: position(inclusiveEnd: true))
            case 3 where !bytes.isEmpty:  // replace a byte at random
                bytes[position()] = UInt8.random(in: 0...255, using: &generator)
            case 4 where !bytes.isEmpty:  // write a value that sits on a varint boundary
                bytes[position()] = [0x00, 0x01, 0x7F, 0x80, 0xFF].randomElement(using: &generator)!
            case 5 where !bytes.isEmpty:  // delete a slice
                let start = position()
                bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...16, using: &generator)))
            case 6 where !bytes.isEmpty:  // duplicate a slice
                let start = position()
                let slice = bytes[start..<min(bytes.count, start + Int.random(in: 1...32, using: &generator))]
                bytes.insert(contentsOf: slice, at: position(inclusiveEnd: true))
            default:  // random bytes, sometimes behind a plausible first key
                let random = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                bytes = Bool.random(using: &generator) ? random : [0x0A] + random
            }
        }
        return bytes
    }

    @Test(
        "Damaged encodings never crash or hang the decoder, and every failure is a decoding error",
        .timeLimit(.minutes(1)))
    func damagedPayloads() {
        var generator = EventFixtures.SeededGenerator(seed: EventFixtures.seed("Damaged encodings"))
        let corpus = Self.corpus(using: &generator)
        let chain = UpcasterChain(currentVersion: 2, upcasters: [PassThrough(), UpcastEventV1ToV2()])
        let deadline = ContinuousClock.now + .seconds(3)
        var decoded = 0
        var refused = 0
        for iteration in 0..<40_000 {
            // Bounded in time: a slow machine runs fewer iterations, never a longer test.
            if iteration % 256 == 0 && ContinuousClock.now > deadline { break }
            let bytes = Self.mutate(corpus.randomElement(using: &generator)!, using: &generator)
            let slowPath = iteration % 8 == 0
            do throws(EventDecodingError) {
                let event = try EventCodec.decode(bytes, schemaVersion: slowPath ? 0 : 2, upcasters: chain)
                decoded += 1
                // Whatever decodes encodes to a payload that decodes to the same event.
                #expect(try EventCodec.decode(EventCodec.encode(event), schemaVersion: 2) == event)
            } catch {
                refused += 1
                if let offset = error.offset, error.upcastFrom == nil {
                    #expect(offset >= 0 && offset <= bytes.count, "\(error)")
                }
                #expect(!error.description.isEmpty)
            }
        }
        print("Damaged encodings: \(decoded) decoded, \(refused) refused")
        #expect(refused > 0)
    }

    @Test(
        "A replay's decoding, which only checks the values it keeps as bytes, refuses exactly what decoding refuses",
        .timeLimit(.minutes(1)))
    func checkingMatchesDecoding() throws {
        var generator = EventFixtures.SeededGenerator(seed: EventFixtures.seed("Checking matches decoding"))
        let corpus = Self.corpus(using: &generator)
        let deadline = ContinuousClock.now + .seconds(3)
        var compared = 0
        for iteration in 0..<40_000 {
            if iteration % 256 == 0 && ContinuousClock.now > deadline { break }
            let original = corpus.randomElement(using: &generator)!
            let bytes = iteration % 4 == 0 ? original : Self.mutate(original, using: &generator)
            var replayed = ReplayOperations()
            let checked = Result { () throws(EventDecodingError) in try EventCodec.decodeCurrent(bytes, into: &replayed)
            }
            let decoded = Result { () throws(EventDecodingError) in try EventCodec.decode(bytes, schemaVersion: 2) }
            switch (checked, decoded) {
            case (.success, .success(let event)):
                compared += 1
                #expect(replayed.count == event.operations.count)
                // What the replay keeps as bytes decodes to what decoding gave.
                for (kept, operation) in zip(replayed.operations, event.operations) {
                    switch (kept, operation) {
                    case (
                        .add(let identifier, let container, let creator, let contact),
                        .addContact(let expected, let expectedContainer, let expectedCreator, let values)
                    ):
                        #expect(identifier.string == expected && container.string == expectedContainer)
                        #expect(creator == expectedCreator)
                        #expect(try ContactCodec.decode(Array(bytes[contact])).values == values)
                    case (
                        .update(let identifier, let keys, let new),
                        .updateContact(let expected, let expectedKeys, _, let values)
                    ):
                        #expect(identifier.string == expected && keys == expectedKeys)
                        #expect(try ContactCodec.decode(Array(bytes[new])).values == values)
                    case (.other, .addContact), (.other, .updateContact), (.add, _), (.update, _):
                        Issue.record("operation kinds differ: \(kept) and \(operation)")
                    case (.other, _):
                        break
                    }
                }
            case (.failure(let checkError), .failure(let decodeError)):
                #expect(checkError.description == decodeError.description)
            default:
                Issue.record("checking and decoding disagree on \(bytes): \(checked) and \(decoded)")
            }
        }
        #expect(compared > 0)
    }
}
