import ContactsLedger
import Foundation

/// The kinds of data access is asked for, like the framework's `CNEntityType`.
public enum CNEntityType: Int, Sendable, Hashable {
    /// Contacts, the only kind.
    case contacts = 0
}

/// Whether the app may reach contacts, like the framework's `CNAuthorizationStatus`.
public enum CNAuthorizationStatus: Int, Sendable, Hashable, CaseIterable {
    /// The user has not decided yet.
    case notDetermined = 0
    /// Not authorized, and the user cannot change that.
    case restricted = 1
    /// The user denied access.
    case denied = 2
    /// Full access.
    case authorized = 3
    /// Access to the contacts the person chose and those the app created.
    case limited = 4

    /// The native status of the same value.
    var native: AuthorizationStatus { AuthorizationStatus(rawValue: rawValue) ?? .denied }
}

extension Notification.Name {
    /// Posted after contacts change, by this process's saves or by another process's (then
    /// `CNNotificationOriginationExternally` is true in the user info), like the framework's
    /// `CNContactStoreDidChange`. Cached contacts are stale, not invalid: fetch them again.
    public static let CNContactStoreDidChange = Notification.Name("CNContactStoreDidChangeNotification")
}

/// The address book, like the framework's `CNContactStore`, over the ledger the current
/// ``ContactsReplay`` opened.
///
/// Every store made while one replay is current works on that replay's ledger, as every
/// `CNContactStore` of an app works on the one address book of the device. Fetches and saves
/// are synchronous; saves return after their record is on disk.
public final class CNContactStore: NSObject, @unchecked Sendable {
    /// The replay whose ledger this store works on.
    let replay: ContactsReplay

    /// A store over the current replay's ledger.
    public override init() { replay = ContactsReplay.current }

    /// The native store.
    var native: ContactStore { replay.store }

    /// The app's authorization, as the current replay sets it; never blocks.
    public class func authorizationStatus(for entityType: CNEntityType) -> CNAuthorizationStatus {
        let status = ContactsReplay.current.store.authorizationStatus(for: .contacts)
        return CNAuthorizationStatus(rawValue: status.rawValue) ?? .denied
    }

    /// Asks for access; the answer is the replay's scripted one the first time, the recorded
    /// decision afterwards. Calls `completionHandler` on another thread with true and no error
    /// when access is granted (fully or limited), false and the error otherwise.
    public func requestAccess(
        for entityType: CNEntityType, completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let native = self.native
        Task.detached {
            do {
                completionHandler(try await native.requestAccess(for: .contacts), nil)
            } catch {
                completionHandler(false, CNError.from(error))
            }
        }
    }

    /// Asks for access; returns true when it is granted, and throws the framework's error otherwise.
    public func requestAccess(for entityType: CNEntityType) async throws -> Bool {
        do { return try await native.requestAccess(for: .contacts) } catch { throw CNError.from(error) }
    }

    /// The identifier of the container new contacts go to when a request names none.
    public func defaultContainerIdentifier() -> String { native.defaultContainerIdentifier() }

    /// The token of the state the store shows now, for a change-history fetch.
    public var currentHistoryToken: Data? { native.currentHistoryToken }

    /// Executes a save request: every change or none, acknowledged after the record is on disk.
    /// Throws the framework's errors: ``CNError/Code/recordDoesNotExist`` (with the affected
    /// records) for an update or delete of a missing record,
    /// ``CNError/Code/insertedRecordAlreadyExists`` for an add of an existing one, and so on.
    /// The replay records the request and its outcome either way.
    public func execute(_ saveRequest: CNSaveRequest) throws {
        if saveRequest.operations.isEmpty { return }
        let request = saveRequest.nativeRequest()
        do {
            let result = try native.execute(request)
            replay.record(request, outcome: .committed(sequence: result.sequence), described: saveRequest)
        } catch {
            let failure = CNError.from(error, records: saveRequest.records)
            replay.record(request, outcome: .failed(failure.code), described: saveRequest)
            throw failure
        }
        if saveRequest.shouldRefetchContacts { refetch(saveRequest.contactsToRefetch) }
    }

    /// Brings saved contacts up to date with what the store holds, as the framework's save
    /// request does, keeping the keys each was fetched with.
    private func refetch(_ contacts: [CNMutableContact]) {
        for contact in contacts {
            let keys = contact.native.availableKeys
            if let saved = try? native.unifiedContact(withIdentifier: contact.identifier, keysToFetch: [keys]) {
                contact.native = saved.mutableCopy()
            }
        }
    }
}
