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
        .library(name: "LedgerAudit", targets: ["LedgerAudit"]),
        .library(name: "ContactsInterchange", targets: ["ContactsInterchange"]),
        .library(name: "LedgerStorage", targets: ["LedgerStorage"]),
        .library(name: "ContactsCompat", targets: ["ContactsCompat"]),
        .library(name: "LedgerServer", targets: ["LedgerServer"]),
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
        // recovery, lock, and the payload wire format's primitives. Knows nothing about
        // contacts. Pointer code lives in its IO and Checksums directories only.
        .target(
            name: "LedgerStorage",
            dependencies: ["CLedgerChecksums"],
            swiftSettings: strict
        ),
        // The fault-injecting file layer and its crash model, for tests: no library target
        // depends on it (the tool does, for its documented test hook).
        .target(
            name: "LedgerStorageTesting",
            dependencies: ["LedgerStorage"],
            swiftSettings: strict
        ),
        // The stored (weakly typed) form of events and the upcasters over it.
        .target(
            name: "LedgerMigrations",
            dependencies: ["LedgerStorage"],
            path: "Migrations",
            swiftSettings: strict
        ),
        // The Contacts framework's value types: contacts, labeled values, labels, groups,
        // containers, validation and formatters. No pointer code.
        .target(
            name: "ContactsModel",
            dependencies: ["LedgerStorage"],
            swiftSettings: strict
        ),
        // vCard and JSON, over the model alone.
        .target(
            name: "ContactsInterchange",
            dependencies: ["ContactsModel"],
            swiftSettings: strict
        ),
        // The projection: the contact arena, replay, projection snapshots, the event codec and
        // the search indexes. The one home of pointer code above the storage layer.
        .target(
            name: "ContactsEngine",
            dependencies: ["ContactsModel", "LedgerStorage", "LedgerMigrations", "CLedgerPrefetch"],
            swiftSettings: strict
        ),
        // The public store: ContactStore, save requests, fetches, access, notifications and
        // change history, over the engine and the journal.
        .target(
            name: "ContactsLedger",
            dependencies: ["ContactsModel", "ContactsEngine", "ContactsInterchange", "LedgerStorage"],
            swiftSettings: strict
        ),
        // The audit library: log, revisions, verify, diff, restore, replay check, recover, salvage.
        .target(
            name: "LedgerAudit",
            dependencies: ["ContactsLedger", "ContactsEngine", "ContactsInterchange"],
            swiftSettings: strict
        ),
        // The Contacts framework's own names (`CNContactStore`, `CNMutableContact`, ...) over the
        // public API of ContactsLedger and LedgerAudit, for code written for the framework and
        // for replay-based tests of it (decision 0028).
        .target(
            name: "ContactsCompat",
            dependencies: ["ContactsLedger", "LedgerAudit"],
            swiftSettings: strict
        ),
        // The web application over a ledger: HTTP/1.1 on sockets, the JSON API, live events and
        // the pages. Socket code lives in its HTTP/Socket.swift alone.
        .target(
            name: "LedgerServer",
            dependencies: ["ContactsLedger", "LedgerAudit"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "contacts-ledger",
            // LedgerStorageTesting for the test hook alone (CONTACTS_LEDGER_TEST_FAULTS, README).
            dependencies: ["ContactsLedger", "LedgerAudit", "LedgerServer", "LedgerStorage", "LedgerStorageTesting"],
            path: "tools/contacts-ledger",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ledger-bench",
            dependencies: [
                "ContactsLedger", "ContactsEngine", "LedgerAudit", "LedgerServer", "LedgerStorage", "ContactsCompat",
            ],
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
            dependencies: ["LedgerStorage", "LedgerStorageTesting"],
            resources: [.copy("Golden")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LedgerMigrationsTests",
            dependencies: ["LedgerMigrations", "LedgerStorage"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ContactsLedgerTests",
            dependencies: [
                "ContactsModel", "ContactsInterchange", "ContactsEngine", "ContactsLedger", "LedgerAudit",
                "LedgerStorageTesting",
            ],
            resources: [.copy("Golden")],
            swiftSettings: strict
        ),
        // Talks HTTP to the server over real sockets; drives the pages in a headless browser.
        .testTarget(
            name: "LedgerServerTests",
            dependencies: ["ContactsLedger", "LedgerAudit", "LedgerServer", "contacts-ledger"],
            swiftSettings: strict
        ),
        // Runs the built contacts-ledger binary and checks its output and exit codes.
        .testTarget(
            name: "ContactsLedgerCLITests",
            dependencies: ["ContactsEngine", "ContactsLedger", "LedgerAudit", "LedgerStorage", "contacts-ledger"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ContactsCompatTests",
            // contacts-ledger: another process that commits to a ledger a replay follows.
            dependencies: ["ContactsCompat", "ContactsLedger", "LedgerAudit", "contacts-ledger"],
            swiftSettings: strict
        ),
        // The guide's example (Documentation/Testing-with-ContactsCompat.md): the sources of the
        // separate package under Examples/ContactManager, compiled and run here as one test module.
        .testTarget(
            name: "ContactManagerExampleTests",
            dependencies: ["ContactsCompat"],
            path: "Examples/ContactManager",
            exclude: ["Package.swift", "Sources/ContactsCompatPublicAPI"],
            sources: ["Sources/ContactManager", "Tests/ContactManagerTests"],
            swiftSettings: strict
        ),
    ]
)
