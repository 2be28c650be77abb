import ContactsLedger
import Foundation

/// One CardDAV request being answered: discovery and `PROPFIND` here, the reports and the
/// cards' methods in the files beside it.
struct CardDAVExchange {
    let service: CardDAVService
    let request: HTTPRequest
    let principal: CardDAVPrincipal
    let resource: CardDAVResource

    /// The methods every CardDAV resource takes.
    static let methods = "OPTIONS, PROPFIND, REPORT, GET, HEAD, PUT, DELETE"

    /// `OPTIONS`: the compliance classes and the methods, which clients probe before anything.
    static func options() -> HTTPResponse {
        HTTPResponse(
            status: 200, contentType: "text/plain; charset=utf-8", body: [],
            headers: [("DAV", "1, 3, addressbook"), ("Allow", methods)])
    }

    /// A 207 Multi-Status answer.
    static func multistatus(_ body: String) -> HTTPResponse {
        var writer = DAVXMLWriter()
        writer.append("<d:multistatus \(DAVXMLWriter.namespaces)>\(body)</d:multistatus>\n")
        return HTTPResponse(status: 207, contentType: "application/xml; charset=utf-8", body: writer.bytes)
    }

    /// What a `PROPFIND` or a report asks for.
    enum Wanted {
        case all
        case names
        case properties([DAVElement])
    }

    /// `PROPFIND` at depth 0 or 1 (a larger depth is answered as 1).
    func propfind() throws -> HTTPResponse {
        let body = try DAVXMLReader.parse(request.body)
        let wanted: Wanted
        if let body {
            guard body.isNamed("propfind") else {
                throw HTTPError(400, "malformedXML", "a PROPFIND body must be a DAV:propfind element")
            }
            if let prop = body.child("prop") {
                wanted = .properties(prop.children)
            } else {
                wanted = body.child("propname") != nil ? .names : .all
            }
        } else {
            wanted = .all
        }
        let store = try service.readingStore(for: principal)
        let depth = request.header("depth")?.trimmingCharacters(in: .whitespaces) ?? "infinity"
        var targets = [try target(resource, in: store)]
        if depth != "0" { targets += try members(of: resource, in: store) }
        return Self.multistatus(targets.map { $0.response(wanted) }.joined())
    }

    /// The target a resource names, with its properties; a missing one is 404.
    func target(_ resource: CardDAVResource, in store: ContactStore) throws -> CardDAVTarget {
        let context = CardDAVTarget.Context(principal: principal, store: store)
        switch resource {
        case .root: return CardDAVTarget(path: CardDAVService.root, kind: .root, context: context)
        case .principal:
            return CardDAVTarget(path: CardDAVResource.principalPath(principal), kind: .principal, context: context)
        case .home: return CardDAVTarget(path: CardDAVResource.homePath(principal), kind: .home, context: context)
        case .book(let identifier):
            let container = try book(identifier, in: store)
            return CardDAVTarget(
                path: CardDAVResource.bookPath(principal, container.identifier), kind: .book(container),
                context: context)
        case .card(let book, let name):
            let container = try self.book(book, in: store)
            let contact = try CardDAVCards.contact(named: name, in: container, store: store)
            return CardDAVTarget(
                path: CardDAVResource.cardPath(principal, container.identifier, CardDAVCards.resourceName(of: contact)),
                kind: .card(contact), context: context)
        }
    }

    /// The members of a collection at depth 1.
    private func members(of resource: CardDAVResource, in store: ContactStore) throws -> [CardDAVTarget] {
        let context = CardDAVTarget.Context(principal: principal, store: store)
        switch resource {
        case .home:
            return try store.containers().map { container in
                CardDAVTarget(
                    path: CardDAVResource.bookPath(principal, container.identifier), kind: .book(container),
                    context: context)
            }
        case .book(let identifier):
            let container = try book(identifier, in: store)
            return try CardDAVCards.members(of: container.identifier, in: store).map { contact in
                CardDAVTarget(
                    path: CardDAVResource.cardPath(
                        principal, container.identifier, CardDAVCards.resourceName(of: contact)),
                    kind: .card(contact), context: context)
            }
        default:
            return []
        }
    }

    /// The container an address book's path segment names; 404 when there is none.
    func book(_ identifier: String, in store: ContactStore) throws -> Container {
        guard let container = try store.containers().first(where: { $0.identifier == identifier }) else {
            throw HTTPError(404, "notFound", "there is no address book \(identifier)")
        }
        return container
    }
}

/// A resource a multi-status answer describes, and its properties.
struct CardDAVTarget {
    /// What every target needs to describe itself.
    struct Context {
        let principal: CardDAVPrincipal
        let store: ContactStore
    }

    /// The kinds of resource.
    enum Kind {
        case root
        case principal
        case home
        case book(Container)
        case card(Contact)
    }

    let path: String
    let kind: Kind
    let context: Context
    /// The card's vCard, when the request asked for `address-data`.
    var addressData: String?

