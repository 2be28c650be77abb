/// The HTML shell and the icon.
enum PageShell {
    static let html = ""
    static let icon = ""
}
enum PageStyle {
    static let css = ""
}
