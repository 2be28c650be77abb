// swift-tools-version:6.0
// The guide's example (Documentation/Testing-with-ContactsCompat.md): an app's contact manager,
// written for the Contacts framework, built on Linux against ContactsCompat from outside the
// ContactsLedger package, so that it sees the public API alone. CONTACT_MANAGER_SWIFT_MODE=5
// builds it in the Swift 5 language mode; the default is Swift 6.
//
// ContactsCompatPublicAPI compiles ContactsCompat's own sources (a link to them) from out here,
// against the ContactsLedger and LedgerAudit products: it builds only while ContactsCompat uses
// their public API alone, which a target inside the package, able to see `package` symbols,
// cannot show.
import Foundation
import PackageDescription

let mode: SwiftLanguageMode = ProcessInfo.processInfo.environment["CONTACT_MANAGER_SWIFT_MODE"] == "5" ? .v5 : .v6
let settings: [SwiftSetting] = [.swiftLanguageMode(mode), .unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "ContactManager",
    dependencies: [.package(name: "ContactsLedger", path: "../..")],
    targets: [
        .target(
            name: "ContactsCompatPublicAPI",
            dependencies: [
                .product(name: "ContactsLedger", package: "ContactsLedger"),
                .product(name: "LedgerAudit", package: "ContactsLedger"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-warnings-as-errors"])]
        ),
        .target(
            name: "ContactManager",
            dependencies: [.product(name: "ContactsCompat", package: "ContactsLedger")],
            swiftSettings: settings
        ),
        .testTarget(
            name: "ContactManagerTests",
            dependencies: ["ContactManager", .product(name: "ContactsCompat", package: "ContactsLedger")],
            swiftSettings: settings
        ),
    ]
)
