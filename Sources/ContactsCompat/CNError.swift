import ContactsLedger
import Foundation

/// The domain of the framework's errors.
public let CNErrorDomain = "CNErrorDomain"
/// User-info key: the contacts, groups, containers or requests an error concerns.
public let CNErrorUserInfoAffectedRecordsKey = "CNAffectedRecords"
/// User-info key: the identifiers of the records an error concerns.
public let CNErrorUserInfoAffectedRecordIdentifiersKey = "CNAffectedRecordIdentifiers"
/// User-info key: the individual errors of ``CNError/Code/validationMultipleErrors``.
public let CNErrorUserInfoValidationErrorsKey = "CNValidationErrors"
/// User-info key: key paths of the properties an error concerns.
public let CNErrorUserInfoKeyPathsKey = "CNKeyPaths"

/// An error of the Contacts framework: a code of ``CNError/Code`` and the records and key paths
/// it concerns. Catch it as the framework's: `catch let error as CNError where error.code ==
/// .recordDoesNotExist`, or `catch CNError.recordDoesNotExist`.
public struct CNError: CustomNSError, @unchecked Sendable, CustomStringConvertible {
    /// The framework's error codes, with its numeric values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// A communication error occurred.
        case communicationError = 1
        /// An error with data access occurred (the ledger could not be read or written).
        case dataAccessError = 2
        /// The app is not authorized to access contacts.
        case authorizationDenied = 100
        /// There is no accessible writable container.
        case noAccessableWritableContainers = 101
        /// The app asked for keys it may not use (the note without the notes entitlement).
        case unauthorizedKeys = 102
        /// The user disabled the feature.
        case featureDisabledByUser = 103
        /// The feature is not available.
        case featureNotAvailable = 104
        /// The record does not exist.
        case recordDoesNotExist = 200
        /// The inserted record already exists.
        case insertedRecordAlreadyExists = 201
        /// A group would contain itself.
        case containmentCycle = 202
        /// A membership crosses containers.
        case containmentScope = 203
        /// The parent record does not exist.
        case parentRecordDoesNotExist = 204
        /// The record identifier is invalid.
        case recordIdentifierInvalid = 205
        /// The record is not writable.
        case recordNotWritable = 206
        /// The parent container is not writable.
        case parentContainerNotWritable = 207
        /// Several validation errors; see ``CNError/validationErrors``.
        case validationMultipleErrors = 300
        /// A value has the wrong type.
        case validationTypeMismatch = 301
        /// A value is configured wrongly (for example a birthday without a day).
        case validationConfigurationError = 302
        /// The predicate is invalid (not one of the framework's predicates for this fetch).
        case predicateInvalid = 400
        /// The change violates a policy.
        case policyViolation = 500
        /// The client identifier is invalid.
        case clientIdentifierInvalid = 600
        /// The client identifier does not exist.
        case clientIdentifierDoesNotExist = 601
        /// The client identifier collides with another.
        case clientIdentifierCollision = 602
        /// The change history expired.
        case changeHistoryExpired = 603
        /// The change-history token is invalid.
        case changeHistoryInvalidAnchor = 604
        /// The change-history fetch request is invalid.
        case changeHistoryInvalidFetchRequest = 605
        /// The vCard is malformed.
        case vCardMalformed = 700
        /// The vCard could not be summarized.
        case vCardSummarizationError = 701
    }

    /// The error's code.
    public let code: Code
    /// One line naming the problem.
    public let message: String
    /// The contacts, groups, containers or requests the error concerns, or nil.
    public let affectedRecords: [AnyObject]?
    /// The identifiers of the records the error concerns, or nil.
    public let affectedRecordIdentifiers: [String]?
    /// Key paths of the properties the error concerns, or nil.
    public let keyPaths: [String]?
    /// The individual errors of ``Code/validationMultipleErrors``, or nil.
    public let validationErrors: [CNError]?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, affectedRecords: [AnyObject]? = nil,
        affectedRecordIdentifiers: [String]? = nil, keyPaths: [String]? = nil, validationErrors: [CNError]? = nil
    ) {
        self.code = code
        self.message = message
        self.affectedRecords = affectedRecords
        self.affectedRecordIdentifiers = affectedRecordIdentifiers
        self.keyPaths = keyPaths
        self.validationErrors = validationErrors
    }

    /// The framework's error domain.
    public static var errorDomain: String { CNErrorDomain }
    /// The numeric code.
    public var errorCode: Int { code.rawValue }
    /// The user info, with the framework's keys.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let affectedRecords { info[CNErrorUserInfoAffectedRecordsKey] = affectedRecords }
        if let affectedRecordIdentifiers {
            info[CNErrorUserInfoAffectedRecordIdentifiersKey] = affectedRecordIdentifiers
        }
        if let keyPaths { info[CNErrorUserInfoKeyPathsKey] = keyPaths }
        if let validationErrors { info[CNErrorUserInfoValidationErrorsKey] = validationErrors }
        return info
    }
    /// The code's name and number and the message.
    public var description: String { "CNError \(code) (\(code.rawValue)): \(message)" }
}

