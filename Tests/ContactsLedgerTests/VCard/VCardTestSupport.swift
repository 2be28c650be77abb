import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// Shared helpers of the vCard tests.
enum VCardTestSupport {
    /// The fixtures: `Tests/Fixtures/vcards` in the package, whose root is found by walking up
    /// from this file to the directory that holds `Package.swift`.
    static let fixturesDirectory: URL? = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.appendingPathComponent("Tests/Fixtures/vcards")
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    /// The fixtures directory, or a test failure naming where it was looked for.
    static func requireFixturesDirectory() throws -> URL {
        let directory = try #require(fixturesDirectory, "no Package.swift above \(#filePath)")
        var isDirectory: ObjCBool = false
        try #require(
            FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue,
            "the vCard fixtures are missing: expected them at \(directory.path)")
        return directory
    }

    /// The bytes of a fixture, by its path relative to the fixtures directory.
    static func fixtureData(_ relativePath: String) throws -> Data {
        try Data(contentsOf: requireFixturesDirectory().appendingPathComponent(relativePath))
    }

    /// Every `.vcf` file under the fixtures directory, as sorted relative paths.
    static func allFixturePaths() throws -> [String] {
        let directory = try requireFixturesDirectory()
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory.path))
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.hasSuffix(".vcf") {
                paths.append(path)
            }
        }
        return paths.sorted()
    }

    /// The first 16 hex digits of the SHA-256 of the bytes.
    static func sha256Prefix(_ data: Data) -> String {
        String(SHA256.hash([UInt8](data)).hex.prefix(16))
    }

    /// A date as `1980-03-22`, or `--03-22` without a year, for comparing with expectations.
    static func dateString(_ date: DateComponents) -> String {
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = value.map(String.init) ?? "?"
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let monthDay = pad(date.month, 2) + "-" + pad(date.day, 2)
        return date.year.map { pad($0, 4) + "-" + monthDay } ?? "--" + monthDay
    }

    /// A seed for a randomized test, from LEDGER_TEST_SEED when set, printed so that a failure
    /// can be reproduced.
    static func seed(_ name: String) -> UInt64 {
        let seed =
            ProcessInfo.processInfo.environment["LEDGER_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        print("\(name): seed \(seed) (set LEDGER_TEST_SEED=\(seed) to reproduce)")
        return seed
    }
}

/// SplitMix64: a small, seeded random number generator, so that a randomized test repeats
/// exactly from its seed.
struct VCardTestRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
