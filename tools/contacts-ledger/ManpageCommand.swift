/// `manpage`: the man page, in roff, made from the same text as `--help`.
struct ManpageCommand: ToolCommand {
    static let name = "manpage"
    static let summary = "Prints the man page (roff), made from the help of every command."
    static let usage = "manpage"
    static let help = """
        Prints contacts-ledger(1) in roff: the tool's description, its global options, every command
        with its usage and help, the environment and the exit codes. Read it with
        `contacts-ledger manpage | man -l -`, or install it as man1/contacts-ledger.1 (`make install`
        does). Needs no ledger.
        """

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
    }

    func run(_ context: CommandContext) throws {
        Terminal.output(ManPage.text())
    }
}

extension String {
    /// The text with zeros before it, to `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// The man page's sections, from the help texts.
enum ManPage {
    /// The whole page.
    static func text() -> String {
        var lines = [
            ".TH CONTACTS\\-LEDGER 1 \"\" \"contacts\\-ledger \(Tool.version)\" \"User Commands\"",
            ".SH NAME",
            "contacts\\-ledger \\- an address book kept as an append\\-only, hash\\-chained ledger",
            ".SH SYNOPSIS",
            ".B contacts\\-ledger",
            escape("[--ledger PATH] [--wait SECONDS] [--region CC] COMMAND [OPTIONS]"),
            ".br",
            ".B contacts\\-ledger",
            "\\-\\-help | \\-\\-version | help COMMAND",
            ".SH DESCRIPTION",
        ]
        lines += roff(Tool.description + "\n\n" + Tool.conventions)
        lines += [".SH GLOBAL OPTIONS"] + roff(HelpText.globalOptions)
        lines.append(".SH COMMANDS")
        for type in Tool.commandTypes {
            lines += [".SS \"\(escape(type.name))\"", ".B contacts\\-ledger", escape(type.usage), ".PP"]
            lines += roff(type.help)
        }
        lines += [
            ".SH ENVIRONMENT", ".TP", ".B CONTACTS_LEDGER",
            "The ledger directory when \\-\\-ledger is not given (else ./contacts.ledger).", ".TP",
            ".B CONTACTS_LEDGER_REGION", "The region of national phone numbers when \\-\\-region is not given.",
            ".SH EXIT STATUS",
        ]
        lines += roff(ExitCode.helpText)
        lines += [".SH SEE ALSO", "The README and Documentation/ of the ContactsLedger package."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Help text as roff: plain lines are filled paragraphs; a line indented by two spaces starts
    /// a tagged entry (an option and what it does), deeper lines continue it.
    static func roff(_ text: String) -> [String] {
        var out: [String] = []
        var paragraph: [String] = []
        func flush() {
            if !paragraph.isEmpty { out += [".PP", escape(paragraph.joined(separator: " "))] }
            paragraph = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if body.isEmpty {
                flush()
            } else if indent == 2, body.first == "-" || body.first?.isLetter == true || body.first == "$" {
                flush()
                out += entry(String(body))
            } else if indent > 2, !out.isEmpty, paragraph.isEmpty {
                out.append(escape(String(body)))
            } else {
                paragraph.append(String(body))
            }
        }
        flush()
        return out
    }

    /// A tagged entry: the tag is the text before the first run of two spaces.
    private static func entry(_ body: String) -> [String] {
        guard let gap = body.range(of: "  ") else { return [".TP", ".B " + escape(body)] }
        let tag = body[..<gap.lowerBound]
        let rest = body[gap.upperBound...].drop { $0 == " " }
        return [".TP", ".B " + escape(String(tag)), escape(String(rest))]
    }

    /// Text safe in roff: backslashes escaped, a leading period or quote guarded, and the hyphens
    /// of options as minus signs, so that they can be searched for and copied.
    static func escape(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\e")
        escaped = escaped.split(separator: " ", omittingEmptySubsequences: false).map { word in
            let lead = word.prefix { "[(`|".contains($0) }
            let rest = word.dropFirst(lead.count)
            let dashes = rest.prefix { $0 == "-" }
            return lead + String(repeating: "\\-", count: dashes.count) + rest.dropFirst(dashes.count)
        }.joined(separator: " ")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped.unicodeScalars.map { scalar in
            scalar.isASCII
                ? String(scalar) : "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(4) + "]"
        }.joined()
    }
}
