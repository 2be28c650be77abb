import ContactsLedger
import Foundation

/// The one translation from an error to a CardDAV answer: a failed precondition of RFC 4918,
/// 6352 or 6578 as a `DAV:error` body naming it, with the message beside it; anything else as
/// its status and a line of text, which DAV clients show as it is.
enum CardDAVErrors {
    /// The preconditions answered as `DAV:error` bodies, with their namespaces.
    private static let preconditions: [String: String] = [
        "valid-sync-token": DAVElement.dav, "supported-report": DAVElement.dav,
        "valid-address-data": DAVElement.cardDAV,
    ]

    /// The response for an error a handler threw.
    static func response(for error: any Error) -> HTTPResponse {
        switch error {
        case let error as HTTPError: return response(error)
        case let error as ContactStoreError:
            return response(HTTPError(status(of: error.code), "\(error.code)", error.message))
        default:
            let json = ErrorResponses.response(for: error)
            return response(HTTPError(json.status, "error", String(decoding: json.body, as: UTF8.self)))
        }
    }

    private static func response(_ error: HTTPError) -> HTTPResponse {
        guard let namespace = preconditions[error.code] else {
            return HTTPResponse(
                status: error.status, contentType: "text/plain; charset=utf-8",
                body: Array("\(error.code): \(error.message)\n".utf8))
        }
        var writer = DAVXMLWriter()
        writer.append(
            "<d:error \(DAVXMLWriter.namespaces)>\(DAVXMLWriter.element(namespace, error.code))"
                + "<d:responsedescription>\(DAVXMLWriter.escape(error.message))</d:responsedescription></d:error>\n")
        return HTTPResponse(status: error.status, contentType: "application/xml; charset=utf-8", body: writer.bytes)
    }

    private static func status(of code: ContactStoreError.Code) -> Int {
        switch code {
        case .recordDoesNotExist, .parentRecordDoesNotExist: 404
        case .recordChangedSinceFetch: 412
        case .insertedRecordAlreadyExists, .containmentCycle: 409
        case .authorizationDenied, .unauthorizedKeys: 403
        case .validationMultipleErrors, .validationConfigurationError, .recordIdentifierInvalid, .containmentScope,
            .predicateInvalid, .vCardMalformed, .changeHistoryInvalidAnchor:
            400
        case .storeNotWritable, .dataAccessError: 503
        }
    }
}
