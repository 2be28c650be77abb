import Foundation

// An app's contact manager, written for the Contacts framework: on Apple platforms it uses the
// framework, elsewhere ContactsCompat, with the same code.
#if canImport(Contacts)
    import Contacts
#else
    import ContactsCompat
#endif

/// Lists, adds, renames and deletes contacts, and reloads its list when the address book changes.
public final class ContactManager: @unchecked Sendable {
    /// The transaction author of every save, so that change history and tests can tell this
    /// app's saves from others'.
    public static let author = "com.example.contactmanager"

    /// The keys the list shows: fetch only what is needed.
    public static var listKeys: [CNKeyDescriptor] {
        [
            CNContactGivenNameKey as CNKeyDescriptor, CNContactFamilyNameKey as CNKeyDescriptor,
            CNContactFormatter.descriptorForRequiredKeys(for: .fullName),
        ]
    }

    private let store = CNContactStore()
    private let lock = NSLock()
    private var listed: [CNContact] = []
    private var observer: NSObjectProtocol?

    /// A manager over the device's address book.
    public init() {}

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// Asks the person for access to contacts.
    public func requestAccess() async throws -> Bool {
        try await store.requestAccess(for: .contacts)
    }

    /// The listed contacts' full names, in family-name order.
    public var names: [String] {
        lock.lock()
        defer { lock.unlock() }
        return listed.map { CNContactFormatter.string(from: $0, style: .fullName) ?? "" }
    }

    /// Fetches the list again, with the list's keys only.
    public func reload() throws {
        let request = CNContactFetchRequest(keysToFetch: Self.listKeys)
        request.sortOrder = .familyName
        var fetched: [CNContact] = []
        try store.enumerateContacts(with: request) { contact, _ in fetched.append(contact) }
        lock.lock()
        listed = fetched
        lock.unlock()
    }

    /// Adds a person with a mobile number; returns the new contact's identifier.
    @discardableResult
    public func add(givenName: String, familyName: String, mobile: String) throws -> String {
        let contact = CNMutableContact()
        contact.givenName = givenName
        contact.familyName = familyName
        contact.phoneNumbers = [
            CNLabeledValue(label: CNLabelPhoneNumberMobile, value: CNPhoneNumber(stringValue: mobile))
        ]
        let request = CNSaveRequest()
        request.transactionAuthor = Self.author
        request.add(contact, toContainerWithIdentifier: nil)
        try store.execute(request)
        return contact.identifier
    }

    /// Changes a contact's given name: fetches it with the name keys alone and updates a mutable copy.
    public func rename(_ identifier: String, givenName: String) throws {
        let keys = [CNContactGivenNameKey as CNKeyDescriptor]
        guard
            let contact = try store.unifiedContact(withIdentifier: identifier, keysToFetch: keys).mutableCopy()
                as? CNMutableContact
        else { return }
        contact.givenName = givenName
        let request = CNSaveRequest()
        request.transactionAuthor = Self.author
        request.update(contact)
        try store.execute(request)
    }

    /// Deletes a contact.
    public func delete(_ identifier: String) throws {
        let keys: [CNKeyDescriptor] = []
        guard
            let contact = try store.unifiedContact(withIdentifier: identifier, keysToFetch: keys).mutableCopy()
                as? CNMutableContact
        else { return }
        let request = CNSaveRequest()
        request.transactionAuthor = Self.author
        request.delete(contact)
        try store.execute(request)
    }

    /// Reloads the list whenever the address book changes, then calls `changed`.
    public func reloadOnChange(_ changed: @escaping @Sendable () -> Void) {
        observer = NotificationCenter.default.addObserver(
            forName: .CNContactStoreDidChange, object: nil, queue: nil
        ) { [weak self] _ in
            try? self?.reload()
            changed()
        }
    }
}
