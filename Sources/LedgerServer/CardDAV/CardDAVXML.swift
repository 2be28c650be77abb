import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One element of a WebDAV request body: its namespace, local name, attributes, children and
/// text, read with FoundationXML's parser.
struct DAVElement: Sendable, Hashable {
    /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:carddav`).
    var namespace: String
    /// The local name (`propfind`, `prop`).
    var name: String
    /// The attributes, by local name.
    var attributes: [String: String] = [:]
    /// The child elements, in order.
    var children: [DAVElement] = []
    /// The text directly inside the element.
    var text = ""

    /// The namespaces the server speaks.
    static let dav = "DAV:"
    static let cardDAV = "urn:ietf:params:xml:ns:carddav"
    static let calendarServer = "http://calendarserver.org/ns/"

    /// Whether this element is `name` in `namespace`.
    func isNamed(_ name: String, in namespace: String = DAVElement.dav) -> Bool {
        self.name == name && self.namespace == namespace
    }

    /// The first child named `name` in `namespace`.
    func child(_ name: String, in namespace: String = DAVElement.dav) -> DAVElement? {
        children.first { $0.isNamed(name, in: namespace) }
    }

    /// Every child named `name` in `namespace`.
    func children(_ name: String, in namespace: String = DAVElement.dav) -> [DAVElement] {
        children.filter { $0.isNamed(name, in: namespace) }
    }

    /// The element's name as a key for a property: `{namespace}name`.
    var key: String { "{\(namespace)}\(name)" }
}

/// Reads a request body into ``DAVElement``s, refusing anything that is not well-formed XML,
/// nests deeper than ``depthMax`` or holds more than ``elementsMax`` elements. Only UTF-8 is
/// read, so that the scan for a document type declaration sees the bytes the parser reads; a
/// declaration is refused outright, so no entity is ever expanded.
enum DAVXMLReader {
    /// The deepest nesting a body may have.
    static let depthMax = 32
    /// The most elements a body may hold.
    static let elementsMax = 100_000

    /// The body's root element; an empty body is nil.
    static func parse(_ body: [UInt8]) throws(HTTPError) -> DAVElement? {
        if body.allSatisfy(isBlank) { return nil }
        try checkUTF8(body)
        if containsDoctype(body) {
            throw HTTPError(400, "malformedXML", "the body may not hold a document type declaration")
        }
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(body))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let problem = builder.problem { throw HTTPError(400, "malformedXML", problem) }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "it does not parse"
            throw HTTPError(
                400, "malformedXML",
                "the body is not well-formed XML (line \(parser.lineNumber), column \(parser.columnNumber)): \(reason)")
        }
        return root
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Refuses (415) a body that is not UTF-8 XML: one with a UTF-16 or UTF-32 byte order mark, a
    /// NUL byte, bytes that are not UTF-8, a declaration naming another encoding, or anything
    /// but `<` first. Another encoding could hide a document type declaration from the scan.
    static func checkUTF8(_ body: [UInt8]) throws(HTTPError) {
        func refuse(_ reason: String) -> HTTPError {
            HTTPError(415, "unsupportedMediaType", "the body must be XML in UTF-8: \(reason)")
        }
        if body.starts(with: [0xFE, 0xFF]) || body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0, 0, 0xFE, 0xFF]) {
            throw refuse("it starts with a UTF-16 or UTF-32 byte order mark")
        }
        if body.contains(0) { throw refuse("it holds a NUL byte") }
        guard String(validating: body, as: UTF8.self) != nil else { throw refuse("it is not valid UTF-8") }
        let text = body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body[...]
        guard text.first(where: { !isBlank($0) }) == UInt8(ascii: "<") else {
            throw refuse("it does not start with <")
        }
        if let encoding = declaredEncoding(text), encoding != "utf-8", encoding != "utf8" {
            throw refuse("it declares the encoding \(encoding.prefix(40))")
        }
    }

    /// The encoding an XML declaration names, lower-cased; nil without one.
    private static func declaredEncoding(_ text: ArraySlice<UInt8>) -> String? {
        let head = String(decoding: text.prefix(256), as: UTF8.self).lowercased()
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>"),
            let found = head.range(of: "encoding", range: head.startIndex..<end.lowerBound)
        else { return nil }
        let value = head[found.upperBound..<end.lowerBound].drop { " \t\r\n=\"'".contains($0) }
        return String(value.prefix { !" \t\r\n\"'".contains($0) })
    }

    private static func containsDoctype(_ body: [UInt8]) -> Bool {
        let marker = Array("<!DOCTYPE".utf8)
        guard body.count >= marker.count else { return false }
        for start in 0...(body.count - marker.count)
        where body[start] == 0x3C && body[(start + 1)..<(start + marker.count)].elementsEqual(marker.dropFirst()) {
            return true
        }
        return false
    }

    /// The parser's delegate: builds the tree on a stack of open elements.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [DAVElement] = []
        var root: DAVElement?
        var problem: String?
        var count = 0

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            count += 1
            if stack.count >= DAVXMLReader.depthMax || count > DAVXMLReader.elementsMax {
                problem = "the body nests deeper than \(DAVXMLReader.depthMax) or holds too many elements"
                parser.abortParsing()
                return
            }
            var local: [String: String] = [:]
            for (name, value) in attributes { local[String(name.split(separator: ":").last ?? "")] = value }
            stack.append(DAVElement(namespace: namespaceURI ?? "", name: elementName, attributes: local))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: block, as: UTF8.self)
        }
    }
}

/// Writes WebDAV answers: a `multistatus` of responses, or a `DAV:error` naming a precondition.
struct DAVXMLWriter {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"

    /// The prefixes the answers use.
    static let namespaces =
        "xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\" xmlns:cs=\"http://calendarserver.org/ns/\""

    /// The prefix written for a namespace, nil for one the writer does not declare.
    static func prefix(_ namespace: String) -> String? {
        switch namespace {
        case DAVElement.dav: "d"
        case DAVElement.cardDAV: "card"
        case DAVElement.calendarServer: "cs"
        default: nil
        }
    }

    /// Text with `&`, `<`, `>` and `"` escaped, a carriage return as a reference (so that it
    /// survives the reader's line-end handling), and each character XML 1.0 forbids (the C0
    /// controls other than tab, line feed and carriage return; U+FFFE and U+FFFF) replaced by
    /// U+FFFD: one such character would make the whole answer ill-formed.
    static func escape(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;".unicodeScalars
            case "<": out += "&lt;".unicodeScalars
            case ">": out += "&gt;".unicodeScalars
            case "\"": out += "&quot;".unicodeScalars
            case "\r": out += "&#13;".unicodeScalars
            case "\t", "\n": out.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// An element named by its key, with raw (already written) content; an element of an
    /// undeclared namespace declares it on itself.
    static func element(_ namespace: String, _ name: String, _ content: String = "") -> String {
        let (open, close) = tags(namespace, name)
        return content.isEmpty
            ? open.replacingOccurrences(of: ">", with: "/>", options: .backwards) : open + content + close
    }

    private static func tags(_ namespace: String, _ name: String) -> (String, String) {
        if let prefix = prefix(namespace) { return ("<\(prefix):\(name)>", "</\(prefix):\(name)>") }
        // No namespace: the answers declare no default namespace, so a bare name is in none.
        if namespace.isEmpty { return ("<\(name)>", "</\(name)>") }
        return ("<x:\(name) xmlns:x=\"\(escape(namespace))\">", "</x:\(name)>")
    }

    /// Appends raw XML.
    mutating func append(_ xml: String) { text += xml }

    /// The bytes written.
    var bytes: [UInt8] { Array(text.utf8) }
}