extension CNError.Code {
    /// Matches an error against a code, so that `catch CNError.recordDoesNotExist` works.
    public static func ~= (code: CNError.Code, error: any Error) -> Bool {
        (error as? CNError)?.code == code
    }
}

extension CNError {
    /// The code ``Code/communicationError``, for `catch CNError.communicationError`.
    public static var communicationError: Code { .communicationError }
    /// The code ``Code/dataAccessError``, for `catch CNError.dataAccessError`.
    public static var dataAccessError: Code { .dataAccessError }
    /// The code ``Code/authorizationDenied``, for `catch CNError.authorizationDenied`.
    public static var authorizationDenied: Code { .authorizationDenied }
    /// The code ``Code/noAccessableWritableContainers``, for `catch CNError.noAccessableWritableContainers`.
    public static var noAccessableWritableContainers: Code { .noAccessableWritableContainers }
    /// The code ``Code/unauthorizedKeys``, for `catch CNError.unauthorizedKeys`.
    public static var unauthorizedKeys: Code { .unauthorizedKeys }
    /// The code ``Code/featureDisabledByUser``, for `catch CNError.featureDisabledByUser`.
    public static var featureDisabledByUser: Code { .featureDisabledByUser }
    /// The code ``Code/featureNotAvailable``, for `catch CNError.featureNotAvailable`.
    public static var featureNotAvailable: Code { .featureNotAvailable }
    /// The code ``Code/recordDoesNotExist``, for `catch CNError.recordDoesNotExist`.
    public static var recordDoesNotExist: Code { .recordDoesNotExist }
    /// The code ``Code/insertedRecordAlreadyExists``, for `catch CNError.insertedRecordAlreadyExists`.
    public static var insertedRecordAlreadyExists: Code { .insertedRecordAlreadyExists }
    /// The code ``Code/containmentCycle``, for `catch CNError.containmentCycle`.
    public static var containmentCycle: Code { .containmentCycle }
    /// The code ``Code/containmentScope``, for `catch CNError.containmentScope`.
    public static var containmentScope: Code { .containmentScope }
    /// The code ``Code/parentRecordDoesNotExist``, for `catch CNError.parentRecordDoesNotExist`.
    public static var parentRecordDoesNotExist: Code { .parentRecordDoesNotExist }
    /// The code ``Code/recordIdentifierInvalid``, for `catch CNError.recordIdentifierInvalid`.
    public static var recordIdentifierInvalid: Code { .recordIdentifierInvalid }
    /// The code ``Code/recordNotWritable``, for `catch CNError.recordNotWritable`.
    public static var recordNotWritable: Code { .recordNotWritable }
    /// The code ``Code/parentContainerNotWritable``, for `catch CNError.parentContainerNotWritable`.
    public static var parentContainerNotWritable: Code { .parentContainerNotWritable }
    /// The code ``Code/validationMultipleErrors``, for `catch CNError.validationMultipleErrors`.
    public static var validationMultipleErrors: Code { .validationMultipleErrors }
    /// The code ``Code/validationTypeMismatch``, for `catch CNError.validationTypeMismatch`.
    public static var validationTypeMismatch: Code { .validationTypeMismatch }
    /// The code ``Code/validationConfigurationError``, for `catch CNError.validationConfigurationError`.
    public static var validationConfigurationError: Code { .validationConfigurationError }
    /// The code ``Code/predicateInvalid``, for `catch CNError.predicateInvalid`.
    public static var predicateInvalid: Code { .predicateInvalid }
    /// The code ``Code/policyViolation``, for `catch CNError.policyViolation`.
    public static var policyViolation: Code { .policyViolation }
    /// The code ``Code/clientIdentifierInvalid``, for `catch CNError.clientIdentifierInvalid`.
    public static var clientIdentifierInvalid: Code { .clientIdentifierInvalid }
    /// The code ``Code/clientIdentifierDoesNotExist``, for `catch CNError.clientIdentifierDoesNotExist`.
    public static var clientIdentifierDoesNotExist: Code { .clientIdentifierDoesNotExist }
    /// The code ``Code/clientIdentifierCollision``, for `catch CNError.clientIdentifierCollision`.
    public static var clientIdentifierCollision: Code { .clientIdentifierCollision }
    /// The code ``Code/changeHistoryExpired``, for `catch CNError.changeHistoryExpired`.
    public static var changeHistoryExpired: Code { .changeHistoryExpired }
    /// The code ``Code/changeHistoryInvalidAnchor``, for `catch CNError.changeHistoryInvalidAnchor`.
    public static var changeHistoryInvalidAnchor: Code { .changeHistoryInvalidAnchor }
    /// The code ``Code/changeHistoryInvalidFetchRequest``, for `catch CNError.changeHistoryInvalidFetchRequest`.
    public static var changeHistoryInvalidFetchRequest: Code { .changeHistoryInvalidFetchRequest }
    /// The code ``Code/vCardMalformed``, for `catch CNError.vCardMalformed`.
    public static var vCardMalformed: Code { .vCardMalformed }
    /// The code ``Code/vCardSummarizationError``, for `catch CNError.vCardSummarizationError`.
    public static var vCardSummarizationError: Code { .vCardSummarizationError }
}

