/// The pages: one HTML shell, its style sheet and its script, embedded in the binary and
/// served with their content types. The script draws each page from the JSON API; no page
/// loads anything from anywhere else (the Content-Security-Policy forbids it).
enum Pages {
    /// The files, by path.
    static let files: [String: (type: String, body: String)] = [
        "/app.css": ("text/css; charset=utf-8", PageStyle.css),
        "/app.js": (
            "text/javascript; charset=utf-8",
            PageScript.core + PageScript.contacts + PageScript.audit
                + PageScript.tools
        ),
        "/favicon.svg": ("image/svg+xml", PageShell.icon),
    ]

    static func register(_ router: inout Router) {
        router.add("GET", "/") { _ in shell() }
        for (path, file) in files {
            let bytes = Array(file.body.utf8)
            router.add("GET", path) { _ in
                HTTPResponse(contentType: file.type, body: bytes)
            }
        }
    }

    /// The shell every page is drawn in; the address's fragment (`#/contacts`) says which.
    static func shell() -> HTTPResponse {
        HTTPResponse(contentType: "text/html; charset=utf-8", body: Array(PageShell.html.utf8))
    }

    /// The page a browser gets without the token.
    static let unauthorized = """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contacts ledger: token needed</title>
        <meta name="viewport" content="width=device-width, initial-scale=1"></head>
        <body><h1>Token needed</h1><p>This server serves only holders of its access token. Open the address
        <code>contacts-ledger serve</code> printed (it ends in <code>?token=…</code>); the browser keeps the
        token in a cookie from then on.</p></body></html>
        """
}
