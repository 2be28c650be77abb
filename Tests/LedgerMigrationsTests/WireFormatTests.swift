import Foundation
import Testing

@testable import LedgerMigrations
@testable import LedgerStorage

@Suite("The wire format")
struct WireFormatTests {
    @Test(
        "Varints take 7 bits a byte and round-trip at every length boundary",
        arguments: [
            (UInt64(0), 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3), (UInt64(UInt32.max), 5),
            (1 << 63 - 1, 9), (1 << 63, 10), (UInt64.max, 10),
        ] as [(UInt64, Int)])
    func varintSizes(value: UInt64, size: Int) throws {
        var encoder = WireEncoder()
        encoder.appendRawVarint(value)
        #expect(encoder.count == size)
        #expect(WireFormat.varintSize(value) == size)
        let decoded = try WireReader.withReader(encoder.bytes) { (reader: inout WireReader) throws(WireFormatError) in
            let value = try reader.readVarint()
            #expect(reader.isAtEnd)
            return value
        }
        #expect(decoded == value)
    }

    @Test(
        "Two- and three-byte varints, padded ones among them, read as their bits say",
        arguments: [
            ([0x96, 0x01], 150), ([0xFF, 0x7F], 16_383), ([0x80, 0x00], 0), ([0x81, 0x00], 1),
            ([0x80, 0x01], 128), ([0x80, 0x80, 0x01], 16_384), ([0xFF, 0x80, 0x00], 127),
        ] as [([UInt8], UInt64)])
    func longVarints(bytes: [UInt8], value: UInt64) throws {
        let decoded = try WireReader.withReader(bytes) { (reader: inout WireReader) throws(WireFormatError) in
            let value = try reader.readVarint()
            #expect(reader.isAtEnd)
            return value
        }
        #expect(decoded == value)
    }

    @Test("A nested reader does not read a varint's second byte past its own end")
    func varintAtNestedEnd() {
        // A two-byte varint whose second byte lies just past the nested reader's range.
        let bytes: [UInt8] = [0x96, 0x01]
        bytes.withUnsafeBufferPointer { buffer in
            var nested = WireReader(buffer: buffer, range: 0..<1)
            #expect(throws: WireFormatError(offset: 0, reason: .truncatedVarint)) { try nested.readVarint() }
        }
    }

    @Test(
        "Zigzag keeps small magnitudes small and round-trips the extremes",
        arguments: [
            (Int64(0), UInt64(0)), (-1, 1), (1, 2), (-2, 3), (Int64.max, UInt64.max - 1), (Int64.min, UInt64.max),
        ] as [(Int64, UInt64)])
    func zigzag(value: Int64, encoded: UInt64) {
        #expect(WireFormat.zigzag(value) == encoded)
        #expect(WireFormat.unzigzag(encoded) == value)
    }