extension CNError {
    /// The framework's form of a native store error; `records` are the framework objects the
    /// request named, of which those the error concerns become ``affectedRecords``.
    init(_ error: ContactStoreError, records: [String: AnyObject] = [:]) {
        let code: Code
        switch error.code {
        case .recordChangedSinceFetch: code = .policyViolation
        case .storeNotWritable: code = .dataAccessError
        default: code = Code(rawValue: error.code.rawValue) ?? .dataAccessError
        }
        let affected = error.affectedIdentifiers.compactMap { records[$0] }
        self.init(
            code, error.message, affectedRecords: affected.isEmpty ? nil : affected,
            affectedRecordIdentifiers: error.affectedIdentifiers.isEmpty ? nil : error.affectedIdentifiers,
            keyPaths: error.keyPaths.isEmpty ? nil : error.keyPaths,
            validationErrors: error.validationIssues.isEmpty
                ? nil
                : error.validationIssues.map {
                    CNError(.validationConfigurationError, $0.message, keyPaths: [$0.keyPath])
                })
    }

    /// The framework's form of any error from the store: a store error keeps its code, anything
    /// else (a storage error) is a data access error that names it.
    static func from(_ error: any Error, records: [String: AnyObject] = [:]) -> CNError {
        switch error {
        case let error as CNError: error
        case let error as ContactStoreError: CNError(error, records: records)
        default: CNError(.dataAccessError, "\(error)")
        }
    }

    /// Runs `body`, giving any error it throws in the framework's form.
    static func mapping<R>(records: [String: AnyObject] = [:], _ body: () throws -> R) throws(CNError) -> R {
        do { return try body() } catch { throw CNError.from(error, records: records) }
    }
}
