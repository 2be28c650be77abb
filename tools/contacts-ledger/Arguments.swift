/// A small command-line parser: options of the form `--name value` or `--name=value`, flags, and positionals.
struct Arguments: Sendable {
    private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Splits `words` using the option names that take a value and the flag names that do not.
    init(_ words: some Sequence<String>, valued: Set<String>, flags flagNames: Set<String>) throws(CommandFailure) {
        var iterator = words.makeIterator()
        var onlyPositionals = false
        while let word = iterator.next() {
            if onlyPositionals || !word.hasPrefix("--") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(word.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagNames.contains(name) {
                guard value == nil else { throw CommandFailure(code: .usage, message: "--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                guard let given = value ?? iterator.next() else {
                    throw CommandFailure(code: .usage, message: "--\(name) needs a value")
                }
                options[name, default: []].append(given)
            } else {
                throw CommandFailure(code: .usage, message: "unknown option --\(name)")
            }
        }
    }

    /// The last value given for an option.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
