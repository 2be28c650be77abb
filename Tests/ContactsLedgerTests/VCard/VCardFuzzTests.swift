import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Stops the test process with a message naming the seed when a read takes far too long, so
/// that a hang fails loudly and can be reproduced instead of stalling the run.
final class VCardWatchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = 0
    private let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
    }

    /// Arms the watchdog for one input; `done()` disarms it.
    func arm(seconds: Double, input: Int) {
        lock.lock()
        generation += 1
        let armed = generation
        lock.unlock()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            lock.lock()
            let stillRunning = generation == armed
            lock.unlock()
            if stillRunning {
                fatalError("VCard fuzz: input \(input) still being read after \(seconds) s (LEDGER_TEST_SEED=\(seed))")
            }
        }
    }

    func done() {
        lock.lock()
        generation += 1
        lock.unlock()
    }
}

/// Mutated vCards (seeded; LEDGER_TEST_SEED overrides) are fed to the reader for a few
/// seconds: it must never crash or hang, and every rejected card must be a clear error that
/// names the card and a line of the input.
@Suite("VCard fuzz")
struct VCardFuzzTests {
    /// Byte strings that reach the reader's special cases when spliced into a file.
    static let tokens: [[UInt8]] =
        [
            ":", ";", ",", "=", "\\", "\"", "^", "#", " ", "\t", "\r", "\n", "\r\r\n", "=\r\n", "\r\n ", "\r\n\t",
            "BEGIN:VCARD\r\n", "END:VCARD\r\n", "VERSION:2.1\r\n", "VERSION:4.0\r\n", ";ENCODING=QUOTED-PRINTABLE",
            ";ENCODING=b", ";CHARSET=SHIFT_JIS", ";CHARSET=UTF-16", ";CHARSET=bogus", "item1.", "X-ABLabel:",
            "AGENT:\r\n",
            "PHOTO:data:image/png;base64,", "BDAY:--0229", "BDAY:19723101", "\\n", "=C3", "TYPE=\"a,b:c\"", "\u{FEFF}",
        ].map { Array($0.utf8) } + [
            [0x00], [0xFF], [0xFE], [0xC3], [0x80], [0xFF, 0xFE], [0xFE, 0xFF], [0xEF, 0xBB, 0xBF],
        ]

    static func mutate(_ input: [UInt8], using random: inout VCardTestRandom) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where position < bytes.count:
                bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1:
                bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: position)
            case 2 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                bytes.removeSubrange(position..<end)
            case 3 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...200, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            case 4:
                bytes = Array(bytes.prefix(position))
            case 5 where position < bytes.count:
                // Replace a line end by another kind of line end, or fold it.
                if bytes[position] == 0x0A {
                    bytes.insert(
                        contentsOf: [[0x0D], [0x20], [0x09], [0x3D]].randomElement(using: &random)!, at: position)
                }
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            }
        }
        return bytes
    }

    /// The number of lines an editor shows for the bytes (each CR LF, CR CR LF, LF or CR ends one).
    static func lineCount(_ bytes: [UInt8]) -> Int {
        VCardLineReaderProbe.physicalLineCount(bytes)
    }

    @Test("mutated vCards never crash or hang, and every rejected card names its card and line")
    func mutatedInputs() throws {
        let seed = VCardTestSupport.seed("VCard fuzz")
        var random = VCardTestRandom(seed: seed)
        var corpus: [[UInt8]] = []
        for path in try VCardTestSupport.allFixturePaths() {
            corpus.append([UInt8](try VCardTestSupport.fixtureData(path)))
        }
        for version in VCardVersion.allCases {
            let contacts =
                VCardContactCase.handMade.map(\.contact)
                + (0..<5).map { _ in VCardContactGenerator.random(using: &random) }
            corpus.append([UInt8](try VCardSerialization.data(with: contacts, version: version)))
        }
        let watchdog = VCardWatchdog(seed: seed)
        let deadline = Date().addingTimeInterval(4)
        var inputs = 0
        var rejectedTotal = 0
        while Date() < deadline || inputs < 200 {
            let input = Self.mutate(corpus.randomElement(using: &random)!, using: &random)
            watchdog.arm(seconds: 20, input: inputs)
            let outcome = Self.check(input, seed: seed, input: inputs)
            watchdog.done()
            rejectedTotal += outcome
            inputs += 1
        }
        print("VCard fuzz: \(inputs) inputs, \(rejectedTotal) rejected cards, seed \(seed)")
        #expect(inputs >= 200)
    }

    /// Reads one input and checks the invariants; returns the number of rejected cards.
    static func check(_ input: [UInt8], seed: UInt64, input number: Int) -> Int {
        let context = "seed \(seed), input \(number)"
        let data = Data(input)
        let result: VCardImport
        do {
            result = try VCardSerialization.read(data)
        } catch {
            // Only input with no card in it may be refused whole, naming what it holds.
            #expect(VCardSerialization.fileProblem(data) != nil, "\(context): read threw \(error) in lenient mode")
            return 0
        }
        let lines = max(1, lineCount(input))
        let indices = (result.contacts.map(\.index) + result.rejected.map(\.cardIndex)).sorted()
        #expect(indices == Array(0..<indices.count), "\(context): card indices \(indices)")
        for error in result.rejected {
            #expect((1...lines).contains(error.line), "\(context): line \(error.line) of \(lines) in \(error)")
            #expect(
                error.description.contains("index \(error.cardIndex)")
                    && error.description.contains("line \(error.line)"),
                "\(context): \(error)")
            #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(context): \(error)")
        }
        for warning in result.warnings {
            #expect((1...lines).contains(warning.line), "\(context): warning line \(warning.line) of \(lines)")
            #expect(indices.contains(warning.cardIndex), "\(context): warning card \(warning.cardIndex)")
            #expect(!warning.message.contains("\n"), "\(context): \(warning)")
        }
        do {
            let strict = try VCardSerialization.read(data, strict: true)
            #expect(result.rejected.isEmpty && strict.contacts.count == result.contacts.count, "\(context): strict")
        } catch let error as VCardCardError {
            #expect(error == result.rejected.first, "\(context): strict threw \(error)")
        } catch {
            Issue.record("\(context): strict threw \(error)")
        }
        // Whatever was read exports and reads back without a rejected card.
        let contacts = result.contacts.map(\.contact)
        for version in VCardVersion.allCases where !contacts.isEmpty {
            guard let exported = try? VCardSerialization.data(with: contacts, version: version),
                let again = try? VCardSerialization.read(exported)
            else {
                Issue.record("\(context): re-export failed")
                continue
            }
            #expect(
                again.rejected.isEmpty, "\(context): re-import of the \(version.rawValue) export: \(again.rejected)")
            #expect(again.contacts.count == contacts.count, "\(context): re-import count")
        }
        return result.rejected.count
    }
}

/// Counts physical lines the way the reader numbers them.
enum VCardLineReaderProbe {
    static func physicalLineCount(_ bytes: [UInt8]) -> Int {
        VCardLineReader(bytes).physicalLineCount
    }
}