    @Test("Keys and values are laid out as protobuf lays them out")
    func layout() {
        var encoder = WireEncoder()
        encoder.appendVarint(field: 1, value: 150)
        encoder.appendString(field: 2, "testing")
        encoder.appendSignedVarint(field: 3, value: -2)
        encoder.appendBool(field: 16, value: true)
        encoder.appendMessage(field: 4) { $0.appendVarint(field: 1, value: 1) }
        encoder.appendMessage(field: 5, omitIfEmpty: true) { _ in }
        encoder.appendMessage(field: 6) { _ in }
        #expect(
            encoder.bytes == [
                0x08, 0x96, 0x01,  // field 1, varint 150
                0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6E, 0x67,  // field 2, "testing"
                0x18, 0x03,  // field 3, zigzag(-2)
                0x80, 0x01, 0x01,  // field 16 takes a two-byte key
                0x22, 0x02, 0x08, 0x01,  // field 4, nested message
                0x32, 0x00,  // field 6, empty message (field 5 was omitted)
            ])
    }

    @Test(
        "Nested messages of every length get their length patched in",
        arguments: [0, 1, 125, 126, 127, 128, 200, 16_381, 16_382, 16_383, 16_384, 70_000])
    func nestedLengths(bodyBytes: Int) throws {
        let body = (0..<bodyBytes).map { UInt8(truncatingIfNeeded: $0) }
        var encoder = WireEncoder()
        encoder.appendMessage(field: 1) { inner in
            inner.appendMessage(field: 2) { $0.appendBytes(field: 3, bytes: body) }
            inner.appendVarint(field: 4, value: 9)
        }
        encoder.appendVarint(field: 5, value: 7)
        let outer = try StoredMessage(parsing: encoder.bytes)
        #expect(outer.entries.map(\.field) == [1, 5])
        let middle = try #require(try outer.message(1))
        #expect(middle.varint(4) == 9)
        #expect(try middle.message(2)?.first(3) == .bytes(body))
        #expect(outer.varint(5) == 7)
    }

    @Test("A stored message survives encoding and parsing, order and repeats included")
    func storedRoundTrip() throws {
        let message = StoredMessage([
            3: .string("héllo 👋"), 1: .varint(0), 3: .string(""), 2: .bytes([0, 255]), 1: .signed(-40),
            536_870_911: .varint(UInt64.max),
        ])
        let parsed = try StoredMessage(parsing: message.encoded)
        #expect(parsed == message)
        #expect(parsed.strings(3) == ["héllo 👋", ""])
        #expect(parsed.all(1) == [.varint(0), .varint(79)])
        #expect(parsed.first(1)?.signedValue == 0)
        #expect(parsed.all(1).last?.signedValue == -40)
        #expect(parsed.string(2) == nil)  // bytes that are not UTF-8
        #expect(parsed.string(1) == nil)  // a varint
        #expect(parsed.varint(3) == nil)
        #expect(parsed.first(4) == nil)
        #expect(try StoredMessage(parsing: []) == StoredMessage())
    }

    @Test("Fields can be set, removed and renamed in place")
    func editing() {
        var message = StoredMessage([1: .varint(1), 2: .string("a"), 1: .varint(2), 3: .varint(3)])
        message.set(1, .varint(9))
        #expect(message == StoredMessage([1: .varint(9), 2: .string("a"), 3: .varint(3)]))
        message.set(4, .varint(4))
        #expect(message.entries.last == StoredMessage.Entry(field: 4, value: .varint(4)))
        message.rename(2, to: 7)
        #expect(message == StoredMessage([1: .varint(9), 7: .string("a"), 3: .varint(3), 4: .varint(4)]))
        message.remove(3)
        message.remove(8)
        #expect(message == StoredMessage([1: .varint(9), 7: .string("a"), 4: .varint(4)]))
        #expect(message.contains(7) && !message.contains(2))
    }

    @Test(
        "Malformed input is refused with the offset where reading stopped",
        arguments: [
            ([0x08], 1, WireFormatError.Reason.truncatedVarint),
            ([0x08, 0x80], 1, .truncatedVarint),
            ([0x80], 0, .truncatedVarint),
            ([0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x02], 1, .varintOverflow),
            ([0x08] + [UInt8](repeating: 0x80, count: 10) + [0x00], 1, .varintOverflow),
            ([0x00, 0x01], 0, .fieldNumberOutOfRange(0)),
            ([0x07, 0x01], 0, .fieldNumberOutOfRange(0)),
            ([0x80, 0x80, 0x80, 0x80, 0x10], 0, .fieldNumberOutOfRange(1 << 29)),
            ([0x09, 0, 0, 0, 0, 0, 0, 0, 0], 0, .unsupportedWireType(1)),
            ([0x08, 0x01, 0x0D, 0, 0, 0, 0], 2, .unsupportedWireType(5)),
            ([0x0B], 0, .unsupportedWireType(3)),
            ([0x0C], 0, .unsupportedWireType(4)),
            ([0x0A, 0x02, 0x41], 1, .lengthOutOfBounds(length: 2, remaining: 1)),
            (
                [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], 1,
                .lengthOutOfBounds(length: UInt64.max, remaining: 0)
            ),
            ([0x0A], 1, .truncatedVarint),
        ] as [([UInt8], Int, WireFormatError.Reason)])
    func malformed(bytes: [UInt8], offset: Int, reason: WireFormatError.Reason) {
        #expect(throws: WireFormatError(offset: offset, reason: reason)) { try WireDecoder.decode(bytes) }
    }

    @Test("Offsets inside a nested reader are offsets in the whole buffer")
    func nestedOffsets() throws {
        let bytes: [UInt8] = [0x08, 0x01, 0x12, 0x03, 0x08, 0x0A, 0x05]
        let error = try #require(throws: WireFormatError.self) {
            try WireReader.withReader(bytes) { (reader: inout WireReader) throws(WireFormatError) in
                _ = try reader.readKey()
                _ = try reader.readVarint()
                _ = try reader.readKey()
                var nested = try reader.readNested()
                _ = try nested.readKey()
                _ = try nested.readVarint()
                _ = try nested.readKey()
            }
        }
        #expect(error == WireFormatError(offset: 6, reason: .fieldNumberOutOfRange(0)))
    }

    @Test("Random bytes never crash or hang the decoder")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        let seed =
            ProcessInfo.processInfo.environment["LEDGER_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max, using: &generator)
        print("Random bytes never crash or hang the decoder: seed \(seed) (set LEDGER_TEST_SEED=\(seed) to reproduce)")
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for _ in 0..<20_000 {
            let bytes = (0..<Int(next() % 40)).map { _ in UInt8(truncatingIfNeeded: next()) }
            if let message = try? WireDecoder.decode(bytes) {
                // Whatever parses encodes to something that parses to the same message.
                #expect((try? StoredMessage(parsing: message.encoded)) == message)
            }
        }
    }

    @Test("Errors describe themselves in one line")
    func descriptions() {
        let error = WireFormatError(offset: 12, reason: .lengthOutOfBounds(length: 9, remaining: 2))
        #expect(error.description == "length 9 exceeds the 2 bytes that remain at byte 12")
        #expect(WireType.lengthDelimited.description == "length-delimited")
    }
}
