import ContactsLedger

/// Labels as they are typed on the command line: friendly names for the standard labels, or any
/// custom text.
enum LabelNames {
    /// The friendly names of the standard labels, each mapped to its ``Label`` constant.
    static let friendly: [(name: String, label: String)] = [
        ("home", Label.home), ("work", Label.work), ("school", Label.school), ("other", Label.other),
        ("icloud", Label.emailiCloud), ("homepage", Label.urlAddressHomePage), ("anniversary", Label.dateAnniversary),
        ("iphone", Label.phoneNumberiPhone), ("apple-watch", Label.phoneNumberAppleWatch),
        ("mobile", Label.phoneNumberMobile), ("main", Label.phoneNumberMain), ("home-fax", Label.phoneNumberHomeFax),
        ("work-fax", Label.phoneNumberWorkFax), ("other-fax", Label.phoneNumberOtherFax),
        ("pager", Label.phoneNumberPager),
    ]

    /// The text `--help` shows about labels.
    static let helpText = HelpText.wrap(
        "LABEL is one of \(friendly.map(\.name).joined(separator: ", ")) (any case), which stand for the "
            + "framework's standard labels, or any other text, kept as a custom label; an empty LABEL (`=VALUE`, "
            + "or VALUE without `=`) means no label.")

    /// The label a command-line word stands for: a standard label, custom text, or nil when empty.
    static func label(_ text: String) -> String? {
        if text.isEmpty { return nil }
        let folded = text.lowercased()
        return friendly.first { $0.name == folded }?.label ?? text
    }

    /// The friendly name of a label, for text output; custom labels as they are.
    static func display(_ label: String?) -> String {
        guard let label else { return "" }
        return friendly.first { $0.label == label }?.name ?? Label.localizedString(forLabel: label)
    }

    /// Splits `LABEL=VALUE` (or a bare `VALUE`) into a label and a value.
    static func labeled(_ text: String, option: String) throws(CommandFailure) -> (label: String?, value: String) {
        guard let equals = text.firstIndex(of: "=") else { return (nil, text) }
        let value = String(text[text.index(after: equals)...])
        guard !value.isEmpty else { throw CommandFailure(.usage, "--\(option) needs LABEL=VALUE, got \(text)") }
        return (label(String(text[..<equals])), value)
    }
}
