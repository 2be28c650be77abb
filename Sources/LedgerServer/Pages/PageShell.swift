/// The HTML every page is drawn in, and the icon.
enum PageShell {
    /// The shell: a header with the navigation, a banner for time travel, the page's region
    /// and a live region for notices; the script fills them.
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Contacts ledger</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/app.css">
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="#/contacts">Contacts ledger</a>
          <nav aria-label="Pages">
            <a href="#/contacts" data-page="contacts">Contacts</a>
            <a href="#/audit" data-page="audit">Audit</a>
            <a href="#/time" data-page="time">Time travel</a>
            <a href="#/verify" data-page="verify">Verify</a>
            <a href="#/picker" data-page="picker">Picker</a>
          </nav>
          <span id="head" class="head" title="The ledger's head sequence"></span>
        </header>
        <div id="banner" class="banner" role="status" hidden></div>
        <main id="main" tabindex="-1"></main>
        <div id="notice" class="notice" role="status" aria-live="polite"></div>
        <script src="/app.js"></script>
        </body>
        </html>
        """#

    /// The icon: a ledger's page.
    static let icon = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="3" width="22" height="26" rx="3" \#
        fill="#2f5d8a"/><path d="M10 10h12M10 15h12M10 20h8" stroke="#fff" stroke-width="2"/></svg>
        """#
}
