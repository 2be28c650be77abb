import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

/// A directory of its own for one test, removed when the test ends.
final class StoreDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "contacts-ledger-store-tests-\(getpid())/\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    var ledger: String { path + "/contacts.ledger" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Copies a checked-in ledger to `destination` with the modes a ledger has (directories 0700,
/// files 0600): git checks files out 0644 and directories 0755, which an open refuses.
func copyLedger(_ source: String, to destination: String) throws {
    try FileManager.default.copyItem(atPath: source, toPath: destination)
    precondition(chmod(destination, 0o700) == 0)
    for name in try FileManager.default.subpathsOfDirectory(atPath: destination) {
        let path = destination + "/" + name
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        precondition(chmod(path, isDirectory.boolValue ? 0o700 : 0o600) == 0)
    }
}

/// A new contact with the usual fields of the examples.
func makeContact(
    given: String, family: String, organization: String = "", phones: [(String, String)] = [],
    emails: [(String, String)] = [], birthday: DateComponents? = nil
) -> MutableContact {
    var contact = MutableContact()
    contact.givenName = given
    contact.familyName = family
    contact.organizationName = organization
    contact.phoneNumbers = phones.map { LabeledValue(label: $0.0, value: PhoneNumber(stringValue: $0.1)) }
    contact.emailAddresses = emails.map { LabeledValue(label: $0.0, value: $0.1) }
    contact.birthday = birthday
    return contact
}

/// Adds contacts in one save request and returns them.
@discardableResult
func add(_ contacts: [MutableContact], to store: ContactStore, author: String? = nil) throws -> [MutableContact] {
    var request = SaveRequest(transactionAuthor: author)
    for contact in contacts { request.add(contact, toContainerWithIdentifier: nil) }
    try store.execute(request)
    return contacts
}

/// Whether a store's search indexes are still waiting to be built (read without using them),
/// checking that the cell's flag, which every search reads in place, says the same.
func hasDeferredIndexes(_ store: ContactStore, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let flag = store.pipeline.readState(usingIndexes: false) { projection, _ in projection.hasDeferredIndexes }
    #expect(store.pipeline.cell.hasDeferredIndexes == flag, sourceLocation: sourceLocation)
    return flag
}

/// The keys a list view shows.
let listKeys: [any KeyDescriptor] = [ContactKey.givenName, ContactKey.familyName, ContactKey.organizationName]

/// Every key but the note.
let detailKeys: [any KeyDescriptor] = ContactKey.allCases.filter { $0 != .note }

/// The identifiers of contacts.
func identifiers(_ contacts: [Contact]) -> [String] { contacts.map(\.identifier) }

/// The sample address book several tests start from.
func seedSampleContacts(
    _ store: ContactStore
) throws -> (ada: MutableContact, jose: MutableContact, grace: MutableContact, kenji: MutableContact) {
    let ada = makeContact(
        given: "Ada", family: "Lovelace", organization: "Analytical Engines",
        phones: [(Label.phoneNumberMobile, "+44 20 7946 0958")], emails: [(Label.home, "Ada@Example.org")],
        birthday: DateComponents(month: 12, day: 10))
    let jose = makeContact(
        given: "José", family: "Núñez", phones: [(Label.home, "(415) 555-0100")],
        emails: [(Label.work, "jose@example.com")])
    let grace = makeContact(
        given: "Grace", family: "Hopper", organization: "US Navy",
        phones: [(Label.work, "+1 415 555 0199")], emails: [(Label.work, "grace@navy.example")],
        birthday: DateComponents(year: 1906, month: 12, day: 9))
    let kenji = makeContact(given: "Kenji", family: "Sato", organization: "Sato Trading")
    try add([ada, jose, grace, kenji], to: store, author: "seed")
    return (ada, jose, grace, kenji)
}
