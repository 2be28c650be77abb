import ContactsCompat
import Foundation
import Testing

/// A folder path of its own for one test, removed when the value is released.
final class TestFolder: Sendable {
    /// The folder (not created; a ledger is created there on first open).
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID().uuidString)").path

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A new person with a given and family name.
func person(_ given: String, _ family: String, email: String? = nil, phone: String? = nil) -> CNMutableContact {
    let contact = CNMutableContact()
    contact.givenName = given
    contact.familyName = family
    if let email { contact.emailAddresses = [CNLabeledValue(label: CNLabelHome, value: email as NSString)] }
    if let phone {
        contact.phoneNumbers = [
            CNLabeledValue(label: CNLabelPhoneNumberMobile, value: CNPhoneNumber(stringValue: phone))
        ]
    }
    return contact
}

/// Adds contacts in one request, with an author.
func add(_ contacts: [CNMutableContact], to store: CNContactStore, author: String? = nil) throws {
    let request = CNSaveRequest()
    request.transactionAuthor = author
    for contact in contacts { request.add(contact, toContainerWithIdentifier: nil) }
    try store.execute(request)
}

/// Records a ledger of two people in `folder` and returns their identifiers.
func recordTwoPeople(in folder: TestFolder) async throws -> (ada: String, grace: String) {
    let recorder = try await ContactsReplay(opening: .ledger(at: folder.path), clientIdentifier: "recorder")
    defer { recorder.close() }
    let ada = person("Ada", "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0001")
    let grace = person("Grace", "Hopper", email: "grace@example.com", phone: "+1 202 555 0100")
    try recorder.run { try add([ada, grace], to: CNContactStore(), author: "recorder") }
    return (ada.identifier, grace.identifier)
}

/// The error's code, when `error` is a framework error.
func code(_ error: any Error) -> CNError.Code? { (error as? CNError)?.code }

/// The keys most tests fetch.
var nameKeys: [CNKeyDescriptor] { [CNContactGivenNameKey as NSString, CNContactFamilyNameKey as NSString] }

/// Every file under a folder with its bytes, to show that a recording was not touched.
func folderContents(_ path: String) throws -> [String: Data] {
    var contents: [String: Data] = [:]
    let names = try FileManager.default.subpathsOfDirectory(atPath: path)
    for name in names {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue
        {
            contents[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
        }
    }
    return contents
}
