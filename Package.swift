// swift-tools-version:6.2
// ContactsLedger: the Contacts framework's model of an address book, kept as an
// event-sourced ledger. The package depends on the Swift toolchain alone.
import PackageDescription

/// Every Swift target is built in Swift 6 language mode with warnings as errors.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "ContactsLedger",
    products: [
        .library(name: "ContactsLedger", targets: ["ContactsLedger"]),
        .library(name: "LedgerStorage", targets: ["LedgerStorage"]),
        .executable(name: "contacts-ledger", targets: ["contacts-ledger"]),
        .executable(name: "ledger-bench", targets: ["ledger-bench"]),
    ],
    targets: [
        // CRC32C and SHA-256 with the processor's instructions where present
        // (SSE 4.2, SHA-NI) and portable C fallbacks otherwise.
        .target(
            name: "CLedgerChecksums",
            cSettings: [.unsafeFlags(["-O2"])]
        ),
        // The processor's prefetch hint, which Swift cannot emit: the search indexes' bulk
        // build asks for hash buckets ahead of the keys that land in them.
        .target(name: "CLedgerPrefetch"),
        // Bytes only: file layer, checksums, segments, framing, writer, reader,
        // recovery, lock. Knows nothing about contacts.
        .target(
            name: "LedgerStorage",
            dependencies: ["CLedgerChecksums"],
            swiftSettings: strict
        ),
        // Upcasters over the stored (weakly typed) form of events.
        .target(
            name: "LedgerMigrations",
            path: "Migrations",
            swiftSettings: strict
        ),
        // The public API: the Contacts framework's model over the journal.
        .target(
            name: "ContactsLedger",
            dependencies: ["LedgerStorage", "LedgerMigrations", "CLedgerPrefetch"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "contacts-ledger",
            dependencies: ["ContactsLedger", "LedgerStorage"],
            path: "tools/contacts-ledger",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ledger-bench",
            dependencies: ["ContactsLedger", "LedgerStorage"],
            path: "tools/ledger-bench",
            swiftSettings: strict
        ),
        // A child process for the crash tests: appends to a journal in a loop
        // and reports each acknowledged append, until it is killed.
        .executableTarget(
            name: "ledger-storage-child",
            dependencies: ["LedgerStorage"],
            path: "Tests/Support/ledger-storage-child",
            swiftSettings: strict
        ),
        .testTarget(
            name: "LedgerStorageTests",
            dependencies: ["LedgerStorage"],
            resources: [.copy("Golden")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LedgerMigrationsTests",
            dependencies: ["LedgerMigrations"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ContactsLedgerTests",
            dependencies: ["ContactsLedger"],
            resources: [.copy("Golden")],
            swiftSettings: strict
        ),
        // Runs the built contacts-ledger binary and checks its output and exit codes.
        .testTarget(
            name: "ContactsLedgerCLITests",
            dependencies: ["ContactsLedger", "contacts-ledger"],
            swiftSettings: strict
        ),
    ]
)
