import ContactsInterchange
import Foundation

/// A request as a route's handler sees it: the HTTP request, the path's captured segments,
/// and readers for the query and the JSON body that refuse bad input with a 400.
struct RouteRequest: Sendable {
    /// The request.
    let http: HTTPRequest
    /// The segments the route's `:name` placeholders captured, in order.
    let parameters: [String]

    /// A query parameter, nil when absent or empty.
    func query(_ name: String) -> String? {
        http.query[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A query parameter that must be a whole number in `range` when present.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(HTTPError) -> Int? {
        guard let text = query(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError(
                400, "badParameter", "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The body as JSON: it must be sent as `application/json` (so that a page of another site
    /// cannot send it without the browser asking first) and parse.
    func json() throws(HTTPError) -> JSONValue {
        let type = http.header("content-type")?.lowercased() ?? ""
        guard type.hasPrefix("application/json") else {
            throw HTTPError(415, "unsupportedMediaType", "send the body as Content-Type: application/json")
        }
        do throws(JSONParseError) {
            return try JSONValue(parsing: http.body, limits: .init(depthMax: 64, bytesMax: http.body.count + 1))
        } catch {
            throw HTTPError(400, "malformedJSON", error.description)
        }
    }

    /// The body as a JSON object; an empty body is an empty object.
    func object() throws(HTTPError) -> JSONObject {
        if http.body.isEmpty { return JSONObject() }
        guard case .object(let object) = try json() else {
            throw HTTPError(400, "malformedJSON", "the body must be a JSON object")
        }
        return object
    }
}

/// Routes requests by method and path pattern (`/api/v1/contacts/:id`), answering 404 for an
/// unknown path and 405 for a known path with another method.
struct Router: Sendable {
    /// Answers a routed request, or throws an error the server turns into a response.
    typealias Handler = @Sendable (RouteRequest) throws -> HTTPResponse

    private struct Route: Sendable {
        let method: String
        let segments: [Substring]
        let handler: Handler
    }

    private var routes: [Route] = []

    /// Adds a route.
    mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, segments: pattern.split(separator: "/"), handler: handler))
    }

    /// The handler for a request and its captured segments, or the error that says why none.
    func match(_ request: HTTPRequest) throws(HTTPError) -> (Handler, [String]) {
        let path = request.path.split(separator: "/")
        var allowed: [String] = []
        for route in routes {
            guard let captured = Self.capture(route.segments, path) else { continue }
            let method = request.method == "HEAD" ? "GET" : request.method
            if route.method == method { return (route.handler, captured) }
            allowed.append(route.method)
        }
        if allowed.isEmpty {
            throw HTTPError(404, "notFound", "nothing at \(request.path)")
        }
        throw HTTPError(
            405, "methodNotAllowed", "\(request.path) takes \(allowed.joined(separator: ", ")), not \(request.method)")
    }

    private static func capture(_ pattern: [Substring], _ path: [Substring]) -> [String]? {
        guard pattern.count == path.count else { return nil }
        var captured: [String] = []
        for (expected, actual) in zip(pattern, path) {
            if expected.hasPrefix(":") {
                captured.append(String(actual))
            } else if expected != actual {
                return nil
            }
        }
        return captured
    }
}
