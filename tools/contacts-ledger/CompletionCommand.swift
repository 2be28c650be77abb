/// `completion SHELL`: a completion script for bash, zsh or fish, made from the commands and
/// their options, so that it never falls behind them.
struct CompletionCommand: ToolCommand {
    static let name = "completion"
    static let summary = "Prints a shell completion script for bash, zsh or fish."
    static let usage = "completion bash|zsh|fish"
    static let help = """
        Prints a script that completes the tool's commands, their options and file arguments in SHELL.
        To load it in the running shell: `source <(contacts-ledger completion bash)` (bash, zsh);
        `contacts-ledger completion fish | source` (fish). To install it for every session, write it
        where the shell looks: for bash ~/.local/share/bash-completion/completions/contacts-ledger; for
        zsh a file named _contacts-ledger in a directory of $fpath; for fish
        ~/.config/fish/completions/contacts-ledger.fish. Needs no ledger.
        """

    var shell: String

    init(_ arguments: Arguments) throws(CommandFailure) {
        shell = try arguments.positionals("SHELL")[0]
        guard Completion.shells.contains(shell) else {
            throw CommandFailure(
                .usage,
                "completion needs bash, zsh or fish, got \(shell)" + Spelling.hint(for: shell, among: Completion.shells)
            )
        }
    }

    func run(_ context: CommandContext) throws {
        switch shell {
        case "bash": Terminal.output(Completion.bash())
        case "zsh": Terminal.output(Completion.zsh())
        default: Terminal.output(Completion.fish())
        }
    }
}

/// The completion scripts.
enum Completion {
    /// The shells there is a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// The global options, which every command takes too.
    static let globalOptions = ["--ledger", "--wait", "--region", "--help"]

    /// The options whose value is a file or directory.
    static let pathOptions = ["--ledger", "--output", "--to", "--sign", "--signature", "--checkpoint"]

    /// The first words of the commands (`group` once).
    static var topWords: [String] {
        var seen: [String] = []
        for type in Tool.commandTypes {
            let first = String(type.name.split(separator: " ")[0])
            if !seen.contains(first) { seen.append(first) }
        }
        return seen
    }

    /// The second words of the `group` commands.
    static var groupWords: [String] {
        Tool.commandTypes.map { $0.name }.filter { $0.hasPrefix("group ") }.map { String($0.dropFirst(6)) }
    }

    /// A command's options, global ones included, as `--name`.
    static func options(of type: any ToolCommand.Type) -> [String] {
        type.valued.union(type.flags).sorted().map { "--" + $0 } + globalOptions
    }

    /// The options that take a value, every command's and the global ones, as `--name`.
    static var valuedOptions: [String] {
        Array(Set(Tool.commandTypes.flatMap { $0.valued }).union(["ledger", "wait", "region"])).sorted().map {
            "--" + $0
        }
    }
}
