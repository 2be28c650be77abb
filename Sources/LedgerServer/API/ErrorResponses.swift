import ContactsLedger
import Foundation
import LedgerAudit

/// The one translation from an error to a response, so that every route answers the same
/// failure with the same status and shape: `{error, message}` and what the error adds.
enum ErrorResponses {
    /// The response for an error a handler threw.
    static func response(for error: any Error) -> HTTPResponse {
        switch error {
        case let error as HTTPError: return .error(error)
        case let error as ContactStoreError: return storeError(error)
        case let error as UndoError:
            return .json(AuditJSON.value(for: error), status: undoStatus(error.code))
        case let error as ContactJSONError:
            return .error(HTTPError(400, "malformedContact", error.description))
        case let error as StorageError:
            return .error(HTTPError(503, "storage", error.description))
        case let error as LedgerInconsistency:
            return .error(HTTPError(500, "ledgerInconsistent", "the ledger is inconsistent: \(error)"))
        default:
            return .error(HTTPError(500, "internal", "\(error)"))
        }
    }

    /// A store's error: its code's name, message, identifiers and key paths.
    private static func storeError(_ error: ContactStoreError) -> HTTPResponse {
        let status: Int
        switch error.code {
        case .recordDoesNotExist, .parentRecordDoesNotExist: status = 404
        case .recordChangedSinceFetch, .insertedRecordAlreadyExists, .containmentCycle: status = 409
        case .authorizationDenied, .unauthorizedKeys: status = 403
        case .validationMultipleErrors, .validationConfigurationError, .recordIdentifierInvalid, .containmentScope:
            status = 422
        case .predicateInvalid, .vCardMalformed, .changeHistoryInvalidAnchor: status = 400
        case .storeNotWritable, .dataAccessError: status = 503
        }
        return .error(
            HTTPError(status, "\(error.code)", error.message),
            extra: [
                ("affectedIdentifiers", .array(error.affectedIdentifiers.map { .string($0) })),
                ("keyPaths", .array(error.keyPaths.map { .string($0) })),
            ])
    }

    private static func undoStatus(_ code: UndoError.Code) -> Int {
        switch code {
        case .contactMissing, .notAtPoint, .notDeleted, .pointOutOfRange: 404
        case .contactExists, .conflict, .nothingToUndo, .notRevertible: 409
        }
    }
}
