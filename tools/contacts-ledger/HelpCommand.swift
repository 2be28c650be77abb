/// `help [COMMAND]`: the tool's help, or one command's, as `--help` prints them.
struct HelpCommand: ToolCommand {
    static let name = "help"
    static let summary = "Prints the tool's help, or one command's (help group create)."
    static let usage = "help [COMMAND]"
    static let help = """
        Prints the help of COMMAND (two words for a group command, as `help group rename`), the same as
        `contacts-ledger COMMAND --help`; without COMMAND, the tool's help. Needs no ledger.
        """

    var words: [String]

    init(_ arguments: Arguments) throws(CommandFailure) {
        words = arguments.positionals
        if !words.isEmpty { _ = try Tool.lookup(words) }
    }

    func run(_ context: CommandContext) throws {
        if words.isEmpty {
            Terminal.line(Tool.toolHelp())
        } else if let type = try Tool.lookup(words) {
            Terminal.line(Tool.commandHelp(type))
        } else {
            Terminal.line(Tool.groupHelp())
        }
    }
}
