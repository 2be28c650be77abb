import LedgerStorage

/// An error from the contact store, with a code modelled on the framework's `CNError` codes and
/// the identifiers and key paths it concerns, so a caller can match it in `catch` and act.
public struct ContactStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; the raw values are the framework's `CNError.Code` values, and codes
    /// from 1000 up are this package's own.
    public enum Code: Int, Sendable, Hashable {
        /// The ledger could not be read or written (the storage error is in ``ContactStoreError/message``).
        case dataAccessError = 2
        /// The client is not authorized (denied, restricted, or not yet determined).
        case authorizationDenied = 100
        /// The client asked for keys it may not use (the note without the notes entitlement).
        case unauthorizedKeys = 102
        /// An update, delete or fetch named a record that does not exist (or is not visible to a limited client).
        case recordDoesNotExist = 200
        /// An add named a record that already exists.
        case insertedRecordAlreadyExists = 201
        /// A subgroup change would make a group contain itself.
        case containmentCycle = 202
        /// A membership crosses containers.
        case containmentScope = 203
        /// A container or group the request refers to does not exist.
        case parentRecordDoesNotExist = 204
        /// An identifier is empty or malformed.
        case recordIdentifierInvalid = 205
        /// Several validation errors; see ``ContactStoreError/validationIssues``.
        case validationMultipleErrors = 300
        /// One value is invalid (for example a birthday without a day); see the key paths.
        case validationConfigurationError = 302
        /// A predicate cannot be answered (for example an empty identifier list is fine, but an unknown group is not).
        case predicateInvalid = 400
        /// The change-history token is malformed or belongs to another ledger.
        case changeHistoryInvalidAnchor = 604
        /// A vCard could not be read.
        case vCardMalformed = 700
        /// The record changed since it was fetched, in a property this request also changes.
        case recordChangedSinceFetch = 1000
        /// The store is closed, read-only, or failed closed after a storage error; it accepts no more saves.
        case storeNotWritable = 1001
    }

    /// The error's code.
    public var code: Code
    /// One line naming the problem.
    public var message: String
    /// The identifiers of the contacts, groups or containers the error concerns.
    public var affectedIdentifiers: [String]
    /// Key paths of the properties concerned, for validation, authorization and conflict errors.
    public var keyPaths: [String]
    /// The individual problems, for validation errors.
    public var validationIssues: [ContactValidationIssue]
    /// The storage error behind a ``Code/dataAccessError``, for callers that act on it (a locked
    /// ledger, corruption at a named segment and offset).
    public var storageError: StorageError?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, affectedIdentifiers: [String] = [], keyPaths: [String] = [],
        validationIssues: [ContactValidationIssue] = []
    ) {
        self.code = code
        self.message = message
        self.affectedIdentifiers = affectedIdentifiers
        self.keyPaths = keyPaths
        self.validationIssues = validationIssues
    }

    /// Wraps a storage error as a data access error.
    public init(_ storage: StorageError) {
        self.init(.dataAccessError, storage.description)
        storageError = storage
    }

    /// The message, with the code's name.
    public var description: String { "\(code) (\(code.rawValue)): \(message)" }
}
