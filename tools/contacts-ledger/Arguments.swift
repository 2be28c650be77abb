/// A small command-line parser: options of the form `--name value` or `--name=value`, flags, and
/// positionals; `--` ends the options.
struct Arguments: Sendable {
    /// The words that are not options, in order.
    private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Splits `words` using the option names that take a value and the flag names that do not.
    ///
    /// A word that starts with `-` right after an option that takes a value is that option's
    /// value (so `--given -x` sets the given name to `-x`), except `--` itself.
    init(_ words: some Sequence<String>, valued: Set<String>, flags flagNames: Set<String>) throws(CommandFailure) {
        var iterator = words.makeIterator()
        var onlyPositionals = false
        while let word = iterator.next() {
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            if word == "-h" {
                flags.insert("help")
                continue
            }
            guard word.hasPrefix("--") else {
                throw CommandFailure(.usage, "unknown option \(word)")
            }
            var name = String(word.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagNames.contains(name) {
                guard value == nil else { throw CommandFailure(.usage, "--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                guard let given = value ?? iterator.next(), given != "--" else {
                    throw CommandFailure(.usage, "--\(name) needs a value")
                }
                options[name, default: []].append(given)
            } else {
                let known = (valued.union(flagNames)).sorted().map { "--" + $0 }
                throw CommandFailure(.usage, "unknown option --\(name)" + Spelling.hint(for: "--" + name, among: known))
            }
        }
    }

    /// The last value given for an option.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value given for a repeatable option, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Whether any of these options or flags was given.
    func hasAny(_ names: [String]) -> Bool { names.contains { options[$0] != nil || flags.contains($0) } }

    /// The single value of an option that may be given once.
    func single(_ name: String) throws(CommandFailure) -> String? {
        let given = values(name)
        guard given.count <= 1 else { throw CommandFailure(.usage, "--\(name) may be given only once") }
        return given.first
    }

    /// Exactly `names.count` positionals, or a usage error naming what is missing or extra.
    func positionals(_ names: String...) throws(CommandFailure) -> [String] {
        if positionals.count < names.count {
            throw CommandFailure(.usage, "missing \(names[positionals.count])")
        }
        if positionals.count > names.count {
            throw CommandFailure(.usage, "unexpected argument \(positionals[names.count])")
        }
        return positionals
    }
}