    init(path: String, kind: Kind, context: Context, addressData: String? = nil) {
        self.path = path
        self.kind = kind
        self.context = context
        self.addressData = addressData
    }

    /// The `response` element for what was asked: each property found in a 200 `propstat`,
    /// each one not found in a 404 one.
    func response(_ wanted: CardDAVExchange.Wanted) -> String {
        let found = properties()
        var ok = ""
        var missing = ""
        switch wanted {
        case .all:
            for (element, value) in found { ok += DAVXMLWriter.element(element.namespace, element.name, value) }
        case .names:
            for (element, _) in found { ok += DAVXMLWriter.element(element.namespace, element.name) }
        case .properties(let asked):
            for element in asked {
                if let value = found.first(where: { $0.0.namespace == element.namespace && $0.0.name == element.name })
                {
                    ok += DAVXMLWriter.element(element.namespace, element.name, value.1)
                } else {
                    missing += DAVXMLWriter.element(element.namespace, element.name)
                }
            }
        }
        var text = "<d:response><d:href>\(DAVXMLWriter.escape(path))</d:href>"
        if !ok.isEmpty || missing.isEmpty { text += Self.propstat(ok, "200 OK") }
        if !missing.isEmpty { text += Self.propstat(missing, "404 Not Found") }
        return text + "</d:response>"
    }

    static func propstat(_ properties: String, _ status: String) -> String {
        "<d:propstat><d:prop>\(properties)</d:prop><d:status>HTTP/1.1 \(status)</d:status></d:propstat>"
    }

    private typealias Property = (DAVElement, String)

    private static func name(_ name: String, _ namespace: String = DAVElement.dav) -> DAVElement {
        DAVElement(namespace: namespace, name: name)
    }

    /// Every property of the target, with its value as XML.
    private func properties() -> [Property] {
        let principalPath = CardDAVResource.principalPath(context.principal)
        let homePath = CardDAVResource.homePath(context.principal)
        var list: [Property] = [
            (Self.name("current-user-principal"), "<d:href>\(DAVXMLWriter.escape(principalPath))</d:href>")
        ]
        switch kind {
        case .root:
            list += [
                (Self.name("resourcetype"), "<d:collection/>"),
                (Self.name("addressbook-home-set", DAVElement.cardDAV), "<d:href>\(homePath)</d:href>"),
            ]
        case .principal:
            list += [
                (Self.name("resourcetype"), "<d:principal/>"),
                (Self.name("displayname"), DAVXMLWriter.escape(context.principal.name)),
                (Self.name("principal-URL"), "<d:href>\(DAVXMLWriter.escape(principalPath))</d:href>"),
                (Self.name("addressbook-home-set", DAVElement.cardDAV), "<d:href>\(homePath)</d:href>"),
            ]
        case .home:
            list += [
                (Self.name("resourcetype"), "<d:collection/>"),
                (Self.name("displayname"), "Address books"),
            ]
        case .book(let container):
            list += bookProperties(container)
        case .card(let contact):
            list += [
                (Self.name("resourcetype"), ""),
                (Self.name("getetag"), DAVXMLWriter.escape(CardDAVCards.etag(contact))),
                (Self.name("getcontenttype"), "text/vcard; charset=utf-8"),
            ]
            if let addressData {
                list.append((Self.name("address-data", DAVElement.cardDAV), DAVXMLWriter.escape(addressData)))
            }
        }
        return list
    }

    private func bookProperties(_ container: Container) -> [Property] {
        let token = CardDAVSyncToken.current(of: context.store)
        let reports = ["addressbook-multiget", "addressbook-query"].map {
            "<d:supported-report><d:report><card:\($0)/></d:report></d:supported-report>"
        }
        let privileges = ["read", "write", "write-content", "bind", "unbind", "write-properties"].map {
            "<d:privilege><d:\($0)/></d:privilege>"
        }
        return [
            (Self.name("resourcetype"), "<d:collection/><card:addressbook/>"),
            (Self.name("displayname"), DAVXMLWriter.escape(container.name.isEmpty ? "Contacts" : container.name)),
            (Self.name("sync-token"), DAVXMLWriter.escape(token)),
            (Self.name("getctag", DAVElement.calendarServer), DAVXMLWriter.escape(token)),
            (
                Self.name("supported-report-set"),
                reports.joined() + "<d:supported-report><d:report><d:sync-collection/></d:report></d:supported-report>"
            ),
            (
                Self.name("supported-address-data", DAVElement.cardDAV),
                "<card:address-data-type content-type=\"text/vcard\" version=\"3.0\"/>"
                    + "<card:address-data-type content-type=\"text/vcard\" version=\"4.0\"/>"
            ),
            (Self.name("current-user-privilege-set"), privileges.joined()),
            (Self.name("max-resource-size", DAVElement.cardDAV), String(HTTPLimits().bodyBytes)),
        ]
    }
}
