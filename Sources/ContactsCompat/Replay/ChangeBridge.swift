import ContactsLedger
import Dispatch
import Foundation

/// The user-info key the framework sets to true for a change made outside the app.
public let CNNotificationOriginationExternally = "CNNotificationOriginationExternally"
/// The user-info key of the identifiers a save of this app changed.
public let CNNotificationSaveIdentifiersKey = "CNNotificationSaveIdentifiersKey"

/// Reposts a store's `contactStoreDidChange` as `CNContactStoreDidChange`, in order, on a queue
/// of its own, so that an observer may fetch or save through the store, as the framework lets it.
final class ChangeBridge: @unchecked Sendable {
    /// The observer of the native notification; removed by ``stop()``.
    private let token: any NSObjectProtocol

    /// Starts reposting the changes of `store`.
    init(store: ContactStore) {
        let queue = DispatchQueue(label: "ContactsCompat.CNContactStoreDidChange")
        token = NotificationCenter.default.addObserver(forName: .contactStoreDidChange, object: store, queue: nil) {
            note in
            let info = note.userInfo ?? [:]
            let external = info[ContactStoreChangeKey.originatedExternally] as? Bool ?? false
            let identifiers = info[ContactStoreChangeKey.affectedIdentifiers] as? [String] ?? []
            let authors = info[ContactStoreChangeKey.authors] as? [String] ?? []
            queue.async {
                var userInfo: [AnyHashable: Any] = [
                    ContactStoreChangeKey.affectedIdentifiers: identifiers, ContactStoreChangeKey.authors: authors,
                ]
                if external {
                    userInfo[CNNotificationOriginationExternally] = true
                } else {
                    userInfo[CNNotificationSaveIdentifiersKey] = identifiers
                }
                NotificationCenter.default.post(name: .CNContactStoreDidChange, object: nil, userInfo: userInfo)
            }
        }
    }

    /// Stops reposting.
    func stop() { NotificationCenter.default.removeObserver(token) }
}
